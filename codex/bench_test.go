package codex

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// BenchmarkDecide decides a compound command against 200 prefix rules,
// the engine built from Matchers.
func BenchmarkDecide(b *testing.B) {
	var src strings.Builder
	for i := range 200 {
		fmt.Fprintf(&src, "prefix_rule(pattern = [\"tool%d\", \"sub%d\"], decision = %q)\n", i, i, []string{Allow, Prompt, Forbidden}[i%3])
	}
	src.WriteString("prefix_rule(pattern = [\"git\", [\"status\", \"log\"]])\nprefix_rule(pattern = [\"npm\", \"test\"])\n")
	eng := engineOf(b, map[string]string{"b.rules": src.String()})
	command := `git status && npm test -- --watch=false | tee out.log; git log --oneline -5`
	if got := word(decide(b, eng, command)); got != ListAsk {
		b.Fatalf("got %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		decide(b, eng, command)
	}
}

// BenchmarkLoad evaluates and translates a file of 200 rules.
func BenchmarkLoad(b *testing.B) {
	var src strings.Builder
	src.WriteString("TOOLS = [\"ls\", \"cat\", \"head\"]\nfor t in TOOLS:\n    prefix_rule(pattern = [t])\n")
	for i := range 200 {
		fmt.Fprintf(&src, "prefix_rule(pattern = [\"tool%d\", [\"a\", \"b\"]], decision = \"prompt\", justification = \"j\", match = [\"tool%d a x\"])\n", i, i)
	}
	data := []byte(src.String())
	b.ReportAllocs()
	for b.Loop() {
		f, err := Parse("b.rules", "codex:b", data, rankFile, true)
		if err != nil {
			b.Fatal(err)
		}
		New(f)
	}
}

// TestBuildIndexed: the engine Build gives, its Bash matcher indexed,
// decides every generated command as the engine built from Matchers alone.
func TestBuildIndexed(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 35))
	for range 20 {
		src, near := genRules(r)
		f, err := Parse("g.rules", "codex:g", []byte(src), rankFile, true)
		if err != nil {
			t.Fatal(err)
		}
		policy, err := New(f).Policy()
		if err != nil {
			t.Fatal(err)
		}
		indexed, err := Build(policy)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := agentpolicy.Build(policy, Matchers())
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			command := shellLine(nearArgv(r, near[r.IntN(len(near))])) + " && " + shellLine(genArgv(r))
			a, b := decide(t, indexed, command), decide(t, plain, command)
			if a.Action != b.Action || a.Reason != b.Reason {
				t.Errorf("%s\n%s: indexed %v %q, plain %v %q", src, command, a.Action, a.Reason, b.Action, b.Reason)
			}
		}
	}
}
