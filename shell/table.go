package shell

import "strings"

// The tables of what hides code: the variables that change what a command
// runs, the git settings that name a command, and the options of readers
// that run a command or delete. shell/README.md lists them.

// variables are the environment variables that change what runs, with
// why; a name ending in "*" stands for every name it begins.
var variables = map[string]string{
	"LD_PRELOAD":            "changes what the command loads",
	"LD_AUDIT":              "changes what the command loads",
	"LD_LIBRARY_PATH":       "changes what the command loads",
	"DYLD_*":                "changes what the command loads",
	"GCONV_PATH":            "changes what the command loads",
	"PATH":                  "changes which program a name runs",
	"BASH_ENV":              "names a file the shell runs first",
	"ENV":                   "names a file the shell runs first",
	"PROMPT_COMMAND":        "names a command the shell runs",
	"PS0":                   "holds code the shell runs",
	"PS4":                   "holds code the shell runs",
	"BASH_FUNC_*":           "defines a function the shell runs",
	"SHELLOPTS":             "changes how the shell reads commands",
	"BASHOPTS":              "changes how the shell reads commands",
	"IFS":                   "changes how the shell splits words",
	"GIT_SSH":               "names a command git runs",
	"GIT_SSH_COMMAND":       "names a command git runs",
	"GIT_EXTERNAL_DIFF":     "names a command git runs",
	"GIT_PAGER":             "names a command git runs",
	"GIT_EDITOR":            "names a command git runs",
	"GIT_SEQUENCE_EDITOR":   "names a command git runs",
	"GIT_ASKPASS":           "names a command git runs",
	"GIT_PROXY_COMMAND":     "names a command git runs",
	"GIT_EXEC_PATH":         "changes which programs git runs",
	"GIT_TEMPLATE_DIR":      "changes the hooks git installs",
	"GIT_DIR":               "points git at a configuration that may run commands",
	"GIT_CONFIG":            "points git at a configuration that may run commands",
	"GIT_CONFIG_GLOBAL":     "points git at a configuration that may run commands",
	"GIT_CONFIG_SYSTEM":     "points git at a configuration that may run commands",
	"GIT_CONFIG_PARAMETERS": "sets git configuration that may run commands",
	"GIT_CONFIG_COUNT":      "sets git configuration that may run commands",
	"GIT_CONFIG_KEY_*":      "sets git configuration that may run commands",
	"GIT_CONFIG_VALUE_*":    "sets git configuration that may run commands",
	"SSH_ASKPASS":           "names a command ssh runs",
	"PAGER":                 "names a command a program runs",
	"MANPAGER":              "names a command a program runs",
	"EDITOR":                "names a command a program runs",
	"VISUAL":                "names a command a program runs",
	"BROWSER":               "names a command a program runs",
	"LESSOPEN":              "names a command less runs",
	"LESSCLOSE":             "names a command less runs",
	"PYTHONPATH":            "changes what python loads",
	"PYTHONSTARTUP":         "names a file python runs",
	"PYTHONHOME":            "changes what python loads",
	"NODE_OPTIONS":          "changes what node loads",
	"NODE_PATH":             "changes what node loads",
	"PERL5OPT":              "changes what perl loads",
	"PERL5LIB":              "changes what perl loads",
	"PERLLIB":               "changes what perl loads",
	"RUBYOPT":               "changes what ruby loads",
	"RUBYLIB":               "changes what ruby loads",
	"JAVA_TOOL_OPTIONS":     "changes what java loads",
	"_JAVA_OPTIONS":         "changes what java loads",
	"JDK_JAVA_OPTIONS":      "changes what java loads",
	"NPM_CONFIG_*":          "sets npm configuration that may run commands",
	"npm_config_*":          "sets npm configuration that may run commands",
}

// variableUnseen is why setting the variable name hides code, "" when it
// does not.
func variableUnseen(name string) string {
	if why, ok := variables[name]; ok {
		return name + " " + why
	}
	for pattern, why := range variables {
		if prefix, ok := strings.CutSuffix(pattern, "*"); ok && strings.HasPrefix(name, prefix) {
			return name + " " + why
		}
	}
	return ""
}

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
		case strings.HasPrefix(a, "--config-env="):
			key, _, _ := strings.Cut(strings.TrimPrefix(a, "--config-env="), "=")
			if gitSettingRuns(key) {
				e.unseen = firstOf(e.unseen, "git --config-env "+key+" makes git run a command")
			}
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			if a != "--exec-path" {
				e.unseen = firstOf(e.unseen, "git --exec-path changes which programs git runs")
			}
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--config-env":
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

// risky are options of commands that read or copy files which make them
// run a command, with why.
var risky = map[string]map[string]string{
	"tar": {
		"--to-command": "runs a command", "--checkpoint-action": "runs a command",
		"-I": "runs a compression program", "--use-compress-program": "runs a compression program",
		"-F": "runs a script", "--info-script": "runs a script", "--new-volume-script": "runs a script",
		"--rsh-command": "runs a command", "--rmt-command": "runs a command",
	},
	"rsync": {"-e": "runs a remote shell command", "--rsh": "runs a remote shell command", "--rsync-path": "runs a command"},
	"rg":    {"--pre": "runs a command on every file"},
	"sort":  {"--compress-program": "runs a compression program"},
	"zip":   {"-TT": "runs a command", "--unzip-command": "runs a command"},
	"man":   {"-P": "runs a pager", "--pager": "runs a pager", "-H": "runs a browser", "--html": "runs a browser"},
	"vim":   {"-c": "runs an editor command", "--cmd": "runs an editor command", "+": "runs an editor command"},
	"vi":    {"-c": "runs an editor command", "--cmd": "runs an editor command", "+": "runs an editor command"},
	"nvim":  {"-c": "runs an editor command", "--cmd": "runs an editor command", "+": "runs an editor command"},
	"ex":    {"-c": "runs an editor command", "+": "runs an editor command"},
	"ssh":   {"proxycommand": "runs a local command", "localcommand": "runs a local command", "knownhostscommand": "runs a local command"},
	"scp":   {"proxycommand": "runs a local command", "-S": "runs a program for the connection"},
	"sftp":  {"proxycommand": "runs a local command", "-S": "runs a program for the connection"},
}

// riskyOption is why one of the command's options makes it run a
// command, "" when none does. An option matches as a word of its own,
// joined to its value with "=", or, for a short one, joined directly; for
// ssh and its kin a -o setting matches by name, whatever its case.
func riskyOption(base string, args []word) string {
	options := risky[base]
	if options == nil {
		return ""
	}
	for _, w := range args {
		v := w.value
		for opt, why := range options {
			if optionMatches(opt, v) {
				return base + " " + optionName(opt, v) + " " + why
			}
		}
	}
	return ""
}

// optionMatches reports whether the word v gives the option opt.
func optionMatches(opt, v string) bool {
	switch {
	case opt == "+":
		return len(v) > 1 && v[0] == '+'
	case opt[0] != '-':
		return strings.Contains(strings.ToLower(v), opt)
	case v == opt || strings.HasPrefix(v, opt+"="):
		return true
	}
	return len(opt) == 2 && strings.HasPrefix(v, opt)
}

// optionName is how a reason names the option: as written for a flag,
// the setting for a -o one.
func optionName(opt, v string) string {
	if opt[0] == '-' || opt == "+" {
		name, _, _ := strings.Cut(v, "=")
		return name
	}
	return "-o " + opt
}
