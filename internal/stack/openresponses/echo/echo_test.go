package echo_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

var (
	bashSchema = json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)
	editSchema = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}},"required":["text","path"]}`)
	bash       = openresponses.NewFunctionTool("bash", "run a command", bashSchema)
	edit       = openresponses.NewFunctionTool("edit", "edit a file", editSchema)
)

// TestEchoCallsTool checks rule 1: with a function tool on offer, echo calls
// it with every required argument set to the last user message's text.
func TestEchoCallsTool(t *testing.T) {
	tests := []struct {
		name     string
		req      openresponses.Request
		wantName string
		wantArgs string
	}{
		{
			name:     "first function tool",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("git push origin main")}, Tools: openresponses.Tools{bash, edit}},
			wantName: "bash",
			wantArgs: `{"command":"git push origin main"}`,
		},
		{
			name:     "every required name, keys sorted",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("x")}, Tools: openresponses.Tools{edit}},
			wantName: "edit",
			wantArgs: `{"path":"x","text":"x"}`,
		},
		{
			name:     "forced function",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("x")}, Tools: openresponses.Tools{bash, edit}, ToolChoice: openresponses.ToolChoice{Function: &openresponses.ToolChoiceFunction{Name: "edit"}}},
			wantName: "edit",
			wantArgs: `{"path":"x","text":"x"}`,
		},
		{
			name:     "forced function not offered falls back to the first",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("x")}, Tools: openresponses.Tools{bash}, ToolChoice: openresponses.ToolChoice{Function: &openresponses.ToolChoiceFunction{Name: "edit"}}},
			wantName: "bash",
			wantArgs: `{"command":"x"}`,
		},
		{
			name: "last user message, not the last message",
			req: openresponses.Request{
				Input: openresponses.Items{openresponses.UserText("old"), openresponses.AssistantText("a"), openresponses.UserText("new"), openresponses.DeveloperText("note")},
				Tools: openresponses.Tools{bash},
			},
			wantName: "bash",
			wantArgs: `{"command":"new"}`,
		},
		{
			name:     "no user message",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.SystemText("s")}, Tools: openresponses.Tools{bash}},
			wantName: "bash",
			wantArgs: `{"command":""}`,
		},
		{
			name:     "schema without required",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("x")}, Tools: openresponses.Tools{openresponses.NewFunctionTool("now", "", json.RawMessage(`{"type":"object","properties":{}}`))}},
			wantName: "now",
			wantArgs: `{}`,
		},
		{
			name: "function call output not last",
			req: openresponses.Request{
				Input: openresponses.Items{openresponses.NewFunctionCallOutput("c", "out"), openresponses.UserText("again")},
				Tools: openresponses.Tools{bash},
			},
			wantName: "bash",
			wantArgs: `{"command":"again"}`,
		},
		{
			name:     "mode required",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("x")}, Tools: openresponses.Tools{bash}, ToolChoice: openresponses.ToolChoice{Mode: openresponses.ToolChoiceRequired}},
			wantName: "bash",
			wantArgs: `{"command":"x"}`,
		},
		{
			name:     "html characters as json.Marshal writes them",
			req:      openresponses.Request{Input: openresponses.Items{openresponses.UserText("a && b")}, Tools: openresponses.Tools{bash}},
			wantName: "bash",
			wantArgs: `{"command":"a \u0026\u0026 b"}`,
		},
	}
	callID := regexp.MustCompile(`^call_[0-9a-f]+$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := (&echo.Adapter{}).Create(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Output) != 1 {
				t.Fatalf("output %#v, want one function call", resp.Output)
			}
			call, ok := resp.Output[0].(*openresponses.FunctionCall)
			if !ok {
				t.Fatalf("output %#v, want a function call", resp.Output[0])
			}
			if call.Name != tt.wantName || call.Arguments != tt.wantArgs {
				t.Errorf("call %s(%s), want %s(%s)", call.Name, call.Arguments, tt.wantName, tt.wantArgs)
			}
			if !callID.MatchString(call.CallID) || call.Status != openresponses.StatusCompleted {
				t.Errorf("call ID %q status %q, want a fresh call_ ID and completed", call.CallID, call.Status)
			}
		})
	}
}

// TestEchoAnswers checks rule 2: without a tool to call, echo answers with
// one assistant message whose text comes from the input scanned backwards.
func TestEchoAnswers(t *testing.T) {
	tests := []struct {
		name string
		req  openresponses.Request
		want string
	}{
		{
			name: "function call output last",
			req: openresponses.Request{
				Input: openresponses.Items{openresponses.UserText("push"), &openresponses.FunctionCall{CallID: "c", Name: "bash"}, openresponses.NewFunctionCallOutput("c", "ran git push origin main")},
				Tools: openresponses.Tools{bash},
			},
			want: "Tool result: ran git push origin main",
		},
		{
			name: "function call output with parts",
			req:  openresponses.Request{Input: openresponses.Items{&openresponses.FunctionCallOutput{CallID: "c", Output: openresponses.FunctionCallOutputData{Text: "ignored", Parts: openresponses.Contents{&openresponses.Text{Text: "a"}, &openresponses.Text{Text: "b"}}}}}},
			want: "Tool result: ab",
		},
		{
			name: "user message",
			req:  openresponses.Request{Input: openresponses.Items{openresponses.UserText("my key is [REDACTED aws_access_key]")}},
			want: "my key is [REDACTED aws_access_key]",
		},
		{
			name: "user message before later assistant and developer messages",
			req:  openresponses.Request{Input: openresponses.Items{openresponses.UserText("hi"), openresponses.AssistantText("hello"), openresponses.DeveloperText("note")}},
			want: "hi",
		},
		{
			name: "output nearer than the user message",
			req:  openresponses.Request{Input: openresponses.Items{openresponses.NewFunctionCallOutput("c", "older"), openresponses.UserText("newer"), openresponses.NewFunctionCallOutput("d", "newest")}},
			want: "Tool result: newest",
		},
		{
			name: "empty user message",
			req:  openresponses.Request{Input: openresponses.Items{openresponses.UserText("")}},
			want: "I received your message.",
		},
		{
			name: "nothing",
			req:  openresponses.Request{},
			want: "Hello!",
		},
		{
			name: "only system and assistant messages",
			req:  openresponses.Request{Input: openresponses.Items{openresponses.SystemText("s"), openresponses.AssistantText("a")}},
			want: "Hello!",
		},
		{
			name: "tool choice none",
			req: openresponses.Request{
				Input:      openresponses.Items{openresponses.UserText("no tools please")},
				Tools:      openresponses.Tools{bash},
				ToolChoice: openresponses.ToolChoice{Mode: openresponses.ToolChoiceNone},
			},
			want: "no tools please",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := (&echo.Adapter{}).Create(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Output) != 1 {
				t.Fatalf("output %#v, want one message", resp.Output)
			}
			msg, ok := resp.Output[0].(*openresponses.Message)
			if !ok {
				t.Fatalf("output %#v, want a message", resp.Output[0])
			}
			if msg.Text() != tt.want || resp.OutputText() != tt.want {
				t.Errorf("text %q, want %q", msg.Text(), tt.want)
			}
			if msg.Role != openresponses.RoleAssistant || msg.Status != openresponses.StatusCompleted || msg.Phase != openresponses.PhaseFinalAnswer || !strings.HasPrefix(msg.ID, "msg_") {
				t.Errorf("message %#v, want an assistant final answer, completed, with a msg_ ID", msg)
			}
		})
	}
}

// TestEchoResponse checks rule 3: the response echoes the request, is
// completed, has a fresh ID and usage.
func TestEchoResponse(t *testing.T) {
	req := openresponses.Request{Model: "echo-1", Instructions: "be brief", Input: openresponses.Items{openresponses.UserText("hi")}}
	a := &echo.Adapter{}
	r1, err := a.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := a.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Status != openresponses.ResponseStatusCompleted || r1.Model != "echo-1" || r1.Instructions != "be brief" || !strings.HasPrefix(r1.ID, "resp_") {
		t.Errorf("response %#v", r1)
	}
	if r1.ID == r2.ID || r1.Output[0].(*openresponses.Message).ID == r2.Output[0].(*openresponses.Message).ID {
		t.Error("two responses share an ID")
	}
	// Input: 80 bytes of items + 8 of instructions = 22 tokens; output "hi" = 1.
	want := openresponses.Usage{InputTokens: 22, OutputTokens: 1, TotalTokens: 23}
	if r1.Usage == nil || *r1.Usage != want {
		t.Errorf("usage %#v, want %#v", r1.Usage, want)
	}
}

// TestEchoPhase checks that Adapter.Phase sets the phase of the message.
func TestEchoPhase(t *testing.T) {
	resp, err := (&echo.Adapter{Phase: openresponses.PhaseCommentary}).Create(context.Background(), openresponses.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Output[0].(*openresponses.Message).Phase; got != openresponses.PhaseCommentary {
		t.Errorf("phase %q, want commentary", got)
	}
}

// TestEchoVerbatimSubject checks what classify relies on (checklist 7):
// CollectStream over echo with no tools returns the rendered subject
// verbatim.
func TestEchoVerbatimSubject(t *testing.T) {
	subject := "system: be brief\nuser: hi\nassistant: hello\n{\"verdict\":\"allow\"} <&>"
	req := openresponses.Request{
		Instructions: "Answer with JSON.",
		Input:        openresponses.Items{openresponses.UserText(subject)},
		Text:         openresponses.TextConfig{Format: openresponses.JSONSchemaFormat("verdict", json.RawMessage(`{"type":"object"}`), true)},
	}
	resp, err := openresponses.CollectStream(context.Background(), &echo.Adapter{}, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.OutputText(); got != subject {
		t.Errorf("OutputText() = %q, want %q", got, subject)
	}
}

// TestEchoStreamEvents checks that echo streams the events of one message.
func TestEchoStreamEvents(t *testing.T) {
	var types []string
	for ev, err := range openresponses.Events(context.Background(), &echo.Adapter{}, openresponses.Request{}) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.EventType())
	}
	want := []string{
		"response.created", "response.in_progress",
		"response.output_item.added", "response.content_part.added",
		"response.output_text.delta", "response.output_text.done",
		"response.content_part.done", "response.output_item.done",
		"response.completed",
	}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("events %q, want %q", types, want)
	}
}

// TestEchoCanceled checks that a done context stops echo with the context's
// error, which CollectStream passes on.
func TestEchoCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := (&echo.Adapter{}).Create(ctx, openresponses.Request{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if _, err := (&echo.Adapter{}).Compact(ctx, openresponses.CompactRequest{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Compact error %v, want context.Canceled", err)
	}
}

// TestEchoCompact checks that compaction keeps the transcript as it was, as
// a copy.
func TestEchoCompact(t *testing.T) {
	in := openresponses.Items{openresponses.UserText("a"), openresponses.AssistantText("b")}
	resp, err := (&echo.Adapter{}).Compact(context.Background(), openresponses.CompactRequest{Input: in})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resp.Output, in) {
		t.Errorf("output %#v, want the input", resp.Output)
	}
	resp.Output[0].(*openresponses.Message).Content[0].(*openresponses.InputText).Text = "changed"
	if in[0].(*openresponses.Message).Text() != "a" {
		t.Error("compact output shares the input's parts")
	}
}
