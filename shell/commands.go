package shell

import (
	"path"
	"strings"
)

// A command read against its options: every option it has is in its
// entry (textcommands.go, filecommands.go, writecommands.go,
// runners.go), with what it does and which operands are files the
// command reads or writes. A command given an option its entry does not
// list is opaque, so the call asks.

// gnu are the options every GNU tool has.
const gnu = " help version"

// digits are the short options "-5" of head, tail and grep, a count
// written as an option, one line a digit.
const digits = `
0
1
2
3
4
5
6
7
8
9
`

// gnuOptions is a GNU tool's table: its options by effect, and the
// options every GNU tool has.
func gnuOptions(options byEffect) *optionTable {
	return &optionTable{lists: options, gnu: true}
}

// optionEffects reads a command against its options: it is opaque when
// an option is one the table does not know, runs code no rule reads when
// an option runs a program, and is read-only when the table says so,
// every option is inert or names a file it reads, and every word is
// known before it runs.
func (prog *program) optionEffects(base string, args []word) effects {
	p := prog.flags.parseFlags(base, args, prog.permute)
	e := effects{unseen: p.opaque}
	if g, ok := p.first(runs); ok {
		e.unseen = firstOf(e.unseen, base+" "+g.written+" may run a program")
		e.scripts = commandValues(p, runsCommand[base])
	}
	e.unseen = firstOf(e.unseen, listedFiles(base, p))
	if stdinListed(p) {
		e.listedIn = &word{value: ".", literal: true}
		if base == "rsync" && len(p.operands) > 1 {
			// rsync's names are relative to its source.
			e.listedIn = &p.operands[0]
		}
	}
	if g, ok := p.first(changes); ok {
		// file -C writes a compiled magic file, file -p resets the
		// times of what it reads, date -s sets the clock: changes the
		// tables name no file for.
		e.unseen = firstOf(e.unseen, base+" "+g.written+" changes what the splitter does not name")
	}
	if prog.check != nil {
		e.unseen = firstOf(e.unseen, prog.check(base, p))
	}
	e.reads, e.writes = prog.filesOf(p)
	e.readOnly = prog.readOnly && e.unseen == "" && len(e.writes) == 0 && (allKnown(args) || confinedOnly(args, e.reads)) && !(prog.stdinOnly && len(p.operands) > 0)
	if _, ok := p.first(writesArg, changes); ok {
		e.readOnly = false
	}
	e.links = base == "cp" && p.has("s", "symbolic-link", "l", "link")
	return e
}

// runsCommand are, per command, the options whose value is a command
// line the program runs ("tar -I 'rm x'", "rsync -e CMD"). Other options
// that run a program name a file of settings (ssh -F) or an editor's
// commands (vim -c), not a command line.
var runsCommand = map[string][]string{
	"rsync": {"e", "rsh"},
	"scp":   {"S"},
	"sort":  {"compress-program"},
	"tar":   {"to-command", "checkpoint-action", "I", "use-compress-program", "F", "info-script", "new-volume-script", "rmt-command", "rsh-command"},
	"zip":   {"unzip-command"},
}

// commandValues are the literal values of the options named, read as the
// shell code they may be: the command asks in any case, and a deny rule
// for what a value runs denies it.
func commandValues(p parsed, names []string) []string {
	var out []string
	for _, g := range p.options {
		if g.effect == runs && g.hasValue && g.value.literal && contains(names, g.name) {
			out = append(out, g.value.value)
		}
	}
	return out
}

// listedFiles is why the files a command reads are known only when it
// runs: an option that reads their names from a list file or from
// standard input ("sort --files0-from=-", "tar -T list", "zip -@").
func listedFiles(base string, p parsed) string {
	g, ok := p.first(listsFiles)
	if !ok {
		return ""
	}
	from := "standard input"
	if g.hasValue && g.value.value != "-" {
		from = g.value.value
	}
	return base + " " + g.written + " reads the names of the files it reads from " + from + ", known only when it runs"
}

// stdinListed reports whether the option that lists the files a command
// reads reads the list from standard input: one that takes no file
// ("zip -@") or is given "-".
func stdinListed(p parsed) bool {
	g, ok := p.first(listsFiles)
	return ok && (!g.hasValue || g.value.literal && g.value.value == "-")
}

// listedNames are the names a list of files read from standard input
// holds, one a line or ended by a NUL, as words relative to the
// directory in: a deny rule for one denies the call, which asks in any
// case, since a name may be read otherwise (tar reads options in it).
func listedNames(text string, in word) []word {
	var out []word
	for name := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == 0 }) {
		w := in
		w.pattern, w.pos, w.end = false, 0, 0
		if path.IsAbs(name) {
			w.value, w.tilde = name, false
		} else {
			w.value = path.Join(in.value, name)
		}
		out = append(out, w)
	}
	return out
}

// allKnown reports whether every word is literal and no glob.
func allKnown(words []word) bool {
	for _, w := range words {
		if !w.literal || w.pattern {
			return false
		}
	}
	return true
}
