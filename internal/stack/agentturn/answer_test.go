package agentturn_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Checklist item 2: constructors and builders make plain values that set
// exactly their fields, compare with reflect.DeepEqual and survive a JSON
// round trip.
func TestAnswerValues(t *testing.T) {
	out := openresponses.NewFunctionCallOutput("c1", "no")
	args := json.RawMessage(`{"x":1}`)
	cases := []struct {
		name string
		got  agentturn.Answer
		want agentturn.Answer
	}{
		{"Output", agentturn.Output(out), agentturn.Answer{CallID: "c1", Output: out}},
		{"Output nil", agentturn.Output(nil), agentturn.Answer{}},
		{"Refuse", agentturn.Refuse(out), agentturn.Answer{CallID: "c1", Output: out, Terminate: true}},
		{"Approve", agentturn.Approve("c2"), agentturn.Answer{CallID: "c2"}},
		{"ApproveWith", agentturn.ApproveWith("c2", args), agentturn.Answer{CallID: "c2", Args: args}},
		{"WithNote", agentturn.Approve("c2").WithNote("n"), agentturn.Answer{CallID: "c2", Note: "n"}},
		{"WithBy", agentturn.Approve("c2").WithBy("human"), agentturn.Answer{CallID: "c2", By: "human"}},
		{"WithReason", agentturn.Approve("c2").WithReason("r"), agentturn.Answer{CallID: "c2", Reason: "r"}},
		{"WithOrigin", agentturn.Output(out).WithOrigin("o"), agentturn.Answer{CallID: "c1", Output: out, Origin: "o"}},
		{"WithIdempotencyKey", agentturn.Approve("c2").WithIdempotencyKey("k"), agentturn.Answer{CallID: "c2", IdempotencyKey: "k"}},
		{"WithRunAgain", agentturn.Approve("c2").WithRunAgain(), agentturn.Answer{CallID: "c2", RunAgain: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Fatalf("got %+v, want %+v", c.got, c.want)
			}
			if !reflect.DeepEqual([]agentturn.Answer{c.got}, []agentturn.Answer{c.want}) {
				t.Fatalf("slices of equal answers differ")
			}
			data, err := json.Marshal(c.got)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			want, err := json.Marshal(c.want)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if string(data) != string(want) {
				t.Fatalf("marshal = %s, want %s", data, want)
			}
		})
	}
}

// Builders return a modified copy and leave the receiver alone.
func TestAnswerBuildersCopy(t *testing.T) {
	base := agentturn.Approve("c")
	_ = base.WithNote("n").WithBy("b").WithReason("r").WithOrigin("o").WithIdempotencyKey("k").WithRunAgain()
	if !reflect.DeepEqual(base, agentturn.Answer{CallID: "c"}) {
		t.Fatalf("builders changed the receiver: %+v", base)
	}
}

// OutcomeUnknown answers the call with an output and the outcome-unknown
// reason.
func TestOutcomeUnknown(t *testing.T) {
	a := agentturn.OutcomeUnknown("c9")
	if a.CallID != "c9" || a.Output == nil || a.Output.CallID != "c9" || a.Reason != agentturn.OutcomeUnknownReason {
		t.Fatalf("OutcomeUnknown = %+v", a)
	}
	if got, want := a.Output.Output.Text, "Error: not run again: outcome unknown"; got != want {
		t.Fatalf("output %q, want %q", got, want)
	}
}
