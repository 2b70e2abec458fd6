package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// stateCases are issue 30's classes of shell state, each attack beside a
// harmless twin: under an allow of every command with a deny of rm, the
// attack must not be allowed and the twin must be.
var stateCases = []struct {
	class, attack, twin string
}{
	// 1. Options that turn arguments into environment.
	{"options", "set -k; git status GIT_CONFIG_PARAMETERS=x", "set -e; git status"},
	{"options", "set -o keyword; git status GIT_DIR=x", "set -o pipefail; git status"},
	{"options", "set -a; TAR_OPTIONS=x; tar -cf a.tar b", "set -x; tar -cf a.tar b"},
	{"options", "set -euak; ls", "set -euo pipefail; ls"},
	{"options", "set -o allexport; x=1; ls", "set +o errexit; x=1; ls"},
	{"options", "bash -k -c 'git status X=1'", "bash -e -c 'git status'"},
	{"options", "bash -o keyword -c 'git status GIT_CONFIG_GLOBAL=x'", "bash -o keyword -c ls"},
	{"options", "bash -O expand_aliases -c ls", "bash -O nullglob -c ls"},
	{"options", "bash --debugger -c ls", "bash --norc -c ls"},
	{"options", "builtin set -a; X=1; ls", "builtin set -e; ls"},
	{"options", "set $opt; ls", "set -- a b; echo $1"},
	// 2. Assignments to variables the shell already exports.
	{"exported", "HOME=.; git status", "x=.; git status"},
	{"exported", "PATH=.; ls", "path=.; ls"},
	{"exported", "GIT_CONFIG_GLOBAL=x; git status", "git_dir=x; git status"},
	{"exported", "XDG_CONFIG_HOME=x; git status", "LANG=C; git status"},
	{"exported", "LD_PRELOAD=./x.so; ls", "ld=./x.so; ls"},
	{"exported", "BASH_ENV=x; bash -c ls", "TZ=UTC; bash -c ls"},
	{"exported", "PAGER=x; git log", "NO_COLOR=1; git log"},
	{"exported", "EDITOR=x; git commit", "GIT_AUTHOR_NAME=x; git commit"},
	{"exported", "TAR_OPTIONS=x; tar -cf a.tar b", "t=x; tar -cf a.tar b"},
	{"exported", "LESSOPEN='|x %s'; less f", "l='|x %s'; less f"},
	{"exported", "https_proxy=x; curl y", "http=x; curl y"},
	{"exported", "HOME=/etc; echo x > ~/passwd", "X=/etc; echo $X"},
	{"exported", "PWD=/etc; echo x > $PWD/passwd", "DIR=src; echo $DIR"},
	{"exported", "OLDPWD=/etc; cd - && echo x > passwd", "OUT=x; printf '%s' \"$OUT\""},
	{"exported", "while :; do git status; X=1; done", "while :; do echo; X=1; done"},
	{"exported", "eval 'GIT_CONFIG_GLOBAL=x'; git status", "eval 'x=1'; echo $x"},
	{"exported", "f() { git status; }; X=1; f", "f() { echo; }; X=1; echo $X"},
	{"exported", "X=1; $(echo ls)", "X=1; echo $(echo ls)"},
	// 3. Other ways to set a variable.
	{"setters", "declare -n r=PATH; r=bin; ls", "declare -n r=x; r=bin; ls"},
	{"setters", "declare -n r; r=PATH; r=bin; ls", "declare -i r; r=2; ls"},
	{"setters", "printf -vPATH %s bin; ls", "printf -vp %s bin; ls"},
	{"setters", "printf -v PATH %s bin; ls", "printf -v p %s bin; ls"},
	{"setters", "((PATH=0)); ls", "((p=0)); ls"},
	{"setters", "let PATH=1; ls", "let p=1; ls"},
	{"setters", "echo $((HOME=1)); ls", "echo $((h=1)); ls"},
	{"setters", "read PATH < f; ls", "read p < f; ls"},
	{"setters", "mapfile PATH < f; ls", "mapfile p < f; ls"},
	{"setters", "unset PATH; ls", "unset p; ls"},
	{"setters", "unset -v HOME; git status", "unset -f f; git status"},
	{"setters", "xargs --process-slot-var=PATH ls < f", "xargs echo < f"},
	{"setters", "export -n PATH; env ls", "export -n LANG; env ls"},
	{"setters", "local PATH=.; ls", "local p=.; ls"},
	{"setters", "typeset -x HOME=.; git status", "typeset -i n=1; git status"},
	{"setters", "declare CD''PATH=/tmp; cd x", "declare c''d=/tmp; cd x"},
	{"setters", "declare 'HOME=.'; git status", "declare 'h=.'; git status"},
	{"setters", "builtin export PATH=.; ls", "builtin export LANG=C; ls"},
	{"setters", "command declare HOME=.; ls", "command declare h=.; ls"},
	{"setters", "for PATH in a; do ls; done", "for p in a; do ls; done"},
	{"setters", "coproc PATH { cat; }; ls", "coproc p { cat; }; ls"},
	{"setters", "getopts ab PATH; ls", "getopts ab opt; ls"},
	// 4. bash's own tables.
	{"tables", "BASH_CMDS[ls]=/bin/rm; ls", "cmds[0]=/bin/rm; ls"},
	{"tables", "BASH_ALIASES[ls]='rm -rf /'; ls", "aliases[1]='rm -rf /'; ls"},
	{"tables", "enable -f ./x.so x", "enable -n echo"},
	{"tables", "shopt -s expand_aliases; ls", "shopt -s nullglob; ls"},
	{"tables", "shopt -s lastpipe; ls", "shopt -u dotglob; ls"},
	{"tables", "shopt -s cdable_vars; cd x", "shopt -q extglob; cd x"},
	{"tables", "shopt -so keyword; ls", "shopt -so errexit; ls"},
	// 5. Builtins that run strings.
	{"strings", "compgen -C 'rm -rf /' x", "echo x"},
	{"strings", "compgen -W '$(rm x)' y", "echo y"},
	{"strings", "complete -C x ls", "echo ls"},
	{"strings", "fc -s ls", "echo ls"},
	{"strings", "history -s 'rm x'; fc -s", "history -c"},
	{"strings", "history -r f", "history"},
	{"strings", "trap 'echo x' DEBUG; ls", "trap 'echo x' EXIT; ls"},
	{"strings", "trap 'echo x' RETURN; ls", "trap 'echo x' INT TERM; ls"},
	{"strings", "trap -- 'echo x' ERR; ls", "trap -- 'echo x' SIGINT 15; ls"},
	{"strings", "PROMPT_COMMAND='rm x'; bash -i", "ps='$ '; ls"},
	// 6. Interpreters the table missed: code on the command line.
	{"interpreters", "nodejs -e 'x'", "nodejs --version"},
	{"interpreters", "perl -M'POSIX;print 1' -v", "perl -v"},
	{"interpreters", "perl -mPOSIX x.pl", "perl --version"},
	{"interpreters", "node --import=data:text/javascript,x", "node --version"},
	{"interpreters", "node --require ./x.js", "node -v"},
	{"interpreters", "node --loader ./x.mjs", "node --help"},
	{"interpreters", "python3 -X importtime -m json.tool", "python3 -m json.tool"},
	{"interpreters", "python3 -W 'ignore::x.Y' -m json.tool", "python3 -W ignore -m json.tool"},
	{"interpreters", "ruby -rsocket -v", "ruby --version"},
	{"interpreters", "deno eval 'x'", "deno fmt"},
	{"interpreters", "bun -e 'x'", "bun install"},
	{"interpreters", "bun x.ts", "bun test"},
	{"interpreters", "lua -e 'os.execute(\"x\")'", "lua -v"},
	{"interpreters", "lua5.4 -e 'x'", "luajit -v"},
	{"interpreters", "julia -e 'x'", "julia --version"},
	{"interpreters", "Rscript -e 'x'", "Rscript --version"},
	{"interpreters", "pypy3 -c 'x'", "pypy3 -m json.tool"},
	{"interpreters", "pwsh -Command 'x'", "pwsh -v"},
	{"interpreters", "osascript -e 'x'", "echo x"},
	{"interpreters", "elixir -e 'x'", "elixir --version"},
	// 29.5. Interpreters given a script file.
	{"scripts", "bash x.sh", "bash -c ls"},
	{"scripts", "bash -v", "bash --version"},
	{"scripts", "bash -x x.sh", "bash -x -c ls"},
	{"scripts", "sh -nv x.sh", "sh -n -c ls"},
	{"scripts", "python3 x.py", "python3 -V"},
	{"scripts", "history -r f; fc -s", "history -c"},
	{"scripts", "source f", "echo f"},
	{"scripts", ". ./f", "echo ./f"},
	// 9. Programs run by name from a value.
	{"pagers", "man -P 'rm x' ls", "man ls"},
	{"pagers", "man --pag='rm x' ls", "man -k printf"},
	{"pagers", "MANPAGER='rm x' man ls", "man 1 ls"},
	{"pagers", "GIT_PAGER='rm x'; git log", "git --no-pager log"},
	{"pagers", "LESSOPEN='|rm %s'; less f", "less f"},
	{"pagers", "git -c core.editor='rm x' commit", "git -c user.name=x commit"},
	{"pagers", "VISUAL='rm x'; git commit", "git commit -m x"},
}

// TestStateClasses decides each attack and twin of stateCases under an
// allow of every command with a deny of rm.
func TestStateClasses(t *testing.T) {
	e := build(t, agentpolicy.Policy{Deny: rules(t, "bash(rm:*)"), Default: agentpolicy.Allow()})
	for _, c := range stateCases {
		if v := decide(t, e, c.attack, false); v.Action == agentturn.Allow {
			t.Errorf("%s: %q allowed: %q", c.class, c.attack, v.Reason)
		}
		if v := decide(t, e, c.twin, false); v.Action != agentturn.Allow {
			t.Errorf("%s twin: %q %v %q, want allowed", c.class, c.twin, v.Action, v.Reason)
		}
	}
}

// TestStateDenied holds the calls that reach a file a deny rule names to
// the deny: a script file an interpreter reads is a Read subject, a
// directory a cd moves to is followed exactly, and $PWD, $HOME, $OLDPWD
// and a tilde are resolved, and the program a pager or editor value
// names is read.
func TestStateDenied(t *testing.T) {
	e := build(t, agentpolicy.Policy{Deny: rules(t, "read(secrets/*)"), Default: agentpolicy.Allow()})
	for _, c := range []string{"bash secrets/x.sh", "sh -nv secrets/x.sh", "python3 secrets/x.py", "source secrets/x", "history -r secrets/h", "node -- secrets/x.js",
		// 7. Directory changes, followed exactly.
		"cd {secrets,} && cat k", "\\cd secrets && cat k", "builtin cd secrets && cat k", "command cd secrets && cat k",
		"command -p cd secrets && cat k", "pushd secrets && cat k", "cd secrets && cd /tmp && cd - && cat k",
		"cd secrets && cat $OLDPWD/secrets/k", "cd secrets && cd .. && cat ~-/secrets/k",
		// After a cd not followed, a path in a directory a cd named.
		"cd secrets; cd ..; cd -; cat k", "pushd secrets; pushd /tmp; popd; cat k",
		"pushd secrets && pushd /tmp && pushd +1 && cat k", "shopt -s lastpipe; echo | cd secrets; cat k",
		// 8. Values known before the command runs.
		"cat $PWD/secrets/k", "cat ${PWD}/secrets/k", "cat \"$PWD\"/secrets/k", "cd secrets && cat $PWD/k", "cat ~+/secrets/k", "cat < $PWD/secrets/k",
	} {
		if v := decide(t, e, c, false); v.Action != agentturn.Block {
			t.Errorf("%q: %v %q, want blocked", c, v.Action, v.Reason)
		}
	}
	rm := build(t, agentpolicy.Policy{Deny: rules(t, "bash(rm:*)"), Default: agentpolicy.Allow()})
	for _, c := range []string{"man -P 'rm x' ls", "man --pag='rm x' ls", "man -Prm ls", "MANPAGER='rm x' man ls", "GIT_PAGER='rm x'; git log",
		"LESSOPEN='|rm %s' less f", "export VISUAL='rm x'; git commit", "declare -x EDITOR=rm; git commit",
		"git -c core.editor='rm x' commit", "git -c Core.Pager='rm x' log", "git -c pager.log='rm x' log",
		"git -c sequence.editor=rm rebase -i HEAD~2", "git -c credential.helper='!rm x' fetch", "git -ccore.sshCommand='rm x' fetch"} {
		if v := decide(t, rm, c, false); v.Action != agentturn.Block {
			t.Errorf("%q: %v %q, want blocked", c, v.Action, v.Reason)
		}
	}
	home := build(t, agentpolicy.Policy{Deny: rules(t, "read(~/.ssh/*)"), Default: agentpolicy.Allow()})
	for _, c := range []string{"cd ~/.ssh && cat id_rsa", "cat ~/.ssh/id_rsa", "cat $HOME/.ssh/id_rsa", "cat \"${HOME}\"/.ssh/id_rsa", "cd && cat .ssh/id_rsa", "cd ~ && cd .ssh && cat id_rsa",
		"cd \"$HOME/.ssh\" && cat id_rsa", "cd $HOME && cat .ssh/id_rsa", "cd ~/.ssh; cat id_rsa", "cd ~/.ssh && cat $PWD/id_rsa", "cd ~/.ssh && cd /tmp && cat ~-/id_rsa"} {
		if v := decide(t, home, c, false); v.Action != agentturn.Block {
			t.Errorf("%q: %v %q, want blocked", c, v.Action, v.Reason)
		}
	}
	// A directory the splitter cannot compute makes later relative paths
	// ask; one it computes leaves them allowed.
	checkActions(t, e, []actionCase{
		{"pushd +1 && cat k", agentturn.Defer},
		{"popd && cat k", agentturn.Defer},
		{"cd - && cat k", agentturn.Defer},
		{"cd ~/x/../.. && cat k", agentturn.Defer},
		{"cat ~/x/../../k", agentturn.Defer},
		{"shopt -s lastpipe; echo | cd other; cat k", agentturn.Defer},
		{"declare CD''PATH=/; cd other && cat k", agentturn.Defer},
		{"shopt -s cdable_vars; cd d && cat k", agentturn.Defer},
		{"cd src && ls", agentturn.Allow},
		{"cd src && cat main.go", agentturn.Allow},
		{"cd {src,} && cat main.go", agentturn.Allow},
		{"pushd src && cat main.go", agentturn.Allow},
		{"cat $PWD/main.go", agentturn.Allow},
		{"cat ~/notes.txt", agentturn.Allow},
	})
}
