package shell

import (
	"path"
	"strings"
)

// The file operands of the commands in the table: which operands a
// command reads and which it writes, decided under the read and write
// tools as a redirect's target is.

// WithOperandTools decides the file operands of the commands the tables
// know, and the values of their options that name files ("cp a b",
// "sort -o out"), as calls of readTool and writeTool with the path in the
// member field, while redirect targets stay under [WithReadTool] and
// [WithWriteTool]. An empty tool name leaves those operands out. Without
// it, file operands are decided under the redirects' tools.
func WithOperandTools(readTool, writeTool, field string) Option {
	return func(c *config) {
		c.operandTools = true
		c.operandRead, c.operandWrite = target{tool: readTool, field: field}, target{tool: writeTool, field: field}
		if readTool == "" {
			c.operandRead = target{}
		}
		if writeTool == "" {
			c.operandWrite = target{}
		}
	}
}

// operandTargets are the tools the file operands are decided under.
func (c *config) operandTargets() (read, write target) {
	if c.operandTools {
		return c.operandRead, c.operandWrite
	}
	return c.read, c.write
}

// fileOperands picks, from a command line read against its table, the
// operands that are files the command reads and those it writes.
type fileOperands func(p parsed) (reads, writes []word)

// noFiles is a command whose operands are no files: echo, basename.
func noFiles(parsed) (reads, writes []word) { return nil, nil }

// readsAll is a command that reads every operand: cat, wc, ls.
func readsAll(p parsed) (reads, writes []word) { return p.operands, nil }

// writesAll is a command that writes, creates or removes every operand:
// touch, mkdir, rm, tee.
func writesAll(p parsed) (reads, writes []word) { return nil, p.operands }

// writesAfterFirst is a command whose first operand is a mode or an owner
// and whose others it changes: chown, chgrp.
func writesAfterFirst(p parsed) (reads, writes []word) {
	if len(p.operands) == 0 {
		return nil, nil
	}
	return nil, p.operands[1:]
}

// chmodFiles are the files chmod changes: every operand when a mode was
// given as an option ("chmod -x f"), else all but the first, the mode.
func chmodFiles(p parsed) (reads, writes []word) {
	for _, g := range p.options {
		if len(g.name) == 1 && strings.Contains(chmodModes, g.name) {
			return nil, p.operands
		}
	}
	return writesAfterFirst(p)
}

// chmodModes are the letters of a mode chmod reads as an option, "-x".
const chmodModes = "rwxXstugoa01234567"

// inThenOut is uniq, which reads its first operand and writes its second.
func inThenOut(p parsed) (reads, writes []word) {
	ops := p.operands
	switch len(ops) {
	case 0:
		return nil, nil
	case 1:
		return ops, nil
	}
	return ops[:1], ops[1:2]
}

// copies is cp, ln and install: they read every source and write the
// last operand, unless a target directory was given as an option, whose
// value is then the file written; with one operand, ln and cp make a file
// of the same name in the working directory.
func copies(p parsed) (reads, writes []word) {
	ops := p.operands
	switch _, ok := p.first(writesArg); {
	case ok:
		return ops, nil
	case len(ops) == 1:
		here := ops[0]
		here.value = path.Base(here.value)
		return ops, []word{here}
	case len(ops) == 0:
		return nil, nil
	}
	return ops[:len(ops)-1], ops[len(ops)-1:]
}

// installs is install: with -d every operand is a directory it makes.
func installs(p parsed) (reads, writes []word) {
	if p.has("d", "directory") {
		return nil, p.operands
	}
	return copies(p)
}

// withBackups is a command that keeps a backup of every file it would
// replace when given -b, --backup, -S or --suffix: cp, mv, ln, install. The
// backup's name comes from VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX as
// much as from the command line (FILE~, FILE.~1~, FILE with the suffix),
// and it lands wherever the target does, so the files it writes are known
// only when it runs.
func withBackups(prog *program) *program {
	prog.check = func(base string, p parsed) string {
		for _, g := range p.options {
			switch g.name {
			case "b", "backup", "S", "suffix":
				return base + " " + g.written + " writes backups named when it runs"
			}
		}
		return ""
	}
	return prog
}

// moves is mv, which removes every source as well as writing the target.
func moves(p parsed) (reads, writes []word) { return nil, p.operands }

// readsAfterScript is a command whose first operand is a pattern or a
// script, and the rest files it reads, unless one of the named options
// gave the script, when every operand is a file: grep, sed.
func readsAfterScript(names ...string) fileOperands {
	return func(p parsed) (reads, writes []word) {
		if p.has(names...) || len(p.operands) == 0 {
			return p.operands, nil
		}
		return p.operands[1:], nil
	}
}

// filesOf are the files a command line reads and writes: its file
// operands and the values of its options that name files.
func (prog *program) filesOf(p parsed) (reads, writes []word) {
	reads, writes = prog.files(p)
	optReads, optWrites := optionFiles(p)
	// The operands' slices may share an array: append to copies.
	return append(reads[:len(reads):len(reads)], optReads...), append(writes[:len(writes):len(writes)], optWrites...)
}

// optionFiles are the values of the options that name files a command
// reads and writes.
func optionFiles(p parsed) (reads, writes []word) {
	for _, g := range p.options {
		switch {
		case !g.hasValue:
		case g.effect == readsArg:
			reads = append(reads, g.value)
		case g.effect == writesArg:
			writes = append(writes, g.value)
		}
	}
	return reads, writes
}

// fileUnseen is why a path operand is known only when the command runs,
// "" when it is literal: a run-time value, or the {} that find -exec and
// xargs -I replace with the names they read.
func fileUnseen(w word) string {
	if why := pathUnseen(w); why != "" {
		return why
	}
	if strings.Contains(w.value, "{}") {
		return "the path " + w.value + " holds {}, which find and xargs replace with the names they read"
	}
	return ""
}

// file adds the subject of a file a command reads or writes, under the
// tool of t, when one is configured, resolved against where the command
// runs; "-", standard input or output, and the device files are none.
func (s *splitter) file(t target, w word, in where) {
	if t.tool == "" || procSubst(w) || w.literal && (w.value == "" || w.value == "-" || deviceFiles[w.value]) {
		return
	}
	text := w.value
	if w.end > w.pos && int(w.end) <= len(s.src) {
		text = s.src[w.pos:w.end]
	}
	s.pathSubjects(t, w, text, fileUnseen(w), in)
}

// procSubst reports whether a word is a process substitution, <(…) or
// >(…), which the shell replaces with a /dev/fd path to a pipe: no option
// and no file a rule guards, while the commands in it are subjects of
// their own.
func procSubst(w word) bool {
	return !w.literal && (strings.HasPrefix(w.value, "<(") || strings.HasPrefix(w.value, ">("))
}

// xargsWords stands for the words xargs appends to the command it runs,
// known only when it runs.
var xargsWords = word{value: "(the words xargs reads)"}
