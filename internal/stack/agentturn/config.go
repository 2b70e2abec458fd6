package agentturn

import (
	"context"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// Model is what the loop streams responses from.
type Model = openresponses.Streamer

// Transcript is the working list of items a run reads and appends to.
type Transcript = openresponses.Items

// ExecutionMode says how the allowed calls of a batch run.
type ExecutionMode int

const (
	// ExecParallel lets the calls of a batch run side by side. This
	// stand-in runs them one after another, in model order; their outputs
	// are appended in model order in either mode.
	ExecParallel ExecutionMode = iota
	// ExecSequential runs the calls of a batch one after another, in model
	// order.
	ExecSequential
)

// Config is what an [Agent] runs with: the model, the tools, and the hooks
// that watch and steer each turn. Only Model is required.
type Config struct {
	// Model streams the responses; nil makes [Agent.Prompt] fail with
	// [ErrNoModel].
	Model Model
	// ModelName goes into each request's Model field.
	ModelName string
	// Instructions go into each request's Instructions field.
	Instructions string
	// Tools are the tools the model may call, unless ToolProvider is set.
	Tools []agenttool.Tool
	// ToolProvider, when set, replaces Tools. The loop consults it once per
	// turn, before the model call, and uses that list both for the
	// request's tool definitions and to resolve the turn's calls.
	ToolProvider func(ctx context.Context) []agenttool.Tool
	// BeforeTurn is called when a turn starts; the items it returns are
	// appended to the transcript before the request is built. An error
	// wrapping [ErrGuard] stops the run [StopGuard]; any other fails it.
	BeforeTurn func(context.Context, TurnStartInfo) (openresponses.Items, error)
	// BeforeModelCall sees each turn's fully built request just before it is
	// sent and may change it for that call only. An error means the model is
	// not called: one wrapping [ErrGuard] stops the run [StopGuard], any
	// other fails it.
	BeforeModelCall func(context.Context, *openresponses.Request) error
	// OutputGuard sees each assistant message as the stream completes it. A
	// non-nil message replaces it in the transcript. An error wrapping
	// [ErrGuard] withholds it and stops the run [StopGuard] with
	// [RunEnd.Withheld] set; any other error fails the run.
	OutputGuard func(context.Context, OutputInfo) (*openresponses.Message, error)
	// ToolExecution says how the allowed calls of a batch run.
	ToolExecution ExecutionMode
	// MaxTurns, when positive, stops a run whose turn number reaches it and
	// that still called tools ([StopMaxTurns]).
	MaxTurns int
	// BeforeToolCall decides each call before the batch runs (see
	// [ToolDecision]); an error fails the run.
	BeforeToolCall func(context.Context, ToolCallInfo) (*ToolDecision, error)
	// ShouldStopAfterTurn is asked after each turn's tool batch, unless the
	// batch left deferred calls. True stops the run [StopHook]; an error
	// wrapping [ErrGuard] stops it [StopGuard]; any other error fails it.
	ShouldStopAfterTurn func(context.Context, TurnInfo) (bool, error)
}
