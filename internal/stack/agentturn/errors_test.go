package agentturn_test

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// Checklist item 4 (ErrGuard) and §3.7: the error texts are the contract's.
func TestErrorTexts(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{agentturn.ErrGuard, "agentturn: guard stopped the run"},
		{agentturn.ErrInputRequired, "agentturn: pending tool calls must be resumed before continuing"},
		{agentturn.ErrNotPending, "agentturn: output does not answer a pending call"},
		{agentturn.ErrAmbiguousCall, "agentturn: a call that may have run cannot run again"},
		{agentturn.ErrCallAnswered, "agentturn: an answered call is owed its output and nothing else"},
		{agentturn.ErrRunning, "agentturn: agent is already running"},
		{agentturn.ErrNoModel, "agentturn: config has no model"},
		{agentturn.ErrNoPrompt, "agentturn: no prompt items"},
		{agentturn.ErrCannotContinue, "agentturn: transcript must end with a user message or a function call output to continue"},
		{agentturn.ErrNoInvoker, "agentturn: no loop on the context to invoke a tool through"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("error text %q, want %q", got, c.want)
		}
	}
}
