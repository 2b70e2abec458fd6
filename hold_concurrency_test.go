package agentpolicy

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// TestHoldConcurrentAgents runs many agents over one engine at once, each
// run ending on the git turn's push; half are released and resumed, half
// are abandoned and forgotten. Run it under -race. At the end the engine
// holds nothing, and every decision and release reached the observer once.
func TestHoldConcurrentAgents(t *testing.T) {
	var observed atomic.Int64
	e := mustBuild(t, gitPolicy(t), shellMatchers(),
		WithObserver(func(context.Context, Verdict) { observed.Add(1) }))
	const workers, runs = 8, 20
	var released, forgotten atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			ctx := context.Background()
			for i := range runs {
				log := &ranLog{}
				agent := gitAgent(e, log)
				end, err := agent.Prompt(ctx, openresponses.UserText("commit and push"))
				if err != nil || end.Reason != agentturn.ReasonInputRequired || len(end.Pending) != 3 {
					t.Errorf("worker %d run %d: %+v, %v; want the push asked and two calls held", w, i, end, err)
					return
				}
				if v, ok := e.Deferred(end.RunID, "call_add"); !ok || !v.Held {
					t.Errorf("worker %d run %d: call_add is not held: %+v, %v", w, i, v, ok)
				}
				if (w+i)%2 == 1 {
					e.Forget(end.RunID)
					forgotten.Add(1)
					continue
				}
				answers, err := e.Release(ctx, end, agentturn.Approve("call_push"))
				if err != nil {
					t.Errorf("worker %d run %d: Release: %v", w, i, err)
					return
				}
				if _, err := agent.Resume(ctx, answers...); err != nil {
					t.Errorf("worker %d run %d: Resume: %v", w, i, err)
					return
				}
				if ran := log.list(); len(ran) != 3 {
					t.Errorf("worker %d run %d ran %v, want the whole batch", w, i, ran)
				}
				released.Add(1)
			}
		})
	}
	wg.Wait()
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Runs() = %v at the end, want none", runs)
	}
	// Three decisions per run, and two release verdicts per released run.
	if want := 3*(released.Load()+forgotten.Load()) + 2*released.Load(); observed.Load() != want {
		t.Errorf("the observer saw %d verdicts, want %d", observed.Load(), want)
	}
}

// TestHoldSameBatchConcurrently decides the calls of one batch from many
// goroutines at once, each in its own order: every decision of a call is
// the same.
func TestHoldSameBatchConcurrently(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git add a", "ls", "git commit -m x", "git add b", "git push")
	want := make([]*agentturn.ToolDecision, len(calls))
	for i := range calls {
		d, err := mustBuild(t, gitPolicy(t), splitMatchers()).Decide(context.Background(), batchInfo("run_1", calls, i, nil))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = d
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range len(calls) * 20 {
				i := (g + n) % len(calls)
				d, err := e.Decide(context.Background(), batchInfo("run_1", calls, i, nil))
				if err != nil || !reflect.DeepEqual(d, want[i]) {
					t.Errorf("%s: %+v, %v; want %+v", calls[i].CallID, d, err, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	for i, d := range want[:4] {
		if !d.Held {
			t.Errorf("%s = %+v, want it held for the push", calls[i].CallID, d)
		}
	}
}
