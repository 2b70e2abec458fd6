package shell

import (
	"slices"
	"strings"
)

// A program the tables do not know, "less .env" or "xxd .env", may read
// or write any file its words name, and which of its words are files is
// known to nobody but the program. An interpreter's words after its
// script are the script's to read as it likes ("python3 -m json.tool
// .env"). Each word of such a command line that could be a path is
// therefore a constraint subject under the operand tools, read and
// written: only deny and ask rules read a constraint, so a rule refusing
// the file refuses the command, as Claude Code applies its Read and Edit
// deny rules to the file arguments of nearly every command, while the
// command's own decision is unchanged ("less README.md" stays allowed
// wherever the command is).
//
// The paths a word may be are the word itself, unless it is an option
// ("-v": a file named so is rare, and read after "--" alone), or, when
// it holds them, the value glued to an option ("--file=.env", "-f.env"),
// the text after the first "=" of any word ("KEY=.env", "f=@.env"), each
// part of a word with a ":" but no "://" ("secrets:/s", "HEAD:.env")
// and, in each, the text after a leading "@", which curl and many others
// read as "the file named" ("-d @.env"). A word that names no file is a
// path no rule names: the guesses cost subjects, not verdicts.

// WithOpaqueOperands decides each word of a command the tables cannot
// read that could be a path, under the file operand tools
// ([WithOperandTools]) read and written, as a constraint subject that
// only deny and ask rules read.
func WithOpaqueOperands() Option {
	return func(c *config) { c.opaque = true }
}

// opaqueProgram reports whether the files a command line names are
// known only to the program: one neither the tables nor the splitter's
// model of the shell's builtins know (cd is read by cwd.go), or an
// interpreter.
func opaqueProgram(base string) bool {
	prog := lookup(base)
	return prog == nil && !modelled[base] || prog != nil && prog.language != nil
}

// opaqueFiles adds, for the words of a command the tables cannot read,
// the constraint subjects of every path each word may be, read and
// written, resolved against where the command runs. Each is shown as
// the command, text: the words are guesses, and a rule refusing one
// refuses the command.
func (s *splitter) opaqueFiles(args []word, in where, text string) {
	read, write := s.operandTargets()
	// Two subjects a word, most of the time: grown once.
	s.subjects = slices.Grow(s.subjects, 2*len(args))
	s.guessing = true
	defer func() { s.guessing = false }()
	for _, w := range args {
		if w == xargsWords {
			continue
		}
		glued := gluedPaths(w.value)
		if len(glued) == 0 && !strings.HasPrefix(w.value, "-") {
			s.constraintFiles(w, in, text, read, write)
		}
		for _, v := range glued {
			c := w
			c.value, c.confined = v, false
			c.tilde = w.tilde && strings.HasPrefix(v, "~")
			s.constraintFiles(c, in, text, read, write)
		}
	}
}

// constraintFiles adds the subjects of the file w may name under each
// of the targets, as constraints shown as text ("" for the word as
// written): no allow rule reads them, and a path known only when the
// command runs leaves the asking to the command.
func (s *splitter) constraintFiles(w word, in where, text string, targets ...target) {
	for _, t := range targets {
		start := len(s.subjects)
		s.file(t, w, in)
		for i := start; i < len(s.subjects); i++ {
			s.subjects[i].Constrain, s.subjects[i].Unseen = true, ""
			if text != "" {
				s.subjects[i].Text = text
			}
		}
	}
}

// gluedPaths are the paths a word holds besides itself: an option's
// glued value, the text after its first "=", and each of those, or the
// word, without a leading "@".
func gluedPaths(v string) []string {
	var out []string
	add := func(p string) {
		if p != "" && p != v {
			out = append(out, p)
			if rest, ok := strings.CutPrefix(p, "@"); ok && rest != "" {
				out = append(out, rest)
			}
		}
	}
	if rest, ok := strings.CutPrefix(v, "@"); ok {
		add(rest)
	}
	if _, after, ok := strings.Cut(v, "="); ok {
		add(after)
	}
	if len(v) > 2 && v[0] == '-' && v[1] != '-' && !strings.Contains(v, "=") {
		add(v[2:])
	}
	if strings.Contains(v, ":") && !strings.Contains(v, "://") && !strings.HasPrefix(v, "-") {
		// A list of paths, or a pair: "src:dst", "REV:path".
		for part := range strings.SplitSeq(v, ":") {
			add(part)
		}
	}
	return out
}
