package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// literalText is the output of a command substitution that only prints a
// literal here-document, "$(cat <<'EOF' … EOF)", the form Claude Code
// writes a commit message in, and ok when it is one: a lone cat, with no
// assignment, option or other redirect, reading a here-document whose
// delimiter is quoted, so its body is text the shell does not expand. The
// output is the body without its trailing newlines, as the substitution
// leaves it. Such a substitution runs nothing a rule need read, so the
// splitter reads it as the text it prints.
func literalText(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 || cs.Backquotes {
		return "", false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || st.Disown ||
		len(call.Assigns) != 0 || len(call.Args) != 1 || call.Args[0].Lit() != "cat" ||
		len(st.Redirs) != 1 {
		return "", false
	}
	r := st.Redirs[0]
	if r.Op != syntax.Hdoc || r.N != nil || !quotedDelimiter(r.Word) {
		return "", false
	}
	if r.Hdoc == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(lit.Value)
	}
	return strings.TrimRight(b.String(), "\n"), true
}

// quotedDelimiter reports whether a here-document's delimiter has a
// quote or a backslash, which makes the shell read the body as it is.
func quotedDelimiter(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '\\') >= 0 {
				return true
			}
		}
	}
	return false
}
