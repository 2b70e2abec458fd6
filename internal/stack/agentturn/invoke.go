package agentturn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// deferredNested is the error text of a nested call a hook deferred: a
// nested call has no caller to wait for.
const deferredNested = "a nested call cannot be deferred to the caller: "

// invoker is what the loop puts on a tool's context so that the tool can
// run another tool of the turn through the loop.
type invoker struct {
	r      *run
	parent string // call ID of the call whose tool holds the context
}

type invokerKey struct{}

// withInvoker returns ctx carrying the run r for the tool of call parent.
func withInvoker(ctx context.Context, r *run, parent string) context.Context {
	return context.WithValue(ctx, invokerKey{}, invoker{r: r, parent: parent})
}

// Invoke runs the tool named name with args from inside a running tool,
// through the loop that runs it: ctx must be the context the loop gave the
// tool ([ErrNoInvoker] otherwise). [Config.BeforeToolCall] decides the
// nested call with [ToolCallInfo.Parent] naming the invoking call and a
// one-call Batch. A Block, or a Defer (a nested call has no caller to wait
// for), returns the error output as the result and its text as the error.
// Nothing is appended to the transcript and the call never becomes pending.
func Invoke(ctx context.Context, name string, args json.RawMessage) (agenttool.Result, error) {
	inv, ok := ctx.Value(invokerKey{}).(invoker)
	if !ok {
		return agenttool.Result{}, ErrNoInvoker
	}
	return inv.r.invoke(ctx, inv.parent, name, args)
}

// invoke decides and runs one nested call.
func (r *run) invoke(ctx context.Context, parent, name string, args json.RawMessage) (agenttool.Result, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	call := &openresponses.FunctionCall{CallID: openresponses.NewID("call"), Name: name, Arguments: string(args)}
	tool := lookup(r.tools, name)
	if hook := r.a.cfg.BeforeToolCall; hook != nil {
		d, err := hook(ctx, ToolCallInfo{
			RunID:  r.id,
			Turn:   r.turn,
			Call:   call,
			Tool:   tool,
			Args:   args,
			Batch:  []*openresponses.FunctionCall{call},
			Parent: parent,
		})
		if err != nil {
			return agenttool.Result{}, fmt.Errorf("agentturn: before-tool-call hook: %w", err)
		}
		if refusal := nestedRefusal(d); refusal != nil {
			return agenttool.ErrorResult(refusal), refusal
		}
		if d != nil && d.Args != nil {
			args = d.Args
		}
	}
	if tool == nil {
		err := fmt.Errorf("tool %q not found", name)
		return agenttool.ErrorResult(err), err
	}
	return tool.Execute(withInvoker(ctx, r, call.CallID), agenttool.Call{
		ID:             call.CallID,
		Args:           args,
		IdempotencyKey: openresponses.NewID("key"),
	})
}

// nestedRefusal returns the error a decision refuses a nested call with,
// nil when it lets the call run.
func nestedRefusal(d *ToolDecision) error {
	if d == nil {
		return nil
	}
	switch d.Action {
	case Block:
		if d.Reason == "" {
			return errors.New(blockedReason)
		}
		return errors.New(d.Reason)
	case Defer:
		return errors.New(deferredNested + d.Reason)
	}
	return nil
}
