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
