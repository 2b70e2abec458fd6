package shell

import "strings"

// The tables of what hides code besides git: the variables that change
// what a command runs and the options of readers that run a command.
// shell/README.md lists them.

// variables are the environment variables that change what runs, with
// why.
var variables = map[string]string{
	"LD_PRELOAD":            "changes what the command loads",
	"LD_AUDIT":              "changes what the command loads",
	"LD_LIBRARY_PATH":       "changes what the command loads",
	"GCONV_PATH":            "changes what the command loads",
	"PATH":                  "changes which program a name runs",
	"BASH_ENV":              "names a file the shell runs first",
	"ENV":                   "names a file the shell runs first",
	"PROMPT_COMMAND":        "names a command the shell runs",
	"PS0":                   "holds code the shell runs",
	"PS4":                   "holds code the shell runs",
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
	"GIT_CONFIG":            "points git at a configuration that may run commands",
	"GIT_CONFIG_GLOBAL":     "points git at a configuration that may run commands",
	"GIT_CONFIG_SYSTEM":     "points git at a configuration that may run commands",
	"GIT_CONFIG_PARAMETERS": "sets git configuration that may run commands",
	"GIT_CONFIG_COUNT":      "sets git configuration that may run commands",
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
}

// variablePrefixes are the beginnings of names of variables that change
// what runs, with why.
var variablePrefixes = []option{
	{"DYLD_", "changes what the command loads"},
	{"BASH_FUNC_", "defines a function the shell runs"},
	{"GIT_CONFIG_KEY_", "sets git configuration that may run commands"},
	{"GIT_CONFIG_VALUE_", "sets git configuration that may run commands"},
	{"NPM_CONFIG_", "sets npm configuration that may run commands"},
	{"npm_config_", "sets npm configuration that may run commands"},
}

// variableUnseen is why setting the variable name hides code, "" when it
// does not.
func variableUnseen(name string) string {
	if why, ok := variables[name]; ok {
		return name + " " + why
	}
	for _, p := range variablePrefixes {
		if strings.HasPrefix(name, p.name) {
			return name + " " + p.why
		}
	}
	return ""
}

// option is an option of the effects table and why it hides code.
type option struct {
	name, why string
}

// risky are options of commands that read or copy files which make them
// run a command, in the order they are tried, so a reason is the same on
// every split.
var risky = map[string][]option{
	"tar": {
		{"--to-command", "runs a command"}, {"--checkpoint-action", "runs a command"},
		{"-I", "runs a compression program"}, {"--use-compress-program", "runs a compression program"},
		{"-F", "runs a script"}, {"--info-script", "runs a script"}, {"--new-volume-script", "runs a script"},
		{"--rsh-command", "runs a command"}, {"--rmt-command", "runs a command"},
	},
	"rsync": {{"-e", "runs a remote shell command"}, {"--rsh", "runs a remote shell command"}, {"--rsync-path", "runs a command"}},
	"rg":    {{"--pre", "runs a command on every file"}},
	"sort":  {{"--compress-program", "runs a compression program"}},
	"zip":   {{"-TT", "runs a command"}, {"--unzip-command", "runs a command"}},
	"man":   {{"-P", "runs a pager"}, {"--pager", "runs a pager"}, {"-H", "runs a browser"}, {"--html", "runs a browser"}},
	"vim":   editorOptions,
	"vi":    editorOptions,
	"nvim":  editorOptions,
	"ex":    editorOptions,
	"ssh": {
		{"proxycommand", "runs a local command"}, {"localcommand", "runs a local command"},
		{"knownhostscommand", "runs a local command"}, {"-F", "reads a configuration that may run a local command"},
	},
	"scp":  {{"proxycommand", "runs a local command"}, {"-S", "runs a program for the connection"}},
	"sftp": {{"proxycommand", "runs a local command"}, {"-S", "runs a program for the connection"}},
}

// editorOptions are the options of vi and its kin that run an editor
// command, which may be a shell command.
var editorOptions = []option{{"-c", "runs an editor command"}, {"--cmd", "runs an editor command"}, {"+", "runs an editor command"}}

// riskyOption is why one of the command's options makes it run a
// command, "" when none does. An option matches as a word of its own,
// joined to its value with "=", or, for a short one, joined directly; for
// ssh and its kin a -o setting matches by name, whatever its case.
func riskyOption(base string, args []word) string {
	for _, w := range args {
		for _, o := range risky[base] {
			if optionMatches(o.name, w.value) {
				return base + " " + optionName(o.name, w.value) + " " + o.why
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

// optionName is how a reason names the option: as the table does, the
// word for a "+" command, the setting for a -o one.
func optionName(opt, v string) string {
	switch {
	case opt == "+":
		return v
	case opt[0] == '-':
		return opt
	}
	return "-o " + opt
}
