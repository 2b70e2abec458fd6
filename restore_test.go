package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// records is a journal that keeps the records it is given, as a file
// journal writes them.
type records struct {
	mu   sync.Mutex
	data [][]byte
}

func (r *records) Record(_ context.Context, v Verdict) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, data := v.Record()
	r.data = append(r.data, data)
	return nil
}

// verdicts reads the records back.
func (r *records) verdicts(t *testing.T) []Verdict {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	vs := make([]Verdict, len(r.data))
	for i, data := range r.data {
		v, err := ParseRecord(data)
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		vs[i] = v
	}
	return vs
}

// rewriteAdd is a hook that runs "git add" as a dry run, with a note.
func rewriteAdd(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
	if !strings.Contains(string(info.Args), "git add") {
		return nil, nil
	}
	return &agentturn.ToolDecision{Action: agentturn.Allow, Args: shellArgs("git add -A -n"), Note: "a dry run first"}, nil
}

// restoredEngine decides the batch in one engine with a journal, and
// returns the run end, that engine and a second one built from the same
// policy and restored from the journal.
func restoredEngine(t *testing.T, cmds ...string) (end *agentturn.RunEnd, first, second *Engine) {
	t.Helper()
	j := &records{}
	first = mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(j), WithHooks(rewriteAdd))
	end = askedEnd(t, first, cmds...)
	second = mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(rewriteAdd))
	if err := second.Restore(context.Background(), j.verdicts(t)...); err != nil {
		t.Fatal(err)
	}
	return end, first, second
}

func TestRestoreRemembersWhatTheRunLeftDeferred(t *testing.T) {
	end, first, second := restoredEngine(t, "git add -A", "ls", "git push")
	if got, want := second.Runs(), first.Runs(); !reflect.DeepEqual(got, want) {
		t.Errorf("Runs = %v, want %v", got, want)
	}
	for _, p := range end.Pending {
		want, _ := first.Deferred("run_1", p.Call.CallID)
		got, ok := second.Deferred("run_1", p.Call.CallID)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Deferred(%s) = %+v, %v; want %+v", p.Call.CallID, got, ok, want)
		}
	}
	// Both engines answer the run alike: the held calls with what the
	// hooks gave them.
	for _, e := range []*Engine{first, second} {
		answers, err := e.Release(context.Background(), end, agentturn.Approve("call_3"))
		if err != nil {
			t.Fatal(err)
		}
		checkAnswers(t, answers, []agentturn.Answer{
			agentturn.ApproveWith("call_1", shellArgs("git add -A -n")).WithNote("a dry run first").WithBy(ByPolicy),
			agentturn.Approve("call_2").WithBy(ByPolicy),
			agentturn.Approve("call_3"),
		})
	}
}

func TestRestoreIsIdempotent(t *testing.T) {
	j := &records{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(j))
	askedEnd(t, e, "git add -A", "git push")
	restored := mustBuild(t, gitPolicy(t), splitMatchers())
	for range 2 {
		if err := restored.Restore(context.Background(), j.verdicts(t)...); err != nil {
			t.Fatal(err)
		}
	}
	for _, call := range []string{"call_1", "call_2"} {
		want, _ := e.Deferred("run_1", call)
		if got, ok := restored.Deferred("run_1", call); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Deferred(%s) = %+v, %v; want %+v", call, got, ok, want)
		}
	}
	if runs := restored.Runs(); !reflect.DeepEqual(runs, []string{"run_1"}) {
		t.Errorf("Runs = %v", runs)
	}
}

func TestRestoreDoesNotResurrectAnsweredCalls(t *testing.T) {
	local := Source{Name: "local", Trusted: true, Rank: 1}
	for _, tc := range []struct {
		name   string
		answer func(t *testing.T, e *Engine, end *agentturn.RunEnd)
		left   []string
	}{
		{"answered by a reviewer", func(t *testing.T, e *Engine, end *agentturn.RunEnd) {
			if _, err := e.Answers(context.Background(), &fixedReview{rev: Review{Outcome: Approved}}, end); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"queued by the unattended reviewer", func(t *testing.T, e *Engine, end *agentturn.RunEnd) {
			if _, err := e.Answers(context.Background(), Unattended(&queue{}), end); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"held calls released, the asked one answered by the caller", func(t *testing.T, e *Engine, end *agentturn.RunEnd) {
			if _, err := e.Release(context.Background(), end, agentturn.Approve("call_2")); err != nil {
				t.Fatal(err)
			}
		}, []string{"call_2"}},
		{"granted over", func(t *testing.T, e *Engine, end *agentturn.RunEnd) {
			v, _ := e.Deferred("run_1", "call_2")
			g := parseOrFail(t, "bash(git push)")[0]
			g.Source = local
			if ok, reason := e.GrantOver(context.Background(), v, g); !ok {
				t.Fatal(reason)
			}
		}, []string{"call_1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &records{}
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(j))
			end := askedEnd(t, e, "git add -A", "git push")
			tc.answer(t, e, end)
			restored := mustBuild(t, gitPolicy(t), splitMatchers())
			if err := restored.Restore(context.Background(), j.verdicts(t)...); err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, call := range []string{"call_1", "call_2"} {
				if _, ok := restored.Deferred("run_1", call); ok {
					left = append(left, call)
				}
			}
			if !reflect.DeepEqual(left, tc.left) {
				t.Errorf("restored %v, want %v", left, tc.left)
			}
		})
	}
}

func TestRestoreRefusesADeferralItCannotAnswer(t *testing.T) {
	kept := Verdict{RunID: "run_1", CallID: "call_1", Tool: "bash", Action: agentturn.Defer, Args: string(shellArgs("git push"))}
	for _, v := range []Verdict{
		{RunID: "run_2", CallID: "call_7", Tool: "bash", Action: agentturn.Defer, Reason: "approval required by default"},
		{RunID: "run_2", CallID: "call_7", Action: agentturn.Defer, Args: string(shellArgs("ls"))},
	} {
		e := mustBuild(t, gitPolicy(t), splitMatchers())
		err := e.Restore(context.Background(), kept, v)
		if err == nil || err.Error() != "agentpolicy: cannot restore call call_7 of run run_2: its verdict does not carry the call's tool and arguments" {
			t.Errorf("Restore = %v", err)
		}
		if runs := e.Runs(); len(runs) != 0 {
			t.Errorf("Restore failed and restored %v", runs)
		}
	}
}

func TestRestoreReadsPastWhatIsNotADeferredCall(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	err := e.Restore(context.Background(),
		Verdict{Guard: "secrets", RunID: "run_1", CallID: "call_1", Action: agentturn.Defer},
		Verdict{Tool: "bash", Action: agentturn.Allow, Reason: "granted bash(ls)"},
		Verdict{RunID: "run_1", Tool: "bash", Action: agentturn.Defer},
		Verdict{RunID: "run_1", CallID: "call_2", Tool: "bash", Action: agentturn.Block, Args: string(shellArgs("rm -rf /"))},
	)
	if err != nil || len(e.Runs()) != 0 {
		t.Errorf("Restore = %v, runs %v; want nothing restored", err, e.Runs())
	}
}

// A restored deferral answers the call it recorded and no other: a
// transcript whose call says something else is not the one the policy
// decided.
func TestARestoredDeferralAnswersOnlyTheCallItRecorded(t *testing.T) {
	end, _, second := restoredEngine(t, "git add -A", "git push")
	end.Pending[0].Call = bashCall("call_1", "git add -A && rm -rf /")
	end.Pending[1].Call = bashCall("call_2", "git push")
	end.Pending[1].Call.Name = "edit"
	if _, err := second.Release(context.Background(), end, agentturn.Approve("call_2")); !errors.Is(err, ErrUnanswered) {
		t.Errorf("Release = %v, want ErrUnanswered for the held call", err)
	}
	reviewer := &fixedReview{rev: Review{Outcome: Approved}}
	answers, err := second.Answers(context.Background(), reviewer, end)
	if err != nil {
		t.Fatal(err)
	}
	want := []agentturn.Answer{
		refusal("call_1", textNotRecorded, ByPolicy, reasonNotRecorded),
		refusal("call_2", textNotRecorded, ByPolicy, reasonNotRecorded),
	}
	if !reflect.DeepEqual(answers, want) {
		got, _ := json.Marshal(answers)
		t.Errorf("answers = %s", got)
	}
	if len(reviewer.asked) != 0 {
		t.Errorf("the reviewer was asked about %d calls the policy never decided", len(reviewer.asked))
	}
	// The same calls as recorded, with other white space, are the ones.
	end, _, second = restoredEngine(t, "git add -A", "git push")
	end.Pending[0].Call = bashCall("call_1", "git add -A")
	end.Pending[0].Call.Arguments = strings.ReplaceAll(end.Pending[0].Call.Arguments, ":", " : ")
	end.Pending[1].Call = bashCall("call_2", "git push")
	if _, err := second.Release(context.Background(), end, agentturn.Approve("call_2")); err != nil {
		t.Errorf("Release of the recorded calls: %v", err)
	}
}

// The reviewer of a restored call sees the tool the engine's lookup names,
// as it sees the one the loop handed the hook.
func TestARestoredCallIsReviewedWithItsTool(t *testing.T) {
	j := &records{}
	first := mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(j))
	end := askedEnd(t, first, "git push")
	bash := confinedTool("bash", "")
	second := mustBuild(t, gitPolicy(t), splitMatchers(), WithTools(func(name string) (agenttool.Tool, bool) {
		return bash, name == "bash"
	}))
	if err := second.Restore(context.Background(), j.verdicts(t)...); err != nil {
		t.Fatal(err)
	}
	reviewer := &fixedReview{rev: Review{Outcome: Approved}}
	if _, err := second.Answers(context.Background(), reviewer, end); err != nil {
		t.Fatal(err)
	}
	if len(reviewer.asked) != 1 || reviewer.asked[0].Tool != bash || reviewer.asked[0].RunID != "run_1" ||
		reviewer.asked[0].Call.Arguments != `{"command":"git push"}` || string(reviewer.asked[0].Args) != `{"command":"git push"}` {
		t.Errorf("the reviewer saw %+v", reviewer.asked)
	}
}
