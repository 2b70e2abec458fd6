package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// BenchmarkDecide decides a compound command against 200 rules of every
// priority, a quarter of them regular expressions.
func BenchmarkDecide(b *testing.B) {
	var src strings.Builder
	src.WriteString(rule(`toolName = "run_shell_command"` + "\ndecision = \"deny\"\npriority = 1"))
	for i := range 200 {
		pattern := fmt.Sprintf("commandPrefix = \"tool%d sub\"", i)
		if i%4 == 0 {
			pattern = fmt.Sprintf("commandRegex = \"tool%d (?:a|b)\\\\b\"", i)
		}
		src.WriteString(rule(`toolName = "run_shell_command"` + "\n" + pattern + fmt.Sprintf("\ndecision = %q\npriority = %d", []string{Allow, AskUser, Deny}[i%3], i%900+10)))
	}
	src.WriteString(rule(`toolName = "run_shell_command"` + "\ncommandPrefix = [\"git status\", \"npm test\", \"git log\"]\ndecision = \"allow\"\npriority = 500"))
	eng, _ := engineOf(b, "", src.String())
	command := `git status && npm test -- --watch=false; git log --oneline -5`
	if got := decide(b, eng, "Bash", command); got != ListAllow {
		b.Fatalf("got %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		decide(b, eng, "Bash", command)
	}
}

// TestEngineIndexed: the engine Rules.Engine gives, its matchers indexed,
// decides every corpus call as the engine built from Rules.Matchers.
func TestEngineIndexed(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.toml")
	calls := [][2]string{{"Bash", "git status"}, {"Bash", "git status --ignored"}, {"Bash", "ls && git log"}, {"Bash", "rm -rf x"},
		{"Bash", "npm test"}, {"Read", "/work/.env"}, {"Read", "/work/a"}, {"mcp__github__list_issues", "{}"}, {"mcp__github__delete_repo", "{}"}}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		indexed, rules := engineOf(t, "", string(src))
		policy, err := rules.Policy(ask())
		if err != nil {
			t.Fatal(err)
		}
		plain, err := agentpolicy.Build(policy, rules.Matchers())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			if a, b := decide(t, indexed, c[0], c[1]), decide(t, plain, c[0], c[1]); a != b {
				t.Errorf("%s: %s %s: indexed %s, plain %s", path, c[0], c[1], a, b)
			}
		}
	}
}
