package shell

import (
	"slices"
	"strings"
)

// Builtins that keep a string and run it later, or run it where the
// splitter cannot follow: a completion's command (compgen -C, complete
// -C), a key binding's (bind -x), the editor fc starts, mapfile's
// callback and a trap on a condition the splitter does not read as one
// more command. Each stays unseen, and the string, when literal, is also
// read as the shell code it is, so a deny rule for what it runs holds.
// Their options are tables read by the one option reader (options.go)
// as bash's own reader reads a builtin's: short options only, clustered,
// a value joined to its letter or in the next word, up to "--" or the
// first operand. An option outside the table is unseen, and so is a word
// made when it runs where an option may stand in a table with an option
// that runs a string: it may be that option.

// keptCode is the effect of a builtin that runs what, a string it is
// given, where no rule reads it: unseen, with the string read as code
// when literal.
func keptCode(why string, what word) effects {
	e := effects{unseen: why}
	if what.literal {
		e.scripts = []string{what.value}
	}
	return e
}

// completionOptions are the options of compgen, complete and compopt:
// -C runs a command and -F a function when the completion is asked for;
// -W's word list is expanded then, running the substitutions it holds;
// -A, -G, -P, -S, -X and -o take a value that is a name, a pattern or
// text, never code.
var completionOptions = flagSet(byEffect{
	inert: `
		a
		b
		c
		d
		e
		f
		g
		j
		k
		s
		u
		v
		p
		r
		D
		E
		I
		A:
		G:
		P:
		S:
		X:
		o:
		W:
	`,
	runs: `
		C:
		F:
	`,
})

// completionEffects reads compgen, complete and compopt: -C runs a
// command, -F a function, and -W's word list is expanded, running the
// substitutions it holds.
func completionEffects(base string, args []word) effects {
	if base == "compopt" {
		args = plusAsMinus(args)
	}
	p := completionOptions.parseFlags(base, args, false)
	for _, o := range p.options {
		switch {
		case o.name == "C":
			return keptCode(base+" -C runs a command when it completes", o.value)
		case o.name == "F":
			return effects{unseen: base + " -F runs a function when it completes"}
		case o.name == "W" && (!o.value.literal || strings.ContainsAny(o.value.value, "$`<>")):
			return keptCode(base+" -W expands its word list, running what it holds", word{value: ": " + o.value.value, literal: o.value.literal})
		}
	}
	return effects{unseen: p.opaque}
}

// plusAsMinus is compopt's words with its options written "+o" as "-o":
// "+" turns an option off where "-" turns it on, which changes nothing
// the splitter reads, and the option reader knows only "-". It is the one
// builtin read here whose options take a "+".
func plusAsMinus(args []word) []word {
	var out []word
	for i, a := range args {
		if len(a.value) < 2 || a.value[0] != '+' && a.value[0] != '-' || a.value == "--" {
			break
		}
		if a.value[0] == '+' {
			if out == nil {
				out = slices.Clone(args)
			}
			out[i].value = "-" + a.value[1:]
		}
	}
	if out == nil {
		return args
	}
	return out
}

// fcOptions are fc's options: -e names the editor it starts, -l lists
// the history, -s runs a command from it.
var fcOptions = flagSet(byEffect{
	inert: `
		l
		n
		r
	`,
	runs: `
		e:
		s
	`,
})

// fcEffects reads fc: -l lists the history, and anything else (-s with
// -l too) runs commands from it, after an editor (-e's, or FCEDIT's)
// changes them.
func fcEffects(args []word) effects {
	// A negative number is an operand, the history entry counted back
	// from the last: "fc -l -10". The options end before it.
	for i, a := range args {
		if len(a.value) > 1 && a.value[0] == '-' && a.value[1] >= '0' && a.value[1] <= '9' {
			args = args[:i]
			break
		}
	}
	p := fcOptions.parseFlags("fc", args, false)
	if p.opaque != "" {
		return effects{unseen: p.opaque}
	}
	var editor word
	lists, runs := false, false
	for _, o := range p.options {
		switch o.name {
		case "l":
			lists = true
		case "e":
			editor = o.value
		case "s":
			runs = true
		}
	}
	const fromHistory = "fc runs commands from the history, which no rule reads"
	switch {
	case lists && !runs:
		return effects{}
	case runs || editor.value == "" || editor.value == "-":
		return effects{unseen: fromHistory}
	}
	return keptCode(fromHistory+", after the editor "+editor.value+" changes them", editor)
}

// bindOptions are bind's options: -x binds a key to a shell command;
// the others list, remove or read bindings (-f from a file).
var bindOptions = flagSet(byEffect{
	inert: `
		l
		p
		P
		s
		S
		v
		V
		X
		m:
		q:
		u:
		r:
	`,
	readsArg: `
		f:
	`,
	runs: `
		x:
	`,
})

// bindEffects reads bind: -x binds a key to a shell command, which
// readline runs when the key is typed; the other options list, remove or
// read bindings, and a word alone is a binding readline reads.
func bindEffects(args []word) effects {
	p := bindOptions.parseFlags("bind", args, false)
	for _, o := range p.options {
		if o.name != "x" {
			continue
		}
		command := o.value
		if _, after, ok := strings.Cut(command.value, ":"); ok {
			command.value = strings.TrimSpace(after)
			if n := len(command.value); n > 1 && (command.value[0] == '"' || command.value[0] == '\'') && command.value[n-1] == command.value[0] {
				command.value = command.value[1 : n-1]
			}
		}
		return keptCode("bind -x binds a key to a command the shell runs when it is typed", command)
	}
	return effects{unseen: p.opaque}
}

// mapfileCallback reads mapfile's -C, the string it runs every -c lines,
// and ok when it is given; without it mapfile is read as the builtin
// that sets its array.
func mapfileCallback(base string, args []word) (effects, bool) {
	p := mapfileOptions.parseFlags(base, args, false)
	if o, ok := p.first(runs); ok {
		return keptCode(base+" -C runs a string for every line it reads", o.value), true
	}
	if p.opaque != "" {
		return effects{unseen: p.opaque}, true
	}
	return effects{}, false
}

// trapCode is trap's effect, with the action read as code as well when
// it runs on a condition the splitter does not follow (DEBUG, RETURN,
// ERR), so a deny rule for what it runs holds there too.
func trapCode(args []word) effects {
	e := trapEffects(args)
	if e.unseen == "" || len(e.scripts) > 0 {
		return e
	}
	p := trapOptions.parseFlags("trap", args, false)
	if p.opaque == "" && len(p.operands) > 0 && p.operands[0].literal && p.operands[0].value != "-" {
		e.scripts = []string{p.operands[0].value}
	}
	return e
}

// enableSafe are the builtins that, disabled with enable -n, leave a
// program of the same name that does what the builtin did with the
// words the splitter read: any other changes what a later word means
// (enable -n cd: cd no longer moves the shell).
var enableSafe = words("echo test [ true false kill pwd")

// enableEffects reads enable: -f loads a builtin from a file, and -n
// disables those it names.
func enableEffects(args []word) effects {
	p := enableOptions.parseFlags("enable", args, false)
	if _, ok := p.first(runs); ok {
		return effects{unseen: "enable -f loads a builtin from a shared object"}
	}
	if p.opaque != "" {
		return effects{unseen: p.opaque}
	}
	disables := p.has("n")
	for _, n := range p.operands {
		if !n.literal {
			return effects{unseen: "enable " + n.value + " names a builtin when it runs"}
		}
		if disables && !enableSafe[n.value] {
			return effects{unseen: "enable -n " + n.value + " makes " + n.value + " run a program, not the builtin the splitter reads"}
		}
	}
	return effects{}
}

// waitOptions are wait's options: -p names the variable it sets, which
// waitEffects holds to the tables; the table marks it inert so that a
// process id made when it runs, "wait $pid", is read as the operand it
// is.
var waitOptions = flagSet(byEffect{
	inert: `
		f
		n
		p:
	`,
})

// waitEffects reads wait, whose -p names a variable it sets.
func waitEffects(args []word) effects {
	p := waitOptions.parseFlags("wait", args, false)
	why := p.opaque
	for _, o := range p.options {
		if o.name == "p" {
			if !o.value.literal {
				why = firstOf(why, "wait -p sets a variable named when it runs")
			}
			why = firstOf(why, shellVariableUnseen(o.value.value))
		}
	}
	return effects{unseen: why}
}

// aliasEffects reads alias: NAME=VALUE defines an alias the shell may
// expand later, so it is unseen, and VALUE, when literal, is read as the
// code it stands for. Names alone print the aliases.
func aliasEffects(args []word) effects {
	var e effects
	for _, a := range args {
		_, value, defines := strings.Cut(a.value, "=")
		switch {
		case !a.literal:
			return effects{unseen: "alias defines a command the shell expands later"}
		case defines:
			e.unseen = "alias defines a command the shell expands later"
			e.scripts = append(e.scripts, value)
		}
	}
	return e
}

// hashEffects reads hash: -p FILE NAME makes NAME run FILE, which is
// unseen, with FILE read as the program it runs.
func hashEffects(args []word) effects {
	p := hashOptions.parseFlags("hash", args, false)
	if o, ok := p.first(runs); ok {
		return keptCode("hash -p changes which program a name runs", o.value)
	}
	return effects{unseen: p.opaque}
}
