package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"

	"github.com/ChristopherDavenport/agentpolicy"
)

// TestEndToEndTables decides, through an engine, the commands whose file
// operands, options and programs the tables read: under allow rules for
// the commands and a deny of .env and of .claude/, the harmless ones run
// and none of the attacks does.
func TestEndToEndTables(t *testing.T) {
	e := build(t, agentpolicy.Policy{
		Allow:   rules(t, "bash(cp:*) bash(cat:*) bash(awk:*) bash(sed:*) bash(sort:*) bash(git:*) bash(env:*) bash(cd:*) bash(tar:*) bash(echo:*) read(*) write(*)"),
		Deny:    rules(t, "read(.env) write(.env) write(.claude/*)"),
		Default: agentpolicy.Ask(),
	})
	harmless := []string{
		"cp a.txt b.txt",
		"cat README.md",
		"awk '/filesystem/ {print $1}' f",
		"awk '{print $1 \"|\" $2}' f",
		"sed -n 1p f",
		"sort -n f",
		"git status",
		"git log --oneline -5",
		"cd sub && cat f",
		"tar -czf out.tgz src",
		"env -iu HOME cat f",
	}
	for _, c := range harmless {
		if v := decide(t, e, c, false); v.Action != agentturn.Allow {
			t.Errorf("%q: %v %q, want allowed", c, v.Action, v.Reason)
		}
	}
	attacks := []string{
		"cp .env leak.txt",
		"cat .env",
		"cd sub && cat ../.env",
		"cat /proc/self/cwd/.env",
		"echo x > /proc/self/cwd/.env",
		"sort -o .claude/settings.json f",
		"sort --out=.claude/settings.json f",
		"sort -no .claude/settings.json f",
		"sed -i s/a/b/ .claude/settings.json",
		"sed -ie s/a/b/ .claude/settings.json",
		"awk '{print > \".claude/settings.json\"}' f",
		"awk 'BEGIN {system(\"id\")}'",
		"awk '{print | \"sh\"}' f",
		"git -c core.fsmonitor=./x status",
		"git config core.fsmonitor ./x",
		"git diff --output=.claude/settings.json",
		"env -iu HOME cat .env",
		"tar -cf out.tar .env",
		"cat *.env",
		"cd \"$d\" && cat .env",
		"ls | xargs cat",
	}
	for _, c := range attacks {
		if v := decide(t, e, c, false); v.Action == agentturn.Allow {
			t.Errorf("%q allowed: %q", c, v.Reason)
		}
	}
}
