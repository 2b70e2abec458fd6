package shell

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// The option reader: a command's options resolved as GNU getopt_long
// resolves them, against a table of every option the command has.

// arity is whether an option takes an argument.
type arity uint8

const (
	// bare options take none.
	bare arity = iota
	// required ones take the rest of the word or the next word.
	required
	// optional ones take only a joined value: -xVALUE, --name=VALUE.
	optional
	// octal ones, short, take only the octal digits joined to them, and
	// the cluster goes on after them: perl -l012e CODE is -l012 -e CODE.
	octal
)

// effect is what an option makes its command do.
type effect uint8

const (
	// inert options change only what the command prints.
	inert effect = iota
	// readsArg options name a file the command reads.
	readsArg
	// writesArg options name a file the command writes.
	writesArg
	// listsFiles options name a file, or standard input, that lists the
	// files the command reads: those are known only when it runs.
	listsFiles
	// runs options make the command run a program.
	runs
	// inlineCode options are the program itself, code in another
	// language given on the command line (python -c, perl -e).
	inlineCode
	// loadsCode options name code the command loads before its program,
	// or a setting that may make it load some (perl -M, node --require,
	// php -d).
	loadsCode
	// runsRest options end the options: the words after them, the
	// option's value first when it takes one, are a program and its
	// arguments (python -m MODULE ARGS, gdb --args PROGRAM ARGS).
	runsRest
	// changes options make the command change something else, or work
	// in a way the tables do not follow; the command is not read-only.
	changes
)

// flag is one option of a table.
type flag struct {
	name   string // one letter for a short option, the name for a long one
	arity  arity
	effect effect
}

// byEffect are a command's options by effect. Each is a list of words
// such as "o:" or "output:": a letter is a short option and a longer
// name a long one; ":" marks an argument it needs, "::" one it may
// take only when joined, and "#" the octal digits a short option may
// have joined before the rest of its cluster. The entries write one option a line, its short
// letter beside its long names ("o: output:"), which the reader, taking
// the words as they come, does not need and a reviewer does.
type byEffect [changes + 1]string

// optionTable is a command's options: the lists that name them, read
// into an index the first time a command line is read against them. A
// process that decides "git status" so builds only git's table, not the
// hundred others. It is safe for concurrent use.
type optionTable struct {
	lists byEffect
	// gnu marks the table of a GNU tool, which has --help and --version
	// besides the options its lists name.
	gnu   bool
	once  sync.Once
	index optionIndex
}

// optionIndex is an option table read for lookups.
type optionIndex struct {
	short map[byte]flag
	long  []flag // sorted by name
	// risky is set when an option writes a file, runs a program or
	// changes anything: one a word made when the command runs may turn
	// out to be. An option that names a file the command reads is not
	// among them, since a word made when it runs is a read known only
	// then in any case, a subject that asks under the read tool.
	risky bool
}

// flagSet is a table of the options by effect.
func flagSet(lists byEffect) *optionTable {
	return &optionTable{lists: lists}
}

// indexed is the table's index, built on its first use.
func (f *optionTable) indexed() *optionIndex {
	f.once.Do(f.build)
	return &f.index
}

// tablesBuilt counts the tables built on their first use (option
// tables, git's sets of inert options, the programs and the wrappers),
// for the test that holds the package's initialization to building none.
var tablesBuilt atomic.Int64

// build indexes the table's lists.
func (f *optionTable) build() {
	tablesBuilt.Add(1)
	x := optionIndex{short: map[byte]flag{}}
	for i, list := range f.lists {
		e := effect(i)
		if f.gnu && e == inert {
			list += gnu
		}
		for _, spec := range strings.Fields(list) {
			name := strings.TrimRight(spec, ":#")
			o := flag{name: name, effect: e}
			switch spec[len(name):] {
			case ":":
				o.arity = required
			case "::":
				o.arity = optional
			case "#":
				o.arity = octal
			}
			x.risky = x.risky || e != inert && e != readsArg && e != listsFiles
			if len(name) == 1 {
				x.short[name[0]] = o
			} else {
				x.long = append(x.long, o)
			}
		}
	}
	sort.Slice(x.long, func(i, j int) bool { return x.long[i].name < x.long[j].name })
	f.index = x
}

// given is one option as a command line gives it.
type given struct {
	flag
	// written is the option as the reason names it: "-o" or "--output".
	written string
	// value is its argument, when it has one.
	value    word
	hasValue bool
}

// parsed is a command line read against a table.
type parsed struct {
	options  []given
	operands []word
	// opaque is why the options cannot be known, "" when they are.
	opaque string
}

// parseFlags reads args as getopt_long does: a long option may be any
// unambiguous abbreviation of its name, with its argument joined by "="
// or in the next word; short options cluster, and one that takes an
// argument takes the rest of its cluster or the next word; "--" ends the
// options. A command that permutes reads options among its operands, as
// GNU tools do; one that does not stops at the first operand, and any
// at an option that runs the rest of the line (python -m). A word
// that is no option the table knows, or an ambiguous abbreviation, makes
// the line opaque: the command may read it as something the table does
// not say. So does a word made when the command runs, or a glob that may
// begin with a dash, where an option may stand, when the table is risky:
// it may expand to that option.
func (f *optionTable) parseFlags(cmd string, args []word, permute bool) parsed {
	x := f.indexed()
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		given := len(p.options)
		switch {
		case procSubst(a):
			p.operands = append(p.operands, a)
		case x.risky && (!a.literal || a.pattern && !literalHead(v)):
			p.opaque = firstOf(p.opaque, "the word "+v+" may be an option of "+cmd+", known only when it runs")
			p.operands = append(p.operands, a)
		case v == "--" && a.literal:
			p.operands = appendWords(p.operands, args[i+1:])
			return p
		case strings.HasPrefix(v, "--"):
			i = x.long1(cmd, args, i, &p)
		case len(v) > 1 && v[0] == '-':
			i = x.cluster(cmd, args, i, &p)
		case permute:
			p.operands = append(p.operands, a)
		default:
			p.operands = appendWords(p.operands, args[i:])
			return p
		}
		if n := len(p.options); n > given && p.options[n-1].effect == runsRest {
			p.operands = appendWords(p.operands, args[i+1:])
			return p
		}
	}
	return p
}

// literalHead reports whether a glob begins with a directory written
// literally, "src/*.go": its matches begin "src/", never a dash, so it
// cannot expand to an option (or to a cluster a tool reads without one),
// where "*.go" may match "-rf.go".
func literalHead(glob string) bool {
	head, _, found := strings.Cut(glob, "/")
	return found && head != "" && head[0] != '-' && !strings.ContainsAny(head, "*?[]\\")
}

// appendWords is words after to, sharing words when to is empty: the
// words of a command are not changed once read.
func appendWords(to, words []word) []word {
	if len(to) == 0 {
		return words
	}
	return append(to, words...)
}

// long1 reads the long option at args[i] and returns the index of the
// last word it took.
func (x *optionIndex) long1(cmd string, args []word, i int, p *parsed) int {
	name, value, joined := strings.Cut(args[i].value[2:], "=")
	o, why := x.lookup(name)
	if why != "" {
		p.opaque = firstOf(p.opaque, cmd+" --"+name+" "+why)
		return i
	}
	g := given{flag: o, written: "--" + o.name}
	switch {
	case joined && o.arity == bare:
		p.opaque = firstOf(p.opaque, cmd+" --"+o.name+" takes no value")
		return i
	case joined:
		g.value, g.hasValue = word{value: value, literal: args[i].literal, pattern: args[i].pattern, pos: args[i].pos, end: args[i].end}, true
	case o.arity == required && i+1 < len(args):
		i++
		g.value, g.hasValue = args[i], true
	}
	p.options = append(p.options, g)
	return i
}

// lookup finds a long option by its name or an unambiguous abbreviation.
func (x *optionIndex) lookup(name string) (flag, string) {
	at := sort.Search(len(x.long), func(j int) bool { return x.long[j].name >= name })
	if at < len(x.long) && x.long[at].name == name {
		return x.long[at], ""
	}
	end := at
	for end < len(x.long) && strings.HasPrefix(x.long[end].name, name) {
		end++
	}
	switch {
	case name == "" || end == at:
		return flag{}, "is not an option the splitter knows"
	case end-at > 1:
		return flag{}, "is an ambiguous abbreviation"
	}
	return x.long[at], ""
}

// cluster reads the short options of args[i] and returns the index of
// the last word they took.
func (x *optionIndex) cluster(cmd string, args []word, i int, p *parsed) int {
	v := args[i].value
	for j := 1; j < len(v); j++ {
		o, ok := x.short[v[j]]
		if !ok {
			p.opaque = firstOf(p.opaque, cmd+" -"+v[j:j+1]+" is not an option the splitter knows")
			return i
		}
		g := given{flag: o, written: "-" + o.name}
		rest := args[i]
		rest.value = v[j+1:]
		switch {
		case o.arity == bare:
			p.options = append(p.options, g)
			continue
		case o.arity == octal:
			digits := len(rest.value) - len(strings.TrimLeft(rest.value, "01234567"))
			rest.value = rest.value[:digits]
			g.value, g.hasValue = rest, digits > 0
			p.options = append(p.options, g)
			j += digits
			continue
		case rest.value != "":
			g.value, g.hasValue = rest, true
		case o.arity == required && i+1 < len(args):
			i++
			g.value, g.hasValue = args[i], true
		}
		p.options = append(p.options, g)
		return i
	}
	return i
}

// first is the first option given with one of the effects, and whether
// there is one.
func (p parsed) first(effects ...effect) (given, bool) {
	for _, g := range p.options {
		for _, e := range effects {
			if g.effect == e {
				return g, true
			}
		}
	}
	return given{}, false
}

// has reports whether one of the named options was given.
func (p parsed) has(names ...string) bool {
	for _, g := range p.options {
		if contains(names, g.name) {
			return true
		}
	}
	return false
}
