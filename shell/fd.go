package shell

import "strings"

// fd (fdfind on Debian), read against its options: -x and -X run the
// words after them, up to ";" or the end, as a command for what it
// finds, and may be clustered (-Hx); joined (--exec=CMD, -xCMD) the
// command is that one word and the words after it are fd's own, as fd
// 8's argument parser reads them (checked with fdfind 8.6). It takes no
// abbreviation of a long option.

// fdOptions are fd 8's options, the hidden ones it accepts included.
var fdOptions = flagSet(byEffect{
	inert: `
		H hidden
		no-hidden
		I no-ignore
		ignore
		no-ignore-vcs
		ignore-vcs
		no-ignore-parent
		no-global-ignore-file
		u unrestricted
		s case-sensitive
		i ignore-case
		g glob
		regex
		F fixed-strings
		and:
		a absolute-path
		relative-path
		l list-details
		L follow
		no-follow
		p full-path
		0 print0
		d: max-depth:
		maxdepth:
		min-depth:
		exact-depth:
		E: exclude:
		prune
		t: type:
		e: extension:
		S: size:
		changed-within:
		changed-after:
		change-newer-than:
		newer:
		changed-before:
		change-older-than:
		older:
		o: owner:
		batch-size:
		c: color:
		j: threads:
		max-results:
		max-buffer-time:
		1
		q quiet
		show-errors
		path-separator:
		search-path:
		strip-cwd-prefix
		one-file-system
		h help
		V version
	`,
	readsArg: `
		ignore-file:
	`,
	changes: `
		base-directory:
	`,
	runs: `
		x: exec:
		X: exec-batch:
	`,
})

// fdEffects reads fd: the commands -x and -X run, each decided as a
// command is, and the other words against its options, where an option
// it does not have asks.
func fdEffects(args []word) effects {
	var e effects
	var rest []word
	x := fdOptions.indexed()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.literal && a.value == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		first, ok := fdExec(x, a)
		if !ok {
			rest = append(rest, a)
			continue
		}
		if first.value != "" {
			// A joined command is that one word; the words after it
			// are fd's own.
			e.commands = append(e.commands, []word{first})
			continue
		}
		var inner []word
		inner, i = commandUntil(args, i+1, ";")
		e.commands = append(e.commands, nonEmpty(inner)...)
	}
	p := fdOptions.parseFlags("fd", rest, true)
	e.unseen = p.opaque
	if g, ok := p.first(runs); ok && e.unseen == "" {
		// An -x the loop did not take: a word made when it runs.
		e.unseen = "fd " + g.written + " runs a command the splitter cannot find"
	}
	if len(e.commands) > 0 {
		for i, command := range e.commands {
			e.commands[i] = fdPlaceholders(command)
		}
		e.reads = fdTrees(p)
	}
	return e
}

// fdPlaceholder are the words fd replaces, in a command it runs, with
// what it found: the path, its base name, its directory, and either
// without its extension.
var fdPlaceholder = []string{"{}", "{/}", "{//}", "{.}", "{/.}"}

// fdPlaceholders is a command fd runs, as the words it is given: a word
// holding "{}" is read as find's is, one holding another placeholder is
// known only when it runs, and a command with none is given the path fd
// found as its last word, "{}", as fd gives it.
func fdPlaceholders(command []word) []word {
	out := make([]word, 0, len(command)+1)
	found := false
	for _, w := range command {
		for _, p := range fdPlaceholder {
			if w.literal && strings.Contains(w.value, p) {
				found = true
				w.literal = p == "{}"
			}
		}
		out = append(out, w)
	}
	if !found {
		out = append(out, word{value: "{}", literal: true})
	}
	return out
}

// fdTrees are the directories fd searches, read whole by the command it
// runs on what it finds: its operands after the pattern and the values
// of --search-path, or the working directory when there are none.
func fdTrees(p parsed) []word {
	var dirs []word
	if len(p.operands) > 1 {
		dirs = append(dirs, p.operands[1:]...)
	}
	for _, g := range p.options {
		if g.name == "search-path" && g.hasValue {
			dirs = append(dirs, g.value)
		}
	}
	if len(dirs) == 0 {
		dirs = []word{{value: ".", literal: true}}
	}
	return asTrees(dirs, &tree{})
}

// fdExec reports whether the word gives fd's -x or -X, and the first word
// of the command when it is joined to the option (--exec=CMD, -HxCMD).
func fdExec(x *optionIndex, a word) (word, bool) {
	v := a.value
	if !a.literal || len(v) < 2 || v[0] != '-' {
		return word{}, false
	}
	if name, value, joined := strings.Cut(strings.TrimPrefix(v, "--"), "="); strings.HasPrefix(v, "--") {
		if name != "exec" && name != "exec-batch" {
			return word{}, false
		}
		if !joined {
			return word{}, true
		}
		return word{value: value, literal: true, pos: a.pos, end: a.end}, true
	}
	for j := 1; j < len(v); j++ {
		o, ok := x.short[v[j]]
		switch {
		case !ok:
			return word{}, false
		case o.effect == runs:
			return word{value: v[j+1:], literal: true, pos: a.pos, end: a.end}, true
		case o.arity != bare:
			// The rest of the cluster is this option's value.
			return word{}, false
		}
	}
	return word{}, false
}
