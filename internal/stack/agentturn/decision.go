package agentturn

import (
	"encoding/json"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// ToolAction is what a [Config.BeforeToolCall] hook decides for one call.
// The zero value is [Allow], so a zero [ToolDecision] runs the call.
type ToolAction int

const (
	// Allow runs the call.
	Allow ToolAction = iota
	// Block refuses the call; the model receives the decision's reason as
	// the call's error output.
	Block
	// Defer hands the call back to the caller without running it: no
	// output is appended, the rest of the batch proceeds, and the run ends
	// [ReasonInputRequired] listing the call in [RunEnd.Pending].
	Defer
)

// ToolCallInfo is what a [Config.BeforeToolCall] hook sees of one call. The
// loop builds one for every call of a response and puts all of them to the
// hook, in model order, before any call executes.
type ToolCallInfo struct {
	// RunID identifies the run, as [RunEnd.RunID] does.
	RunID string
	// Turn numbers the turn from 1; it is 0 for calls approved on
	// [Agent.Resume].
	Turn int
	// Call is the model's function_call item.
	Call *openresponses.FunctionCall
	// Tool is the tool the call names, nil if no tool of the turn has the
	// name.
	Tool agenttool.Tool
	// Args are the arguments as raw JSON ("{}" when the model sent none).
	Args json.RawMessage
	// Batch holds every call of the batch, in model order, as the loop's
	// own pointers: Batch[Index] == Call.
	Batch []*openresponses.FunctionCall
	// Index is the call's position in Batch.
	Index int
	// Parent is the call ID of the invoking call for a call made with
	// [Invoke]; "" for a call the model made.
	Parent string
}

// ToolDecision is a [Config.BeforeToolCall] hook's answer for one call. A
// nil decision allows the call unchanged.
type ToolDecision struct {
	// Action is what happens to the call.
	Action ToolAction
	// Reason is, for [Block], the error text the model sees ("call blocked"
	// when empty); for any action, the reason recorded.
	Reason string
	// Terminate asks the loop to stop after this batch (see
	// [StopTerminate] and [StopPartialTerminate]).
	Terminate bool
	// Args, when non-nil, replaces the arguments the tool runs with; the
	// function_call item in the transcript keeps the model's arguments.
	Args json.RawMessage
	// By names the decider ("human", "policy", "agent"); the loop ignores
	// it.
	By string
	// Note, for an allowed call, is appended after the batch's outputs as a
	// developer message.
	Note string
	// Held marks a call deferred only because a sibling of its batch was.
	Held bool
	// Subject names the part of a split call the decision is about.
	Subject string
}
