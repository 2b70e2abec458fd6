package shell

import "strings"

// sedEffects reads sed, a reader a policy may allow whose script can run
// a command (the e command, the e flag of s) or write a file (w, W, the w
// flag of s). A script the splitter reads is searched for those; one it
// cannot read, from a file or made when the command runs, hides them.
// With --sandbox, sed refuses them all.
func sedEffects(args []word) effects {
	var scripts []word
	fromFile := false
	var operands []word
	for i := 0; i < len(args); i++ {
		v := args[i].value
		switch {
		case v == "--sandbox":
			return effects{}
		case v == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case v == "--expression" || v == "--file" || v == "--line-length":
			fromFile = fromFile || v == "--file"
			if i+1 < len(args) && v == "--expression" {
				scripts = append(scripts, args[i+1])
			}
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, word{value: strings.TrimPrefix(v, "--expression="), literal: args[i].literal})
		case strings.HasPrefix(v, "--file="):
			fromFile = true
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && v[0] == '-':
			script, file, skip := sedCluster(v, args[i+1:])
			if script != nil {
				scripts = append(scripts, *script)
			}
			fromFile = fromFile || file
			i += skip
		default:
			operands = append(operands, args[i])
		}
	}
	if len(scripts) == 0 && !fromFile && len(operands) > 0 {
		scripts = operands[:1]
	}
	for _, s := range scripts {
		if !s.literal {
			return effects{unseen: "sed runs a script made when it runs"}
		}
		if why := sedScript(s.value); why != "" {
			return effects{unseen: why}
		}
	}
	if fromFile {
		return effects{unseen: "sed -f reads a script that may run a command"}
	}
	return effects{}
}

// sedCluster reads one cluster of sed's short options: the script -e
// gives, whether -f names a script file, and how many of the words after
// the cluster it takes as arguments.
func sedCluster(v string, next []word) (script *word, file bool, skip int) {
	for j := 1; j < len(v); j++ {
		switch v[j] {
		case 'e', 'f', 'l':
			var arg word
			switch {
			case j+1 < len(v):
				arg = word{value: v[j+1:], literal: true}
			case len(next) > 0:
				arg, skip = next[0], 1
			default:
				return nil, v[j] == 'f', 0
			}
			switch v[j] {
			case 'e':
				return &arg, false, skip
			case 'f':
				return nil, true, skip
			}
			return nil, false, skip
		case 'i':
			// The rest of the cluster is the backup suffix.
			return nil, false, 0
		}
	}
	return nil, false, 0
}

// sedScript is why a sed script runs a command or writes a file, "" when
// it does neither. A script it cannot follow is said to hide both, so a
// misreading never allows what it missed.
func sedScript(s string) string {
	r := sedReader{s: s}
	for {
		r.skip(" \t\n;")
		if r.done() {
			return ""
		}
		if !r.address() {
			return "sed runs a script the splitter cannot read"
		}
		if r.peek() == ',' {
			r.i++
			r.skip(" \t")
			if !r.address() {
				return "sed runs a script the splitter cannot read"
			}
		}
		r.skip(" \t")
		if r.peek() == '!' {
			r.i++
			r.skip(" \t")
		}
		if r.done() {
			return "sed runs a script the splitter cannot read"
		}
		cmd := r.s[r.i]
		r.i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			r.skip(" \t0123456789")
		case '#', 'r', 'R':
			r.line()
		case ':', 'b', 't', 'T', 'v':
			r.label()
		case 'a', 'i', 'c':
			r.text()
		case 'e':
			return "sed e runs a command"
		case 'w', 'W':
			return "sed " + string(cmd) + " writes a file"
		case 's':
			if why := r.substitute(); why != "" {
				return why
			}
		case 'y':
			if !r.delimited(2) {
				return "sed runs a script the splitter cannot read"
			}
		default:
			return "sed runs a script the splitter cannot read"
		}
	}
}

// sedReader walks a sed script.
type sedReader struct {
	s string
	i int
}

func (r *sedReader) done() bool { return r.i >= len(r.s) }

// peek is the next byte, or 0 at the end.
func (r *sedReader) peek() byte {
	if r.done() {
		return 0
	}
	return r.s[r.i]
}

// skip passes the bytes in set.
func (r *sedReader) skip(set string) {
	for !r.done() && strings.IndexByte(set, r.s[r.i]) >= 0 {
		r.i++
	}
}

// line passes the rest of the line: a comment or a file name.
func (r *sedReader) line() {
	for !r.done() && r.s[r.i] != '\n' {
		r.i++
	}
}

// text passes the text of a, i or c: the rest of the line, a backslash
// before a newline continuing it.
func (r *sedReader) text() {
	for !r.done() && r.s[r.i] != '\n' {
		if r.s[r.i] == '\\' {
			r.i++
		}
		r.i++
	}
}

// label passes a label, which ends at a space, a semicolon or the end
// of the line; ending it early only reads more of the script as commands.
func (r *sedReader) label() {
	r.skip(" \t")
	for !r.done() && strings.IndexByte(" \t\n;", r.s[r.i]) < 0 {
		r.i++
	}
}

// address passes an address, if there is one: a line number with an
// optional step, $, a /regex/ or \cregexc with its flags, or +N and ~N
// after a comma. It reports false for one it cannot read.
func (r *sedReader) address() bool {
	switch c := r.peek(); {
	case c >= '0' && c <= '9' || c == '+' || c == '~':
		r.i++
		r.skip("0123456789~")
	case c == '$':
		r.i++
	case c == '/' || c == '\\':
		if c == '\\' {
			r.i++
		}
		if r.done() || !r.regex(r.s[r.i]) {
			return false
		}
		r.skip("IM")
	}
	return true
}

// regex passes a regular expression that ends at delim, the opening
// delimiter being next; a bracket expression may hold the delimiter.
func (r *sedReader) regex(delim byte) bool {
	r.i++
	for !r.done() {
		switch c := r.s[r.i]; {
		case c == '\\':
			r.i += 2
		case c == '[':
			r.i++
			if r.peek() == '^' {
				r.i++
			}
			if r.peek() == ']' {
				r.i++
			}
			for !r.done() && r.s[r.i] != ']' {
				r.i++
			}
			r.i++
		case c == delim:
			r.i++
			return true
		default:
			r.i++
		}
	}
	return false
}

// delimited passes n parts that each end at the delimiter that opens the
// first, as y/abc/xyz/ has.
func (r *sedReader) delimited(n int) bool {
	if r.done() || r.peek() == '\n' || r.peek() == '\\' {
		return false
	}
	delim := r.s[r.i]
	for range n {
		r.i++
		for !r.done() && r.s[r.i] != delim {
			if r.s[r.i] == '\\' {
				r.i++
			}
			r.i++
		}
		if r.done() {
			return false
		}
	}
	r.i++
	return true
}

// substitute passes s/regex/replacement/flags and is why its flags run a
// command or write a file.
func (r *sedReader) substitute() string {
	if r.done() || r.peek() == '\n' || r.peek() == '\\' {
		return "sed runs a script the splitter cannot read"
	}
	delim := r.s[r.i]
	if !r.regex(delim) {
		return "sed runs a script the splitter cannot read"
	}
	r.i--
	if !r.delimited(1) {
		return "sed runs a script the splitter cannot read"
	}
	for !r.done() {
		switch c := r.s[r.i]; {
		case c == 'e':
			return "sed s///e runs a command"
		case c == 'w':
			return "sed s///w writes a file"
		case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || c >= '0' && c <= '9':
			r.i++
		case c == ';' || c == '\n' || c == '}' || c == ' ' || c == '\t':
			return ""
		default:
			return "sed runs a script the splitter cannot read"
		}
	}
	return ""
}
