package agentturn_test

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// §3.8: the run ID rides on a context; "" outside a loop.
func TestRunIDContext(t *testing.T) {
	if id := agentturn.RunIDFromContext(context.Background()); id != "" {
		t.Errorf("outside a loop: %q", id)
	}
	ctx := agentturn.ContextWithRunID(context.Background(), "run_1")
	if id := agentturn.RunIDFromContext(ctx); id != "run_1" {
		t.Errorf("RunIDFromContext = %q", id)
	}
}

// §3.8: a model call can pick up after a non-assistant message or a
// function call output.
func TestCanContinue(t *testing.T) {
	cases := []struct {
		name string
		last openresponses.Item
		want bool
	}{
		{"user", openresponses.UserText("x"), true},
		{"developer", openresponses.DeveloperText("x"), true},
		{"output", openresponses.NewFunctionCallOutput("c", "x"), true},
		{"assistant", openresponses.AssistantText("x"), false},
		{"call", &openresponses.FunctionCall{CallID: "c"}, false},
	}
	for _, c := range cases {
		if got := agentturn.CanContinue(agentturn.Transcript{openresponses.UserText("a"), c.last}); got != c.want {
			t.Errorf("%s last: %v, want %v", c.name, got, c.want)
		}
	}
	if agentturn.CanContinue(nil) {
		t.Errorf("empty transcript can continue")
	}
}

// §3.4: RunEnd.Answer is the text of a trailing assistant message.
func TestRunEndAnswer(t *testing.T) {
	cases := []struct {
		name  string
		items agentturn.Transcript
		want  string
		ok    bool
	}{
		{"assistant last", agentturn.Transcript{openresponses.UserText("q"), openresponses.AssistantText("a")}, "a", true},
		{"output last", agentturn.Transcript{openresponses.AssistantText("a"), openresponses.NewFunctionCallOutput("c", "x")}, "", false},
		{"user last", agentturn.Transcript{openresponses.UserText("q")}, "", false},
		{"empty", nil, "", false},
	}
	for _, c := range cases {
		got, ok := (&agentturn.RunEnd{Items: c.items}).Answer()
		if got != c.want || ok != c.ok {
			t.Errorf("%s: (%q, %v), want (%q, %v)", c.name, got, ok, c.want, c.ok)
		}
	}
}
