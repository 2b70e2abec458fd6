package agentturn_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Checklist item 16: a seeded transcript's unanswered calls are pending as
// unknown; WithPending refines those of the same call ID, name and
// arguments, and State().Pending shows it.
func TestWithTranscriptAndPending(t *testing.T) {
	fc := func(id, name, args string) *openresponses.FunctionCall {
		return &openresponses.FunctionCall{CallID: id, Name: name, Arguments: args}
	}
	transcript := agentturn.Transcript{
		openresponses.UserText("go"),
		fc("c1", "a", `{"x":1}`),
		fc("c2", "b", "{}"),
		fc("c3", "a", `{"x":3}`),
		fc("c4", "b", ""),
		openresponses.NewFunctionCallOutput("c2", "done"),
	}
	cases := []struct {
		name    string
		pending []agentturn.PendingCall
		want    []string
		keys    []string
	}{
		{"seeded only", nil, []string{"c1 unknown", "c3 unknown", "c4 unknown"}, []string{"", "", ""}},
		{
			name: "refined",
			pending: []agentturn.PendingCall{
				{Call: fc("c1", "a", `{ "x": 1 }`), Reason: agentturn.PendingAborted, IdempotencyKey: "k1"},
				{Call: fc("c4", "b", "{}"), Reason: agentturn.PendingAnswered},
			},
			want: []string{"c1 aborted", "c3 unknown", "c4 answered"},
			keys: []string{"k1", "", ""},
		},
		{
			name: "other name, other args, answered or absent calls are ignored",
			pending: []agentturn.PendingCall{
				{Call: fc("c1", "b", `{"x":1}`), Reason: agentturn.PendingAborted, IdempotencyKey: "k1"},
				{Call: fc("c3", "a", `{"x":4}`), Reason: agentturn.PendingDeferred},
				{Call: fc("c2", "b", "{}"), Reason: agentturn.PendingDeferred},
				{Call: fc("c9", "a", "{}"), Reason: agentturn.PendingDeferred},
				{Reason: agentturn.PendingDeferred},
			},
			want: []string{"c1 unknown", "c3 unknown", "c4 unknown"},
			keys: []string{"", "", ""},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := agentturn.New(agentturn.Config{Model: &script{}},
				agentturn.WithPending(c.pending), agentturn.WithTranscript(transcript))
			st := a.State()
			equalStrings(t, "pending", pendingIDs(st.Pending), c.want)
			for i, p := range st.Pending {
				if p.IdempotencyKey != c.keys[i] {
					t.Errorf("pending %s key %q, want %q", p.Call.CallID, p.IdempotencyKey, c.keys[i])
				}
				if p.Call != transcript[[]int{1, 3, 4}[i]] {
					t.Errorf("pending %s is not the transcript's call", p.Call.CallID)
				}
			}
			if len(st.Transcript) != len(transcript) || st.Running || st.RunID != "" {
				t.Errorf("state %+v", st)
			}
		})
	}
}

// A call seeded as undispatched is put to BeforeToolCall when approved,
// and the seeded transcript is what the next request carries.
func TestSeededUndispatched(t *testing.T) {
	var j journal
	c1 := &openresponses.FunctionCall{CallID: "c1", Name: "a", Arguments: `{"x":1}`}
	model := &script{}
	a := agentturn.New(agentturn.Config{
		Model:          model,
		Tools:          []agenttool.Tool{recorder("a", &j)},
		BeforeToolCall: decideBy(&j, nil),
	},
		agentturn.WithTranscript(agentturn.Transcript{openresponses.UserText("go"), c1}),
		agentturn.WithPending([]agentturn.PendingCall{{Call: c1, Reason: agentturn.PendingUndispatched}}))
	end, err := a.Resume(context.Background(), agentturn.ApproveWith("c1", json.RawMessage(`{"x":2}`)))
	if err != nil {
		t.Fatal(err)
	}
	equalStrings(t, "journal", j.list(), []string{"decide c1", `run a {"x":2}`})
	equalStrings(t, "items", describe(end.Items), []string{`output c1 ran a {"x":2}`, "assistant: done"})
	equalStrings(t, "request", describe(model.requests[0].Input), []string{"user: go", `call c1 a {"x":1}`, `output c1 ran a {"x":2}`})
}
