package agentturn

import (
	"context"

	"github.com/ChristopherDavenport/openresponses"
)

type runIDKey struct{}

// ContextWithRunID returns a copy of ctx carrying runID. The loop puts its
// run ID on the context of every hook, model and tool call it makes.
func ContextWithRunID(ctx context.Context, runID string) context.Context {
	return context.WithValue(ctx, runIDKey{}, runID)
}

// RunIDFromContext returns the run ID [ContextWithRunID] put on ctx, "" when
// none.
func RunIDFromContext(ctx context.Context) string {
	id, _ := ctx.Value(runIDKey{}).(string)
	return id
}

// CanContinue reports whether a model call can pick up at the end of t: its
// last item is a message not from the assistant, or a function call output.
func CanContinue(t Transcript) bool {
	if len(t) == 0 {
		return false
	}
	switch it := t[len(t)-1].(type) {
	case *openresponses.Message:
		return it.Role != openresponses.RoleAssistant
	case *openresponses.FunctionCallOutput:
		return true
	}
	return false
}
