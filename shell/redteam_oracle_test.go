package shell

import (
	"strings"
	"testing"
)

// redTeamBash are the cases of redTeamState whose danger lies in how bash
// itself reads the call, each with a harmless payload (touch pwned, or a
// script p.sh that runs it) so real bash shows the attack is real: run in
// the oracle's sandbox, the attack creates the file made. The splitter
// must not let the attack run unasked, and must let the twin, which
// TestOracle runs to hold what it does to the subjects the splitter gave.
var redTeamBash = []struct {
	class, attack, twin, made string
}{
	{"options", "echo 'touch pwned' > p.sh; se't' -k; bash -c : BASH_ENV=p.sh", "echo 'echo ok' > p.sh; se't' -e; bash -c :", ""},
	{"options", "echo 'touch pwned' > p.sh; { set -euk; }; bash -c : BASH_ENV=p.sh", "echo 'echo ok' > p.sh; (set -k); bash -c : BASH_ENV=p.sh", ""},
	{"options", "echo 'touch pwned' > p.sh; shopt -s -o keyword; bash -c : BASH_ENV=p.sh", "shopt -s -o errexit; bash -c :", ""},
	{"options", "echo 'touch pwned' > p.sh; env SHELLOPTS=keyword bash -c 'bash -c : BASH_ENV=p.sh'", "env LANG=C bash -c 'bash -c :'", ""},
	{"exported", "echo 'touch pwned' > p.sh; : ${BASH_ENV:=p.sh}; export BASH_ENV; bash -c :", "echo 'echo ok' > p.sh; : ${b:=p.sh}; bash -c :", ""},
	{"exported", "echo 'touch pwned' > p.sh; f() { declare -gx BASH_ENV=p.sh; }; f; bash -c :", "f() { declare -g b=p.sh; }; f; bash -c :", ""},
	{"exported", "env 'BASH_FUNC_e%%=() { touch pwned; }' bash -c e", "env LANG=C bash -c 'echo e'", ""},
	{"setters", "echo 'touch pwned' > p.sh; f() { local -n r=BASH_ENV; r=p.sh; export BASH_ENV; bash -c :; }; f", "f() { local -n r=b; r=p.sh; bash -c :; }; f", ""},
	{"setters", "echo 'touch pwned' > p.sh; printf -v'BASH_ENV' %s p.sh; export BASH_ENV; bash -c :", "printf -v'b' %s p.sh; bash -c :", ""},
	{"setters", "read -aHOME <<< dir; cd && touch new", "read -ab <<< dir; cd dir && touch new", "/w/dir/new"},
	{"setters", "mkdir -p 1{0..9}; exec {HOME}>/dev/null; touch ~/../pwned", "mkdir -p 1{0..9}; exec {fd}>/dev/null; touch ./new", ""},
	{"setters", "echo 'touch pwned' > '?'; getopts -- ab BASH_ENV; export BASH_ENV; bash -c :", "getopts -- ab opt; bash -c :", ""},
	{"tables", "declare -A BASH_CMDS=([ls]=/usr/bin/touch); ls pwned", "declare -A cmds=([ls]=/usr/bin/touch); ls", ""},
	{"tables", "BASH_CMDS+=([ls]=/usr/bin/touch); ls pwned", "cmds+=(/usr/bin/touch); ls", ""},
	{"tables", "enable -n cd; cd dir; touch c.txt", "enable -n echo; cd dir; touch c.txt", "/w/c.txt"},
	{"strings", "trap 'touch pwned' DEBUG; :", "trap 'echo ok' EXIT; :", ""},
	{"strings", "mapfile -C 'touch pwned #' -c 1 a <<< x", "mapfile -t a <<< x", ""},
	{"strings", "PS4='$(touch pwned)'; set -x; :", "set -x; :", ""},
	{"strings", "compgen -W '`touch pwned`' x", "compgen -W 'a b' a", ""},
}

// redTeamRuns are harmless commands of the red team's classes that the
// splitter must let run unasked, and that TestOracle runs in bash to hold
// what they do to the subjects: where cd $OLDPWD leads, what IFS before
// read and a process substitution read from change, options set in a
// subshell.
var redTeamRuns = []string{
	"cd /w/dir && cd \"$OLDPWD\" && touch new.txt",
	"cd /w/dir && cd ~- && touch new.txt",
	"cd dir && cd /w && cd \"$OLDPWD\" && touch new.txt",
	"cd dir && cd $PWD/../dir && touch new.txt",
	"cd ${PWD:-/tmp}/dir && touch new.txt",
	"while IFS= read -r l; do echo \"$l\"; done < a.txt",
	"mapfile -t f < <(echo a); echo \"${f[0]}\"",
	"(set -k); echo ok X=1",
	"ref=b; : ${!ref:-x}; echo $b",
	"declare -A m=([k]=v); echo \"${#m[@]}\"",
	"GIT_PAGER=cat git log -1",
	"GIT_EDITOR=true git commit --amend --no-edit",
	"compgen -W 'a b' a; fc -l 2>/dev/null; echo ok",
}

// TestRedTeamBash runs each attack of redTeamBash in real bash and
// checks that it makes its file, and that the splitter asks about it.
func TestRedTeamBash(t *testing.T) {
	box, err := startSandbox(layOracle(t))
	if err != nil {
		t.Fatalf("the bash oracle's sandbox: %v", err)
	}
	defer box.close()
	split := Subjects(WithWriteTool("write", "path"), WithReadTool("read", "path"))
	for _, c := range redTeamBash {
		made := c.made
		if made == "" {
			made = "/w/pwned"
		}
		res, err := box.run(c.attack)
		if err != nil {
			t.Fatalf("%q: %v", c.attack, err)
		}
		var changes []string
		for _, ch := range res.Changes {
			changes = append(changes, ch.Kind+" "+ch.Path)
		}
		if !strings.Contains(strings.Join(changes, ", "), "created "+made) {
			t.Errorf("%s: %q did not create %s in bash (changes: %v; output %q): not an attack", c.class, c.attack, made, changes, res.Output)
		}
		subjects, err := split(commandArgs(c.attack))
		if err == nil && checkable(subjects) {
			t.Errorf("%s: %q runs unasked", c.class, c.attack)
		}
		if subjects, err := split(commandArgs(c.twin)); err != nil || !checkable(subjects) {
			t.Errorf("%s twin: %q is asked about or blocked (%v)", c.class, c.twin, err)
		}
	}
	for _, c := range redTeamRuns {
		if subjects, err := split(commandArgs(c)); err != nil || !checkable(subjects) {
			t.Errorf("%q is asked about or blocked (%v)", c, err)
		}
	}
}
