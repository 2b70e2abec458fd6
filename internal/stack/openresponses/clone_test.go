package openresponses

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestItemsCloneDeep mutates every item, part, slice and raw byte of a clone
// and checks that the original still equals a fresh build of itself.
func TestItemsCloneDeep(t *testing.T) {
	orig := fullItems()
	clone := orig.Clone()
	if !reflect.DeepEqual(clone, orig) {
		t.Fatalf("clone differs from original:\n got %#v\nwant %#v", clone, orig)
	}
	for i := range clone {
		if clone[i] == orig[i] {
			t.Errorf("item %d: clone shares the pointer %p", i, orig[i])
		}
	}
	mutateAll(t, clone)
	if !reflect.DeepEqual(orig, fullItems()) {
		t.Errorf("mutating the clone changed the original:\n got %#v", orig)
	}
	if reflect.DeepEqual(clone, fullItems()) {
		t.Error("mutateAll changed nothing in the clone")
	}
}

// mutateAll changes every mutable field reachable from items.
func mutateAll(t *testing.T, items Items) {
	t.Helper()
	for _, item := range items {
		switch v := item.(type) {
		case *Message:
			v.ID, v.Status, v.Role, v.Phase = "m", StatusIncomplete, RoleSystem, PhaseFinalAnswer
			mutateParts(t, v.Content)
			v.Content = append(v.Content[:1], &Text{Text: "appended"})
		case *FunctionCall:
			v.ID, v.Status, v.CallID, v.Name, v.Arguments = "f", StatusIncomplete, "c", "n", "{}"
		case *FunctionCallOutput:
			v.ID, v.CallID, v.Output.Text = "o", "c", "changed"
			mutateParts(t, v.Output.Parts)
			if v.Output.Parts != nil {
				v.Output.Parts[0] = &Text{Text: "replaced"}
			}
		case *ReasoningItem:
			v.ID, v.EncryptedContent = "r", "e"
			mutateParts(t, v.Summary)
			mutateParts(t, v.Content)
		case *Compaction:
			v.ID, v.EncryptedContent, v.CreatedBy, v.Status = "c", "e", "b", StatusIncomplete
		case *ItemReference:
			v.ID = "ref"
		case *UnknownItem:
			v.Type = "t"
			v.Raw[2] = 'X'
		default:
			t.Fatalf("mutateAll: unhandled item %T", item)
		}
	}
}

func mutateParts(t *testing.T, parts Contents) {
	t.Helper()
	for _, part := range parts {
		switch p := part.(type) {
		case *InputText:
			p.Text = "changed"
		case *OutputText:
			p.Text = "changed"
			p.Annotations[0].URL = "changed"
			p.Logprobs[0].Token = "changed"
			p.Logprobs[0].Bytes[0] = 0
			p.Logprobs[0].TopLogprobs[0].Token = "changed"
			p.Logprobs[0].TopLogprobs[0].Bytes[0] = 0
		case *Refusal:
			p.Refusal = "changed"
		case *Text:
			p.Text = "changed"
		case *SummaryText:
			p.Text = "changed"
		case *ReasoningText:
			p.Text = "changed"
		case *InputImage:
			p.ImageURL, p.FileID, p.Detail = "changed", "changed", "changed"
		case *UnknownContent:
			p.Type = "changed"
			p.Raw[2] = 'X'
		default:
			t.Fatalf("mutateParts: unhandled part %T", part)
		}
	}
}

// TestItemsCloneShape checks that Clone keeps nil and empty apart, which
// decides how a function call output encodes.
func TestItemsCloneShape(t *testing.T) {
	tests := []struct {
		name string
		in   Items
	}{
		{"nil items", nil},
		{"empty items", Items{}},
		{"nil item", Items{nil}},
		{"nil message pointer", Items{(*Message)(nil)}},
		{"nil parts", Items{&FunctionCallOutput{CallID: "c", Output: FunctionCallOutputData{Text: "t"}}}},
		{"empty parts", Items{&FunctionCallOutput{CallID: "c", Output: FunctionCallOutputData{Text: "t", Parts: Contents{}}}}},
		{"nil content", Items{&Message{Role: RoleUser}}},
		{"empty content", Items{&Message{Role: RoleUser, Content: Contents{}}}},
		{"nil part", Items{&Message{Role: RoleUser, Content: Contents{nil}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.Clone()
			if !reflect.DeepEqual(got, tt.in) {
				t.Errorf("Clone() = %#v, want %#v", got, tt.in)
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(tt.in)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("clone encodes as %s, original as %s", gotJSON, wantJSON)
			}
		})
	}
}

// foreignItem is an item type this package does not know.
type foreignItem struct{ n int }

func (*foreignItem) ItemType() string { return "foreign" }

// TestItemsCloneForeign checks that an item of a type defined elsewhere is
// carried over as it is, since it cannot be copied.
func TestItemsCloneForeign(t *testing.T) {
	f := &foreignItem{n: 1}
	got := Items{f}.Clone()
	if got[0] != Item(f) {
		t.Errorf("Clone() = %#v, want the same foreign item", got)
	}
}
