package echo

import (
	"context"
	"encoding/json"
	"time"

	"github.com/ChristopherDavenport/openresponses"
)

// Adapter is the echo model. Phase is the phase of the messages it writes
// (final_answer when empty). The zero value is ready to use and safe for
// concurrent use.
//
// Given a request, it streams exactly one item:
//
//   - If the request offers a function tool, ToolChoice.Mode is not "none"
//     and the last input item is not a function_call_output, a call with a
//     fresh call ID of the forced function (ToolChoice.Function, when
//     offered) or else the first function tool; its arguments are a JSON
//     object that maps every name in the tool schema's "required" array to
//     the text of the last user message.
//   - Otherwise an assistant message whose text is found scanning the input
//     backwards: for a function_call_output "Tool result: " and its output;
//     for a user message its text, or "I received your message." when that
//     is empty; with neither, "Hello!".
//
// The response is [openresponses.NewResponse] of the request with that one
// item, status completed, and usage counted as one token per four bytes.
type Adapter struct {
	Phase openresponses.Phase
}

var _ openresponses.Adapter = (*Adapter)(nil)

// CreateStream answers req on sink as described on [Adapter].
func (a *Adapter) CreateStream(ctx context.Context, req openresponses.Request, sink openresponses.EventSink) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	resp := openresponses.NewResponse(req)
	e := openresponses.NewEmitter(sink, resp)
	var written string
	if tool, ok := toolToCall(req); ok {
		args, err := callArguments(tool, lastUserText(req.Input))
		if err != nil {
			return err
		}
		w, err := e.FunctionCall(openresponses.NewID("call"), tool.Name)
		if err != nil {
			return err
		}
		if err := w.Arguments(args); err != nil {
			return err
		}
		written = args
	} else {
		phase := a.Phase
		if phase == "" {
			phase = openresponses.PhaseFinalAnswer
		}
		w, err := e.Message(phase)
		if err != nil {
			return err
		}
		written = answer(req.Input)
		if err := w.Text(written); err != nil {
			return err
		}
	}
	resp.Usage = usage(req, written)
	return e.Complete()
}

// Create answers req in one piece, by collecting [Adapter.CreateStream].
func (a *Adapter) Create(ctx context.Context, req openresponses.Request) (*openresponses.Response, error) {
	return openresponses.CollectStream(ctx, a, req)
}

// Compact compacts nothing: its output is a copy of the input, so a caller
// that compacts through echo keeps its transcript as it was.
func (a *Adapter) Compact(ctx context.Context, req openresponses.CompactRequest) (*openresponses.CompactResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &openresponses.CompactResponse{
		ID:        openresponses.NewID("resp"),
		Object:    "response.compaction",
		CreatedAt: time.Now().Unix(),
		Output:    req.Input.Clone(),
		Usage:     &openresponses.Usage{},
	}, nil
}

// toolToCall picks the function tool echo calls, if it calls one.
func toolToCall(req openresponses.Request) (*openresponses.FunctionTool, bool) {
	if req.ToolChoice.Mode == openresponses.ToolChoiceNone {
		return nil, false
	}
	if n := len(req.Input); n > 0 {
		if _, ok := req.Input[n-1].(*openresponses.FunctionCallOutput); ok {
			return nil, false
		}
	}
	var first *openresponses.FunctionTool
	for _, t := range req.Tools {
		fn, ok := t.(*openresponses.FunctionTool)
		if !ok || fn == nil {
			continue
		}
		if forced := req.ToolChoice.Function; forced != nil && forced.Name == fn.Name {
			return fn, true
		}
		if first == nil {
			first = fn
		}
	}
	return first, first != nil
}

// callArguments maps every required argument of tool to text.
func callArguments(tool *openresponses.FunctionTool, text string) (string, error) {
	var schema struct {
		Required []string `json:"required"`
	}
	if len(tool.Parameters) > 0 {
		// A schema that does not parse has no required names to fill.
		_ = json.Unmarshal(tool.Parameters, &schema)
	}
	args := make(map[string]string, len(schema.Required))
	for _, name := range schema.Required {
		args[name] = text
	}
	raw, err := json.Marshal(args)
	return string(raw), err
}

// lastUserText is the text of the last user message of input, "" when there
// is none.
func lastUserText(input openresponses.Items) string {
	for i := len(input) - 1; i >= 0; i-- {
		if m, ok := input[i].(*openresponses.Message); ok && m != nil && m.Role == openresponses.RoleUser {
			return m.Text()
		}
	}
	return ""
}

// answer is the text of echo's message for input.
func answer(input openresponses.Items) string {
	for i := len(input) - 1; i >= 0; i-- {
		switch v := input[i].(type) {
		case *openresponses.FunctionCallOutput:
			if v != nil {
				return "Tool result: " + v.Output.String()
			}
		case *openresponses.Message:
			if v == nil || v.Role != openresponses.RoleUser {
				continue
			}
			if text := v.Text(); text != "" {
				return text
			}
			return "I received your message."
		}
	}
	return "Hello!"
}

// usage counts one token per four bytes (rounded up) of the encoded input
// and of what echo wrote.
func usage(req openresponses.Request, written string) *openresponses.Usage {
	input, _ := json.Marshal(req.Input) // an input that does not encode counts as empty
	in := tokens(len(input) + len(req.Instructions))
	out := tokens(len(written))
	return &openresponses.Usage{InputTokens: in, OutputTokens: out, TotalTokens: in + out}
}

func tokens(bytes int) int { return (bytes + 3) / 4 }
