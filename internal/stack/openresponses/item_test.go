package openresponses

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestItemJSON checks the wire shape of every item type: "type" first, then
// the struct's members, empty optional members left out. The expected
// strings are written by hand from the spec (stack.md §4.1).
func TestItemJSON(t *testing.T) {
	x40 := strings.Repeat("x", 40)
	tests := []struct {
		name string
		in   Items
		want string
		len  int // 0: only the string is checked
	}{
		{
			name: "user text 40 x",
			in:   Items{UserText(x40)},
			want: `[{"type":"message","role":"user","content":[{"type":"input_text","text":"` + x40 + `"}]}]`,
			len:  118,
		},
		{
			name: "user text hi",
			in:   Items{UserText("hi")},
			want: `[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]`,
			len:  80,
		},
		{
			name: "system text",
			in:   Items{SystemText("be brief")},
			want: `[{"type":"message","role":"system","content":[{"type":"input_text","text":"be brief"}]}]`,
		},
		{
			name: "developer text",
			in:   Items{DeveloperText("note")},
			want: `[{"type":"message","role":"developer","content":[{"type":"input_text","text":"note"}]}]`,
		},
		{
			name: "assistant text",
			in:   Items{AssistantText("hello")},
			want: `[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}]`,
		},
		{
			name: "message with id status phase",
			in:   Items{&Message{ID: "msg_1", Status: StatusCompleted, Role: RoleAssistant, Content: Contents{&OutputText{Text: "a"}}, Phase: PhaseFinalAnswer}},
			want: `[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"a"}],"phase":"final_answer"}]`,
		},
		{
			name: "message without content",
			in:   Items{&Message{Role: RoleUser}},
			want: `[{"type":"message","role":"user","content":[]}]`,
		},
		{
			name: "every part type",
			in: Items{UserMessage(
				&InputText{Text: "a"},
				&OutputText{Text: "b", Annotations: []Annotation{{Type: "url_citation", URL: "https://x", StartIndex: 1, EndIndex: 2}}},
				&Refusal{Refusal: "no"},
				&Text{Text: "c"},
				&SummaryText{Text: "d"},
				&ReasoningText{Text: "e"},
				&InputImage{ImageURL: "https://img", Detail: "low"},
			)},
			want: `[{"type":"message","role":"user","content":[` +
				`{"type":"input_text","text":"a"},` +
				`{"type":"output_text","text":"b","annotations":[{"type":"url_citation","url":"https://x","start_index":1,"end_index":2}]},` +
				`{"type":"refusal","refusal":"no"},` +
				`{"type":"text","text":"c"},` +
				`{"type":"summary_text","text":"d"},` +
				`{"type":"reasoning_text","text":"e"},` +
				`{"type":"input_image","image_url":"https://img","detail":"low"}]}]`,
		},
		{
			name: "function call",
			in:   Items{&FunctionCall{ID: "fc_1", Status: StatusCompleted, CallID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`}},
			want: `[{"type":"function_call","id":"fc_1","status":"completed","call_id":"call_1","name":"bash","arguments":"{\"command\":\"ls\"}"}]`,
		},
		{
			name: "function call bare",
			in:   Items{&FunctionCall{CallID: "c", Name: "n"}},
			want: `[{"type":"function_call","call_id":"c","name":"n","arguments":""}]`,
			len:  66,
		},
		{
			name: "function call output text",
			in:   Items{NewFunctionCallOutput("call_1", "ok")},
			want: `[{"type":"function_call_output","call_id":"call_1","output":"ok"}]`,
			len:  66,
		},
		{
			name: "function call output parts",
			in:   Items{&FunctionCallOutput{ID: "fco_1", Status: StatusCompleted, CallID: "c", Output: FunctionCallOutputData{Text: "ignored", Parts: Contents{&InputText{Text: "p"}}}}},
			want: `[{"type":"function_call_output","id":"fco_1","status":"completed","call_id":"c","output":[{"type":"input_text","text":"p"}]}]`,
		},
		{
			name: "function call output empty parts",
			in:   Items{&FunctionCallOutput{CallID: "c", Output: FunctionCallOutputData{Text: "ignored", Parts: Contents{}}}},
			want: `[{"type":"function_call_output","call_id":"c","output":[]}]`,
		},
		{
			name: "reasoning empty",
			in:   Items{&ReasoningItem{}},
			want: `[{"type":"reasoning","summary":[]}]`,
			len:  35,
		},
		{
			name: "reasoning full",
			in:   Items{&ReasoningItem{ID: "rs_1", Status: StatusCompleted, Summary: Contents{&SummaryText{Text: "s"}}, Content: Contents{&ReasoningText{Text: "r"}}, EncryptedContent: "enc"}},
			want: `[{"type":"reasoning","id":"rs_1","status":"completed","summary":[{"type":"summary_text","text":"s"}],"content":[{"type":"reasoning_text","text":"r"}],"encrypted_content":"enc"}]`,
		},
		{
			name: "compaction",
			in:   Items{&Compaction{ID: "cmp_1", EncryptedContent: "blob", CreatedBy: "echo", Status: StatusCompleted}},
			want: `[{"type":"compaction","id":"cmp_1","encrypted_content":"blob","created_by":"echo","status":"completed"}]`,
		},
		{
			name: "compaction bare",
			in:   Items{&Compaction{EncryptedContent: "blob"}},
			want: `[{"type":"compaction","encrypted_content":"blob"}]`,
		},
		{
			name: "item reference",
			in:   Items{&ItemReference{ID: "msg_9"}},
			want: `[{"type":"item_reference","id":"msg_9"}]`,
		},
		{
			name: "unknown item keeps raw bytes",
			in:   Items{&UnknownItem{Type: "x_custom", Raw: json.RawMessage(`{"type":"x_custom","n":1}`)}},
			want: `[{"type":"x_custom","n":1}]`,
		},
		{
			name: "unknown item without raw bytes",
			in:   Items{&UnknownItem{Type: "x_custom"}},
			want: `[{"type":"x_custom"}]`,
		},
		{
			name: "unknown part keeps raw bytes",
			in:   Items{UserMessage(&UnknownContent{Type: "input_audio", Raw: json.RawMessage(`{"type":"input_audio","data":"AA=="}`)})},
			want: `[{"type":"message","role":"user","content":[{"type":"input_audio","data":"AA=="}]}]`,
		},
		{
			name: "empty items",
			in:   Items{},
			want: `[]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("json:\n got %s\nwant %s", got, tt.want)
			}
			if len(got) != len(tt.want) {
				t.Errorf("len = %d, want %d", len(got), len(tt.want))
			}
			if tt.len != 0 && len(got) != tt.len {
				t.Errorf("len = %d, want %d", len(got), tt.len)
			}
		})
	}
}

// TestItemsRoundTrip checks that Items.UnmarshalJSON reads every item and
// part back by its type.
func TestItemsRoundTrip(t *testing.T) {
	in := fullItems()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Items
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip differs:\n got %#v\nwant %#v", out, in)
	}
	again, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(raw) {
		t.Errorf("second encoding differs:\n got %s\nwant %s", again, raw)
	}
}

// TestItemsUnmarshalForms checks the inputs Items.UnmarshalJSON accepts
// besides its own encoding.
func TestItemsUnmarshalForms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Items
	}{
		{
			name: "message without type",
			in:   `[{"role":"user","content":[{"type":"input_text","text":"hi"}]}]`,
			want: Items{UserText("hi")},
		},
		{
			name: "user content as string",
			in:   `[{"type":"message","role":"user","content":"hi"}]`,
			want: Items{UserText("hi")},
		},
		{
			name: "assistant content as string",
			in:   `[{"type":"message","role":"assistant","content":"yo"}]`,
			want: Items{AssistantText("yo")},
		},
		{
			name: "unknown item type",
			in:   `[{"type":"web_search_call","id":"ws_1"}]`,
			want: Items{&UnknownItem{Type: "web_search_call", Raw: json.RawMessage(`{"type":"web_search_call","id":"ws_1"}`)}},
		},
		{
			name: "unknown part type",
			in:   `[{"type":"message","role":"user","content":[{"type":"input_file","file_id":"f"}]}]`,
			want: Items{UserMessage(&UnknownContent{Type: "input_file", Raw: json.RawMessage(`{"type":"input_file","file_id":"f"}`)})},
		},
		{
			name: "output as string",
			in:   `[{"type":"function_call_output","call_id":"c","output":"done"}]`,
			want: Items{NewFunctionCallOutput("c", "done")},
		},
		{
			name: "output as parts",
			in:   `[{"type":"function_call_output","call_id":"c","output":[{"type":"text","text":"t"}]}]`,
			want: Items{&FunctionCallOutput{CallID: "c", Output: FunctionCallOutputData{Parts: Contents{&Text{Text: "t"}}}}},
		},
		{
			name: "output as empty parts",
			in:   `[{"type":"function_call_output","call_id":"c","output":[]}]`,
			want: Items{&FunctionCallOutput{CallID: "c", Output: FunctionCallOutputData{Parts: Contents{}}}},
		},
		{
			name: "null",
			in:   `null`,
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Items
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestItemsUnmarshalErrors checks that malformed items are refused.
func TestItemsUnmarshalErrors(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`[1]`,
		`[{"type":"message","role":"user","content":7}]`,
		`[{"type":"function_call_output","call_id":"c","output":{}}]`,
		`[{"type":"function_call","call_id":3}]`,
		`[{"type":"message","role":"user","content":[{"type":"input_text","text":1}]}]`,
	} {
		var got Items
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: no error, got %#v", in, got)
		}
	}
}

// fullItems builds a transcript with every item kind and every part kind,
// each slice and pointer filled, so that tests can compare and mutate it.
func fullItems() Items {
	return Items{
		&Message{ID: "msg_1", Status: StatusCompleted, Role: RoleUser, Content: Contents{
			&InputText{Text: "in"},
			&InputImage{ImageURL: "https://img", FileID: "file_1", Detail: "high"},
			&UnknownContent{Type: "input_audio", Raw: json.RawMessage(`{"type":"input_audio","data":"AA=="}`)},
		}},
		&Message{ID: "msg_2", Status: StatusCompleted, Role: RoleAssistant, Phase: PhaseCommentary, Content: Contents{
			&OutputText{
				Text:        "out",
				Annotations: []Annotation{{Type: "url_citation", URL: "https://x", Title: "x", StartIndex: 1, EndIndex: 3}},
				Logprobs:    []LogProb{{Token: "o", Logprob: -0.5, Bytes: []int{111}, TopLogprobs: []TopLogProb{{Token: "p", Logprob: -1, Bytes: []int{112}}}}},
			},
			&Refusal{Refusal: "no"},
		}},
		&FunctionCall{ID: "fc_1", Status: StatusCompleted, CallID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
		&FunctionCallOutput{ID: "fco_1", Status: StatusCompleted, CallID: "call_1", Output: FunctionCallOutputData{Parts: Contents{&Text{Text: "t"}, &InputText{Text: "i"}}}},
		&FunctionCallOutput{CallID: "call_2", Output: FunctionCallOutputData{Text: "plain"}},
		&ReasoningItem{ID: "rs_1", Status: StatusCompleted, Summary: Contents{&SummaryText{Text: "s"}}, Content: Contents{&ReasoningText{Text: "r"}}, EncryptedContent: "enc"},
		&Compaction{ID: "cmp_1", EncryptedContent: "blob", CreatedBy: "echo", Status: StatusCompleted},
		&ItemReference{ID: "msg_0"},
		&UnknownItem{Type: "x_custom", Raw: json.RawMessage(`{"type":"x_custom","n":1}`)},
	}
}
