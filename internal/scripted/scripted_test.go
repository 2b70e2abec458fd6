package scripted

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/openresponses"
)

func TestModelPlaysItsScriptThenSaysDone(t *testing.T) {
	m := &Model{Turns: [][]*openresponses.FunctionCall{{Call("call_1", "bash", `{"command":"ls"}`), Call("call_2", "bash", `{"command":"pwd"}`)}}}
	first, err := openresponses.CollectStream(context.Background(), m, openresponses.Request{Model: "script"})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, it := range first.Output {
		if c, ok := it.(*openresponses.FunctionCall); ok {
			calls = append(calls, c.CallID+" "+c.Name+" "+c.Arguments)
		}
	}
	if len(calls) != 2 || calls[0] != `call_1 bash {"command":"ls"}` || calls[1] != `call_2 bash {"command":"pwd"}` {
		t.Fatalf("first turn made %q", calls)
	}
	second, err := openresponses.CollectStream(context.Background(), m, openresponses.Request{Model: "script"})
	if err != nil {
		t.Fatal(err)
	}
	msg, ok := second.Output[0].(*openresponses.Message)
	if len(second.Output) != 1 || !ok || msg.Phase != openresponses.PhaseFinalAnswer {
		t.Fatalf("second turn made %+v, want one final message", second.Output)
	}
	if n := len(m.Requests()); n != 2 {
		t.Errorf("kept %d requests, want 2", n)
	}
}
