package openresponses

import (
	"reflect"
	"regexp"
	"testing"
)

// TestContentsText checks which parts carry text and that it is concatenated
// in order.
func TestContentsText(t *testing.T) {
	tests := []struct {
		name string
		in   Contents
		want string
	}{
		{"nil", nil, ""},
		{"input text", Contents{&InputText{Text: "a"}}, "a"},
		{"output text", Contents{&OutputText{Text: "b"}}, "b"},
		{"refusal", Contents{&Refusal{Refusal: "c"}}, "c"},
		{"text", Contents{&Text{Text: "d"}}, "d"},
		{"summary text", Contents{&SummaryText{Text: "e"}}, "e"},
		{"reasoning text", Contents{&ReasoningText{Text: "f"}}, "f"},
		{"image has no text", Contents{&InputImage{ImageURL: "https://img"}}, ""},
		{"unknown part has no text", Contents{&UnknownContent{Type: "x", Raw: []byte(`{"type":"x","text":"no"}`)}}, ""},
		{"nil part", Contents{nil}, ""},
		{
			"all in order, no separator",
			Contents{&InputText{Text: "a"}, &InputImage{}, &OutputText{Text: "b"}, &Refusal{Refusal: "c"}, &Text{Text: "d"}, &SummaryText{Text: "e"}, &ReasoningText{Text: "f"}},
			"abcdef",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.Text(); got != tt.want {
				t.Errorf("Text() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMessageText checks Message.Text over the constructors.
func TestMessageText(t *testing.T) {
	tests := []struct {
		name string
		in   *Message
		want string
	}{
		{"user", UserText("hi"), "hi"},
		{"assistant", AssistantText("x"), "x"},
		{"system", SystemText("be brief"), "be brief"},
		{"developer", DeveloperText("note"), "note"},
		{"parts", UserMessage(&InputText{Text: "a"}, &InputText{Text: "b"}), "ab"},
		{"no parts", UserMessage(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.Text(); got != tt.want {
				t.Errorf("Text() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFunctionCallOutputDataString checks that Parts win over Text when
// non-nil.
func TestFunctionCallOutputDataString(t *testing.T) {
	tests := []struct {
		name string
		in   FunctionCallOutputData
		want string
	}{
		{"text", FunctionCallOutputData{Text: "ok"}, "ok"},
		{"zero", FunctionCallOutputData{}, ""},
		{"parts", FunctionCallOutputData{Text: "ignored", Parts: Contents{&Text{Text: "a"}, &InputText{Text: "b"}}}, "ab"},
		{"empty parts", FunctionCallOutputData{Text: "ignored", Parts: Contents{}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestConstructors checks the role, the part type and the text of every
// message constructor, and NewFunctionCallOutput.
func TestConstructors(t *testing.T) {
	tests := []struct {
		name     string
		msg      *Message
		role     Role
		partType string
	}{
		{"UserText", UserText("t"), RoleUser, "input_text"},
		{"SystemText", SystemText("t"), RoleSystem, "input_text"},
		{"DeveloperText", DeveloperText("t"), RoleDeveloper, "input_text"},
		{"AssistantText", AssistantText("t"), RoleAssistant, "output_text"},
		{"UserMessage", UserMessage(&Text{Text: "t"}), RoleUser, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.msg.Role != tt.role {
				t.Errorf("Role = %q, want %q", tt.msg.Role, tt.role)
			}
			if len(tt.msg.Content) != 1 || tt.msg.Content[0].ContentType() != tt.partType {
				t.Fatalf("Content = %#v, want one %s part", tt.msg.Content, tt.partType)
			}
			if tt.msg.Text() != "t" || tt.msg.ID != "" || tt.msg.Status != "" || tt.msg.Phase != "" {
				t.Errorf("message = %#v, want only role and text set", tt.msg)
			}
		})
	}
	t.Run("NewFunctionCallOutput", func(t *testing.T) {
		got := NewFunctionCallOutput("call_1", "done")
		want := FunctionCallOutput{CallID: "call_1", Output: FunctionCallOutputData{Text: "done"}}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("NewFunctionCallOutput = %#v, want %#v", *got, want)
		}
	})
}

// TestWireStrings checks every type, role, status and phase string the spec
// lists (stack.md §7).
func TestWireStrings(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{(&Message{}).ItemType(), "message"},
		{(&FunctionCall{}).ItemType(), "function_call"},
		{(&FunctionCallOutput{}).ItemType(), "function_call_output"},
		{(&ReasoningItem{}).ItemType(), "reasoning"},
		{(&Compaction{}).ItemType(), "compaction"},
		{(&ItemReference{}).ItemType(), "item_reference"},
		{(&UnknownItem{Type: "x_ext"}).ItemType(), "x_ext"},
		{(&InputText{}).ContentType(), "input_text"},
		{(&OutputText{}).ContentType(), "output_text"},
		{(&Refusal{}).ContentType(), "refusal"},
		{(&Text{}).ContentType(), "text"},
		{(&SummaryText{}).ContentType(), "summary_text"},
		{(&ReasoningText{}).ContentType(), "reasoning_text"},
		{(&InputImage{}).ContentType(), "input_image"},
		{(&UnknownContent{Type: "x_part"}).ContentType(), "x_part"},
		{string(RoleUser), "user"},
		{string(RoleAssistant), "assistant"},
		{string(RoleSystem), "system"},
		{string(RoleDeveloper), "developer"},
		{string(StatusInProgress), "in_progress"},
		{string(StatusCompleted), "completed"},
		{string(StatusIncomplete), "incomplete"},
		{string(PhaseCommentary), "commentary"},
		{string(PhaseFinalAnswer), "final_answer"},
		{string(ResponseStatusInProgress), "in_progress"},
		{string(ResponseStatusCompleted), "completed"},
		{string(ResponseStatusFailed), "failed"},
		{string(ResponseStatusIncomplete), "incomplete"},
		{string(TextFormatJSONSchema), "json_schema"},
		{(&FunctionTool{}).ToolType(), "function"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestNewID checks the ID shape and that IDs do not repeat.
func TestNewID(t *testing.T) {
	shape := regexp.MustCompile(`^call_[0-9a-f]{24}$`)
	seen := map[string]bool{}
	for range 100 {
		id := NewID("call")
		if !shape.MatchString(id) {
			t.Fatalf("NewID(%q) = %q, want %s", "call", id, shape)
		}
		if seen[id] {
			t.Fatalf("NewID repeated %q", id)
		}
		seen[id] = true
	}
}
