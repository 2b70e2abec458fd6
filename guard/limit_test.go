package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// The sizes below come from the stack's wire shape, not from Limit: a user
// message of 40 x's encodes as 118 bytes, one of "hi" as 80, and 80 bytes
// of items with 60 bytes of instructions make an input of 140.
func TestLimitAtBelowAndAbove(t *testing.T) {
	forty := or.Items{or.UserText(strings.Repeat("x", 40))}
	hi := Input{Items: or.Items{or.UserText("hi")}, Instructions: strings.Repeat("i", 60)}
	tests := []struct {
		name    string
		limit   int
		subject any
		reason  string // "" for a pass
	}{
		{"input below", 119, Input{Items: forty}, ""},
		{"input at", 118, Input{Items: forty}, ""},
		{"input above", 117, Input{Items: forty}, "input is 118 bytes, over the 117 byte limit"},
		{"input with instructions below", 141, hi, ""},
		{"input with instructions at", 140, hi, ""},
		{"input with instructions above", 139, hi, "input is 140 bytes, over the 139 byte limit"},
		{"input instructions alone above", 9, Input{Items: or.Items{}, Instructions: strings.Repeat("i", 8)}, "input is 10 bytes, over the 9 byte limit"},
		{"message at", 118, Message{Message: forty[0].(*or.Message)}, ""},
		{"message above", 117, Message{Message: forty[0].(*or.Message)}, "message is 118 bytes, over the 117 byte limit"},
		{"output at", 118, Output{Response: &or.Response{Output: forty}}, ""},
		{"output above", 117, Output{Response: &or.Response{Output: forty}}, "output is 118 bytes, over the 117 byte limit"},
		{"two items above", 80 + 1 + 80 - 2 - 1, Input{Items: or.Items{or.UserText("hi"), or.UserText("hi")}}, "input is 159 bytes, over the 158 byte limit"},
		{"unknown subject", 0, strings.Repeat("x", 100), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Limit(tc.limit).Check(context.Background(), tc.subject)
			if err != nil {
				t.Fatal(err)
			}
			want := Verdict{}
			if tc.reason != "" {
				want = Verdict{Action: agentturn.Block, Reason: tc.reason}
			}
			if v.Action != want.Action || v.Reason != want.Reason || v.Items != nil {
				t.Fatalf("verdict %+v, want %+v", v, want)
			}
		})
	}
}

// hardStrings need every escape encoding/json writes: quotes and
// backslashes, the short control escapes and the others, the HTML
// characters, DEL, invalid UTF-8 (a lone byte, a cut sequence, an encoded
// surrogate), the line and paragraph separators, and runes of every width.
var hardStrings = []string{
	"",
	"plain",
	`"quoted" \ back\slash /`,
	"\b\f\n\r\t \x00\x01\x1f \x7f",
	"<script>a && b</script>",
	"bad \xff byte, cut \xe2\x82 and \xed\xa0\x80 surrogate",
	"line\u2028para\u2029 end",
	"é € 😀 \u0800",
	`{"command":"rm -rf /","note":"<x> & y"}`,
}

// sizeCases are items of every item and part kind the stack has, each
// string field holding s.
func sizeCases(s string) map[string]or.Items {
	part := func(c or.Content) or.Items { return or.Items{or.UserMessage(c)} }
	return map[string]or.Items{
		"message, all members":   {&or.Message{ID: s, Status: or.Status(s), Role: or.Role(s), Content: or.Contents{&or.InputText{Text: s}}, Phase: or.Phase(s)}},
		"message, empty":         {&or.Message{}},
		"message, empty content": {&or.Message{Role: or.RoleUser, Content: or.Contents{}}},
		"input_text":             part(&or.InputText{Text: s}),
		"output_text":            part(&or.OutputText{Text: s}),
		"output_text with annotations and logprobs": part(&or.OutputText{Text: s,
			Annotations: []or.Annotation{{Type: s}, {Type: "url_citation", URL: s, Title: s, FileID: s, Filename: s, StartIndex: -3, EndIndex: 1234567}},
			Logprobs: []or.LogProb{
				{Token: s, Logprob: -0.25},
				{Token: s, Logprob: 0, Bytes: []int{0, -1, 255, 1 << 40}, TopLogprobs: []or.TopLogProb{{Token: s, Logprob: -1e-7}, {Token: s, Logprob: 3e21, Bytes: []int{7}}}},
				{Token: s, Logprob: -123456.789},
				{Token: s, Logprob: 1e-6},
				{Token: s, Logprob: 1e20},
				{Token: s, Logprob: math.Copysign(0, -1)},
				{Token: s, Logprob: 5e-324},
				{Token: s, Logprob: math.MaxFloat64},
			}}),
		"output_text with empty lists":     part(&or.OutputText{Text: s, Annotations: []or.Annotation{}, Logprobs: []or.LogProb{}}),
		"refusal":                          part(&or.Refusal{Refusal: s}),
		"text":                             part(&or.Text{Text: s}),
		"summary_text":                     part(&or.SummaryText{Text: s}),
		"reasoning_text":                   part(&or.ReasoningText{Text: s}),
		"input_image":                      part(&or.InputImage{ImageURL: s, FileID: s, Detail: s}),
		"input_image, empty":               part(&or.InputImage{}),
		"unknown part":                     part(&or.UnknownContent{Type: "x_note", Raw: json.RawMessage("{ \"type\" : \"x_note\",\n \"v\": \"<b>\u2028\" }")}),
		"unknown part without raw":         part(&or.UnknownContent{Type: s}),
		"nil parts":                        {or.UserMessage(nil, (*or.InputText)(nil), (*or.OutputText)(nil), (*or.Refusal)(nil), (*or.Text)(nil), (*or.SummaryText)(nil), (*or.ReasoningText)(nil), (*or.InputImage)(nil))},
		"function_call":                    {&or.FunctionCall{ID: s, Status: or.Status(s), CallID: s, Name: s, Arguments: s}},
		"function_call, empty":             {&or.FunctionCall{}},
		"function_call_output text":        {&or.FunctionCallOutput{ID: s, Status: or.Status(s), CallID: s, Output: or.FunctionCallOutputData{Text: s}}},
		"function_call_output parts":       {&or.FunctionCallOutput{CallID: s, Output: or.FunctionCallOutputData{Text: "unused", Parts: or.Contents{&or.Text{Text: s}, &or.InputImage{FileID: s}}}}},
		"function_call_output empty parts": {&or.FunctionCallOutput{Output: or.FunctionCallOutputData{Parts: or.Contents{}}}},
		"reasoning":                        {&or.ReasoningItem{ID: s, Status: or.Status(s), Summary: or.Contents{&or.SummaryText{Text: s}}, Content: or.Contents{&or.ReasoningText{Text: s}}, EncryptedContent: s}},
		"reasoning, empty":                 {&or.ReasoningItem{Content: or.Contents{}}},
		"compaction":                       {&or.Compaction{ID: s, EncryptedContent: s, CreatedBy: s, Status: or.Status(s)}},
		"compaction, empty":                {&or.Compaction{}},
		"item_reference":                   {&or.ItemReference{ID: s}},
		"unknown item":                     {&or.UnknownItem{Type: "x_item", Raw: json.RawMessage("{\"type\":\"x_item\", \"v\" : [1, 2.50, \"&\"]}")}},
		"unknown item without raw":         {&or.UnknownItem{Type: s}},
		"a product's own item":             {productItem{Note: s}},
		"nil items":                        {nil, (*or.Message)(nil), (*or.FunctionCall)(nil), (*or.FunctionCallOutput)(nil), (*or.ReasoningItem)(nil), (*or.Compaction)(nil), (*or.ItemReference)(nil)},
		"several":                          {or.SystemText(s), or.UserText(s), or.AssistantText(s), or.NewFunctionCallOutput(s, s)},
	}
}

// productItem is an item type of a product's own, which the size
// computation does not know and measures by encoding.
type productItem struct {
	Note string `json:"note"`
}

func (productItem) ItemType() string { return "x_product" }

func TestEncodedSizeIsTheMarshalledLength(t *testing.T) {
	for _, s := range hardStrings {
		for name, items := range sizeCases(s) {
			t.Run(fmt.Sprintf("%s/%q", name, s), func(t *testing.T) {
				assertEncodedSize(t, items)
			})
		}
	}
	for name, items := range map[string]or.Items{"nil": nil, "empty": {}} {
		t.Run(name, func(t *testing.T) { assertEncodedSize(t, items) })
	}
}

func assertEncodedSize(t *testing.T, items or.Items) {
	t.Helper()
	data, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	n, err := encodedSize(items)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(data)) {
		t.Fatalf("encodedSize %d, json.Marshal %d bytes: %s", n, len(data), data)
	}
}

func TestEncodedSizeFailsAsMarshalDoes(t *testing.T) {
	for name, items := range map[string]or.Items{
		"NaN":              {assistant(&or.OutputText{Logprobs: []or.LogProb{{Logprob: math.NaN()}}})},
		"infinity":         {assistant(&or.OutputText{Logprobs: []or.LogProb{{TopLogprobs: []or.TopLogProb{{Logprob: math.Inf(-1)}}}}})},
		"invalid raw item": {&or.UnknownItem{Type: "x", Raw: json.RawMessage(`{"a":`)}},
		"invalid raw part": {or.UserMessage(&or.UnknownContent{Type: "x", Raw: json.RawMessage(`nope`)})},
	} {
		t.Run(name, func(t *testing.T) {
			_, want := json.Marshal(items)
			_, err := encodedSize(items)
			if want == nil || err == nil || err.Error() != want.Error() {
				t.Fatalf("error %v, json.Marshal's %v", err, want)
			}
		})
	}
}

// FuzzEncodedSize checks the computed size against json.Marshal for any
// text in every field of every item and part kind.
func FuzzEncodedSize(f *testing.F) {
	for _, s := range hardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, items := range sizeCases(s) {
			assertEncodedSize(t, items)
		}
	})
}
