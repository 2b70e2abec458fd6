package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Programs a command runs by name from a value: the pager man -P names,
// and the pagers and editors the environment names, which man, git and
// less run through a shell. The value stays unseen, as a program no
// rule allows, and when literal it is also read as the shell code it is,
// so a deny or ask rule for the program it names holds.

// commandVariables are the variables whose value a program runs as a
// shell command, with the prefix less strips from LESSOPEN's.
var commandVariables = map[string]string{
	"PAGER": "", "MANPAGER": "", "GIT_PAGER": "", "EDITOR": "", "VISUAL": "", "GIT_EDITOR": "",
	"GIT_SEQUENCE_EDITOR": "", "BROWSER": "", "SSH_ASKPASS": "", "GIT_ASKPASS": "", "GIT_SSH_COMMAND": "",
	"LESSOPEN": "|", "LESSCLOSE": "",
}

// pagerScripts are the literal values of the options of man that name a
// program it runs through a shell: -P and --pager, in any spelling the
// option reader accepts.
func pagerScripts(base string, args []word) []string {
	if base != "man" {
		return nil
	}
	var scripts []string
	for _, g := range manOptions.parseFlags(base, args, true).options {
		if (g.name == "P" || g.name == "pager") && g.hasValue && g.value.literal {
			scripts = append(scripts, g.value.value)
		}
	}
	return scripts
}

// valueScript reads the literal value of a variable in commandVariables
// as the shell code a program will run, at depth.
func (s *splitter) valueScript(a *syntax.Assign, depth int) error {
	if a.Name == nil || a.Value == nil {
		return nil
	}
	prefix, ok := commandVariables[a.Name.Value]
	if !ok {
		return nil
	}
	w := s.wordOf(a.Value)
	if !w.literal {
		return nil
	}
	src := strings.TrimLeft(strings.TrimPrefix(w.value, prefix), "|")
	return s.runString(a.Name.Value, src, depth+1)
}

// runString reads src as a string a program runs through a shell, at
// depth: one the splitter cannot read asks, with what can be read of it
// held to the deny and ask rules.
func (s *splitter) runString(what, src string, depth int) error {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	err := s.shellScript(what, src, depth)
	if u, ok := err.(*unreadable); ok {
		s.unread(src, src, what+" runs a string the splitter cannot read: "+u.why, u, depth)
		return nil
	}
	return err
}
