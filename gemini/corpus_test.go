package gemini

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// engineOf builds the engine of policy files' sources in the user tier.
func engineOf(t testing.TB, mode string, srcs ...string) (*agentpolicy.Engine, *Rules) {
	t.Helper()
	var files []*File
	var names []string
	for i, src := range srcs {
		f, err := Parse("t.toml", []byte(src), TierUser)
		if err != nil {
			t.Fatal(err)
		}
		files, names = append(files, f), append(names, "gemini:t"+string(rune('a'+i)))
	}
	rules := New(Session{Mode: mode}, files, names)
	policy, err := rules.Policy(agentpolicy.Ask())
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.Engine(policy)
	if err != nil {
		t.Fatal(err)
	}
	return eng, rules
}

// primary are the tools' primary arguments.
var primary = map[string]string{"Bash": "command", "Read": "file_path", "Write": "file_path", "Edit": "file_path", "WebFetch": "prompt"}

// decide is the engine's decision on a call of tool with its primary
// argument value, or with value as the arguments for another tool.
func decide(t testing.TB, eng *agentpolicy.Engine, tool, value string) string {
	t.Helper()
	data := []byte(value)
	if field, ok := primary[tool]; ok {
		data, _ = json.Marshal(map[string]string{field: value})
	}
	call := &openresponses.FunctionCall{CallID: "call_1", Name: tool, Arguments: string(data)}
	v, err := eng.Would(context.Background(), agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: data,
		Batch: []*openresponses.FunctionCall{call}})
	if err != nil {
		t.Fatalf("Would(%s %s): %v", tool, value, err)
	}
	switch v.Action {
	case agentturn.Allow:
		return ListAllow
	case agentturn.Block:
		return ListDeny
	}
	return ListAsk
}

// TestCorpus decides every case of testdata/corpus: each NAME.toml alone
// in the user tier, its NAME.cases "decision<TAB>tool<TAB>argument" lines.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.toml")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			eng, _ := engineOf(t, "", string(src))
			cf, err := os.Open(strings.TrimSuffix(path, ".toml") + ".cases")
			if err != nil {
				t.Fatal(err)
			}
			defer cf.Close()
			sc, n := bufio.NewScanner(cf), 0
			for line := 1; sc.Scan(); line++ {
				text := sc.Text()
				if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
					continue
				}
				fields := strings.SplitN(text, "\t", 3)
				if len(fields) != 3 {
					t.Fatalf("line %d: not \"decision<TAB>tool<TAB>argument\"", line)
				}
				if got := decide(t, eng, fields[1], fields[2]); got != fields[0] {
					t.Errorf("line %d: %s %s: got %s, want %s", line, fields[1], fields[2], got, fields[0])
				}
				n++
			}
			if n == 0 {
				t.Fatal("no cases")
			}
		})
	}
}

// ask is the default of an interactive session.
func ask() agentpolicy.Default { return agentpolicy.Ask() }

// build builds the engine of a policy with the module's matchers.
func build(t testing.TB, policy agentpolicy.Policy) *agentpolicy.Engine {
	t.Helper()
	eng, err := agentpolicy.Build(policy, Matchers())
	if err != nil {
		t.Fatal(err)
	}
	return eng
}
