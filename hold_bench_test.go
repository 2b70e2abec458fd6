package agentpolicy

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// BenchmarkHoldBatch10 decides a batch of ten calls, the last of which
// asks, as the loop does: every call in order, each held for the ask. It
// counts the splitter's calls and fails past two per call of the batch.
func BenchmarkHoldBatch10(b *testing.B) {
	counter := &countingSplit{calls: map[string]int{}}
	e := mustBuild(b, gitPolicy(b), map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command"), Subjects: counter.split}})
	cmds := make([]string, 10)
	for i := range cmds {
		cmds[i] = fmt.Sprintf("git add f%d", i)
	}
	cmds[9] = "git push"
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		calls := bashBatch(cmds...)
		for i := range calls {
			if _, err := e.Decide(ctx, batchInfo("run_1", calls, i, nil)); err != nil {
				b.Fatal(err)
			}
		}
	}
	perBatch := float64(counter.total) / float64(b.N)
	b.ReportMetric(perBatch, "splits/batch")
	if perBatch > 20 {
		b.Fatalf("the splitter ran %.1f times per batch of 10, want at most 20", perBatch)
	}
}

// heldBatch decides a batch of n calls under run, the first of which asks
// and the rest held for it, and returns the run end the loop would report.
func heldBatch(tb testing.TB, e *Engine, run string, n int) *agentturn.RunEnd {
	cmds := make([]string, n)
	for i := range cmds {
		cmds[i] = fmt.Sprintf("git add f%d", i)
	}
	cmds[0] = "git push"
	calls := bashBatch(cmds...)
	return pendingEnd(run, calls, decideAll(tb, e, run, calls, nil))
}

// BenchmarkRelease100 releases a batch of a hundred calls, ninety-nine of
// them held for the one asked.
func BenchmarkRelease100(b *testing.B) {
	e := mustBuild(b, gitPolicy(b), shellMatchers())
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		end := heldBatch(b, e, "run_1", 100)
		b.StartTimer()
		answers, err := e.Release(ctx, end, agentturn.Approve("call_1"))
		if err != nil || len(answers) != 100 {
			b.Fatalf("Release: %d answers, %v", len(answers), err)
		}
	}
}

// TestHoldMemoryAfterManyRuns decides and releases 100,000 runs, each a
// batch of a held call and an asked one, over one engine, and checks that
// the heap in use returns to where it started: what the engine remembers
// of a run goes with the run's release, and the memo of batches is
// bounded. The memo is filled before the start is measured, since it is
// meant to stay full.
func TestHoldMemoryAfterManyRuns(t *testing.T) {
	runs := 100_000
	if testing.Short() {
		runs = 10_000
	}
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	ctx := context.Background()
	cycle := func(i int) {
		run := fmt.Sprintf("run_%d", i)
		calls := []*openresponses.FunctionCall{bashCall("call_add", "git add -A"), bashCall("call_push", "git push")}
		end := pendingEnd(run, calls, decideAll(t, e, run, calls, nil))
		if _, err := e.Release(ctx, end, agentturn.Approve("call_push")); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 * batchCapacity {
		cycle(-i - 1)
	}
	before := heapInUse()
	for i := range runs {
		cycle(i)
	}
	after := heapInUse()
	t.Logf("heap in use: %d bytes before, %d bytes after %d runs (%+d)", before, after, runs, int64(after)-int64(before))
	if n := len(e.Runs()); n != 0 {
		t.Errorf("the engine holds %d runs after releasing every one", n)
	}
	// A leak of one deferral per run would be megabytes; allow the noise
	// of the runtime's own bookkeeping.
	if after > before+256<<10 {
		t.Errorf("heap in use grew from %d to %d bytes over %d runs", before, after, runs)
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
