package shell

import (
	"sort"
	"strings"
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
	// runs options make the command run a program.
	runs
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

// optionTable is a command's options.
type optionTable struct {
	short map[byte]flag
	long  []flag // sorted by name
	// risky is set when an option writes a file, runs a program or
	// changes anything: one a word made when the command runs may turn
	// out to be. An option that names a file the command reads is not
	// among them, since a word made when it runs is a read known only
	// then in any case, a subject that asks under the read tool.
	risky bool
}

// flagSet builds a table from its options by effect. Each list is words
// such as "o:" or "output:": a letter is a short option and a longer
// name a long one; ":" marks an argument it needs and "::" one it may
// take only when joined.
func flagSet(byEffect map[effect]string) optionTable {
	f := optionTable{short: map[byte]flag{}}
	for e, list := range byEffect {
		for _, spec := range strings.Fields(list) {
			name := strings.TrimRight(spec, ":")
			o := flag{name: name, effect: e}
			switch len(spec) - len(name) {
			case 1:
				o.arity = required
			case 2:
				o.arity = optional
			}
			f.risky = f.risky || e != inert && e != readsArg
			if len(name) == 1 {
				f.short[name[0]] = o
			} else {
				f.long = append(f.long, o)
			}
		}
	}
	sort.Slice(f.long, func(i, j int) bool { return f.long[i].name < f.long[j].name })
	return f
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
// GNU tools do; one that does not stops at the first operand. A word
// that is no option the table knows, or an ambiguous abbreviation, makes
// the line opaque: the command may read it as something the table does
// not say. So does a word made when the command runs, or a glob, where an
// option may stand, when the table is risky: it may expand to that
// option.
func (f optionTable) parseFlags(cmd string, args []word, permute bool) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		switch {
		case procSubst(a):
			p.operands = append(p.operands, a)
		case f.risky && (!a.literal || a.pattern):
			p.opaque = firstOf(p.opaque, "the word "+v+" may be an option of "+cmd+", known only when it runs")
			p.operands = append(p.operands, a)
		case v == "--" && a.literal:
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(v, "--"):
			i = f.long1(cmd, args, i, &p)
		case len(v) > 1 && v[0] == '-':
			i = f.cluster(cmd, args, i, &p)
		case permute:
			p.operands = append(p.operands, a)
		default:
			p.operands = append(p.operands, args[i:]...)
			return p
		}
	}
	return p
}

// long1 reads the long option at args[i] and returns the index of the
// last word it took.
func (f optionTable) long1(cmd string, args []word, i int, p *parsed) int {
	name, value, joined := strings.Cut(args[i].value[2:], "=")
	o, why := f.lookup(name)
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
func (f optionTable) lookup(name string) (flag, string) {
	at := sort.Search(len(f.long), func(j int) bool { return f.long[j].name >= name })
	if at < len(f.long) && f.long[at].name == name {
		return f.long[at], ""
	}
	end := at
	for end < len(f.long) && strings.HasPrefix(f.long[end].name, name) {
		end++
	}
	switch {
	case name == "" || end == at:
		return flag{}, "is not an option the splitter knows"
	case end-at > 1:
		return flag{}, "is an ambiguous abbreviation"
	}
	return f.long[at], ""
}

// cluster reads the short options of args[i] and returns the index of
// the last word they took.
func (f optionTable) cluster(cmd string, args []word, i int, p *parsed) int {
	v := args[i].value
	for j := 1; j < len(v); j++ {
		o, ok := f.short[v[j]]
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
