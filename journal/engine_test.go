package journal

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// bashCall is the hook's view of one bash call running cmd.
func bashCall(id, cmd string) agentturn.ToolCallInfo {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	call := &openresponses.FunctionCall{CallID: id, Name: "bash", Arguments: string(args)}
	return agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: args, Batch: []*openresponses.FunctionCall{call}}
}

// The engine writes every decision to the file before returning it, and
// refuses an allow once the file can no longer take it.
func TestEngineRecordsInTheFileAndFailsClosed(t *testing.T) {
	rules, err := agentpolicy.ParseRules("bash(ls:*)")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	j := openOrFail(t, path)
	var seen []agentpolicy.Verdict
	e, err := agentpolicy.Build(agentpolicy.Policy{Allow: rules, Default: agentpolicy.Deny()},
		map[string]agentpolicy.ToolMatcher{"bash": {Match: agentpolicy.PrefixMatcher("command")}},
		agentpolicy.WithJournal(j),
		agentpolicy.WithObserver(func(_ context.Context, v agentpolicy.Verdict) { seen = append(seen, v) }))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, info := range []agentturn.ToolCallInfo{bashCall("call_1", "ls -la"), bashCall("call_2", "rm -rf /")} {
		if _, err := e.Decide(ctx, info); err != nil {
			t.Fatal(err)
		}
	}
	records, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || string(records[0]) != record(seen[0]) || string(records[1]) != record(seen[1]) {
		t.Fatalf("the journal holds %s, want the two verdicts the observer saw", records)
	}
	j.Close()
	d, err := e.Decide(ctx, bashCall("call_3", "ls"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "refused: the decision could not be recorded: allowed by bash(ls:*)"; d.Action != agentturn.Block || d.Reason != want {
		t.Errorf("after Close: {%v %q}, want a block with %q", d.Action, d.Reason, want)
	}
	if records, err := ReadFile(path); err != nil || len(records) != 2 {
		t.Errorf("after Close the journal holds %d records (%v), want still 2", len(records), err)
	}
}
