package agenttool

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// NoArgs is the argument type of a typed tool that takes no arguments; its
// schema is an object with no properties.
type NoArgs struct{}

// Option adjusts a tool built by [New] or [NewFunc].
type Option func(*options)

type options struct {
	confined func(ctx context.Context, args json.RawMessage) (bool, string)
	replay   func(ctx context.Context, args json.RawMessage) Replay
}

// WithConfined makes the tool answer [Confined] with fn.
func WithConfined(fn func(ctx context.Context, args json.RawMessage) (bool, string)) Option {
	return func(o *options) { o.confined = fn }
}

// WithReplay makes the tool answer [Replayable] with fn.
func WithReplay(fn func(ctx context.Context, args json.RawMessage) Replay) Option {
	return func(o *options) { o.replay = fn }
}

// New builds a tool from a typed Go function. The tool's parameters are a
// JSON Schema object reflected from Args: properties named by their json
// tags, every field without omitempty (or omitzero) listed in "required";
// [NoArgs] and empty structs give an object with no properties. Args must be
// a struct, a pointer to one or a map with string keys; New panics otherwise,
// as that is a programming error.
//
// A call's arguments must be a JSON object holding every required property;
// they are decoded into Args (see [Decode]) before fn runs, and a failure
// makes the call fail with "invalid arguments: …". fn runs with the [Call] on
// its context ([WithCall]). Its output becomes the result: a string as text,
// a [Result] as it is, anything else JSON-encoded as text. A failed call
// returns its error together with [ErrorResult] of it.
//
// The tool implements [Confined] and [Replayable], answering (false, "") and
// [ReplayUnknown] unless [WithConfined] or [WithReplay] say otherwise.
func New[Args, Out any](name, description string, fn func(context.Context, Args) (Out, error), opts ...Option) Tool {
	schema, required := reflectParameters[Args]()
	run := func(ctx context.Context, call Call) (Result, error) {
		if err := checkRequired(call.Args, required); err != nil {
			return ErrorResult(err), err
		}
		args, err := Decode[Args](call.Args)
		if err != nil {
			return ErrorResult(err), err
		}
		out, err := fn(ctx, args)
		if err != nil {
			return ErrorResult(err), err
		}
		return toResult(out)
	}
	return NewFunc(name, description, schema, run, opts...)
}

// NewFunc builds a tool from a function that takes the raw [Call], with
// parameters as its JSON Schema. fn runs with the call on its context
// ([WithCall]). The tool implements [Confined] and [Replayable] as the tools
// of [New] do.
func NewFunc(name, description string, parameters json.RawMessage, fn func(context.Context, Call) (Result, error), opts ...Option) Tool {
	t := &funcTool{name: name, description: description, parameters: slices.Clone(parameters), fn: fn}
	for _, opt := range opts {
		opt(&t.opts)
	}
	return t
}

// funcTool is the tool [New] and [NewFunc] build.
type funcTool struct {
	name, description string
	parameters        json.RawMessage
	fn                func(context.Context, Call) (Result, error)
	opts              options
}

func (t *funcTool) Name() string        { return t.name }
func (t *funcTool) Description() string { return t.description }

// Parameters returns a copy, so a caller cannot change the tool's schema.
func (t *funcTool) Parameters() json.RawMessage { return slices.Clone(t.parameters) }

// Execute runs the function with the call on its context.
func (t *funcTool) Execute(ctx context.Context, call Call) (Result, error) {
	return t.fn(WithCall(ctx, call), call)
}

// Confined answers with the [WithConfined] function, unconfined without one.
func (t *funcTool) Confined(ctx context.Context, args json.RawMessage) (bool, string) {
	if t.opts.confined == nil {
		return false, ""
	}
	return t.opts.confined(ctx, args)
}

// Replay answers with the [WithReplay] function, [ReplayUnknown] without one.
func (t *funcTool) Replay(ctx context.Context, args json.RawMessage) Replay {
	if t.opts.replay == nil {
		return ReplayUnknown
	}
	return t.opts.replay(ctx, args)
}

// toResult converts a typed function's output into a [Result].
func toResult(out any) (Result, error) {
	switch v := out.(type) {
	case string:
		return Text(v), nil
	case Result:
		return v, nil
	}
	raw, err := json.Marshal(out)
	if err != nil {
		err = fmt.Errorf("encoding the output: %w", err)
		return ErrorResult(err), err
	}
	return Text(string(raw)), nil
}
