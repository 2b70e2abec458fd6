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
// and whose others it changes: chown, chgrp. With --reference the mode or
// owner comes from that file, and every operand is changed.
func writesAfterFirst(p parsed) (reads, writes []word) {
	if len(p.operands) == 0 {
		return nil, nil
	}
	if p.has("reference") {
		return nil, p.operands
	}
	return nil, p.operands[1:]
}

// chmodFiles are the files chmod changes: every operand when a mode was
// given as an option ("chmod -x f") or taken from --reference, else all
// but the first, the mode.
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

// copies is cp and install: they read every source and write the last
// operand, unless a target directory was given as an option. The target
// may be a directory, so each source's name inside it is written too
// ("cp f .claude" writes .claude/f), unless -T says it is not; with one
// operand, cp makes a file of the same name in the working directory.
// With -r, -R or -a, cp copies each source directory whole: a tree it
// reads (install has none of these options).
func copies(p parsed) (reads, writes []word) {
	reads, writes = copiesOf(p)
	if p.has("r", "R", "recursive", "a", "archive") {
		reads = asTrees(reads, &tree{})
	}
	return reads, writes
}

// copiesOf is copies without the trees.
func copiesOf(p parsed) (reads, writes []word) {
	ops := p.operands
	if g, ok := p.first(writesArg); ok {
		return ops, intoDir(g.value, ops)
	}
	switch len(ops) {
	case 0:
		return nil, nil
	case 1:
		here := ops[0]
		here.value = path.Base(here.value)
		return ops, []word{here}
	}
	sources, target := ops[:len(ops)-1], ops[len(ops)-1]
	writes = []word{target}
	if !p.has("T", "no-target-directory") {
		writes = append(writes, intoDir(target, sources)...)
	}
	return sources, writes
}

// intoDir are the paths of the sources' names inside dir, where cp, mv,
// install and ln put them when dir is a directory.
func intoDir(dir word, sources []word) []word {
	out := make([]word, 0, len(sources))
	for _, src := range sources {
		w := dir
		w.value = path.Join(dir.value, path.Base(src.value))
		w.literal = dir.literal && src.literal
		w.pattern = dir.pattern || src.pattern
		w.tilde = dir.tilde
		w.braces = dir.braces || src.braces
		out = append(out, w)
	}
	return out
}

// links is ln: the links it makes are written as cp's copies are. A
// hard link's source is read as a copy's is; a symbolic link's target,
// when relative and made without -r, is relative to the link's own
// directory ("ln -s ../README.md docs/README.md" names README.md), and
// is held to the read rules there, since the link reads whatever it
// names.
func links(p parsed) (reads, writes []word) {
	sources, writes := copiesOf(p)
	if !p.has("s", "symbolic") || p.has("r", "relative") {
		return sources, writes
	}
	var dirs []word
	switch g, ok := p.first(writesArg); {
	case ok:
		dirs = []word{g.value}
	case len(p.operands) == 1:
		dirs = []word{{value: ".", literal: true}}
	case len(p.operands) > 0:
		// The last operand is the link itself, or a directory the link
		// goes into: a target is relative to the one or the other.
		target := p.operands[len(p.operands)-1]
		dirs = []word{target}
		if len(p.operands) == 2 {
			parent := target
			parent.value = path.Dir(target.value)
			dirs = []word{parent}
			if !p.has("T", "no-target-directory") {
				dirs = append(dirs, target)
			}
		}
	}
	reads = make([]word, 0, len(sources)*len(dirs))
	for _, src := range sources {
		if path.IsAbs(src.value) || !src.literal || src.tilde && (src.value == "~" || strings.HasPrefix(src.value, "~/")) {
			// A target the shell expands to the home directory is no
			// path relative to the link's.
			reads = append(reads, src)
			continue
		}
		for _, d := range dirs {
			r := src
			r.value = path.Join(d.value, src.value)
			r.literal = src.literal && d.literal
			r.pattern = src.pattern || d.pattern
			reads = append(reads, r)
		}
	}
	return reads, writes
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

// moves is mv, which removes every source as well as writing the target
// and, when the target is a directory, each source's name inside it.
func moves(p parsed) (reads, writes []word) {
	ops := p.operands
	if g, ok := p.first(writesArg); ok {
		return nil, append(ops[:len(ops):len(ops)], intoDir(g.value, ops)...)
	}
	if len(ops) < 2 || p.has("T", "no-target-directory") {
		return nil, ops
	}
	return nil, append(ops[:len(ops):len(ops)], intoDir(ops[len(ops)-1], ops[:len(ops)-1])...)
}

// zipFiles are zip's: the archive is its first operand, written, with
// ".zip" added when its name has no extension, and the files after it are
// read into it, each directory whole with -r or -R; -m deletes them once
// they are in, and -d deletes entries from the archive rather than
// reading files.
func zipFiles(p parsed) (reads, writes []word) {
	if len(p.operands) == 0 {
		return nil, nil
	}
	archive, files := p.operands[0], p.operands[1:]
	writes = []word{archive}
	if !strings.Contains(path.Base(archive.value), ".") {
		named := archive
		named.value += ".zip"
		writes = append(writes, named)
	}
	switch {
	case p.has("d", "delete"):
		return nil, writes
	case p.has("m", "move"):
		return nil, append(writes, files...)
	case p.has("r", "recurse-paths", "R", "recurse-patterns"):
		return asTrees(files, &tree{}), writes
	}
	return files, writes
}

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
	reads = prog.confine(p, reads)
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
		case g.effect == readsArg || g.effect == listsFiles:
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
	w.confined = w.confined && s.patternTools[t.tool] != "" && in.confines(w.value)
	s.pathSubjects(t, w, text, fileUnseen(w), in)
	s.patternSubjects(t, w, text, in)
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
