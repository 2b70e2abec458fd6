package agentpolicy

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// BenchmarkAnswers100 answers a run of a hundred pending calls, one asked
// and ninety-nine held for it, with a reviewer that approves. ns/call is
// the time per pending call; the allocations per pending call are a
// hundredth of allocs/op.
func BenchmarkAnswers100(b *testing.B) {
	e := mustBuild(b, gitPolicy(b), shellMatchers())
	approve := ReviewerFunc(func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error) {
		return Review{Outcome: Approved}, nil
	})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		end := heldBatch(b, e, "run_1", 100)
		b.StartTimer()
		answers, err := e.Answers(ctx, approve, end)
		if err != nil || len(answers) != 100 {
			b.Fatalf("Answers: %d answers, %v", len(answers), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/call")
}
