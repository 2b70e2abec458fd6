package claudecode

import (
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"mvdan.cc/sh/v3/syntax"
)

// Claude Code asks about a command that uses certain shell operators,
// whatever its allow rules and its read-only set say (recorded from
// 2.1.328): a command run in the background with "&", a subshell "( … )",
// and a here-document whose delimiter is not quoted, whose body the shell
// expands. The shell module decides the commands such a line runs; these
// are asked about on top.

// operatorUnseen is why a command line uses an operator Claude Code asks
// about, "" for none. Only a line holding one of the operators' characters
// is parsed.
func operatorUnseen(command string) string {
	if !mayHoldOperator(command) {
		return ""
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		// The splitter has read it; a line it cannot parse asks anyway.
		return ""
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background {
				why = "the command runs a command in the background with &"
			}
		case *syntax.Subshell:
			why = "the command runs a subshell"
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Word != nil && !quotedDelimiter(n.Word) {
				why = "the here-document's delimiter is not quoted, so the shell expands its body"
			}
		}
		return why == ""
	})
	return why
}

// mayHoldOperator reports whether a line could hold one of the operators:
// an "&" that is not part of "&&", ">&", "&>", "<&" or "|&", a "(" not
// after "$", "<", ">" or "=", or "<<".
func mayHoldOperator(command string) bool {
	for i := 0; i < len(command); i++ {
		prev, next := byte(0), byte(0)
		if i > 0 {
			prev = command[i-1]
		}
		if i+1 < len(command) {
			next = command[i+1]
		}
		switch command[i] {
		case '&':
			if next == '&' {
				i++
				continue
			}
			if !strings.ContainsRune("<>|", rune(prev)) && next != '>' {
				return true
			}
		case '(':
			if !strings.ContainsRune("$<>=", rune(prev)) {
				return true
			}
		case '<':
			if next == '<' {
				return true
			}
		}
	}
	return false
}

// quotedDelimiter reports whether a here-document's delimiter is quoted
// in any part, which keeps the shell from expanding the body.
func quotedDelimiter(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// markOperators asks about every command of a line that uses an operator
// Claude Code asks about, while deny and ask rules still read them.
func markOperators(command string, subjects []agentpolicy.Subject) {
	why := operatorUnseen(command)
	if why == "" {
		return
	}
	for i := range subjects {
		if s := &subjects[i]; s.Tool == "" && !s.Constrain && s.Unseen == "" {
			s.Unseen = why
		}
	}
}
