package openresponses_test

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// This file refers to every identifier stack.md §4 lists, with its
// documented type, so that a missing or changed identifier fails the build.

// Items and parts.
var (
	_ openresponses.Item = (*openresponses.Message)(nil)
	_ openresponses.Item = (*openresponses.FunctionCall)(nil)
	_ openresponses.Item = (*openresponses.FunctionCallOutput)(nil)
	_ openresponses.Item = (*openresponses.ReasoningItem)(nil)
	_ openresponses.Item = (*openresponses.Compaction)(nil)
	_ openresponses.Item = (*openresponses.ItemReference)(nil)
	_ openresponses.Item = (*openresponses.UnknownItem)(nil)

	_ func(openresponses.Item) string                   = openresponses.Item.ItemType
	_ func(openresponses.Items) openresponses.Items     = openresponses.Items.Clone
	_ func(*openresponses.Items, []byte) error          = (*openresponses.Items).UnmarshalJSON
	_ []openresponses.Item                              = openresponses.Items(nil)
	_ func(*openresponses.Message) string               = (*openresponses.Message).ItemType
	_ func(*openresponses.Message) string               = (*openresponses.Message).Text
	_ func(openresponses.FunctionCallOutputData) string = openresponses.FunctionCallOutputData.String

	_ openresponses.Content = (*openresponses.InputText)(nil)
	_ openresponses.Content = (*openresponses.OutputText)(nil)
	_ openresponses.Content = (*openresponses.Refusal)(nil)
	_ openresponses.Content = (*openresponses.Text)(nil)
	_ openresponses.Content = (*openresponses.SummaryText)(nil)
	_ openresponses.Content = (*openresponses.ReasoningText)(nil)
	_ openresponses.Content = (*openresponses.InputImage)(nil)

	_ func(openresponses.Content) string                     = openresponses.Content.ContentType
	_ []openresponses.Content                                = openresponses.Contents(nil)
	_ func(openresponses.Contents) string                    = openresponses.Contents.Text
	_ []openresponses.Annotation                             = openresponses.OutputText{}.Annotations
	_ []openresponses.LogProb                                = openresponses.OutputText{}.Logprobs
	_ func(string) *openresponses.Message                    = openresponses.UserText
	_ func(...openresponses.Content) *openresponses.Message  = openresponses.UserMessage
	_ func(string) *openresponses.Message                    = openresponses.SystemText
	_ func(string) *openresponses.Message                    = openresponses.DeveloperText
	_ func(string) *openresponses.Message                    = openresponses.AssistantText
	_ func(string, string) *openresponses.FunctionCallOutput = openresponses.NewFunctionCallOutput
	_ func(string) string                                    = openresponses.NewID
)

func _() {
	var m openresponses.Message
	var _ string = m.ID
	var _ openresponses.Status = m.Status
	var _ openresponses.Role = m.Role
	var _ openresponses.Contents = m.Content
	var _ openresponses.Phase = m.Phase

	var fc openresponses.FunctionCall
	var _ string = fc.ID
	var _ openresponses.Status = fc.Status
	var _ string = fc.CallID
	var _ string = fc.Name
	var _ string = fc.Arguments

	var out openresponses.FunctionCallOutput
	var _ string = out.ID
	var _ openresponses.Status = out.Status
	var _ string = out.CallID
	var _ openresponses.FunctionCallOutputData = out.Output
	var _ string = out.Output.Text
	var _ openresponses.Contents = out.Output.Parts

	var r openresponses.ReasoningItem
	var _ string = r.ID
	var _ openresponses.Status = r.Status
	var _ openresponses.Contents = r.Summary
	var _ openresponses.Contents = r.Content
	var _ string = r.EncryptedContent

	var c openresponses.Compaction
	var _ string = c.ID
	var _ string = c.EncryptedContent
	var _ string = c.CreatedBy
	var _ openresponses.Status = c.Status

	var _ string = openresponses.ItemReference{}.ID
	var _ string = openresponses.InputText{}.Text
	var _ string = openresponses.OutputText{}.Text
	var _ string = openresponses.Refusal{}.Refusal
	var _ string = openresponses.Text{}.Text
	var _ string = openresponses.SummaryText{}.Text
	var _ string = openresponses.ReasoningText{}.Text
	var _ string = openresponses.InputImage{}.ImageURL
}

// Enums.
var (
	_ openresponses.Role           = openresponses.RoleUser
	_ openresponses.Role           = openresponses.RoleAssistant
	_ openresponses.Role           = openresponses.RoleSystem
	_ openresponses.Role           = openresponses.RoleDeveloper
	_ openresponses.Status         = openresponses.StatusInProgress
	_ openresponses.Status         = openresponses.StatusCompleted
	_ openresponses.Status         = openresponses.StatusIncomplete
	_ openresponses.Phase          = openresponses.PhaseCommentary
	_ openresponses.Phase          = openresponses.PhaseFinalAnswer
	_ openresponses.ResponseStatus = openresponses.ResponseStatusInProgress
	_ openresponses.ResponseStatus = openresponses.ResponseStatusCompleted
	_ openresponses.ResponseStatus = openresponses.ResponseStatusFailed
	_ openresponses.ResponseStatus = openresponses.ResponseStatusIncomplete
)

// Requests and responses.
func _() {
	var req openresponses.Request
	var _ string = req.Model
	var _ openresponses.Items = req.Input
	var _ string = req.PreviousResponseID
	var _ []openresponses.Include = req.Include
	var _ openresponses.Tools = req.Tools
	var _ []openresponses.Tool = req.Tools
	var _ openresponses.ToolChoice = req.ToolChoice
	var _ map[string]string = req.Metadata
	var _ openresponses.TextConfig = req.Text
	var _ *float64 = req.Temperature
	var _ *float64 = req.TopP
	var _ *float64 = req.PresencePenalty
	var _ *float64 = req.FrequencyPenalty
	var _ *bool = req.ParallelToolCalls
	var _ bool = req.Stream
	var _ *openresponses.StreamOptions = req.StreamOptions
	var _ bool = req.Background
	var _ *int = req.MaxOutputTokens
	var _ *int = req.MaxToolCalls
	var _ openresponses.ReasoningConfig = req.Reasoning
	var _ string = req.SafetyIdentifier
	var _ string = req.PromptCacheKey
	var _ openresponses.Truncation = req.Truncation
	var _ string = req.Instructions
	var _ *bool = req.Store
	var _ openresponses.ServiceTier = req.ServiceTier
	var _ *int = req.TopLogprobs
	var _ map[string]any = req.Extra

	var _ = req.ToolChoice.Mode == "none"
	var _ *openresponses.ToolChoiceFunction = req.ToolChoice.Function
	var _ *openresponses.ToolChoiceAllowed = req.ToolChoice.Allowed
	var _ *openresponses.TextFormat = req.Text.Format
	var _ string = req.Text.Verbosity

	var f openresponses.TextFormat
	var _ = f.Type == openresponses.TextFormatJSONSchema
	var _ string = f.Name
	var _ json.RawMessage = f.Schema
	var _ *bool = f.Strict
	var _ func(string, json.RawMessage, bool) *openresponses.TextFormat = openresponses.JSONSchemaFormat

	var resp openresponses.Response
	var _ string = resp.ID
	var _ string = resp.Object
	var _ int64 = resp.CreatedAt
	var _ *int64 = resp.CompletedAt
	var _ openresponses.ResponseStatus = resp.Status
	var _ *openresponses.IncompleteDetails = resp.IncompleteDetails
	var _ string = resp.Model
	var _ openresponses.Items = resp.Output
	var _ *openresponses.ErrorPayload = resp.Error
	var _ openresponses.Tools = resp.Tools
	var _ openresponses.ToolChoice = resp.ToolChoice
	var _ openresponses.TextConfig = resp.Text
	var _ *openresponses.Usage = resp.Usage
	var _ func(*openresponses.Response) string = (*openresponses.Response).OutputText
	var _ func(*openresponses.Response) []*openresponses.FunctionCall = (*openresponses.Response).FunctionCalls
	var _ func(openresponses.Request) *openresponses.Response = openresponses.NewResponse

	var ft openresponses.FunctionTool
	var _ openresponses.Tool = &ft
	var _ string = ft.Name
	var _ string = ft.Description
	var _ json.RawMessage = ft.Parameters
	var _ *bool = ft.Strict
	var _ func(string, string, json.RawMessage) *openresponses.FunctionTool = openresponses.NewFunctionTool
}

// Streaming.
var (
	_ func(openresponses.Streamer, context.Context, openresponses.Request, openresponses.EventSink) error                = openresponses.Streamer.CreateStream
	_ func(openresponses.EventSink, openresponses.StreamEvent) error                                                     = openresponses.EventSink.Send
	_ openresponses.Streamer                                                                                             = openresponses.Adapter(nil)
	_ func(openresponses.Adapter, context.Context, openresponses.Request) (*openresponses.Response, error)               = openresponses.Adapter.Create
	_ func(openresponses.Adapter, context.Context, openresponses.CompactRequest) (*openresponses.CompactResponse, error) = openresponses.Adapter.Compact
	_ func(context.Context, openresponses.Streamer, openresponses.Request) (*openresponses.Response, error)              = openresponses.CollectStream
	_ func(context.Context, openresponses.Streamer, openresponses.Request) iter.Seq2[openresponses.StreamEvent, error]   = openresponses.Events
	_ func(*openresponses.Accumulator, openresponses.StreamEvent) error                                                  = (*openresponses.Accumulator).Add
	_ func(*openresponses.Accumulator) *openresponses.Response                                                           = (*openresponses.Accumulator).Response
	_ func(openresponses.StreamEvent) (*openresponses.Response, bool)                                                    = openresponses.TerminalResponse
	_ error                                                                                                              = openresponses.ErrTruncatedStream

	_ openresponses.StreamEvent = (*openresponses.ResponseCreatedEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ResponseInProgressEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ResponseCompletedEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ResponseFailedEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ResponseIncompleteEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.OutputItemAddedEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.OutputItemDoneEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ContentPartAddedEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ContentPartDoneEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.OutputTextDeltaEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.OutputTextDoneEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.FunctionCallArgumentsDeltaEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.FunctionCallArgumentsDoneEvent)(nil)
	_ openresponses.StreamEvent = (*openresponses.ErrorEvent)(nil)

	_ func(openresponses.EventSink, *openresponses.Response) *openresponses.Emitter           = openresponses.NewEmitter
	_ func(*openresponses.Emitter) error                                                      = (*openresponses.Emitter).Start
	_ func(*openresponses.Emitter, openresponses.Phase) (*openresponses.MessageWriter, error) = (*openresponses.Emitter).Message
	_ func(*openresponses.Emitter, string, string) (*openresponses.FunctionCallWriter, error) = (*openresponses.Emitter).FunctionCall
	_ func(*openresponses.Emitter, string) error                                              = (*openresponses.Emitter).Reasoning
	_ func(*openresponses.Emitter, openresponses.Item) error                                  = (*openresponses.Emitter).Item
	_ func(*openresponses.Emitter, string) error                                              = (*openresponses.Emitter).Incomplete
	_ func(*openresponses.Emitter) error                                                      = (*openresponses.Emitter).Complete
	_ func(*openresponses.Emitter) *openresponses.Response                                    = (*openresponses.Emitter).Response
	_ func(*openresponses.MessageWriter, string) error                                        = (*openresponses.MessageWriter).Text
	_ func(*openresponses.MessageWriter) error                                                = (*openresponses.MessageWriter).Close
	_ func(*openresponses.FunctionCallWriter, string) error                                   = (*openresponses.FunctionCallWriter).Arguments
	_ func(*openresponses.FunctionCallWriter) error                                           = (*openresponses.FunctionCallWriter).Close

	_ openresponses.Adapter = (*echo.Adapter)(nil)
	_ openresponses.Phase   = echo.Adapter{}.Phase
)

func _() {
	var _ *openresponses.Response = openresponses.ResponseCreatedEvent{}.Response
	var _ *openresponses.Response = openresponses.ResponseInProgressEvent{}.Response
	var _ *openresponses.Response = openresponses.ResponseCompletedEvent{}.Response
	var _ *openresponses.Response = openresponses.ResponseFailedEvent{}.Response
	var _ *openresponses.Response = openresponses.ResponseIncompleteEvent{}.Response

	added := openresponses.OutputItemAddedEvent{}
	var _ int = added.OutputIndex
	var _ openresponses.Item = added.Item
	done := openresponses.OutputItemDoneEvent{}
	var _ int = done.OutputIndex
	var _ openresponses.Item = done.Item

	part := openresponses.ContentPartAddedEvent{}
	var _ string = part.ItemID
	var _ int = part.OutputIndex
	var _ int = part.ContentIndex
	var _ openresponses.Content = part.Part
	partDone := openresponses.ContentPartDoneEvent{}
	var _ string = partDone.ItemID
	var _ openresponses.Content = partDone.Part

	delta := openresponses.OutputTextDeltaEvent{}
	var _ string = delta.ItemID
	var _ int = delta.OutputIndex
	var _ int = delta.ContentIndex
	var _ string = delta.Delta
	textDone := openresponses.OutputTextDoneEvent{}
	var _ string = textDone.Text
	var _ int = textDone.ContentIndex

	argsDelta := openresponses.FunctionCallArgumentsDeltaEvent{}
	var _ string = argsDelta.ItemID
	var _ int = argsDelta.OutputIndex
	var _ string = argsDelta.Delta
	argsDone := openresponses.FunctionCallArgumentsDoneEvent{}
	var _ string = argsDone.ItemID
	var _ int = argsDone.OutputIndex
	var _ string = argsDone.Arguments

	var _ openresponses.ErrorPayload = openresponses.ErrorEvent{}.Error

	var a *echo.Adapter
	var _ func(context.Context, openresponses.Request, openresponses.EventSink) error = a.CreateStream
	var _ func(context.Context, openresponses.Request) (*openresponses.Response, error) = a.Create
	var _ func(context.Context, openresponses.CompactRequest) (*openresponses.CompactResponse, error) = a.Compact
}
