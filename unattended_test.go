package agentpolicy

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// queue is a queue in memory: the verdicts recorded, or an error for each.
type queue struct {
	mu  sync.Mutex
	err error
	got []Verdict
}

func (q *queue) Record(_ context.Context, v Verdict) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return q.err
	}
	q.got = append(q.got, v)
	return nil
}

const queuedText = "Denied by policy: queued for a person to review; it did not run." + doNotPursue

func TestUnattendedQueuesTheAskAndRefusesTheBatch(t *testing.T) {
	q := &queue{}
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	end := askedEnd(t, e, "git add -A", "git push origin main")
	asked, _ := e.Deferred("run_1", "call_2")
	rec.take()
	answers, err := e.Answers(context.Background(), Unattended(q), end)
	if err != nil {
		t.Fatal(err)
	}
	held := "not released: a call of its turn was not approved"
	checkAnswers(t, answers, []agentturn.Answer{
		refusal("call_1", heldRefusedText, ByPolicy, held),
		refusal("call_2", queuedText, ByPolicy, "denied by reviewer: queued for a person to review; it did not run"),
	})
	checkAnswerVerdicts(t, rec.take(), []answerVerdict{
		{"call_2", agentturn.Block, "denied by reviewer: queued for a person to review; it did not run", ByPolicy, false},
		{"call_1", agentturn.Block, held, ByPolicy, true},
	})
	if !reflect.DeepEqual(q.got, []Verdict{asked}) {
		t.Errorf("the queue holds\n%+v\nwant the verdict that asked\n%+v", q.got, asked)
	}
	if got := q.got[0].Args; got != `{"command":"git push origin main"}` {
		t.Errorf("the queued call's arguments are %s", got)
	}
}

func TestUnattendedQueuesACallTheEngineDoesNotRemember(t *testing.T) {
	q := &queue{}
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	end := &agentturn.RunEnd{RunID: "run_9", Reason: agentturn.ReasonInputRequired,
		Pending: []agentturn.PendingCall{{Call: bashCall("call_1", "make deploy"), Reason: agentturn.PendingDeferred}}}
	if _, err := e.Answers(context.Background(), Unattended(q), end); err != nil {
		t.Fatal(err)
	}
	if len(q.got) != 1 || q.got[0].Args != `{"command":"make deploy"}` || q.got[0].CallID != "call_1" {
		t.Errorf("the queue holds %+v, want the call with its arguments", q.got)
	}
}

func TestUnattendedRefusesWhatItCannotQueue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		queue  Journal
		reason string
	}{
		{"a failing queue", &queue{err: errors.New("disk full")}, "reviewer failed: agentpolicy: cannot queue the call: disk full"},
		{"no queue", nil, "reviewer failed: agentpolicy: the unattended reviewer has no queue"},
		{"a nil JournalFunc", JournalFunc(nil), "reviewer failed: agentpolicy: the unattended reviewer has no queue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, gitPolicy(t), shellMatchers())
			answers, err := e.Answers(context.Background(), Unattended(tc.queue), askedEnd(t, e, "git push"))
			if err != nil {
				t.Fatal(err)
			}
			checkAnswers(t, answers, []agentturn.Answer{refusal("call_1", textFailed, ByPolicy, tc.reason)})
		})
	}
}

func TestUnattendedEndsARunThatKeepsAsking(t *testing.T) {
	q := &queue{}
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	for i := 1; i <= DefaultDenialBound.Consecutive; i++ {
		answers, err := e.Answers(context.Background(), Unattended(q), askedEnd(t, e, "git push"))
		if bound := errors.Is(err, ErrDenialBound); bound != (i == DefaultDenialBound.Consecutive) {
			t.Fatalf("ask %d: %v", i, err)
		}
		if last := i == DefaultDenialBound.Consecutive; answers[0].Terminate != last {
			t.Errorf("ask %d: Terminate = %v", i, answers[0].Terminate)
		}
		if !strings.HasPrefix(answers[0].Output.Output.String(), "Denied by policy: queued") {
			t.Errorf("ask %d: the model reads %q", i, answers[0].Output.Output.String())
		}
	}
	if len(q.got) != DefaultDenialBound.Consecutive {
		t.Errorf("the queue holds %d calls, want every one asked about", len(q.got))
	}
}
