package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The text a command reads on its standard input, where the call gives
// it as a literal: a here-string, a here-document that expands nothing,
// or what echo or printf, with literal words, print into the pipe to it.
// A program that runs its input as code (at, batch, newgrp) has it read
// as a script; any other input, a file, a descriptor, a pipe from
// another command, the input of a block around it, is known only when it
// runs.

// stdinText is the text the command n, a simple command of the script
// being read, reads on its standard input, and whether it is known.
func (s *splitter) stdinText(n syntax.Node) (string, bool) {
	if n == nil || s.tree == nil {
		return "", false
	}
	in := s.inputs[s.tree]
	if in == nil {
		if s.inputs == nil {
			s.inputs = map[*syntax.File]*commandInputs{}
		}
		in = indexInputs(s.tree)
		s.inputs[s.tree] = in
	}
	stmt, from := in.stmt[n], in.from[n]
	if stmt == nil {
		return "", false
	}
	text, known, redirected := "", false, false
	for _, r := range stmt.Redirs {
		if readsStdin(r) {
			// The last redirect of standard input is the one it reads.
			text, known = s.redirectText(r)
			redirected = true
		}
	}
	if redirected {
		return text, known
	}
	if from == nil {
		return "", false
	}
	return s.printedText(from)
}

// commandInputs maps each command of a script to its statement, and to
// the statement a pipe feeds it from, in one walk of the tree: a lookup
// per command, so a script's reading stays linear in its length.
type commandInputs struct {
	stmt, from map[syntax.Node]*syntax.Stmt
}

// indexInputs walks a script's tree once into its commandInputs.
func indexInputs(tree *syntax.File) *commandInputs {
	in := &commandInputs{stmt: map[syntax.Node]*syntax.Stmt{}, from: map[syntax.Node]*syntax.Stmt{}}
	syntax.Walk(tree, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.Stmt:
			if _, seen := in.stmt[m.Cmd]; !seen && m.Cmd != nil {
				in.stmt[m.Cmd] = m
			}
		case *syntax.BinaryCmd:
			if _, seen := in.from[m.Y.Cmd]; !seen && m.Op == syntax.Pipe && m.Y.Cmd != nil {
				in.from[m.Y.Cmd] = m.X
			}
		}
		return true
	})
	return in
}

// readsStdin reports whether a redirect gives a command's standard
// input.
func readsStdin(r *syntax.Redirect) bool {
	if r.N != nil && r.N.Value != "0" {
		return false
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc:
		return true
	}
	return false
}

// redirectText is the text a here-string or a here-document gives, and
// whether it is known: a literal here-string, with the newline bash
// adds, or the body of a here-document whose delimiter is quoted or
// that holds nothing the shell expands.
func (s *splitter) redirectText(r *syntax.Redirect) (string, bool) {
	switch r.Op {
	case syntax.WordHdoc:
		w := s.wordOf(r.Word)
		return w.value + "\n", w.literal
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc == nil {
			return "", true
		}
		lines := strings.SplitAfter(s.text(r.Hdoc), "\n")
		if r.Op == syntax.DashHdoc {
			// <<- strips the tabs that begin each line.
			for i, l := range lines {
				lines[i] = strings.TrimLeft(l, "\t")
			}
		}
		if last := len(lines) - 1; lines[last] == s.wordOf(r.Word).value {
			// The text the parser gives ends with the delimiter's line;
			// with none, the body runs to the end of the input.
			lines = lines[:last]
		}
		body := strings.Join(lines, "")
		return body, quotedDelimiter(r.Word) || !strings.ContainsAny(body, "$`\\")
	}
	return "", false
}

// printedText is what a command feeding a pipe prints, and whether it is
// known: echo with literal words that are no option and hold no
// backslash, or printf with a literal format whose directives are %s
// and %% and whose escapes printf reads (printfText), and literal
// arguments.
func (s *splitter) printedText(st *syntax.Stmt) (string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Negated || len(c.Args) == 0 {
		return "", false
	}
	words, why := s.expandWords(c.Args)
	if why != "" || len(words) == 0 || !allLiteral(words) {
		return "", false
	}
	args := values(words[1:])
	switch words[0].value {
	case "echo":
		for _, a := range args {
			if strings.HasPrefix(a, "-") || strings.Contains(a, `\`) {
				return "", false
			}
		}
		return strings.Join(args, " ") + "\n", true
	case "printf":
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			return printfText(args[0], args[1:])
		}
	}
	return "", false
}

// printfEscape is what the escape of printf's format \c prints, and
// whether printfText reads it.
func printfEscape(c byte) (byte, bool) {
	i := strings.IndexByte(`nt0\abfrv"'`, c)
	if i < 0 {
		return 0, false
	}
	return "\n\t\x00\\\a\b\f\r\v\"'"[i], true
}

// printfText is what printf prints for format and args, and whether it
// is known: the format's text, its escapes and %% as printf prints them,
// each %s an argument as it is ("" past the last), and the format used
// again while arguments are left. A directive other than %s, an escape
// with digits (\0NNN, \xHH) and an argument %b would read are not known.
func printfText(format string, args []string) (string, bool) {
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\' && i+1 < len(format):
				e, ok := printfEscape(format[i+1])
				if !ok || format[i+1] == '0' && i+2 < len(format) && '0' <= format[i+2] && format[i+2] <= '7' {
					return "", false
				}
				b.WriteByte(e)
				i++
			case c == '%' && i+1 < len(format) && format[i+1] == '%':
				b.WriteByte('%')
				i++
			case c == '%' && i+1 < len(format) && format[i+1] == 's':
				if used < len(args) {
					b.WriteString(args[used])
				}
				used++
				i++
			case c == '%' || c == '\\':
				return "", false
			default:
				b.WriteByte(c)
			}
		}
		if used == 0 || used >= len(args) {
			return b.String(), true
		}
		args = args[used:]
	}
}
