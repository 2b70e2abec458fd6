package classify

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// reviewed is a run under a policy that asks about every push, whose asks
// are answered by reviewer through Engine.Answers: the commands bash ran,
// the verdicts the engine reported, the tool result the model read and
// the run's end.
type reviewed struct {
	ran      []string
	verdicts []agentpolicy.Verdict
	answer   string
	end      *agentturn.RunEnd
}

func reviewRun(t *testing.T, reviewer agentpolicy.Reviewer, prompt string) reviewed {
	t.Helper()
	var r reviewed
	var mu sync.Mutex
	ask, err := agentpolicy.ParseRules("bash(git push:*)")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := agentpolicy.Build(agentpolicy.Policy{Ask: ask, Default: agentpolicy.Deny()},
		map[string]agentpolicy.ToolMatcher{"bash": {Match: agentpolicy.GlobMatcher("command")}},
		agentpolicy.WithObserver(func(_ context.Context, v agentpolicy.Verdict) {
			mu.Lock()
			defer mu.Unlock()
			r.verdicts = append(r.verdicts, v)
		}))
	if err != nil {
		t.Fatal(err)
	}
	bash := agenttool.NewFunc("bash", "Run a shell command.",
		json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`),
		func(_ context.Context, call agenttool.Call) (agenttool.Result, error) {
			var a struct{ Command string }
			if err := json.Unmarshal(call.Args, &a); err != nil {
				return agenttool.Result{}, err
			}
			mu.Lock()
			r.ran = append(r.ran, a.Command)
			mu.Unlock()
			return agenttool.Text("ran " + a.Command), nil
		})
	agent := agentturn.New(agentturn.Config{
		Model:          &echo.Adapter{},
		Tools:          []agenttool.Tool{bash},
		BeforeToolCall: eng.BeforeToolCall(),
		MaxTurns:       2,
	})
	ctx := context.Background()
	end, err := agent.Prompt(ctx, or.UserText(prompt))
	if err != nil {
		t.Fatalf("Prompt: %v", err)
	}
	if end.Reason != agentturn.ReasonInputRequired {
		t.Fatalf("the run ended %s, want the push asked about", end.Reason)
	}
	answers, err := eng.Answers(ctx, reviewer, end)
	if err != nil {
		t.Fatalf("Answers: %v", err)
	}
	end, err = agent.Resume(ctx, answers...)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	r.end = end
	r.answer, _ = end.Answer()
	return r
}

// last is the last verdict the engine reported: the reviewer's answer.
func (r reviewed) last(t *testing.T) agentpolicy.Verdict {
	t.Helper()
	if len(r.verdicts) == 0 {
		t.Fatal("no verdict was reported")
	}
	return r.verdicts[len(r.verdicts)-1]
}

func TestEndToEndReviewerApprovesACall(t *testing.T) {
	judge := says(`{"allow": true, "reason": "a push of a feature branch"}`)
	r := reviewRun(t, NewReviewer(judge, "judge", "Approve pushes of feature branches."), "git push origin feature/login")
	if len(r.ran) != 1 || r.ran[0] != "git push origin feature/login" {
		t.Fatalf("bash ran %q, want the approved push", r.ran)
	}
	if r.end.Reason != agentturn.ReasonDone || r.answer != "Tool result: ran git push origin feature/login" {
		t.Fatalf("the run ended %s with %q", r.end.Reason, r.answer)
	}
	if v := r.last(t); v.Action != agentturn.Allow || v.By != agentpolicy.ByAgent || v.Reason != "approved by reviewer: a push of a feature branch" {
		t.Fatalf("the reviewer's verdict %+v", v)
	}
	want := "tool: bash\ndescription: Run a shell command.\narguments: {\"command\":\"git push origin feature/login\"}\npolicy: approval required by bash(git push:*)\n"
	if got := judge.asked(t); got != want {
		t.Fatalf("the judge read\n%q\nwant\n%q", got, want)
	}
}

func TestEndToEndReviewerRefusesACall(t *testing.T) {
	judge := says("Refusing.\n```json\n{\"allow\": false, \"reason\": \"a force push to main.\"}\n```")
	r := reviewRun(t, NewReviewer(judge, "judge", "Refuse force pushes."), "git push --force origin main")
	if len(r.ran) != 0 {
		t.Fatalf("bash ran %q though the reviewer refused", r.ran)
	}
	want := "Tool result: Denied by reviewer: a force push to main. Do not pursue the same outcome through a workaround, indirect execution or policy circumvention."
	if r.answer != want {
		t.Fatalf("the model read %q, want %q", r.answer, want)
	}
	if v := r.last(t); v.Action != agentturn.Block || v.By != agentpolicy.ByAgent || v.Reason != "denied by reviewer: a force push to main." {
		t.Fatalf("the reviewer's verdict %+v", v)
	}
}

func TestEndToEndReviewerTimesOut(t *testing.T) {
	r := reviewRun(t, NewReviewer(hang(t, false), "judge", "rubric", WithTimeout(30*time.Millisecond)), "git push origin feature/login")
	if len(r.ran) != 0 {
		t.Fatalf("bash ran %q though the reviewer never answered", r.ran)
	}
	if want := "Tool result: The reviewer did not answer in time; the call did not run."; r.answer != want {
		t.Fatalf("the model read %q, want %q", r.answer, want)
	}
	if v := r.last(t); v.Action != agentturn.Block || v.By != agentpolicy.ByPolicy || v.Reason != "reviewer timed out" {
		t.Fatalf("the reviewer's verdict %+v", v)
	}
}

func TestEndToEndUnreadableReviewerRefuses(t *testing.T) {
	r := reviewRun(t, NewReviewer(says("Looks fine."), "judge", "rubric"), "git push origin feature/login")
	if len(r.ran) != 0 {
		t.Fatalf("bash ran %q on an unreadable review", r.ran)
	}
	if want := "Tool result: The reviewer could not evaluate the call; the call did not run."; r.answer != want {
		t.Fatalf("the model read %q, want %q", r.answer, want)
	}
	v := r.last(t)
	if v.Action != agentturn.Block || !strings.HasPrefix(v.Reason, "reviewer failed: agentpolicy/classify: unreadable answer: ") {
		t.Fatalf("the reviewer's verdict %+v", v)
	}
}
