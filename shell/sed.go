package shell

import "strings"

// sedOptions are GNU sed's options: -i edits its operands in place, and
// a script in a file (-f) cannot be read.
var sedOptions = flagSet(byEffect{
	inert: `
		n quiet silent
		debug
		e: expression:
		follow-symlinks
		l: line-length:
		posix
		E
		r regexp-extended
		s separate
		sandbox
		u unbuffered
		z null-data
		help
		version
	`,
	readsArg: `
		f: file:
	`,
	changes: `
		i:: in-place::
	`,
})

// sedEffects reads sed, a reader a policy may allow whose script can run
// a command (the e command, the e flag of s) or write a file (w, W, the w
// flag of s). A script the splitter reads is searched for those; one it
// cannot read, from a file or made when the command runs, hides them.
// With --sandbox, sed refuses them all. Its operands are files it reads,
// or edits with -i.
func sedEffects(args []word) effects {
	p := sedOptions.parseFlags("sed", args, true)
	e := effects{unseen: p.opaque}
	var scripts []word
	for _, g := range p.options {
		if g.name == "e" || g.name == "expression" {
			scripts = append(scripts, g.value)
		}
	}
	fromFile := p.has("f", "file")
	files := p.operands
	if len(scripts) == 0 && !fromFile && len(files) > 0 {
		scripts, files = files[:1], files[1:]
	}
	sandbox := p.has("sandbox")
	var scriptReads, scriptWrites []word
	for _, s := range scripts {
		switch {
		case !s.literal:
			e.unseen = firstOf(e.unseen, "sed runs a script made when it runs")
		case !sandbox:
			why, reads, writes := sedScript(s.value)
			e.unseen = firstOf(e.unseen, why)
			scriptReads = append(scriptReads, scriptFiles(s, reads)...)
			scriptWrites = append(scriptWrites, scriptFiles(s, writes)...)
		}
	}
	if fromFile && !sandbox {
		e.unseen = firstOf(e.unseen, "sed -f reads a script that may run a command")
	}
	e.reads, _ = optionFiles(p)
	if g, ok := p.first(changes); ok {
		e.writes = append(files[:len(files):len(files)], sedBackups(g, files)...)
	} else {
		e.reads = append(files[:len(files):len(files)], e.reads...)
		e.readOnly = e.unseen == "" && len(scriptWrites) == 0 && allKnown(args)
	}
	e.reads = append(e.reads, scriptReads...)
	e.writes = append(e.writes, scriptWrites...)
	return e
}

// scriptFiles are the files a script names, as words standing where the
// script does.
func scriptFiles(script word, names []string) []word {
	out := make([]word, 0, len(names))
	for _, name := range names {
		w := script
		w.value = name
		w.pattern, w.tilde, w.braces, w.holdsCode = false, false, false, false
		out = append(out, w)
	}
	return out
}

// sedBackups are the backups sed -iSUFFIX makes of the files it edits:
// FILE with SUFFIX appended or, when SUFFIX holds a "*", SUFFIX with the
// "*" replaced by the file's name, as GNU sed 4.9 names them. Where that
// backup goes for a file in another directory is not one the splitter
// knows (sed 4.9 fails to make it), so such a backup is known only when
// sed runs.
func sedBackups(in given, files []word) []word {
	if !in.hasValue || in.value.value == "" {
		return nil
	}
	suffix := in.value
	backups := make([]word, 0, len(files))
	for _, f := range files {
		b := f
		b.literal = f.literal && suffix.literal
		switch {
		case !strings.Contains(suffix.value, "*"):
			b.value = f.value + suffix.value
		case strings.Contains(f.value, "/"):
			b.literal = false
			b.value = suffix.value
		default:
			b.value = strings.ReplaceAll(suffix.value, "*", f.value)
		}
		backups = append(backups, b)
	}
	return backups
}

// sedScript reads a sed script: why it runs a command, "" when it runs
// none, and the files its r, R, w and W commands and s///w flags read and
// write. A script it cannot follow is said to hide what it does, so a
// misreading never allows what it missed.
func sedScript(s string) (why string, reads, writes []string) {
	const unreadable = "sed runs a script the splitter cannot read"
	r := sedReader{s: s}
	for {
		r.skip(" \t\n;")
		if r.done() {
			return "", r.reads, r.writes
		}
		if !r.address() {
			return unreadable, nil, nil
		}
		if r.peek() == ',' {
			r.i++
			r.skip(" \t")
			if !r.address() {
				return unreadable, nil, nil
			}
		}
		r.skip(" \t")
		if r.peek() == '!' {
			r.i++
			r.skip(" \t")
		}
		if r.done() {
			return unreadable, nil, nil
		}
		cmd := r.s[r.i]
		r.i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			r.skip(" \t0123456789")
		case '#':
			r.line()
		case 'r', 'R':
			if !r.file(&r.reads) {
				return unreadable, nil, nil
			}
		case 'w', 'W':
			if !r.file(&r.writes) {
				return unreadable, nil, nil
			}
		case ':', 'b', 't', 'T', 'v':
			r.label()
		case 'a', 'i', 'c':
			r.text()
		case 'e':
			return "sed e runs a command", nil, nil
		case 's':
			if why := r.substitute(); why != "" {
				return why, nil, nil
			}
		case 'y':
			if !r.delimited(2) {
				return unreadable, nil, nil
			}
		default:
			return unreadable, nil, nil
		}
	}
}

// sedReader walks a sed script.
type sedReader struct {
	s string
	i int
	// reads and writes are the files its commands name so far.
	reads, writes []string
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

// line passes the rest of the line, a comment or a file name, and
// returns it.
func (r *sedReader) line() string {
	start := r.i
	for !r.done() && r.s[r.i] != '\n' {
		r.i++
	}
	return r.s[start:r.i]
}

// file reads the file name that ends a command, the rest of its line
// after the blanks, onto list; it reports false when there is none.
func (r *sedReader) file(list *[]string) bool {
	r.skip(" \t")
	name := r.line()
	if name == "" {
		return false
	}
	*list = append(*list, name)
	return true
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
			r.i++
			if !r.file(&r.writes) {
				return "sed runs a script the splitter cannot read"
			}
			return ""
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
