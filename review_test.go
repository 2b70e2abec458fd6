package agentpolicy

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

func TestOutcomeString(t *testing.T) {
	for o, want := range map[Outcome]string{Refused: "refused", Approved: "approved", TimedOut: "timed_out"} {
		if got := o.String(); got != want {
			t.Errorf("Outcome(%d).String() = %q, want %q", int(o), got, want)
		}
	}
	var zero Review
	if zero.Outcome != Refused {
		t.Errorf("the zero Review's outcome is %v, want refused", zero.Outcome)
	}
}

func TestReviewerFuncCallsTheFunction(t *testing.T) {
	var got Verdict
	var r Reviewer = ReviewerFunc(func(_ context.Context, _ agentturn.ToolCallInfo, v Verdict) (Review, error) {
		got = v
		return Review{Outcome: Approved, By: ByHuman}, nil
	})
	rev, err := r.Review(context.Background(), agentturn.ToolCallInfo{}, Verdict{Reason: "approval required by bash"})
	if err != nil || rev.Outcome != Approved || rev.By != ByHuman || got.Reason != "approval required by bash" {
		t.Fatalf("Review = %+v, %v; the function saw %+v", rev, err, got)
	}
}

func TestDenialBoundWindow(t *testing.T) {
	l := reviewLog{bound: DenialBound{Total: 3, Window: 5}}
	steps := []struct {
		approvals []bool
		reached   bool
	}{
		{[]bool{false, true, false}, false},     // 2 refusals in 3
		{[]bool{true, true}, false},             // 2 in the last 5
		{[]bool{true}, false},                   // the first refusal leaves the window: 1 in 5
		{[]bool{false, false}, false},           // 2 in the last 5
		{[]bool{false}, true},                   // 3 in the last 5
		{[]bool{true, true, true, true}, false}, // 1 in 5
		{[]bool{true, true, true, true, true}, false},
	}
	for i, s := range steps {
		if got := l.add(s.approvals); got != s.reached {
			t.Errorf("step %d: reached = %v, want %v", i, got, s.reached)
		}
	}
	unbounded := reviewLog{bound: DenialBound{Total: 3}}
	if unbounded.add([]bool{false, true, true, true, false, true}) || !unbounded.add([]bool{false}) {
		t.Error("with no window, the third refusal since the reset should reach the bound, and not before")
	}
	unbounded.reset()
	if unbounded.add([]bool{false, false}) {
		t.Error("the reset did not clear the count")
	}
	none := reviewLog{}
	if none.add([]bool{false, false, false, false}) {
		t.Error("a zero bound was reached")
	}
}

func TestDefaultDenialBound(t *testing.T) {
	if DefaultDenialBound != (DenialBound{Consecutive: 3, Total: 10, Window: 50}) {
		t.Errorf("DefaultDenialBound = %+v", DefaultDenialBound)
	}
	if ErrDenialBound.Error() != "agentpolicy: reviewer denial bound reached" {
		t.Errorf("ErrDenialBound = %q", ErrDenialBound)
	}
	// Ten refusals among fifty reviews, never three in a row.
	l := reviewLog{bound: DefaultDenialBound}
	var reviews []bool
	for range 9 {
		reviews = append(reviews, false, true)
	}
	if l.add(reviews) {
		t.Fatal("nine refusals reached the default bound")
	}
	if !l.add([]bool{false}) {
		t.Error("ten refusals within fifty reviews did not reach the default bound")
	}
}
