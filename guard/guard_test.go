package guard

import (
	"context"
	"errors"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// budget is a product's own guard: a type with options and state of its
// own, as a model-backed guard has, that a chain runs without a wrapper.
type budget struct {
	label string
	words int
	seen  int
}

func (b *budget) Name() string { return b.label }

func (b *budget) Check(_ context.Context, subject any) (Verdict, error) {
	m, ok := subject.(Message)
	if !ok || m.Message == nil {
		return Verdict{}, nil
	}
	b.seen++
	if len(m.Message.Text()) > b.words {
		return Verdict{Action: agentturn.Block, Reason: "too long"}, nil
	}
	return Verdict{Reason: "short enough"}, nil
}

func TestAProductsOwnGuardTypeRunsInAChain(t *testing.T) {
	own := &budget{label: "budget", words: 5}
	var o observed
	c := Chain{Guards: []Guard{Redact(), own}, Observer: o.observe}
	ctx := agentturn.ContextWithRunID(context.Background(), "run_1")

	msg, err := c.OutputGuard()(ctx, agentturn.OutputInfo{Turn: 2, Message: or.AssistantText("a long answer")})
	if err != nil {
		t.Fatal(err)
	}
	if msg == nil || msg.Text() != "Withheld by budget: too long" {
		t.Fatalf("message %+v, want the placeholder naming the guard", msg)
	}
	if own.seen != 1 {
		t.Fatalf("the guard was called %d times, want 1", own.seen)
	}
	want := []agentpolicy.Verdict{
		{RunID: "run_1", Turn: 2, Guard: "redact", Action: agentturn.Allow},
		{RunID: "run_1", Turn: 2, Guard: "budget", Action: agentturn.Block, Reason: "too long"},
	}
	if len(o.verdicts) != len(want) || o.verdicts[0] != want[0] || o.verdicts[1] != want[1] {
		t.Fatalf("observed %+v, want %+v", o.verdicts, want)
	}

	c.Stop = true
	_, err = c.OutputGuard()(ctx, agentturn.OutputInfo{Turn: 3, Message: or.AssistantText("another long one")})
	var blocked *BlockedError
	if !errors.As(err, &blocked) || blocked.Guard != "budget" {
		t.Fatalf("error %v, want a BlockedError naming the guard", err)
	}
}

func TestNewNamesTheGuardAndRunsTheCheck(t *testing.T) {
	var got any
	g := New("mine", func(_ context.Context, subject any) (Verdict, error) {
		got = subject
		return Verdict{Action: agentturn.Block, Reason: "no"}, nil
	})
	in := Input{Instructions: "x"}
	v, err := g.Check(context.Background(), in)
	if err != nil || v.Action != agentturn.Block || v.Reason != "no" {
		t.Fatalf("verdict %+v, error %v", v, err)
	}
	if sub, ok := got.(Input); g.Name() != "mine" || !ok || sub.Instructions != "x" {
		t.Fatalf("name %q, subject %+v", g.Name(), got)
	}
}

func TestBuiltInGuardsAreNamed(t *testing.T) {
	for want, g := range map[string]Guard{
		"limit":   Limit(1),
		"deny":    Deny(),
		"secrets": Secrets(),
		"redact":  Redact(),
	} {
		if g.Name() != want {
			t.Errorf("Name() = %q, want %q", g.Name(), want)
		}
	}
}
