package guard

import (
	"context"
	"encoding/json"
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

func TestEncodedSizeIsTheMarshalledLength(t *testing.T) {
	tests := map[string]or.Items{
		"nil":          nil,
		"empty":        {},
		"nil item":     {nil},
		"one":          {or.UserText("hi")},
		"html escaped": {or.UserText("<b> & </b>"), or.AssistantText("a \u2028 b")},
		"every kind": {
			or.SystemText("s"),
			&or.FunctionCall{CallID: "c", Name: "n", Arguments: `{"a":"<x>"}`},
			&or.FunctionCallOutput{CallID: "c", Output: or.FunctionCallOutputData{Parts: or.Contents{&or.InputText{Text: "p"}}}},
			&or.ReasoningItem{Summary: or.Contents{&or.SummaryText{Text: "r"}}},
			&or.Compaction{EncryptedContent: "zz"},
		},
	}
	for name, items := range tests {
		t.Run(name, func(t *testing.T) {
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
		})
	}
}
