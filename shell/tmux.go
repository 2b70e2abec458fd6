package shell

import (
	"strings"
	"sync"
)

// tmux: a server that runs its own command language, whose commands may
// start a program, run a string through a shell, or type keys into a
// pane. Each command of a line is read; the ones that run nothing are
// decided as written.

// tmuxOptions are tmux's options before its command: -c runs a shell
// command, -f reads a configuration of tmux commands.
var tmuxOptions = flagSet(byEffect{
	inert: `
		2
		C
		D
		l
		N
		u
		v
		V
		L:
		S:
		T:
	`,
	runs: `
		c:
		f:
	`,
})

// tmuxReads are the tmux commands that run no command of their own,
// by their names and aliases; every other starts a shell, runs a shell
// command or tmux commands, or types keys into a pane.
var tmuxReads = map[string]bool{
	"ls": true, "list-sessions": true, "list-windows": true, "lsw": true, "list-panes": true, "lsp": true,
	"list-clients": true, "lsc": true, "list-buffers": true, "lsb": true, "list-keys": true, "lsk": true,
	"list-commands": true, "lscm": true, "has-session": true, "has": true, "kill-session": true,
	"kill-server": true, "kill-window": true, "killw": true, "kill-pane": true, "killp": true,
	"detach-client": true, "detach": true, "rename-session": true, "rename": true, "rename-window": true,
	"renamew": true, "select-window": true, "selectw": true, "select-pane": true, "selectp": true,
	"capture-pane": true, "capturep": true, "show-options": true, "show": true, "show-buffer": true,
	"showb": true, "server-info": true, "info": true, "display-message": true, "display": true,
}

// tmuxEffects reads tmux: its commands, separated by ";" words, each
// read by tmuxCommand; its -c string runs through a shell. A format
// holding "#(", which runs a shell command, and a configuration file
// (-f), which holds tmux commands, ask.
func tmuxEffects(args []word) effects {
	p := tmuxOptions.parseFlags("tmux", args, false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case p.has("V"):
		return effects{}
	}
	e := effects{wrapper: true}
	for _, g := range p.options {
		switch g.name {
		case "c":
			e.unseen = firstOf(e.unseen, "tmux -c runs a command with the user's shell")
			if g.value.literal {
				e.scripts = append(e.scripts, g.value.value)
			}
		case "f":
			e.unseen = firstOf(e.unseen, "tmux -f runs the tmux commands of a file")
		}
	}
	rest := p.operands
	if len(rest) == 0 && !p.has("c") {
		e.unseen = "tmux starts a shell in a new session"
		return e
	}
	var command []word
	for i, w := range rest {
		switch {
		case !w.literal:
			e.unseen = firstOf(e.unseen, "tmux runs a command the splitter does not read: "+w.value)
		case strings.Contains(w.value, "#("):
			e.unseen = firstOf(e.unseen, "tmux runs the shell command of a format: "+w.value)
		}
		end := w.literal && strings.HasSuffix(w.value, ";")
		if end && w.value != ";" {
			// "cmd;" ends a command, "cmd\\;" does not.
			e.unseen = firstOf(e.unseen, "tmux reads a word ending in ; as it quotes it: "+w.value)
			command = append(command, word{value: strings.TrimSuffix(w.value, ";"), literal: true})
		} else if !end {
			command = append(command, w)
		}
		if end || i == len(rest)-1 {
			e = tmuxCommand(e, command)
			command = nil
		}
	}
	return e
}

// tmuxCommandOptions are the options of the tmux commands that run a
// shell command, or type keys into a pane, by the command's names: -c
// names the directory it runs in, -e sets its environment.
// Built on first use: a hook call that runs no tmux pays nothing.
var tmuxCommandOptions = sync.OnceValue(func() map[string]*optionTable {
	session := flagSet(byEffect{inert: `
		A
		d
		D
		E
		P
		X
		c:
		e:
		f:
		F:
		n:
		s:
		t:
		x:
		y:
	`})
	window := flagSet(byEffect{inert: `
		a
		b
		d
		k
		P
		S
		c:
		e:
		F:
		n:
		t:
	`})
	split := flagSet(byEffect{inert: `
		b
		d
		f
		h
		I
		v
		P
		Z
		c:
		e:
		l:
		p:
		t:
		F:
	`})
	respawn := flagSet(byEffect{inert: `
		k
		c:
		e:
		t:
	`})
	popup := flagSet(byEffect{inert: `
		B
		C
		E
		k
		N
		b:
		c:
		d:
		e:
		h:
		s:
		S:
		t:
		T:
		w:
		x:
		y:
	`})
	run := flagSet(byEffect{inert: `
		b
		C
		c:
		d:
		t:
	`})
	ifShell := flagSet(byEffect{inert: `
		b
		F
		t:
	`})
	keys := flagSet(byEffect{inert: `
		F
		H
		K
		l
		M
		R
		X
		c:
		N:
		t:
	`})
	return map[string]*optionTable{
		"new-session": session, "new": session, "new-window": window, "neww": window,
		"split-window": split, "splitw": split, "respawn-pane": respawn, "respawnp": respawn,
		"respawn-window": respawn, "respawnw": respawn, "display-popup": popup, "popup": popup,
		"run-shell": run, "run": run, "if-shell": ifShell, "if": ifShell, "send-keys": keys, "send": keys,
	}
})

// tmuxCommand adds to e what one tmux command runs. One on the table of
// those that run nothing runs nothing. One that starts a program runs
// its one operand through a shell, or its operands as a command; in a
// session that exists it runs in that session's directory, not the
// caller's, and -e gives it environment, read as an export. run-shell
// and if-shell run a string through a shell, if-shell then tmux commands
// (which ask). send-keys types keys into a pane: what the pane does with
// them is unseen, and the text they type is read as a script too, so a
// deny rule for what it names holds. Any other command asks.
func tmuxCommand(e effects, words []word) effects {
	if len(words) == 0 {
		return e
	}
	name := words[0].value
	if tmuxReads[name] {
		return e
	}
	table := tmuxCommandOptions()[name]
	if table == nil {
		e.unseen = firstOf(e.unseen, "tmux "+name+" runs commands in a tmux server")
		return e
	}
	p := table.parseFlags("tmux "+name, words[1:], false)
	if p.opaque != "" {
		e.unseen = firstOf(e.unseen, p.opaque)
		return e
	}
	for _, g := range p.options {
		if g.name == "e" {
			// The variable is held to the tables as an export is, and
			// a pager or an editor it names is read as code.
			name, value, _ := strings.Cut(g.value.value, "=")
			if !g.value.literal || !isName(name) {
				e.unseen = firstOf(e.unseen, "tmux "+name+" -e sets a variable the splitter does not read: "+g.value.value)
				continue
			}
			e.scripts = append(e.scripts, "export "+name+"="+shellQuote(value))
		}
	}
	if p.has("c") || name != "new-session" && name != "new" {
		e.elsewhere = "tmux " + name + " runs its command in a directory the tmux server keeps"
	}
	code := p.operands
	switch name {
	case "send-keys", "send":
		e.unseen = firstOf(e.unseen, "tmux "+name+" types keys into a pane")
		e.scripts = append(e.scripts, typedText(code, p.has("l")))
		return e
	case "run-shell", "run", "if-shell", "if":
		if p.has("C", "F") {
			e.unseen = firstOf(e.unseen, "tmux "+name+" runs a tmux command or format")
		}
		if len(code) > 1 {
			e.unseen = firstOf(e.unseen, "tmux "+name+" runs tmux commands")
		}
		code = code[:min(1, len(code))]
	}
	switch {
	case len(code) == 0:
		e.unseen = firstOf(e.unseen, "tmux "+name+" starts a shell")
	case !allLiteral(code):
	case len(code) == 1:
		e.scripts = append(e.scripts, code[0].value)
	default:
		e.commands = append(e.commands, code)
	}
	return e
}

// typedText is the text keys send-keys is given type: each word as it
// is, with no space between words, and, unless -l makes every word text,
// the names of the keys that end or space a line as the characters they
// type. Any other key name is typed as a line break: C-c drops the line.
func typedText(keys []word, literal bool) string {
	var b strings.Builder
	for _, k := range keys {
		switch v := k.value; {
		case literal:
			b.WriteString(v)
		case v == "Enter" || v == "KPEnter" || v == "C-m" || v == "C-j" || v == "^M" || v == "^J":
			b.WriteByte('\n')
		case v == "Space":
			b.WriteByte(' ')
		case v == "Tab" || v == "C-i":
			b.WriteByte('\t')
		case tmuxKeyName(v):
			b.WriteByte('\n')
		default:
			b.WriteString(v)
		}
	}
	return b.String()
}

// tmuxKeyName reports whether a word send-keys reads may be the name of
// a key rather than text: a modifier prefix (C-, M-, S-, ^) or a word
// of a capital letter and more letters or digits (Escape, BSpace, F1).
func tmuxKeyName(v string) bool {
	if strings.HasPrefix(v, "C-") || strings.HasPrefix(v, "M-") || strings.HasPrefix(v, "S-") || len(v) == 2 && v[0] == '^' {
		return true
	}
	if len(v) < 2 || v[0] < 'A' || v[0] > 'Z' {
		return false
	}
	for _, c := range v[1:] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
