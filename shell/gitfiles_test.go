package shell

import (
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// gitFileOptionCases are the files git's options name, read by the one
// option reader against the subcommand's table: each attack beside a
// harmless twin, under a policy that allows every command and denies
// reading and writing .env.
var gitFileOptionCases = []struct {
	attack string
	want   agentturn.ToolAction
	twin   string
}{
	// A cluster: the file option after a letter of the subcommand's own.
	{"git commit -aF .env", agentturn.Block, "git commit -aF msg.txt"},
	{"git commit -sF.env", agentturn.Block, "git commit -sFmsg.txt"},
	{"git tag -aF .env v1", agentturn.Block, "git tag -aF notes.txt v1"},
	{"git merge -qF .env topic", agentturn.Block, "git merge -qF msg.txt topic"},
	{"git format-patch -ko .env -1", agentturn.Block, "git format-patch -ko out -1"},
	// A long option, abbreviated or with its value joined.
	{"git log --outp=.env -1", agentturn.Block, "git log --outp=log.txt -1"},
	{"git blame --cont .env f", agentturn.Block, "git blame --cont copy.txt f"},
	{"git archive --add-file=.env HEAD", agentturn.Block, "git archive --add-file=extra.txt HEAD"},
	{"git checkout-index -a --prefix=.env/", agentturn.Block, "git checkout-index -a --prefix=out/"},
	{"git grep -if .env HEAD", agentturn.Block, "git grep -if patterns.txt HEAD"},
	// A letter that takes a value takes the rest of its cluster: git
	// commit -mF writes the message "F" and reads no file.
	{"git commit -F .env -m x", agentturn.Block, "git commit -mF .env"},
	// A word made when git runs, written as an option, may be one that
	// writes a file; one that is not written as an option is a revision.
	{`git log "--output=$f" -1`, agentturn.Defer, `git log -n "$n" -1`},
	{`git diff-tree -o$f HEAD`, agentturn.Defer, `git diff-tree -p HEAD`},
	// The order file of the diff family's -O, config's --file in any
	// abbreviation, apply's patch (issue 29, one option reader).
	{"git log -O.env -p", agentturn.Block, "git log -Oorder.txt -p"},
	{"git diff-tree -pO .env HEAD", agentturn.Block, "git diff-tree -pO order.txt HEAD"},
	{"git config --fil .env user.name", agentturn.Block, "git config --fil team.cfg user.name"},
	{"git apply --stat .env", agentturn.Block, "git apply --stat fix.diff"},
}

func TestGitFileOptions(t *testing.T) {
	e := build(t, agentpolicy.Policy{Deny: rules(t, "read(.env)\nwrite(.env)\nwrite(.env/**)"), Default: agentpolicy.Allow()})
	for _, c := range gitFileOptionCases {
		if v := decide(t, e, c.attack, false); v.Action != c.want {
			t.Errorf("%q: %v %q, want %v", c.attack, v.Action, v.Reason, c.want)
		}
		if v := decide(t, e, c.twin, false); v.Action != agentturn.Allow {
			t.Errorf("twin %q: %v %q, want allowed", c.twin, v.Action, v.Reason)
		}
	}
}

// TestGitHistoryOutput holds every history reader to the file its
// --output writes: git reflog, rev-list, shortlog, stash list and stash
// show write it as log does (checked against git 2.39); a deny rule for
// the file denies, and the reader without it is still read-only.
func TestGitHistoryOutput(t *testing.T) {
	e := build(t, agentpolicy.Policy{Deny: rules(t, "write(.env)"), Default: agentpolicy.Ask()})
	for _, sub := range []string{"reflog", "rev-list HEAD", "shortlog HEAD", "stash list", "stash show"} {
		attack := "git " + sub + " --output=.env"
		if v := decide(t, e, attack, false); v.Action != agentturn.Block {
			t.Errorf("%q: %v %q, want denied", attack, v.Action, v.Reason)
		}
		var args []word
		for _, f := range strings.Fields(sub) {
			args = append(args, word{value: f, literal: true})
		}
		if !gitEffects(args).readOnly {
			t.Errorf("%q is not read-only", "git "+sub)
		}
	}
}
