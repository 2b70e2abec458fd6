package openresponses

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestResponseOutputText checks that only output text of assistant messages
// counts.
func TestResponseOutputText(t *testing.T) {
	tests := []struct {
		name   string
		output Items
		want   string
	}{
		{"none", nil, ""},
		{"one assistant message", Items{AssistantText("hello")}, "hello"},
		{"two messages", Items{AssistantText("a"), AssistantText("b")}, "ab"},
		{"user message ignored", Items{UserText("u"), AssistantText("a")}, "a"},
		{"refusal ignored", Items{&Message{Role: RoleAssistant, Content: Contents{&Refusal{Refusal: "no"}, &OutputText{Text: "x"}}}}, "x"},
		{"calls and reasoning ignored", Items{&ReasoningItem{Summary: Contents{&SummaryText{Text: "s"}}}, &FunctionCall{Arguments: "{}"}, AssistantText("z")}, "z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&Response{Output: tt.output}).OutputText(); got != tt.want {
				t.Errorf("OutputText() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestResponseFunctionCalls checks that the calls come in output order.
func TestResponseFunctionCalls(t *testing.T) {
	a := &FunctionCall{CallID: "a"}
	b := &FunctionCall{CallID: "b"}
	r := &Response{Output: Items{a, AssistantText("x"), b}}
	if got := r.FunctionCalls(); !reflect.DeepEqual(got, []*FunctionCall{a, b}) || got[0] != a || got[1] != b {
		t.Errorf("FunctionCalls() = %#v, want a, b", got)
	}
	if got := (&Response{Output: Items{AssistantText("x")}}).FunctionCalls(); got != nil {
		t.Errorf("FunctionCalls() without calls = %#v, want nil", got)
	}
}

// TestNewResponse checks that a new response is in progress, empty, and
// echoes the request's settings.
func TestNewResponse(t *testing.T) {
	temp := 0.5
	store := false
	req := Request{
		Model:        "echo",
		Instructions: "be brief",
		Tools:        Tools{NewFunctionTool("bash", "", nil)},
		ToolChoice:   ToolChoice{Mode: ToolChoiceRequired},
		Text:         TextConfig{Format: JSONSchemaFormat("verdict", json.RawMessage(`{}`), true)},
		Temperature:  &temp,
		Store:        &store,
		Metadata:     map[string]string{"k": "v"},
	}
	r := NewResponse(req)
	if !strings.HasPrefix(r.ID, "resp_") || r.Object != "response" || r.CreatedAt == 0 || r.Status != ResponseStatusInProgress {
		t.Errorf("response header = %q %q %d %q", r.ID, r.Object, r.CreatedAt, r.Status)
	}
	if r.Output == nil || len(r.Output) != 0 {
		t.Errorf("Output = %#v, want empty and non-nil", r.Output)
	}
	if r.Model != req.Model || r.Instructions != req.Instructions || !reflect.DeepEqual(r.Tools, req.Tools) ||
		r.ToolChoice != req.ToolChoice || r.Text != req.Text || r.Temperature != req.Temperature || r.Store != req.Store ||
		!reflect.DeepEqual(r.Metadata, req.Metadata) {
		t.Errorf("response does not echo the request: %#v", r)
	}
	if NewResponse(req).ID == r.ID {
		t.Error("two responses share an ID")
	}
}

// TestJSONSchemaFormat checks the format JSONSchemaFormat builds.
func TestJSONSchemaFormat(t *testing.T) {
	f := JSONSchemaFormat("verdict", json.RawMessage(`{"type":"object"}`), true)
	if f.Type != TextFormatJSONSchema || f.Name != "verdict" || string(f.Schema) != `{"type":"object"}` || f.Strict == nil || !*f.Strict {
		t.Errorf("JSONSchemaFormat = %#v", f)
	}
	raw, err := json.Marshal(TextConfig{Format: f})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":{"type":"json_schema","name":"verdict","schema":{"type":"object"},"strict":true}}`
	if string(raw) != want {
		t.Errorf("json %s, want %s", raw, want)
	}
}

// TestToolJSON checks the wire shape of tools and tool choices.
func TestToolJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"function tool", Tools{NewFunctionTool("bash", "run", json.RawMessage(`{"type":"object"}`))}, `[{"type":"function","name":"bash","description":"run","parameters":{"type":"object"}}]`},
		{"bare function tool", Tools{NewFunctionTool("x", "", nil)}, `[{"type":"function","name":"x"}]`},
		{"mode", ToolChoice{Mode: ToolChoiceNone}, `"none"`},
		{"forced function", ToolChoice{Function: &ToolChoiceFunction{Name: "bash"}}, `{"type":"function","name":"bash"}`},
		{"allowed tools", ToolChoice{Allowed: &ToolChoiceAllowed{Mode: ToolChoiceAuto, Tools: []ToolChoiceFunction{{Name: "a"}}}}, `{"type":"allowed_tools","mode":"auto","tools":[{"type":"function","name":"a"}]}`},
		{"request leaves zero choice out", Request{Model: "m"}, `{"model":"m","input":null}`},
		{"request extra is never encoded", Request{Input: Items{}, Extra: map[string]any{"x": 1}}, `{"input":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tt.want {
				t.Errorf("json %s, want %s", raw, tt.want)
			}
		})
	}
}

// TestErrorPayload checks the error text of a payload.
func TestErrorPayload(t *testing.T) {
	if got := (&ErrorPayload{Code: "c", Message: "m"}).Error(); got != "openresponses: c: m" {
		t.Errorf("Error() = %q", got)
	}
	if got := (&ErrorPayload{Message: "m"}).Error(); got != "openresponses: m" {
		t.Errorf("Error() = %q", got)
	}
}
