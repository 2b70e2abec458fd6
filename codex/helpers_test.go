package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// engineOf builds the engine of Codex's rules alone from rules files'
// sources, each a trusted file.
func engineOf(t testing.TB, srcs map[string]string) *agentpolicy.Engine {
	t.Helper()
	var files []*File
	for name, src := range srcs {
		f, err := Parse(name, "codex:"+name, []byte(src), rankFile, true)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	policy, err := New(files...).Policy()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := Build(policy)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// decide is the engine's decision on a shell command, "WebFetch URL" for a
// fetch: "allow", "ask" or "deny".
func decide(t testing.TB, eng *agentpolicy.Engine, command string) agentpolicy.Verdict {
	t.Helper()
	tool, args := "Bash", map[string]string{"command": command}
	if url, ok := strings.CutPrefix(command, "WebFetch "); ok {
		tool, args = "WebFetch", map[string]string{"url": url}
	}
	data, _ := json.Marshal(args)
	call := &openresponses.FunctionCall{CallID: "call_1", Name: tool, Arguments: string(data)}
	v, err := eng.Would(context.Background(), agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: data,
		Batch: []*openresponses.FunctionCall{call}})
	if err != nil {
		t.Fatalf("Would(%s): %v", command, err)
	}
	return v
}

// word is the verdict's action as a Codex list is named.
func word(v agentpolicy.Verdict) string {
	switch v.Action {
	case agentturn.Allow:
		return ListAllow
	case agentturn.Block:
		return ListDeny
	}
	return ListAsk
}

// corpusCase is one line of a .cases file: the decision a command gets.
type corpusCase struct {
	line    int
	want    string
	command string
}

// readCases reads a .cases file: "decision<TAB>command" a line, "#"
// comments and blank lines skipped.
func readCases(t testing.TB, path string) []corpusCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, command, ok := strings.Cut(line, "\t")
		if !ok || (want != ListAllow && want != ListAsk && want != ListDeny) {
			t.Fatalf("%s:%d: not \"allow|ask|deny<TAB>command\": %q", path, n, line)
		}
		cases = append(cases, corpusCase{line: n, want: want, command: command})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}
