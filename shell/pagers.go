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
// shell command, with the prefix less strips from LESSOPEN's: pagers,
// editors and askpass programs, and the command bash runs before each
// prompt.
var commandVariables = map[string]string{
	"PAGER": "", "MANPAGER": "", "GIT_PAGER": "", "EDITOR": "", "VISUAL": "", "GIT_EDITOR": "",
	"GIT_SEQUENCE_EDITOR": "", "BROWSER": "", "SSH_ASKPASS": "", "GIT_ASKPASS": "", "GIT_SSH_COMMAND": "",
	"LESSOPEN": "|", "LESSCLOSE": "", "PROMPT_COMMAND": "", "FCEDIT": "", "GIT_EXTERNAL_DIFF": "",
	"SYSTEMD_PAGER": "", "SYSTEMD_EDITOR": "", "PSQL_PAGER": "", "MYSQL_PAGER": "", "GH_PAGER": "", "GH_EDITOR": "",
	"AWS_PAGER": "", "KUBE_EDITOR": "", "SUDO_EDITOR": "", "SUDO_ASKPASS": "",
}

// pagerVariables are the variables whose value a program runs through
// a shell with the text it shows on standard input and no word added:
// one set to a pager of knownPagers runs nothing else.
var pagerVariables = words("PAGER MANPAGER GIT_PAGER SYSTEMD_PAGER PSQL_PAGER MYSQL_PAGER GH_PAGER AWS_PAGER")

// knownPagers are the pagers that show their standard input and run
// nothing, with any of their options but those that name a file (less
// -o, -O and -k; less's "+" commands are other words).
var knownPagers = words("cat less more most")

// editorVariables are the variables whose value a program runs as an
// editor, with the file to edit added: one set to a program of
// quietEditors changes nothing.
var editorVariables = words("EDITOR VISUAL GIT_EDITOR GIT_SEQUENCE_EDITOR")

// quietEditors are the editors that leave the file as it is and run
// nothing: GIT_EDITOR=true git rebase --continue keeps the message.
var quietEditors = words("true : cat")

// unpaged are the assignments as, less those that set a pager to
// nothing or to a pager of knownPagers (GIT_PAGER=cat), or an editor to
// one of quietEditors.
func (s *splitter) unpaged(as []*syntax.Assign) []*syntax.Assign {
	var out []*syntax.Assign
	for i, a := range as {
		if s.setsPager(a) {
			if out == nil {
				out = append(make([]*syntax.Assign, 0, len(as)), as[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, a)
		}
	}
	if out == nil {
		return as
	}
	return out
}

// setsPager reports whether a sets a variable of pagerVariables to
// nothing, or to a literal known pager with options that name no file,
// or one of editorVariables to a quiet editor.
func (s *splitter) setsPager(a *syntax.Assign) bool {
	if a.Name == nil || a.Naked || a.Append || a.Index != nil || a.Array != nil {
		return false
	}
	name := a.Name.Value
	if !pagerVariables[name] && !editorVariables[name] {
		return false
	}
	if a.Value == nil {
		// "GIT_PAGER=": no pager; an empty editor is git's default.
		return pagerVariables[name]
	}
	w := s.wordOf(a.Value)
	if !w.literal || w.holdsCode {
		return false
	}
	if editorVariables[name] {
		return quietEditors[strings.TrimSpace(w.value)]
	}
	fields := strings.Fields(w.value)
	if len(fields) == 0 {
		return true
	}
	if !knownPagers[fields[0]] {
		return false
	}
	for _, f := range fields[1:] {
		// Letters only, without less's o, O and k, which name a file.
		if len(f) < 2 || f[0] != '-' || strings.Trim(f[1:], "abcdefghijlmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ") != "" {
			return false
		}
	}
	return true
}

// promptVariables are the prompts bash expands as a word in double
// quotes before it shows them, running the substitutions they hold: PS4
// before each command under set -x, the others in an interactive shell.
var promptVariables = map[string]bool{"PS0": true, "PS1": true, "PS2": true, "PS4": true}

// gitCommandKeys are the settings whose value git runs as a shell
// command, with the prefix git strips first: credential.helper runs a
// value that begins with "!" through the shell.
var gitCommandKeys = map[string]string{
	"core.editor": "", "core.pager": "", "sequence.editor": "", "core.sshcommand": "",
	"core.askpass": "", "diff.external": "", "credential.helper": "!", "core.fsmonitor": "",
	"gpg.program": "", "gpg.ssh.program": "", "gpg.x509.program": "",
}

// gitCommandSections are the sections whose settings, under any name,
// git runs through a shell: an alias after its "!", and a diff, filter
// or merge driver's commands, by their last part.
var gitCommandSections = map[string]map[string]string{
	"alias":  nil,
	"diff":   {"textconv": "", "command": ""},
	"filter": {"clean": "", "smudge": "", "process": ""},
	"merge":  {"driver": ""},
}

// gitCommandKey is the prefix git strips from the value of the setting
// key (lower case) before it runs the value through a shell, and ok when
// it runs it.
func gitCommandKey(key string) (prefix string, ok bool) {
	if prefix, ok = gitCommandKeys[key]; ok || strings.HasPrefix(key, "pager.") {
		return prefix, true
	}
	section, _, _ := strings.Cut(key, ".")
	last := key[strings.LastIndexByte(key, '.')+1:]
	parts, known := gitCommandSections[section]
	switch {
	case !known || key == section:
		return "", false
	case section == "alias":
		return "!", true
	}
	prefix, ok = parts[last]
	return prefix, ok && strings.Count(key, ".") >= 2
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
			prefix, ok := gitCommandKey(strings.ToLower(key))
			if !ok {
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
	if a.Name != nil && bashTables[a.Name.Value] {
		return s.tableScripts(a, depth)
	}
	if a.Name == nil || a.Value == nil {
		return nil
	}
	prefix, ok := commandVariables[a.Name.Value]
	prompt := promptVariables[a.Name.Value]
	if !ok && !prompt {
		return nil
	}
	w := s.wordOf(a.Value)
	if !w.literal {
		return nil
	}
	src := strings.TrimLeft(strings.TrimPrefix(w.value, prefix), "|")
	if prompt {
		src = `: "` + w.value + `"`
	}
	return s.runString(a.Name.Value, src, depth+1)
}

// bashTables are bash's tables a variable sets: BASH_ALIASES holds the
// text an alias stands for, BASH_CMDS the program a name runs.
var bashTables = map[string]bool{"BASH_ALIASES": true, "BASH_CMDS": true}

// tableScripts reads each literal value an assignment to one of
// bashTables puts in it, one element or an array of them, as the code
// the shell will run for its name: the assignment stays unseen, and a
// deny rule for what the values run holds (BASH_CMDS[ls]=/bin/rm).
func (s *splitter) tableScripts(a *syntax.Assign, depth int) error {
	var values []*syntax.Word
	switch {
	case a.Array != nil:
		for _, e := range a.Array.Elems {
			values = append(values, e.Value)
		}
	case a.Value != nil:
		values = append(values, a.Value)
	}
	for _, v := range values {
		if v == nil {
			continue
		}
		if w := s.wordOf(v); w.literal {
			if err := s.runString(a.Name.Value, w.value, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
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

// lessUnseen is why less's command line runs code: a "+" word is a
// command less runs when it starts, and only moving and searching are
// known to run nothing ("+!rm x" runs a shell command, "+|" pipes to
// one, "+v" starts an editor, "+s" writes a file).
func lessUnseen(base string, args []word) (why string, scripts []string) {
	if base != "less" {
		return "", nil
	}
	for _, a := range args {
		if a.value == "--" {
			break
		}
		if lessFileOption(a.value) {
			why = firstOf(why, "less "+a.value+" names a key file, which may set what less runs, or a log file it writes")
			continue
		}
		command, ok := strings.CutPrefix(a.value, "+")
		if !ok {
			continue
		}
		command = strings.TrimPrefix(command, "+")
		switch {
		case !a.literal:
			return "less " + a.value + " runs a command made when it runs", nil
		case lessMoves(command):
		default:
			if _, shell, ok := strings.Cut(command, "!"); ok && shell != "" {
				scripts = append(scripts, shell)
			}
			why = firstOf(why, "less "+a.value+" runs a command less reads when it starts")
		}
	}
	return why, scripts
}

// lessFileOption reports whether a word of less's command line is an
// option naming a key file (-k, --lesskey-file, --lesskey-src,
// --lesskey-content), whose #env section can set LESSOPEN, or a log file
// (-o, -O, --log-file, --LOG-FILE), in any cluster or abbreviation.
func lessFileOption(v string) bool {
	if long, ok := strings.CutPrefix(v, "--"); ok {
		name, _, _ := strings.Cut(long, "=")
		for _, o := range []string{"lesskey-file", "lesskey-src", "lesskey-content", "log-file", "LOG-FILE"} {
			if len(name) >= 3 && strings.HasPrefix(strings.ToLower(o), strings.ToLower(name)) {
				return true
			}
		}
		return false
	}
	return len(v) > 1 && v[0] == '-' && strings.ContainsAny(v[1:], "koO")
}

// lessMoves reports whether a command less runs when it starts only
// moves or searches: a line number, a search forward or back, or one of
// the letters that move to the start or the end or follow the file.
func lessMoves(command string) bool {
	if command == "" || command[0] == '/' || command[0] == '?' {
		return !strings.ContainsAny(command, "\n\r")
	}
	for _, c := range command {
		if !strings.ContainsRune("0123456789gGFpP%", c) {
			return false
		}
	}
	return true
}
