package agentturn_test

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// BenchmarkPrompt measures a two-turn run: a batch of two calls decided by
// a hook, then the final message.
func BenchmarkPrompt(b *testing.B) {
	var j journal
	tools := []agenttool.Tool{agenttool.NewFunc("a", "runs", objectSchema, func(context.Context, agenttool.Call) (agenttool.Result, error) {
		return agenttool.Text("ok"), nil
	})}
	hook := decideBy(&j, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		j.entries = j.entries[:0]
		a := agentturn.New(agentturn.Config{
			Model:          &script{turns: [][]step{{call("c1", "a", "{}"), call("c2", "a", "{}")}}},
			Tools:          tools,
			BeforeToolCall: hook,
		})
		if _, err := a.Prompt(ctx, openresponses.UserText("go")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChainBeforeToolCall measures the fold of three hooks.
func BenchmarkChainBeforeToolCall(b *testing.B) {
	allow := func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		return &agentturn.ToolDecision{Reason: "ok"}, nil
	}
	none := func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) { return nil, nil }
	chain := agentturn.ChainBeforeToolCall(allow, none, allow)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := chain(ctx, agentturn.ToolCallInfo{}); err != nil {
			b.Fatal(err)
		}
	}
}
