package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

var errJournalFull = errors.New("journal full")

// filling is a journal that records its first room verdicts and fails
// every one after them, as a disk that fills up does.
type filling struct {
	mu       sync.Mutex
	room     int
	recorded []Verdict
	refused  []Verdict
}

func (j *filling) Record(_ context.Context, v Verdict) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.recorded) == j.room {
		j.refused = append(j.refused, v)
		return errJournalFull
	}
	j.recorded = append(j.recorded, v)
	return nil
}

// unrecorded is the verdict an allow becomes when the journal fails.
func unrecorded(v Verdict) Verdict {
	v.Action, v.By, v.Reason = agentturn.Block, ByPolicy, "refused: the decision could not be recorded: "+v.Reason
	return v
}

// journalCalls is a sequence of single calls under gitPolicy: allowed,
// denied and asked, each with its own call ID.
func journalCalls() []agentturn.ToolCallInfo {
	cmds := []string{"ls", "rm -rf /", "git push", "git add -A", "ls -la", "rm x", "git push --force", "git commit -m x"}
	infos := make([]agentturn.ToolCallInfo, len(cmds))
	for i, cmd := range cmds {
		info := callInfo("bash", shellArgs(cmd))
		info.Call.CallID = fmt.Sprintf("call_%d", i+1)
		infos[i] = info
	}
	return infos
}

func TestJournalFailingAfterNRecordsBlocksExactlyTheAllowsAfterIt(t *testing.T) {
	calls := journalCalls()
	plain := mustBuild(t, gitPolicy(t), shellMatchers())
	decided := make([]Verdict, len(calls))
	for i, info := range calls {
		v, err := plain.Would(context.Background(), info)
		if err != nil {
			t.Fatal(err)
		}
		decided[i] = v
	}
	for room := 0; room <= len(calls); room++ {
		t.Run(fmt.Sprintf("room for %d", room), func(t *testing.T) {
			j := &filling{room: room}
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(j), WithObserver(rec.observe))
			want := make([]Verdict, len(calls))
			for i, info := range calls {
				want[i] = decided[i]
				if i >= room && decided[i].Action == agentturn.Allow {
					want[i] = unrecorded(decided[i])
				}
				d, err := e.Decide(context.Background(), info)
				if err != nil {
					t.Fatal(err)
				}
				if d.Action != want[i].Action || d.Reason != want[i].Reason || d.By != want[i].By {
					t.Errorf("%s: decision {%s %q by %s}, want {%s %q by %s}", info.Call.CallID,
						actionWord(d.Action), d.Reason, d.By, actionWord(want[i].Action), want[i].Reason, want[i].By)
				}
				_, remembered := e.Deferred("run_1", info.Call.CallID)
				if remembered != (decided[i].Action == agentturn.Defer) {
					t.Errorf("%s: remembered %v, want %v: a defer is returned as decided", info.Call.CallID, remembered, !remembered)
				}
			}
			if got := rec.take(); !reflect.DeepEqual(got, want) {
				t.Errorf("the observer saw\n%+v\nwant\n%+v", got, want)
			}
			if !reflect.DeepEqual(j.recorded, nilIfEmpty(decided[:room])) || !reflect.DeepEqual(j.refused, nilIfEmpty(decided[room:])) {
				t.Errorf("the journal recorded %d and refused %d verdicts, want the %d decided first and the rest",
					len(j.recorded), len(j.refused), room)
			}
		})
	}
}

func nilIfEmpty(vs []Verdict) []Verdict {
	if len(vs) == 0 {
		return nil
	}
	return vs
}

func TestJournalIsWrittenBeforeTheObserversAndTheReturn(t *testing.T) {
	var order []string
	var journalled Verdict
	e := mustBuild(t, gitPolicy(t), shellMatchers(),
		WithJournal(JournalFunc(func(_ context.Context, v Verdict) error {
			order = append(order, "journal")
			journalled = v
			return nil
		})),
		WithObserver(func(_ context.Context, v Verdict) {
			order = append(order, "observer")
			if !reflect.DeepEqual(v, journalled) {
				t.Errorf("the observer saw %+v, the journal recorded %+v", v, journalled)
			}
		}))
	info := callInfo("bash", shellArgs("git status"))
	if _, err := e.Would(context.Background(), info); err != nil {
		t.Fatal(err)
	}
	if len(order) != 0 {
		t.Fatalf("Would reached %v; it decides nothing and records nothing", order)
	}
	d, err := e.Decide(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"journal", "observer"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
	if d.Action != journalled.Action || d.Reason != journalled.Reason {
		t.Errorf("returned {%s %q}, journalled {%s %q}", actionWord(d.Action), d.Reason, actionWord(journalled.Action), journalled.Reason)
	}
}

// The journal is handed the context of the decision, so a journal can
// tell the runs apart.
func TestJournalReadsTheDecisionsContext(t *testing.T) {
	type key struct{}
	var seen any
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(JournalFunc(func(ctx context.Context, _ Verdict) error {
		seen = ctx.Value(key{})
		return nil
	})))
	ctx := context.WithValue(context.Background(), key{}, "the run's")
	if d, _ := e.Decide(ctx, callInfo("bash", shellArgs("ls"))); d.Action != agentturn.Allow || seen != "the run's" {
		t.Fatalf("decision %s with the journal seeing %v, want allow and the decision's context", actionWord(d.Action), seen)
	}
}

func TestWithJournalNilAndLastGiven(t *testing.T) {
	var first, second int
	count := func(n *int) Journal {
		return JournalFunc(func(context.Context, Verdict) error { *n++; return nil })
	}
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(count(&first)), WithJournal(count(&second)))
	if _, err := e.Decide(context.Background(), callInfo("bash", shellArgs("ls"))); err != nil {
		t.Fatal(err)
	}
	if first != 0 || second != 1 {
		t.Errorf("the first journal recorded %d, the last %d; want only the last given", first, second)
	}
	e = mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(count(&first)), WithJournal(nil))
	if d, err := e.Decide(context.Background(), callInfo("bash", shellArgs("ls"))); err != nil || d.Action != agentturn.Allow {
		t.Errorf("WithJournal(nil): %v, %v; want an allow and no journal", d, err)
	}
	if first != 0 {
		t.Errorf("WithJournal(nil) left the earlier journal in place")
	}
	e = mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(JournalFunc(nil)))
	if d, err := e.Decide(context.Background(), callInfo("bash", shellArgs("ls"))); err != nil || d.Action != agentturn.Block {
		t.Errorf("WithJournal(JournalFunc(nil)): %v, %v; want a block, as for a journal that cannot record", d, err)
	}
}

// unrecordedRelease is the answer to a held call whose release the journal
// could not record.
func unrecordedRelease(callID, allow string) agentturn.Answer {
	reason := "refused: the decision could not be recorded: released: " + allow
	out := openresponses.NewFunctionCallOutput(callID, "Error: "+reason)
	return agentturn.Output(out).WithBy(ByPolicy).WithReason(reason)
}

func TestReleaseTheJournalCannotRecordIsRefused(t *testing.T) {
	calls := bashBatch("git add -A", "git commit -m wip", "git push --force")
	for _, tc := range []struct {
		name     string
		room     int
		answers  []agentturn.Answer
		want     []agentturn.Answer
		verdicts []releaseVerdict
	}{
		{"the journal fails after the decisions and the first release",
			4, []agentturn.Answer{agentturn.Approve("call_3")},
			[]agentturn.Answer{
				agentturn.Approve("call_1").WithBy(ByPolicy),
				unrecordedRelease("call_2", "allowed by bash(git commit:*)"),
				agentturn.Approve("call_3"),
			},
			[]releaseVerdict{
				{"call_1", agentturn.Allow, "bash(git add:*)", "released: allowed by bash(git add:*)"},
				{"call_2", agentturn.Block, "bash(git commit:*)", "refused: the decision could not be recorded: released: allowed by bash(git commit:*)"},
			}},
		{"a refusal the journal cannot record stands",
			3, []agentturn.Answer{agentturn.Refuse(openresponses.NewFunctionCallOutput("call_3", "Error: no"))},
			[]agentturn.Answer{notReleased("call_1"), notReleased("call_2"),
				agentturn.Refuse(openresponses.NewFunctionCallOutput("call_3", "Error: no"))},
			[]releaseVerdict{
				{"call_1", agentturn.Block, "", "not released: the turn was stopped"},
				{"call_2", agentturn.Block, "", "not released: the turn was stopped"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(&filling{room: tc.room}), WithObserver(rec.observe))
			end := pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
			if len(end.Pending) != 3 {
				t.Fatalf("%d calls pending, want the two held and the asked one", len(end.Pending))
			}
			rec.take()
			got, err := e.Release(context.Background(), end, tc.answers...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				gotJSON, _ := json.Marshal(got)
				wantJSON, _ := json.Marshal(tc.want)
				t.Errorf("answers = %s\n   want %s", gotJSON, wantJSON)
			}
			checkReleaseVerdicts(t, rec.take(), tc.verdicts)
			if runs := e.Runs(); len(runs) != 0 {
				t.Errorf("Runs() = %v: a refused release answers the call too", runs)
			}
		})
	}
}

func TestEndToEndUnrecordedCallDoesNotRun(t *testing.T) {
	log := &ranLog{}
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(&filling{}))
	agent := agentturn.New(agentturn.Config{Model: &echo.Adapter{}, Tools: []agenttool.Tool{log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4})
	end, err := agent.Prompt(context.Background(), openresponses.UserText("ls"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, text := range outputs(end.Items) {
		got = append(got, text)
	}
	if want := []string{"Error: refused: the decision could not be recorded: allowed by bash(ls:*)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("outputs = %q, want %q", got, want)
	}
	if ran := log.list(); len(ran) != 0 {
		t.Errorf("a call the journal could not record ran: %v", ran)
	}
}

// Answers finishes as Release does: a held call whose release the journal
// cannot record does not run. The reviewer's approval is recorded first.
func TestAnswersReleaseTheJournalCannotRecordIsRefused(t *testing.T) {
	rec := &recorder{}
	j := &filling{room: 5}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(j), WithObserver(rec.observe))
	end := askedEnd(t, e, "git add -A", "git commit -m wip", "git push --force")
	rec.take()
	answers, err := e.Answers(context.Background(), &fixedReview{rev: Review{Outcome: Approved}}, end)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, answers, []agentturn.Answer{
		agentturn.Approve("call_1").WithBy(ByPolicy),
		unrecordedRelease("call_2", "allowed by bash(git commit:*)"),
		agentturn.Approve("call_3").WithBy(ByAgent),
	})
	checkAnswerVerdicts(t, rec.take(), []answerVerdict{
		{"call_3", agentturn.Allow, "approved by reviewer", ByAgent, false},
		{"call_1", agentturn.Allow, "released: allowed by bash(git add:*)", ByPolicy, true},
		{"call_2", agentturn.Block, "refused: the decision could not be recorded: released: allowed by bash(git commit:*)", ByPolicy, true},
	})
	if len(j.recorded) != 5 || len(j.refused) != 1 {
		t.Errorf("the journal recorded %d and refused %d verdicts, want the 3 decisions, the approval and a release, and a release", len(j.recorded), len(j.refused))
	}
}

// A reviewer's approval the journal cannot record does not approve: the
// call is answered as a blocked one, and the calls held for it are refused
// as they are when a reviewer does not approve.
func TestAnApprovalTheJournalCannotRecordDoesNotApprove(t *testing.T) {
	rec := &recorder{}
	j := &filling{room: 3}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithJournal(j), WithObserver(rec.observe))
	end := askedEnd(t, e, "git add -A", "git commit -m wip", "git push --force")
	rec.take()
	answers, err := e.Answers(context.Background(), &fixedReview{rev: Review{Outcome: Approved, Reason: "fine"}}, end)
	if err != nil {
		t.Fatal(err)
	}
	refused := "refused: the decision could not be recorded: approved by reviewer: fine"
	held := "not released: a call of its turn was not approved"
	checkAnswers(t, answers, []agentturn.Answer{
		refusal("call_1", heldRefusedText, ByPolicy, held),
		refusal("call_2", heldRefusedText, ByPolicy, held),
		agentturn.Output(openresponses.NewFunctionCallOutput("call_3", "Error: "+refused)).WithBy(ByPolicy).WithReason(refused),
	})
	checkAnswerVerdicts(t, rec.take(), []answerVerdict{
		{"call_3", agentturn.Block, refused, ByPolicy, false},
		{"call_1", agentturn.Block, held, ByPolicy, true},
		{"call_2", agentturn.Block, held, ByPolicy, true},
	})
	for _, v := range j.refused {
		if v.Action == agentturn.Allow && v.CallID != "call_3" {
			t.Errorf("the journal was asked to record %+v, an allow after the approval failed", v)
		}
	}
	if _, ok := e.Deferred(end.RunID, "call_3"); ok {
		t.Error("the call is still deferred; an answered call is forgotten")
	}
}
