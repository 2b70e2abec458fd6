package agenttool

import (
	"context"
	"encoding/json"

	"github.com/ChristopherDavenport/openresponses"
)

// Tool is something a model can call: a name, a description, the JSON Schema
// of its arguments object, and the code that runs a call.
type Tool interface {
	Name() string
	Description() string
	// Parameters is the JSON Schema of the arguments object.
	Parameters() json.RawMessage
	Execute(ctx context.Context, call Call) (Result, error)
}

// Call is one call of a [Tool], as the loop hands it over.
type Call struct {
	// ID is the call_id of the model's function call.
	ID string
	// Args is the arguments object as raw JSON.
	Args json.RawMessage
	// IdempotencyKey is minted by the harness for each hand-over and kept
	// when the same call is run again, so a keyed tool can tell a re-run from
	// a new call (see [ReplayKeyed]).
	IdempotencyKey string
	// OnUpdate, when set, receives partial results while the call runs.
	OnUpdate func(Result)
}

// Result is what a call returned: the output the model reads, details for the
// host, and whether the run should stop after this call's batch.
type Result struct {
	Output    openresponses.FunctionCallOutputData
	Details   any
	Terminate bool
}

// Text is a result whose output is s.
func Text(s string) Result {
	return Result{Output: openresponses.FunctionCallOutputData{Text: s}}
}

// ErrorResult is the result the model reads for a failed or refused call:
// "Error: " followed by the error's text.
func ErrorResult(err error) Result {
	return Text("Error: " + err.Error())
}

// WithCall puts call on ctx; tools built by [New] and [NewFunc] run with it
// there, so code below a typed function can reach the call's ID and key.
func WithCall(ctx context.Context, call Call) context.Context {
	return context.WithValue(ctx, callKey{}, call)
}

// CallFrom returns the call [WithCall] put on ctx.
func CallFrom(ctx context.Context) (Call, bool) {
	call, ok := ctx.Value(callKey{}).(Call)
	return call, ok
}

type callKey struct{}
