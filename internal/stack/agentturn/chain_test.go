package agentturn_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

type hook = func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error)

// returns is a hook that answers d and records the args it saw in seen.
func returns(d *agentturn.ToolDecision, seen *[]string) hook {
	return func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		*seen = append(*seen, string(info.Args))
		return d, nil
	}
}

// §3.9: the fold of ChainBeforeToolCall.
func TestChainBeforeToolCall(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name  string
		hooks []*agentturn.ToolDecision // nil entries answer nil
		err   int                       // 1-based index of a hook that fails instead; 0 none
		want  *agentturn.ToolDecision
		seen  []string // args each hook saw, in order
	}{
		{
			name:  "all nil",
			hooks: []*agentturn.ToolDecision{nil, nil},
			want:  nil,
			seen:  []string{"{}", "{}"},
		},
		{
			name:  "stricter replaces action reason and by",
			hooks: []*agentturn.ToolDecision{{Reason: "ok", By: "policy"}, {Action: agentturn.Defer, Reason: "ask", By: "human"}},
			want:  &agentturn.ToolDecision{Action: agentturn.Defer, Reason: "ask", By: "human"},
			seen:  []string{"{}", "{}"},
		},
		{
			name:  "less strict keeps first reason and by",
			hooks: []*agentturn.ToolDecision{{Action: agentturn.Defer, Reason: "ask", By: "policy"}, {Reason: "fine", By: "agent"}},
			want:  &agentturn.ToolDecision{Action: agentturn.Defer, Reason: "ask", By: "policy"},
			seen:  []string{"{}", "{}"},
		},
		{
			name:  "first non-empty reason stands at equal strictness",
			hooks: []*agentturn.ToolDecision{{}, {Reason: "second"}, {Reason: "third"}},
			want:  &agentturn.ToolDecision{Reason: "second"},
			seen:  []string{"{}", "{}", "{}"},
		},
		{
			name:  "block ends the chain",
			hooks: []*agentturn.ToolDecision{{Action: agentturn.Block, Reason: "no"}, {Action: agentturn.Defer, Note: "late"}},
			want:  &agentturn.ToolDecision{Action: agentturn.Block, Reason: "no"},
			seen:  []string{"{}"},
		},
		{
			name:  "block after defer wins",
			hooks: []*agentturn.ToolDecision{{Action: agentturn.Defer, Reason: "ask"}, {Action: agentturn.Block, Reason: "no"}, {}},
			want:  &agentturn.ToolDecision{Action: agentturn.Block, Reason: "no"},
			seen:  []string{"{}", "{}"},
		},
		{
			name:  "first note stands and terminate is or-ed",
			hooks: []*agentturn.ToolDecision{{Note: "one"}, {Note: "two", Terminate: true}, {}},
			want:  &agentturn.ToolDecision{Note: "one", Terminate: true},
			seen:  []string{"{}", "{}", "{}"},
		},
		{
			name:  "args replace and reach later hooks",
			hooks: []*agentturn.ToolDecision{{Args: json.RawMessage(`{"a":1}`)}, nil, {Args: json.RawMessage(`{"a":2}`)}, nil},
			want:  &agentturn.ToolDecision{Args: json.RawMessage(`{"a":2}`)},
			seen:  []string{"{}", `{"a":1}`, `{"a":1}`, `{"a":2}`},
		},
		{
			name:  "an error aborts the chain",
			hooks: []*agentturn.ToolDecision{{Reason: "ok"}, nil, {Action: agentturn.Block}},
			err:   2,
			seen:  []string{"{}"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var seen []string
			fns := []hook{nil}
			for i, d := range c.hooks {
				if i+1 == c.err {
					fns = append(fns, func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) { return nil, boom })
					continue
				}
				fns = append(fns, returns(d, &seen), nil)
			}
			got, err := agentturn.ChainBeforeToolCall(fns...)(context.Background(), agentturn.ToolCallInfo{Args: json.RawMessage("{}")})
			if c.err > 0 {
				if !errors.Is(err, boom) || got != nil {
					t.Fatalf("got (%+v, %v), want the hook's error", got, err)
				}
			} else if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("decision %+v, want %+v", got, c.want)
			}
			if !reflect.DeepEqual(seen, c.seen) {
				t.Errorf("hooks saw args %q, want %q", seen, c.seen)
			}
		})
	}
}

// With no function left the chain is nil, so a Config keeps no hook.
func TestChainBeforeToolCallEmpty(t *testing.T) {
	if agentturn.ChainBeforeToolCall() != nil || agentturn.ChainBeforeToolCall(nil, nil) != nil {
		t.Fatal("chain of no hooks is not nil")
	}
}

// The fold hands back a copy: changing it does not change a hook's decision.
func TestChainBeforeToolCallCopies(t *testing.T) {
	d := &agentturn.ToolDecision{Reason: "mine"}
	var seen []string
	got, err := agentturn.ChainBeforeToolCall(returns(d, &seen))(context.Background(), agentturn.ToolCallInfo{})
	if err != nil {
		t.Fatal(err)
	}
	got.Reason = "changed"
	if d.Reason != "mine" {
		t.Fatalf("fold aliases the hook's decision")
	}
}
