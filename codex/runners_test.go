package codex

import "testing"

// TestRunners: Codex matches a runner's line by its words, so an allow
// rule for the runner allows what it runs, as Codex does; what it runs
// stays a constraint, so a forbidden or prompt rule for it still holds,
// where Codex's own rules would not see it. A wrapper Codex does not
// strip keeps its words a subject: an allow rule for what it runs does
// not allow it.
func TestRunners(t *testing.T) {
	eng := engineOf(t, map[string]string{"t.rules": `prefix_rule(pattern = ["npx"])
prefix_rule(pattern = ["uv", "run"])
prefix_rule(pattern = ["pnpm", "exec"])
prefix_rule(pattern = ["git", "status"])
prefix_rule(pattern = ["rm"], decision = "forbidden")
prefix_rule(pattern = ["curl"], decision = "prompt")`})
	for command, want := range map[string]string{
		`npx prettier --check .`:      ListAllow,
		`npx eslint src`:              ListAllow,
		`uv run pytest -q`:            ListAllow,
		`pnpm exec vitest run`:        ListAllow,
		`npx rm -rf x`:                ListDeny,
		`uv run rm -rf x`:             ListDeny,
		`pnpm exec rm -rf x`:          ListDeny,
		`npx curl example.com`:        ListAsk,
		`uv run curl example.com`:     ListAsk,
		`timeout 5 git status`:        ListAsk,
		`nice git status`:             ListAsk,
		`npx prettier --check . && x`: ListAsk,
	} {
		if got := word(decide(t, eng, command)); got != want {
			t.Errorf("%s: got %s, want %s", command, got, want)
		}
	}
}
