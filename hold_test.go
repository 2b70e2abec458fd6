package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// gitPolicy allows git add and git commit, asks about git push, denies rm
// and asks about anything else.
func gitPolicy(t testing.TB) Policy {
	return Policy{
		Allow:   parseOrFail(t, "bash(git add:*) bash(git commit:*) bash(ls:*) read"),
		Ask:     parseOrFail(t, "bash(git push:*)"),
		Deny:    parseOrFail(t, "bash(rm:*)"),
		Default: Ask(),
	}
}

// splitMatchers is a bash tool matched by prefix on its command and split
// by andSplit, and an edit tool matched on its path.
func splitMatchers() map[string]ToolMatcher {
	return map[string]ToolMatcher{
		"bash": {Match: PrefixMatcher("command"), Subjects: andSplit},
		"edit": {Match: PrefixMatcher("path")},
	}
}

// bashBatch is a batch of bash calls, call_1, call_2, … in order.
func bashBatch(cmds ...string) []*openresponses.FunctionCall {
	calls := make([]*openresponses.FunctionCall, len(cmds))
	for i, cmd := range cmds {
		calls[i] = &openresponses.FunctionCall{CallID: fmt.Sprintf("call_%d", i+1), Name: "bash", Arguments: string(shellArgs(cmd))}
	}
	return calls
}

// batchInfo is the hook's view of call i of the batch in turn 1 of run,
// with the tool tools names for it.
func batchInfo(run string, calls []*openresponses.FunctionCall, i int, tools agenttool.Set) agentturn.ToolCallInfo {
	info := agentturn.ToolCallInfo{RunID: run, Turn: 1, Call: calls[i], Args: callArgs(calls[i]), Batch: calls, Index: i}
	if t, ok := tools.Lookup(calls[i].Name); ok {
		info.Tool = t
	}
	return info
}

// decideAll decides every call of the batch in order, as the loop does,
// and returns the decisions.
func decideAll(t testing.TB, e *Engine, run string, calls []*openresponses.FunctionCall, tools agenttool.Set) []*agentturn.ToolDecision {
	t.Helper()
	ds := make([]*agentturn.ToolDecision, len(calls))
	for i := range calls {
		d, err := e.Decide(context.Background(), batchInfo(run, calls, i, tools))
		if err != nil {
			t.Fatalf("Decide %s: %v", calls[i].CallID, err)
		}
		ds[i] = d
	}
	return ds
}

// pendingEnd is the run end the loop reports for the deferred decisions of
// the batch: each deferred call pending, in order, with its decision.
func pendingEnd(run string, calls []*openresponses.FunctionCall, ds []*agentturn.ToolDecision) *agentturn.RunEnd {
	end := &agentturn.RunEnd{RunID: run, Reason: agentturn.ReasonInputRequired}
	for i, d := range ds {
		if d.Action == agentturn.Defer {
			end.Pending = append(end.Pending, agentturn.PendingCall{Call: calls[i], Reason: agentturn.PendingDeferred, Args: d.Args, Decision: d})
		}
	}
	return end
}

// recorder is an observer that keeps every verdict.
type recorder struct {
	mu       sync.Mutex
	verdicts []Verdict
}

func (r *recorder) observe(_ context.Context, v Verdict) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.verdicts = append(r.verdicts, v)
}

// take returns the verdicts seen since the last take.
func (r *recorder) take() []Verdict {
	r.mu.Lock()
	defer r.mu.Unlock()
	vs := r.verdicts
	r.verdicts = nil
	return vs
}

// decided is what a test expects of a decision: action, held, reason.
type decided struct {
	action agentturn.ToolAction
	held   bool
	reason string
}

func (w decided) check(t *testing.T, id string, d *agentturn.ToolDecision) {
	t.Helper()
	if d.Action != w.action || d.Held != w.held || d.Reason != w.reason || d.By != ByPolicy {
		t.Errorf("%s: decision {%s held %v %q by %q}, want {%s held %v %q by policy}",
			id, actionWord(d.Action), d.Held, d.Reason, d.By, actionWord(w.action), w.held, w.reason)
	}
}

var (
	heldAdd    = decided{agentturn.Defer, true, "held for approval: allowed by bash(git add:*)"}
	heldCommit = decided{agentturn.Defer, true, "held for approval: allowed by bash(git commit:*)"}
	allowAdd   = decided{agentturn.Allow, false, "allowed by bash(git add:*)"}
	allowLs    = decided{agentturn.Allow, false, "allowed by bash(ls:*)"}
	askPush    = decided{agentturn.Defer, false, "approval required by bash(git push:*)"}
	denyRm     = decided{agentturn.Block, false, "denied by bash(rm:*)"}
)

func TestHoldBatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmds []string
		want []decided
	}{
		{"an ask last holds the calls before it", []string{"git add -A", "git commit -m wip", "git push --force"},
			[]decided{heldAdd, heldCommit, askPush}},
		{"an ask first holds the calls after it", []string{"git push", "git add -A"},
			[]decided{askPush, heldAdd}},
		{"an ask in the middle holds both sides", []string{"git add -A", "git push", "ls"},
			[]decided{heldAdd, askPush, {agentturn.Defer, true, "held for approval: allowed by bash(ls:*)"}}},
		{"nothing asks, nothing is held", []string{"git add -A", "ls"},
			[]decided{allowAdd, allowLs}},
		{"a denied sibling holds nothing", []string{"git add -A", "rm -rf /"},
			[]decided{allowAdd, denyRm}},
		{"a blocked call stays blocked beside an ask", []string{"rm -rf /", "git push"},
			[]decided{denyRm, askPush}},
		{"the default's ask holds", []string{"git add -A", "make"},
			[]decided{heldAdd, {agentturn.Defer, false, "no rule allows bash: approval required by default"}}},
		{"a sibling whose splitter fails reads as asking", []string{"git add -A", "ls `pwd`"},
			[]decided{heldAdd, {agentturn.Block, false, "bash call could not be evaluated: backticks are not supported"}}},
		{"a sibling the splitter splits into nothing reads as asking", []string{"", "git add -A"},
			[]decided{{agentturn.Block, false, "bash call could not be evaluated: splitter returned no subjects"}, heldAdd}},
		{"a compound sibling that asks holds", []string{"ls", "git add -A && git push"},
			[]decided{{agentturn.Defer, true, "held for approval: allowed by bash(ls:*)"}, askPush}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, gitPolicy(t), splitMatchers())
			calls := bashBatch(tc.cmds...)
			ds := decideAll(t, e, "run_1", calls, nil)
			for i, d := range ds {
				tc.want[i].check(t, calls[i].CallID, d)
			}
			again := decideAll(t, e, "run_1", calls, nil)
			if !reflect.DeepEqual(again, ds) {
				t.Errorf("deciding the batch again gave %+v, first %+v", again, ds)
			}
		})
	}
}

func TestHoldVerdict(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	calls := bashBatch("git add -A", "git push")
	decideAll(t, e, "run_1", calls, nil)
	vs := rec.take()
	if len(vs) != 2 {
		t.Fatalf("the observer saw %d verdicts, want 2", len(vs))
	}
	held := vs[0]
	if held.Action != agentturn.Defer || !held.Held || held.Rule == nil || held.Rule.String() != "bash(git add:*)" ||
		held.Reason != "held for approval: allowed by bash(git add:*)" || held.Subject != "git add -A" ||
		held.RunID != "run_1" || held.Turn != 1 || held.CallID != "call_1" || held.Tool != "bash" || held.By != ByPolicy {
		t.Errorf("held verdict = %+v, want a held Defer naming the allow rule, the subject and the call", held)
	}
	if vs[1].Held {
		t.Errorf("the asked call's verdict is Held: %+v", vs[1])
	}
}

func TestHoldReadsConfinedSiblings(t *testing.T) {
	sandbox := confinedTool("bash", "sandbox")
	read := agenttool.NewFunc("read", "", json.RawMessage(`{"type":"object"}`), nil)
	tools := agenttool.Set{read, sandbox}
	p := Policy{Allow: parseOrFail(t, "read"), Ask: parseOrFail(t, "bash"), Default: Ask()}
	readCall := &openresponses.FunctionCall{CallID: "call_r", Name: "read", Arguments: `{"path":"a"}`}
	bashCall := &openresponses.FunctionCall{CallID: "call_b", Name: "bash", Arguments: `{"command":"make"}`}
	allowRead := decided{agentturn.Allow, false, "allowed by read"}
	heldRead := decided{agentturn.Defer, true, "held for approval: allowed by read"}
	confined := decided{agentturn.Allow, false, "confined by sandbox, so bash does not ask"}
	for _, tc := range []struct {
		name  string
		opts  []Option
		calls []*openresponses.FunctionCall
		want  map[string]decided
	}{
		{"a later confined sibling with WithTools", []Option{WithTools(tools.Lookup)},
			[]*openresponses.FunctionCall{readCall, bashCall}, map[string]decided{"call_r": allowRead, "call_b": confined}},
		{"a later confined sibling without a lookup reads as unconfined", nil,
			[]*openresponses.FunctionCall{readCall, bashCall}, map[string]decided{"call_r": heldRead, "call_b": confined}},
		{"an earlier confined sibling is read as it was decided", nil,
			[]*openresponses.FunctionCall{bashCall, readCall}, map[string]decided{"call_r": allowRead, "call_b": confined}},
		{"a lookup that does not know the tool reads as unconfined",
			[]Option{WithTools(func(string) (agenttool.Tool, bool) { return nil, false })},
			[]*openresponses.FunctionCall{readCall, bashCall}, map[string]decided{"call_r": heldRead, "call_b": confined}},
		{"WithConfinement(nil) makes the sibling ask", []Option{WithTools(tools.Lookup), WithConfinement(nil)},
			[]*openresponses.FunctionCall{readCall, bashCall},
			map[string]decided{"call_r": heldRead, "call_b": {agentturn.Defer, false, "approval required by bash"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, p, map[string]ToolMatcher{}, tc.opts...)
			ds := decideAll(t, e, "run_1", tc.calls, tools)
			for i, d := range ds {
				tc.want[tc.calls[i].CallID].check(t, tc.calls[i].CallID, d)
			}
		})
	}
}

// countingSplit is andSplit counting its calls per command.
type countingSplit struct {
	mu    sync.Mutex
	calls map[string]int
	total int
}

func (c *countingSplit) split(args json.RawMessage) ([]Subject, error) {
	var a struct{ Command string }
	_ = json.Unmarshal(args, &a)
	c.mu.Lock()
	c.calls[a.Command]++
	c.total++
	c.mu.Unlock()
	return andSplit(args)
}

func TestHoldSplitsEachCallAtMostTwice(t *testing.T) {
	for _, ask := range []int{-1, 0, 4, 9} {
		t.Run(fmt.Sprintf("ask at %d", ask), func(t *testing.T) {
			counter := &countingSplit{calls: map[string]int{}}
			e := mustBuild(t, gitPolicy(t), map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command"), Subjects: counter.split}})
			cmds := make([]string, 10)
			for i := range cmds {
				cmds[i] = fmt.Sprintf("git add f%d", i)
				if i == ask {
					cmds[i] = "git push"
				}
			}
			calls := bashBatch(cmds...)
			ds := decideAll(t, e, "run_1", calls, nil)
			for i, d := range ds {
				if i != ask && d.Held != (ask >= 0) {
					t.Errorf("%s held = %v with the ask at %d", calls[i].CallID, d.Held, ask)
				}
			}
			if counter.total > 20 {
				t.Errorf("the splitter ran %d times for a batch of 10, want at most 20", counter.total)
			}
			for cmd, n := range counter.calls {
				if n > 2 {
					t.Errorf("the splitter ran %d times on %q, want at most 2", n, cmd)
				}
			}
		})
	}
}

func TestHoldSeesARuleChangeWithinTheBatch(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git add -A", "ls", "make")
	lenient := gitPolicy(t)
	lenient.Allow = append(lenient.Allow, parseOrFail(t, "bash(make:*)")...)
	if err := e.SetPolicy(lenient); err != nil {
		t.Fatal(err)
	}
	d, _ := e.Decide(context.Background(), batchInfo("run_1", calls, 0, nil))
	allowAdd.check(t, "call_1 under the lenient policy", d)
	if err := e.SetPolicy(gitPolicy(t)); err != nil {
		t.Fatal(err)
	}
	d, _ = e.Decide(context.Background(), batchInfo("run_1", calls, 1, nil))
	decided{agentturn.Defer, true, "held for approval: allowed by bash(ls:*)"}.check(t, "call_2 after the change", d)
}

func TestHoldKeysABatchByItsCalls(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git add -A", "git push", "ls")
	decideAll(t, e, "run_1", calls, nil)
	// A batch of approved calls on a resume starts with the same call and
	// holds others: its memo is its own.
	resumed := []*openresponses.FunctionCall{calls[0], calls[2]}
	ds := decideAll(t, e, "run_1", resumed, nil)
	allowAdd.check(t, "call_1 in the resumed batch", ds[0])
	allowLs.check(t, "call_3 in the resumed batch", ds[1])
	// The same calls under another run are another batch.
	other := decideAll(t, e, "run_2", resumed, nil)
	allowAdd.check(t, "call_1 under run_2", other[0])
}

func TestHoldFindsTheCallByPointer(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git push", "git add -A")
	info := batchInfo("run_1", calls, 1, nil)
	info.Index = 7
	d, err := e.Decide(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	heldAdd.check(t, "call_2 with a wrong index", d)
}

func TestHoldIgnoresNestedCalls(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	calls := bashBatch("git push")
	info := batchInfo("run_1", calls, 0, nil)
	info.Parent = "call_outer"
	d, err := e.Decide(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	askPush.check(t, "the nested call", d)
	if vs := rec.take(); len(vs) != 1 || vs[0].Action != agentturn.Defer {
		t.Errorf("the observer saw %+v, want the nested call's deferral", vs)
	}
	if _, ok := e.Deferred("run_1", "call_1"); ok {
		t.Error("Deferred reports the nested call")
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Runs() = %v after a nested deferral, want none", runs)
	}
	// A nested call is never held, even handed a batch with an ask.
	pair := bashBatch("git push", "git add -A")
	info = batchInfo("run_1", pair, 1, nil)
	info.Parent = "call_outer"
	d, _ = e.Decide(context.Background(), info)
	allowAdd.check(t, "a nested call beside an ask", d)
}

func TestDeferredRemembersPerRun(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git add -A", "git push")
	decideAll(t, e, "run_b", calls, nil)
	decideAll(t, e, "run_a", bashBatch("git push"), nil)
	if got, want := e.Runs(), []string{"run_a", "run_b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Runs() = %v, want %v", got, want)
	}
	held, ok := e.Deferred("run_b", "call_1")
	if !ok || !held.Held || held.Reason != heldAdd.reason {
		t.Errorf("Deferred(run_b, call_1) = %+v, %v; want the held verdict", held, ok)
	}
	asked, ok := e.Deferred("run_b", "call_2")
	if !ok || asked.Held || asked.Reason != askPush.reason {
		t.Errorf("Deferred(run_b, call_2) = %+v, %v; want the asked verdict", asked, ok)
	}
	if _, ok := e.Deferred("run_c", "call_1"); ok {
		t.Error("Deferred reports a call of a run that deferred nothing")
	}
	held.Rule.Tool = "changed"
	if again, _ := e.Deferred("run_b", "call_1"); again.Rule.Tool != "bash" {
		t.Error("changing a verdict Deferred returned changed what the engine holds")
	}

	e.Forget("run_b")
	if _, ok := e.Deferred("run_b", "call_2"); ok {
		t.Error("Deferred reports a call of a forgotten run")
	}
	if got, want := e.Runs(), []string{"run_a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Runs() after Forget = %v, want %v", got, want)
	}

}

// TestDeferralOutlivesALaterDecision decides a deferred call again in the
// same run, under a policy that now allows it and as a batch of one, and
// checks that only an answer or Forget drops what was deferred.
func TestDeferralOutlivesALaterDecision(t *testing.T) {
	lenient := gitPolicy(t)
	lenient.Ask = nil
	lenient.Allow = append(lenient.Allow, parseOrFail(t, "bash(git push:*)")...)
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git add -A", "git push")
	end := pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))

	if err := e.SetPolicy(lenient); err != nil {
		t.Fatal(err)
	}
	d, err := e.Decide(context.Background(), batchInfo("run_1", calls, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	decided{agentturn.Allow, false, "allowed by bash(git push:*)"}.check(t, "call_2 under the lenient policy", d)
	// The loop re-puts the held call on its own, a batch of one.
	d, err = e.Decide(context.Background(), agentturn.ToolCallInfo{RunID: "run_1", Call: calls[0], Args: callArgs(calls[0]),
		Batch: calls[:1]})
	if err != nil {
		t.Fatal(err)
	}
	allowAdd.check(t, "call_1 alone", d)

	for id, want := range map[string]decided{"call_1": heldAdd, "call_2": askPush} {
		v, ok := e.Deferred("run_1", id)
		if !ok {
			t.Errorf("Deferred(run_1, %s) reports nothing after a later decision allowed the call", id)
			continue
		}
		want.check(t, id+" as deferred", decisionOf(v))
	}
	answers, err := e.Release(context.Background(), end, agentturn.Approve("call_2"))
	if err != nil {
		t.Fatalf("Release after the later decisions: %v", err)
	}
	want := []agentturn.Answer{agentturn.Approve("call_1").WithBy(ByPolicy), agentturn.Approve("call_2")}
	if !reflect.DeepEqual(answers, want) {
		t.Errorf("answers = %+v, want %+v", answers, want)
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Runs() = %v after the release, want none", runs)
	}

	// Forget drops a deferral a later decision left in place.
	if err := e.SetPolicy(gitPolicy(t)); err != nil {
		t.Fatal(err)
	}
	decideAll(t, e, "run_2", bashBatch("git push"), nil)
	if err := e.SetPolicy(lenient); err != nil {
		t.Fatal(err)
	}
	decideAll(t, e, "run_2", bashBatch("git push"), nil)
	if got := e.Runs(); !reflect.DeepEqual(got, []string{"run_2"}) {
		t.Errorf("Runs() = %v after an allowed redecision, want [run_2]", got)
	}
	e.Forget("run_2")
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Runs() = %v after Forget, want none", runs)
	}
}

func TestHoldMemoIsBounded(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	first := bashBatch("git add -A", "ls", "git push")
	d, _ := e.Decide(context.Background(), batchInfo("run_first", first, 0, nil))
	heldAdd.check(t, "call_1 of the first batch", d)
	for i := range 3 * batchCapacity {
		calls := bashBatch("git add -A", "ls")
		decideAll(t, e, fmt.Sprintf("run_%d", i), calls, nil)
	}
	e.batches.mu.Lock()
	n, order := len(e.batches.byKey), len(e.batches.order)
	e.batches.mu.Unlock()
	if n > batchCapacity || order != n {
		t.Errorf("the memo holds %d batches in an order of %d, want at most %d", n, order, batchCapacity)
	}
	// The first batch was evicted; its next call rescans and decides the
	// same.
	d, _ = e.Decide(context.Background(), batchInfo("run_first", first, 1, nil))
	decided{agentturn.Defer, true, "held for approval: allowed by bash(ls:*)"}.check(t, "call_2 after eviction", d)
}

func TestWouldHoldsAndRemembersNothing(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	calls := bashBatch("git add -A", "git push")
	for i, want := range []decided{allowAdd, askPush} {
		v, err := e.Would(context.Background(), batchInfo("run_1", calls, i, nil))
		if err != nil {
			t.Fatal(err)
		}
		want.check(t, calls[i].CallID, decisionOf(v))
	}
	if vs := rec.take(); len(vs) != 0 {
		t.Errorf("Would reached the observer with %+v", vs)
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Would left runs %v remembered", runs)
	}
}

// decisionOf is the decision the loop would read for a verdict with
// nothing a hook added.
func decisionOf(v Verdict) *agentturn.ToolDecision {
	j := judgement{v: v}
	var d agentturn.ToolDecision
	j.fill(&d)
	return &d
}

// TestObserversCannotChangeADeferral changes the rule of a deferring
// verdict as an observer is handed it: the engine remembers the deferral
// with its own rule, not the observer's copy.
func TestObserversCannotChangeADeferral(t *testing.T) {
	observer := func(_ context.Context, v Verdict) {
		if v.Rule != nil {
			v.Rule.Spec = "changed"
		}
	}
	e := mustBuild(t, Policy{Ask: parseOrFail(t, "bash(git push:*)"), Default: Allow()}, shellMatchers(), WithObserver(observer))
	info := callInfo("bash", shellArgs("git push"))
	info.RunID, info.Call.CallID = "run_1", "call_1"
	if d, err := e.Decide(context.Background(), info); err != nil || d.Action != agentturn.Defer {
		t.Fatalf("Decide = %+v, %v; want a deferral", d, err)
	}
	v, ok := e.Deferred("run_1", "call_1")
	if !ok || v.Rule == nil || v.Rule.Spec != "git push:*" {
		t.Errorf("Deferred = %+v, %v; want the rule bash(git push:*)", v.Rule, ok)
	}
}

// TestDeferralCarriesTheArgumentsAsSeen: a deferring verdict carries the
// arguments the hook was given, the call's own text when they are its
// bytes, with no copy of them made, and the hook's arguments when a hook
// chained before the engine rewrote them.
func TestDeferralCarriesTheArgumentsAsSeen(t *testing.T) {
	e := mustBuild(t, Policy{Ask: parseOrFail(t, "bash(git push:*)"), Default: Allow()}, shellMatchers())
	info := callInfo("bash", shellArgs("git push"))
	v, err := e.Would(context.Background(), info)
	if err != nil || v.Args != info.Call.Arguments {
		t.Fatalf("Would = %q, %v; want the call's arguments %q", v.Args, err, info.Call.Arguments)
	}
	if n := testing.AllocsPerRun(50, func() { _, _ = e.Decide(context.Background(), info) }); n != 1 {
		t.Errorf("an asked call allocates %v times, want once: its arguments are the call's text", n)
	}
	rewritten := callInfo("bash", shellArgs("git push"))
	rewritten.Call.Arguments = `{"command":"git push --force"}`
	v, err = e.Would(context.Background(), rewritten)
	if err != nil || v.Args != string(rewritten.Args) {
		t.Errorf("Would = %q, %v; want the arguments the hook saw, %s", v.Args, err, rewritten.Args)
	}
}

// TestHoldRereadsDecidedSiblingsAfterARuleChange changes the rules between
// two decisions of one batch, by each of the ways a rule changes, and
// checks that the later call reads its decided sibling under the new rules:
// a sibling that asked and no longer does holds nothing, and one that was
// allowed and now asks holds the call.
func TestHoldRereadsDecidedSiblingsAfterARuleChange(t *testing.T) {
	skill := Source{Name: "skill:push", Rank: 1, Trusted: true}
	lenient := gitPolicy(t)
	lenient.Ask = nil
	lenient.Allow = append(lenient.Allow, parseOrFail(t, "bash(git push:*)")...)
	strict := gitPolicy(t)
	strict.Ask = append(strict.Ask, parseOrFail(t, "bash(git add:*)")...)
	allowsLs := decided{agentturn.Allow, false, "allowed by bash(ls:*)"}
	holdsLs := decided{agentturn.Defer, true, "held for approval: allowed by bash(ls:*)"}
	for _, tc := range []struct {
		name   string
		first  string
		change func(t *testing.T, e *Engine)
		want   decided
	}{
		{"SetPolicy allows the asked sibling", "git push", func(t *testing.T, e *Engine) {
			if err := e.SetPolicy(lenient); err != nil {
				t.Fatal(err)
			}
		}, allowsLs},
		{"GrantSet allows the asked sibling", "git push", func(t *testing.T, e *Engine) {
			if granted, _ := e.GrantSet(context.Background(), RuleSet{Source: skill, Allow: rulesOf(t, "bash(git push:*)", skill)}); len(granted) != 1 {
				t.Fatalf("GrantSet granted %v, want the push", granted)
			}
		}, allowsLs},
		{"Grant allows the asked sibling", "ls -la && git status", func(t *testing.T, e *Engine) {
			if err := e.Grant(context.Background(), Rule{Tool: "bash", Spec: "git status"}); err != nil {
				t.Fatal(err)
			}
		}, allowsLs},
		{"SetPolicy asks about the allowed sibling", "git add -A", func(t *testing.T, e *Engine) {
			if err := e.SetPolicy(strict); err != nil {
				t.Fatal(err)
			}
		}, holdsLs},
		{"Revoke takes the allowing grant back", "git push", func(t *testing.T, e *Engine) {
			e.Revoke(context.Background(), skill.Name)
		}, holdsLs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, gitPolicy(t), splitMatchers())
			if tc.name == "Revoke takes the allowing grant back" {
				e.GrantSet(context.Background(), RuleSet{Source: skill, Allow: rulesOf(t, "bash(git push:*)", skill)})
			}
			calls := bashBatch(tc.first, "ls")
			if _, err := e.Decide(context.Background(), batchInfo("run_1", calls, 0, nil)); err != nil {
				t.Fatal(err)
			}
			tc.change(t, e)
			d, err := e.Decide(context.Background(), batchInfo("run_1", calls, 1, nil))
			if err != nil {
				t.Fatal(err)
			}
			tc.want.check(t, "call_2 after the change", d)
		})
	}
}

// TestHoldRereadsASiblingWhoseReadingFailed reads a sibling as asking while
// its hook fails or the decision's context is done, and afresh once it can
// be read: a failure is not remembered as the sibling's answer.
func TestHoldRereadsASiblingWhoseReadingFailed(t *testing.T) {
	t.Run("its hook failed", func(t *testing.T) {
		var down sync.Mutex
		failing := true
		hook := func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
			down.Lock()
			defer down.Unlock()
			if failing && string(info.Args) == string(shellArgs("ls")) {
				return nil, fmt.Errorf("hook down")
			}
			return nil, nil
		}
		e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(hook))
		calls := bashBatch("git add -A", "git commit -m wip", "ls")
		d, _ := e.Decide(context.Background(), batchInfo("run_1", calls, 0, nil))
		heldAdd.check(t, "call_1 while the hook fails for ls", d)
		down.Lock()
		failing = false
		down.Unlock()
		d, _ = e.Decide(context.Background(), batchInfo("run_1", calls, 1, nil))
		decided{agentturn.Allow, false, "allowed by bash(git commit:*)"}.check(t, "call_2 once ls can be read", d)
	})
	t.Run("its context was done", func(t *testing.T) {
		e := mustBuild(t, gitPolicy(t), splitMatchers())
		calls := bashBatch("git add -A", "git commit -m wip", "ls")
		done, cancel := context.WithCancel(context.Background())
		cancel()
		if d, _ := e.Decide(done, batchInfo("run_1", calls, 0, nil)); d.Action != agentturn.Block {
			t.Fatalf("call_1 under a done context: %+v, want a block", d)
		}
		d, _ := e.Decide(context.Background(), batchInfo("run_1", calls, 1, nil))
		decided{agentturn.Allow, false, "allowed by bash(git commit:*)"}.check(t, "call_2 under a live context", d)
	})
}
