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

// gitCommandKeys are the settings whose value git runs as a shell
// command, with the prefix git strips first: credential.helper runs a
// value that begins with "!" through the shell.
var gitCommandKeys = map[string]string{
	"core.editor": "", "core.pager": "", "sequence.editor": "", "core.sshcommand": "",
	"core.askpass": "", "diff.external": "", "credential.helper": "!",
}

// pagerScripts are the literal values of options that name a program
// run through a shell: man's -P and --pager, and git's -c settings of
// gitCommandKeys (any pager.<command> too), in any spelling the option
// readers accept. The command stays unseen; reading the value holds a
// deny or ask rule for what it runs.
func pagerScripts(base string, args []word) []string {
	var scripts []string
	switch base {
	case "man":
		for _, g := range manOptions.parseFlags(base, args, true).options {
			if (g.name == "P" || g.name == "pager") && g.hasValue && g.value.literal {
				scripts = append(scripts, g.value.value)
			}
		}
	case "git":
		for _, g := range gitGlobals.parseFlags(base, args, false).options {
			if g.name != "c" || !g.value.literal {
				continue
			}
			key, value, _ := strings.Cut(g.value.value, "=")
			key = strings.ToLower(key)
			prefix, ok := gitCommandKeys[key]
			if !ok && !strings.HasPrefix(key, "pager.") {
				continue
			}
			if value, ok = strings.CutPrefix(value, prefix); ok {
				scripts = append(scripts, value)
			}
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
