package agentturn_test

import (
	"context"
	"encoding/json"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// This file refers to every identifier of the published API the policy
// packages rely on, with its documented type, so that a missing or changed
// one fails the build. Fields are checked through pointers to them, and
// constants through ptr, so that only the exact type compiles.

func ptr[T any](v T) *T { return &v }

// §3.1 decisions.
var (
	_ *agentturn.ToolAction = ptr(agentturn.Allow)
	_ *agentturn.ToolAction = ptr(agentturn.Block)
	_ *agentturn.ToolAction = ptr(agentturn.Defer)
	_ *int                  = ptr(int(agentturn.ToolAction(0)))

	callInfo agentturn.ToolCallInfo
	_        *string                        = &callInfo.RunID
	_        *int                           = &callInfo.Turn
	_        **openresponses.FunctionCall   = &callInfo.Call
	_        *agenttool.Tool                = &callInfo.Tool
	_        *json.RawMessage               = &callInfo.Args
	_        *[]*openresponses.FunctionCall = &callInfo.Batch
	_        *int                           = &callInfo.Index
	_        *string                        = &callInfo.Parent

	decision agentturn.ToolDecision
	_        *agentturn.ToolAction = &decision.Action
	_        *string               = &decision.Reason
	_        *bool                 = &decision.Terminate
	_        *json.RawMessage      = &decision.Args
	_        *string               = &decision.By
	_        *string               = &decision.Note
	_        *bool                 = &decision.Held
	_        *string               = &decision.Subject

	turnInfo agentturn.TurnInfo
	_        *string                  = &turnInfo.RunID
	_        *int                     = &turnInfo.Turn
	_        **openresponses.Response = &turnInfo.Response
	_        *[]agenttool.Result      = &turnInfo.ToolResults
	_        *bool                    = &turnInfo.Final
	_        *agentturn.Transcript    = &turnInfo.Transcript

	outputInfo agentturn.OutputInfo
	_          *string                 = &outputInfo.RunID
	_          *int                    = &outputInfo.Turn
	_          *string                 = &outputInfo.ResponseID
	_          **openresponses.Message = &outputInfo.Message
	_          *openresponses.Items    = &outputInfo.Output

	turnStart agentturn.TurnStartInfo
	_         *string               = &turnStart.RunID
	_         *int                  = &turnStart.Turn
	_         *agentturn.Transcript = &turnStart.Transcript
)

// §3.2 config.
var (
	_ *openresponses.Streamer  = new(agentturn.Model)
	_ *openresponses.Items     = new(agentturn.Transcript)
	_ *agentturn.ExecutionMode = ptr(agentturn.ExecParallel)
	_ *agentturn.ExecutionMode = ptr(agentturn.ExecSequential)
	_ *int                     = ptr(int(agentturn.ExecutionMode(0)))

	cfg agentturn.Config
	_   *agentturn.Model                                                                = &cfg.Model
	_   *string                                                                         = &cfg.ModelName
	_   *string                                                                         = &cfg.Instructions
	_   *[]agenttool.Tool                                                               = &cfg.Tools
	_   *func(ctx context.Context) []agenttool.Tool                                     = &cfg.ToolProvider
	_   *func(context.Context, agentturn.TurnStartInfo) (openresponses.Items, error)    = &cfg.BeforeTurn
	_   *func(context.Context, *openresponses.Request) error                            = &cfg.BeforeModelCall
	_   *func(context.Context, agentturn.OutputInfo) (*openresponses.Message, error)    = &cfg.OutputGuard
	_   *agentturn.ExecutionMode                                                        = &cfg.ToolExecution
	_   *int                                                                            = &cfg.MaxTurns
	_   *func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) = &cfg.BeforeToolCall
	_   *func(context.Context, agentturn.TurnInfo) (bool, error)                        = &cfg.ShouldStopAfterTurn
)

// §3.3 agent.
var (
	_ func(agentturn.Config, ...agentturn.Option) *agentturn.Agent                              = agentturn.New
	_ func(agentturn.Transcript) agentturn.Option                                               = agentturn.WithTranscript
	_ func([]agentturn.PendingCall) agentturn.Option                                            = agentturn.WithPending
	_ func(*agentturn.Agent, context.Context, ...openresponses.Item) (*agentturn.RunEnd, error) = (*agentturn.Agent).Prompt
	_ func(*agentturn.Agent, context.Context, ...agentturn.Answer) (*agentturn.RunEnd, error)   = (*agentturn.Agent).Resume
	_ func(*agentturn.Agent) agentturn.State                                                    = (*agentturn.Agent).State
	_ agentturn.Option                                                                          = func(*agentturn.Agent) {}

	state agentturn.State
	_     *agentturn.Transcript    = &state.Transcript
	_     *bool                    = &state.Running
	_     *string                  = &state.RunID
	_     *int                     = &state.Turn
	_     *int                     = &state.Steering
	_     *int                     = &state.FollowUps
	_     *openresponses.Items     = &state.Steered
	_     *openresponses.Items     = &state.Queued
	_     *[]agentturn.PendingCall = &state.Pending
)

// §3.4 run ends.
var (
	_ *agentturn.Reason = ptr(agentturn.ReasonDone)
	_ *agentturn.Reason = ptr(agentturn.ReasonStopped)
	_ *agentturn.Reason = ptr(agentturn.ReasonInputRequired)
	_ *agentturn.Reason = ptr(agentturn.ReasonAborted)
	_ *agentturn.Reason = ptr(agentturn.ReasonError)
	_ *string           = ptr(string(agentturn.Reason("")))

	_ *agentturn.StopCause = ptr(agentturn.StopMaxTurns)
	_ *agentturn.StopCause = ptr(agentturn.StopHook)
	_ *agentturn.StopCause = ptr(agentturn.StopGuard)
	_ *agentturn.StopCause = ptr(agentturn.StopTerminate)
	_ *agentturn.StopCause = ptr(agentturn.StopPartialTerminate)
	_ *agentturn.StopCause = ptr(agentturn.StopRefused)
	_ *string              = ptr(string(agentturn.StopCause("")))

	end agentturn.RunEnd
	_   *string                                = &end.RunID
	_   *agentturn.Transcript                  = &end.Items
	_   *agentturn.Reason                      = &end.Reason
	_   *agentturn.StopCause                   = &end.Cause
	_   *error                                 = &end.Err
	_   *[]agentturn.PendingCall               = &end.Pending
	_   *bool                                  = &end.Withheld
	_   func(*agentturn.RunEnd) (string, bool) = (*agentturn.RunEnd).Answer
	_   func(*agentturn.RunEnd) string         = (*agentturn.RunEnd).EventType
)

// §3.5 pending calls.
var (
	_ *agentturn.PendingReason = ptr(agentturn.PendingDeferred)
	_ *agentturn.PendingReason = ptr(agentturn.PendingAborted)
	_ *agentturn.PendingReason = ptr(agentturn.PendingUndispatched)
	_ *agentturn.PendingReason = ptr(agentturn.PendingUnknown)
	_ *agentturn.PendingReason = ptr(agentturn.PendingAnswered)
	_ *agentturn.PendingReason = ptr(agentturn.PendingRejected)
	_ *string                  = ptr(string(agentturn.PendingReason("")))

	pending agentturn.PendingCall
	_       **openresponses.FunctionCall       = &pending.Call
	_       *agentturn.PendingReason           = &pending.Reason
	_       *agenttool.Tool                    = &pending.Tool
	_       *bool                              = &pending.Dispatched
	_       *string                            = &pending.IdempotencyKey
	_       *json.RawMessage                   = &pending.Args
	_       **openresponses.FunctionCallOutput = &pending.Ran
	_       *string                            = &pending.RanWhere
	_       *string                            = &pending.Refused
	_       **agentturn.ToolDecision           = &pending.Decision

	_ func(agentturn.PendingCall) bool                            = agentturn.PendingCall.MayHaveRun
	_ func([]agentturn.PendingCall) []*openresponses.FunctionCall = agentturn.PendingCalls
)

// §3.6 answers.
var (
	answer agentturn.Answer
	_      *string                            = &answer.CallID
	_      **openresponses.FunctionCallOutput = &answer.Output
	_      *json.RawMessage                   = &answer.Args
	_      *string                            = &answer.Note
	_      *bool                              = &answer.Terminate
	_      *string                            = &answer.By
	_      *string                            = &answer.Reason
	_      *string                            = &answer.Origin
	_      *string                            = &answer.IdempotencyKey
	_      *bool                              = &answer.RunAgain

	_ func(*openresponses.FunctionCallOutput) agentturn.Answer = agentturn.Output
	_ func(*openresponses.FunctionCallOutput) agentturn.Answer = agentturn.Refuse
	_ func(string) agentturn.Answer                            = agentturn.Approve
	_ func(string, json.RawMessage) agentturn.Answer           = agentturn.ApproveWith
	_ func(string) agentturn.Answer                            = agentturn.OutcomeUnknown
	_ func(agentturn.Answer, string) agentturn.Answer          = agentturn.Answer.WithNote
	_ func(agentturn.Answer, string) agentturn.Answer          = agentturn.Answer.WithBy
	_ func(agentturn.Answer, string) agentturn.Answer          = agentturn.Answer.WithReason
	_ func(agentturn.Answer, string) agentturn.Answer          = agentturn.Answer.WithOrigin
	_ func(agentturn.Answer, string) agentturn.Answer          = agentturn.Answer.WithIdempotencyKey
	_ func(agentturn.Answer) agentturn.Answer                  = agentturn.Answer.WithRunAgain

	_ *string = ptr(agentturn.RunAgainReason)
	_ *string = ptr(agentturn.RunAgainSafeReason)
	_ *string = ptr(agentturn.RunAgainKeyedReason)
	_ *string = ptr(agentturn.OutcomeUnknownReason)
)

// §3.7 errors, §3.8 context helpers, §3.9 chain, §3.10 invoke.
var (
	_ *error = &agentturn.ErrGuard
	_ *error = &agentturn.ErrInputRequired
	_ *error = &agentturn.ErrNotPending
	_ *error = &agentturn.ErrAmbiguousCall
	_ *error = &agentturn.ErrCallAnswered
	_ *error = &agentturn.ErrRunning
	_ *error = &agentturn.ErrNoModel
	_ *error = &agentturn.ErrNoPrompt
	_ *error = &agentturn.ErrCannotContinue
	_ *error = &agentturn.ErrNoInvoker

	_ func(context.Context, string) context.Context = agentturn.ContextWithRunID
	_ func(context.Context) string                  = agentturn.RunIDFromContext
	_ func(agentturn.Transcript) bool               = agentturn.CanContinue

	_ func(...func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error)) func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) = agentturn.ChainBeforeToolCall

	_ func(context.Context, string, json.RawMessage) (agenttool.Result, error) = agentturn.Invoke
)
