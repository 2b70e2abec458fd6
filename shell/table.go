package shell

import "strings"

// The table of the variables that change what a command runs;
// shell/README.md lists it.

// variables are the environment variables that change what runs, with
// why.
var variables = map[string]string{
	"LD_PRELOAD":        "changes what the command loads",
	"LD_AUDIT":          "changes what the command loads",
	"LD_LIBRARY_PATH":   "changes what the command loads",
	"GCONV_PATH":        "changes what the command loads",
	"PATH":              "changes which program a name runs",
	"BASH_ENV":          "names a file the shell runs first",
	"ENV":               "names a file the shell runs first",
	"PROMPT_COMMAND":    "names a command the shell runs",
	"PS0":               "holds code the shell runs",
	"PS4":               "holds code the shell runs",
	"SHELLOPTS":         "changes how the shell reads commands",
	"BASHOPTS":          "changes how the shell reads commands",
	"IFS":               "changes how the shell splits words",
	"CDPATH":            "changes where cd looks for a directory",
	"HOME":              "changes the directory ~ and cd name",
	"PWD":               "changes the directory $PWD names",
	"OLDPWD":            "changes the directory $OLDPWD, ~- and cd - name",
	"BASH_CMDS":         "changes which program a name runs",
	"BASH_ALIASES":      "defines aliases the shell expands",
	"HISTFILE":          "names the history fc and history run from",
	"SSH_ASKPASS":       "names a command ssh runs",
	"PAGER":             "names a command a program runs",
	"MANPAGER":          "names a command a program runs",
	"EDITOR":            "names a command a program runs",
	"VISUAL":            "names a command a program runs",
	"BROWSER":           "names a command a program runs",
	"LESSOPEN":          "names a command less runs",
	"LESSCLOSE":         "names a command less runs",
	"PYTHONPATH":        "changes what python loads",
	"PYTHONSTARTUP":     "names a file python runs",
	"PYTHONHOME":        "changes what python loads",
	"NODE_OPTIONS":      "changes what node loads",
	"NODE_PATH":         "changes what node loads",
	"PERL5OPT":          "changes what perl loads",
	"PERL5LIB":          "changes what perl loads",
	"PERLLIB":           "changes what perl loads",
	"RUBYOPT":           "changes what ruby loads",
	"RUBYLIB":           "changes what ruby loads",
	"JAVA_TOOL_OPTIONS": "changes what java loads",
	"_JAVA_OPTIONS":     "changes what java loads",
	"JDK_JAVA_OPTIONS":  "changes what java loads",
}

// variablePrefixes are the beginnings of names of variables that change
// what runs, with why.
var variablePrefixes = []struct{ name, why string }{
	{"DYLD_", "changes what the command loads"},
	{"BASH_FUNC_", "defines a function the shell runs"},
	{"NPM_CONFIG_", "sets npm configuration that may run commands"},
	{"npm_config_", "sets npm configuration that may run commands"},
}

// safeEnvironment are the variables known to change nothing a program
// does but how it shows or labels its work: a program reads any variable
// it is handed, so one handed to it (NAME=VALUE before a command, env,
// sudo, export) must be in this table, in gitSafeVariables, or begin
// LC_. HOME, XDG_CONFIG_HOME and TMPDIR are not: they move the files a
// program reads its configuration from (git's core.fsmonitor in
// HOME/.gitconfig) or writes to.
var safeEnvironment = map[string]bool{
	"LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true, "COLUMNS": true, "LINES": true,
	"NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true,
	"CI": true, "DEBUG": true, "VERBOSE": true, "NODE_ENV": true, "RAILS_ENV": true, "RACK_ENV": true,
	"RUST_BACKTRACE": true, "RUST_LOG": true, "GOOS": true, "GOARCH": true, "CGO_ENABLED": true, "GOMAXPROCS": true,
	"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONHASHSEED": true, "SOURCE_DATE_EPOCH": true,
}

// environmentUnseen is why handing the variable name to a program hides
// code: one in the table of variables that change what runs, and any
// other not known to be safe.
func environmentUnseen(name string) string {
	if why := variableUnseen(name); why != "" {
		return why
	}
	if safeEnvironment[name] || gitSafeVariables[name] || strings.HasPrefix(name, "LC_") {
		return ""
	}
	return name + " is not a variable known to change nothing a program does"
}

// variableUnseen is why setting the variable name hides code, "" when it
// does not.
func variableUnseen(name string) string {
	if why, ok := variables[name]; ok {
		return name + " " + why
	}
	if strings.HasPrefix(name, "GIT_") && !gitSafeVariables[name] {
		return name + " is not a git variable known to run nothing"
	}
	for _, p := range variablePrefixes {
		if strings.HasPrefix(name, p.name) {
			return name + " " + p.why
		}
	}
	return ""
}
