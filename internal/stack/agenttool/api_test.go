package agenttool_test

import (
	"context"
	"encoding/json"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// This file refers to every identifier stack.md §5 lists, with its
// documented type, so that a missing or changed identifier fails the build.

type args struct {
	Command string `json:"command"`
}

var (
	_ func(agenttool.Tool) string                                                     = agenttool.Tool.Name
	_ func(agenttool.Tool) string                                                     = agenttool.Tool.Description
	_ func(agenttool.Tool) json.RawMessage                                            = agenttool.Tool.Parameters
	_ func(agenttool.Tool, context.Context, agenttool.Call) (agenttool.Result, error) = agenttool.Tool.Execute

	_ func(string) agenttool.Result = agenttool.Text
	_ func(error) agenttool.Result  = agenttool.ErrorResult
	_ agenttool.NoArgs              = struct{}{}

	_ func(string, string, func(context.Context, args) (string, error), ...agenttool.Option) agenttool.Tool                                      = agenttool.New[args, string]
	_ func(string, string, json.RawMessage, func(context.Context, agenttool.Call) (agenttool.Result, error), ...agenttool.Option) agenttool.Tool = agenttool.NewFunc
	_ func(func(context.Context, json.RawMessage) (bool, string)) agenttool.Option                                                               = agenttool.WithConfined
	_ func(func(context.Context, json.RawMessage) agenttool.Replay) agenttool.Option                                                             = agenttool.WithReplay

	_ func(agenttool.Confined, context.Context, json.RawMessage) (bool, string)     = agenttool.Confined.Confined
	_ func(context.Context, agenttool.Tool, json.RawMessage) (bool, string)         = agenttool.ConfinedBy
	_ func(agenttool.Replayable, context.Context, json.RawMessage) agenttool.Replay = agenttool.Replayable.Replay
	_ func(context.Context, agenttool.Tool, json.RawMessage) agenttool.Replay       = agenttool.ReplayOf
	_ agenttool.Replay                                                              = agenttool.ReplayUnknown
	_ agenttool.Replay                                                              = agenttool.ReplaySafe
	_ agenttool.Replay                                                              = agenttool.ReplayKeyed
	_ func(agenttool.Replay) string                                                 = agenttool.Replay.String
	_ int                                                                           = int(agenttool.Replay(0))

	_ []agenttool.Tool                                      = agenttool.Set(nil)
	_ func(agenttool.Set, string) (agenttool.Tool, bool)    = agenttool.Set.Lookup
	_ func(agenttool.Set) openresponses.Tools               = agenttool.Set.Definitions
	_ func(agenttool.Set) error                             = agenttool.Set.Validate
	_ func(agenttool.Tool) *openresponses.FunctionTool      = agenttool.Definition
	_ func(context.Context, agenttool.Call) context.Context = agenttool.WithCall
	_ func(context.Context) (agenttool.Call, bool)          = agenttool.CallFrom
	_ func(json.RawMessage) (args, error)                   = agenttool.Decode[args]
)

func _() {
	var c agenttool.Call
	var _ string = c.ID
	var _ json.RawMessage = c.Args
	var _ string = c.IdempotencyKey
	var _ func(agenttool.Result) = c.OnUpdate

	var r agenttool.Result
	var _ openresponses.FunctionCallOutputData = r.Output
	var _ any = r.Details
	var _ bool = r.Terminate

	var o agenttool.Option
	_ = o
}
