package shell

import "strings"

// What in a git command line makes git run a command no rule reads.

// gitSettings are the git configuration keys that name a command git
// runs or change where it finds one, as section and key; "*" is any key
// of the section. A key matches whatever subsection it has.
var gitSettings = map[[2]string]bool{
	{"core", "sshcommand"}: true, {"core", "pager"}: true, {"core", "editor"}: true,
	{"core", "askpass"}: true, {"core", "fsmonitor"}: true, {"core", "hookspath"}: true,
	{"core", "gitproxy"}: true, {"core", "alternaterefscommand"}: true,
	{"sequence", "editor"}: true, {"diff", "external"}: true, {"diff", "command"}: true,
	{"diff", "textconv"}: true, {"difftool", "cmd"}: true, {"mergetool", "cmd"}: true,
	{"merge", "driver"}: true, {"filter", "clean"}: true, {"filter", "smudge"}: true,
	{"filter", "process"}: true, {"credential", "helper"}: true, {"gpg", "program"}: true,
	{"pager", "*"}: true, {"alias", "*"}: true, {"include", "path"}: true,
	{"includeif", "path"}: true, {"uploadpack", "packobjectshook"}: true,
	{"remote", "uploadpack"}: true, {"remote", "receivepack"}: true, {"protocol", "allow"}: true,
	{"interactive", "difffilter"}: true, {"web", "browser"}: true, {"browser", "cmd"}: true,
	{"man", "cmd"}: true, {"init", "templatedir"}: true, {"ssh", "variant"}: true,
}

// gitSettingRuns reports whether setting the git configuration key, as
// "section[.subsection].key", can make git run a command.
func gitSettingRuns(key string) bool {
	key = strings.ToLower(key)
	section, rest, ok := strings.Cut(key, ".")
	if !ok {
		return false
	}
	name := rest[strings.LastIndexByte(rest, '.')+1:]
	return gitSettings[[2]string{section, name}] || gitSettings[[2]string{section, "*"}]
}

// gitEffects reads git's command line: configuration given with -c or
// --config-env or written with git config, the options that name a
// command for the remote end, and the subcommands that run a command.
func gitEffects(args []word) effects {
	var e effects
	i := 0
global:
	for ; i < len(args); i++ {
		a := args[i].value
		switch {
		case a == "-c" && i+1 < len(args):
			i++
			key, _, _ := strings.Cut(args[i].value, "=")
			if gitSettingRuns(key) || !args[i].literal {
				e.unseen = firstOf(e.unseen, "git -c "+key+" makes git run a command")
			}
		case a == "--config-env" && i+1 < len(args), strings.HasPrefix(a, "--config-env="):
			setting := strings.TrimPrefix(a, "--config-env=")
			if a == "--config-env" {
				i++
				setting = args[i].value
			}
			key, _, _ := strings.Cut(setting, "=")
			if gitSettingRuns(key) || !args[i].literal {
				e.unseen = firstOf(e.unseen, "git --config-env "+key+" makes git run a command")
			}
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			if a != "--exec-path" {
				e.unseen = firstOf(e.unseen, "git --exec-path changes which programs git runs")
			}
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			break global
		}
	}
	if i >= len(args) {
		return e
	}
	sub, rest := args[i].value, args[i+1:]
	for j, w := range rest {
		v := w.value
		switch {
		case strings.HasPrefix(v, "--upload-pack") || strings.HasPrefix(v, "--receive-pack") || strings.HasPrefix(v, "--exec="):
			e.unseen = firstOf(e.unseen, "git "+sub+" "+strings.SplitN(v, "=", 2)[0]+" names a command git runs")
		case (sub == "clone" || sub == "fetch" || sub == "pull" || sub == "ls-remote") && v == "-u":
			e.unseen = firstOf(e.unseen, "git "+sub+" -u names a command git runs")
		case strings.HasPrefix(v, "ext::"):
			e.unseen = firstOf(e.unseen, "an ext:: URL makes git run a command")
		case sub == "config" && !strings.HasPrefix(v, "-") && gitSettingRuns(v) && j+1 < len(rest):
			e.unseen = firstOf(e.unseen, "git config "+v+" makes git run a command")
		}
	}
	switch sub {
	case "rebase":
		for j := 0; j+1 < len(rest); j++ {
			if v := rest[j].value; v == "-x" || v == "--exec" {
				if rest[j+1].literal {
					e.scripts = append(e.scripts, rest[j+1].value)
				} else {
					e.unseen = firstOf(e.unseen, "git rebase --exec runs a string made when it runs")
				}
			}
		}
	case "bisect":
		if len(rest) > 1 && rest[0].value == "run" {
			e.commands = append(e.commands, rest[1:])
		}
	case "submodule":
		if len(rest) > 1 && rest[0].value == "foreach" {
			e.unseen = firstOf(e.unseen, "git submodule foreach runs a command in every submodule")
		}
	case "filter-branch", "difftool", "mergetool":
		e.unseen = firstOf(e.unseen, "git "+sub+" runs commands of its own")
	case "grep":
		for _, w := range rest {
			if w.value == "-O" || strings.HasPrefix(w.value, "-O") || strings.HasPrefix(w.value, "--open-files-in-pager") {
				e.unseen = firstOf(e.unseen, "git grep -O runs a pager")
			}
		}
	}
	return e
}
