package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Keyword mode. Under set -k (set -o keyword) bash hands every argument
// that is an assignment as written, NAME=VALUE anywhere on a simple
// command's line, to that command's environment and takes it out of its
// arguments: "set -k; git log PAGER='rm x'" runs git log with PAGER set,
// as "PAGER='rm x' git log" does. A call that may turn keyword mode on
// anywhere is read with it on everywhere: every simple command with such
// an argument is read as written and again as bash reads it under -k,
// with those arguments moved before it, by the code that reads prefix
// assignments. A reading that is not what runs only adds subjects, so
// the call is never decided more loosely than bash runs it.

// keywordOn reports whether the words of set, or of shopt, may turn
// keyword mode on: -k in a cluster of options, -o keyword, shopt -s -o
// keyword, or an option made when it runs, which may be either.
func keywordOn(base string, args []word) bool {
	if base == "shopt" {
		return shoptKeyword(args)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		switch {
		case !a.literal:
			return true
		case v == "--" || v == "-" || len(v) < 2 || v[0] != '-' && v[0] != '+':
			return false
		case v[0] == '+':
			if strings.HasSuffix(v, "o") {
				i++
			}
		case strings.HasSuffix(v, "o") && i+1 < len(args):
			i++
			if !args[i].literal || args[i].value == "keyword" {
				return true
			}
			if strings.ContainsRune(v, 'k') {
				return true
			}
		case strings.ContainsRune(v, 'k'):
			return true
		}
	}
	return false
}

// keywordStarted reports whether the command named base may start a
// shell in keyword mode: a shell given -k or -o keyword, or a word made
// when it runs, among its options, or env or sudo given SHELLOPTS,
// which bash reads its options from as it starts.
func keywordStarted(base string, args []word) bool {
	if base == "env" || base == "sudo" {
		for _, a := range args {
			if !a.literal || strings.HasPrefix(a.value, "SHELLOPTS=") {
				return true
			}
		}
		return false
	}
	return isShell(base) && keywordOn("set", args)
}

// shoptKeyword reports whether shopt's words may turn keyword mode on:
// -s with -o and the name keyword, or a word made when it runs.
func shoptKeyword(args []word) bool {
	set, named := false, false
	for _, a := range args {
		switch v := a.value; {
		case !a.literal:
			return true
		case strings.HasPrefix(v, "-"):
			set = set || strings.ContainsRune(v, 's')
		case v == "keyword":
			named = true
		}
	}
	return set && named
}

// keywordOff reports whether set's words turn keyword mode off and leave
// it off: +k or +o keyword, with no -k after.
func keywordOff(args []word) bool {
	off := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		if !a.literal || len(v) < 2 || v[0] != '-' && v[0] != '+' || v == "--" {
			return off
		}
		named := false
		if strings.HasSuffix(v, "o") && i+1 < len(args) {
			i++
			named = args[i].literal && args[i].value == "keyword"
		}
		if strings.ContainsRune(v, 'k') || named {
			off = v[0] == '+'
		}
	}
	return off
}

// keywordLeft is why a set or shopt that turns keyword mode on leaves it
// on past the call, where the agent's next call may run in the same
// shell, or "" when it is set in a subshell, which ends with the call, or
// a later command at the call's top always turns it off again. A set -k
// in a function, or in a call that sets a trap, may run after that.
func (s *splitter) keywordLeft(base string, n syntax.Node) string {
	why := base + " turns keyword mode (set -k) on, which may stay on for what runs after the call"
	if n == nil || s.src != s.command || strings.Contains(s.src, "trap") {
		return why
	}
	inFunction, subshell := false, false
	syntax.Walk(s.tree, func(m syntax.Node) bool {
		if m == nil || m == n || m.Pos().Offset() > n.Pos().Offset() || m.End().Offset() < n.End().Offset() {
			return false
		}
		switch m := m.(type) {
		case *syntax.FuncDecl:
			inFunction = true
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst:
			subshell = true
		case *syntax.BinaryCmd:
			subshell = subshell || m.Op == syntax.Pipe || m.Op == syntax.PipeAll
		case *syntax.Stmt:
			subshell = subshell || m.Background || m.Coprocess
		}
		return true
	})
	switch {
	case inFunction:
		return why
	case subshell:
		// Its shell ends within the call.
		return ""
	}
	for _, st := range s.tree.Stmts {
		if st.Pos().Offset() >= n.End().Offset() && s.turnsKeywordOff(st) {
			return ""
		}
	}
	return why
}

// turnsKeywordOff reports whether a statement at the top of the call
// always runs set +k: a plain set, neither negated nor in the
// background, of literal words.
func (s *splitter) turnsKeywordOff(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return false
	}
	words, why := s.expandWords(c.Args)
	if why != "" || len(words) == 0 || !words[0].literal || words[0].value != "set" || !allLiteral(words) {
		return false
	}
	return keywordOff(words[1:])
}

// keywordReading reads a simple command as bash runs it under keyword
// mode, when any of its arguments is an assignment: those arguments
// moved, as written, after its prefix assignments and before its name,
// read as the script that makes. The reading runs where the command
// runs.
func (s *splitter) keywordReading(c *syntax.CallExpr, depth int) error {
	var moved, kept []string
	for _, a := range c.Assigns {
		moved = append(moved, s.text(a))
	}
	found := false
	for i, w := range c.Args {
		if i > 0 && assignmentWord(w) {
			moved, found = append(moved, s.text(w)), true
		} else {
			kept = append(kept, s.text(w))
		}
	}
	if !found {
		return nil
	}
	src := strings.Join(append(moved, kept...), " ")
	outer := s.dirs.outer
	s.dirs.outer = s.dirs.of(c)
	defer func() { s.dirs.outer = outer }()
	err := s.script(src, depth+1)
	if u, ok := err.(*unreadable); ok {
		text := s.text(c)
		s.unread(text, text, "keyword mode makes an argument environment, and the command it leaves cannot be read: "+u.why, u, depth+1)
		return nil
	}
	return err
}

// assignmentWord reports whether bash's parser takes a word for an
// assignment: it begins, unquoted, with a name followed by "=", "+=" or
// a subscript. A word taken for one that bash does not take adds only a
// reading.
func assignmentWord(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	v := lit.Value
	end := 0
	for end < len(v) && (nameStart(v[end]) || end > 0 && '0' <= v[end] && v[end] <= '9') {
		end++
	}
	if end == 0 || end == len(v) {
		return false
	}
	rest := v[end:]
	return rest[0] == '=' || rest[0] == '[' || strings.HasPrefix(rest, "+=")
}

// keywordArgument reports whether any of a command's words after its
// name may be an assignment under keyword mode, its value as the shell
// reads it.
func keywordArgument(args []word) bool {
	for _, a := range args[min(1, len(args)):] {
		name, _, ok := strings.Cut(a.value, "=")
		name, _, _ = strings.Cut(strings.TrimSuffix(name, "+"), "[")
		if ok && isName(name) {
			return true
		}
	}
	return false
}
