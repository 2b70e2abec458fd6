package agentpolicy

// End-to-end tests of the grants over the stand-in loop: an "always allow"
// a front answers a prompt with, and a skill's allowed-tools activated for
// one conversation of an engine two conversations share.

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/scripted"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// verdictLog is an observer that keeps every verdict, safe for the loop's
// goroutines.
type verdictLog struct {
	mu sync.Mutex
	vs []Verdict
}

func (l *verdictLog) observe(_ context.Context, v Verdict) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.vs = append(l.vs, v)
}

// last returns the last verdict on a call of the run.
func (l *verdictLog) last(t *testing.T, runID string) Verdict {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.vs) - 1; i >= 0; i-- {
		if l.vs[i].RunID == runID && l.vs[i].CallID != "" {
			return l.vs[i]
		}
	}
	t.Fatalf("no verdict on a call of %s", runID)
	return Verdict{}
}

func TestEndToEndAlwaysAllow(t *testing.T) {
	ctx := context.Background()
	log, verdicts := &ranLog{}, &verdictLog{}
	p, err := Merge(
		RuleSet{Source: projectSrc, Ask: parseOrFail(t, "bash(git push:*)")},
		RuleSet{Source: localSrc},
	)
	if err != nil {
		t.Fatal(err)
	}
	e := mustBuild(t, p.WithDefault(Ask()), shellMatchers(), WithObserver(verdicts.observe))
	agent := agentturn.New(agentturn.Config{Model: &echo.Adapter{}, Tools: []agenttool.Tool{log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4})

	end, err := agent.Prompt(ctx, openresponses.UserText("git push origin main"))
	if err != nil || end.Reason != agentturn.ReasonInputRequired || len(end.Pending) != 1 {
		t.Fatalf("the first run ended %+v, %v; want the push asked about", end, err)
	}
	id := end.Pending[0].Call.CallID
	asked, ok := e.Deferred(end.RunID, id)
	if !ok {
		t.Fatal("the engine did not remember the asked call")
	}
	// The front answers "always allow".
	grant := Rule{Tool: "bash", Spec: "git push:*", Source: localSrc}
	if granted, reason := e.GrantOver(ctx, asked, grant); !granted || reason != "granted bash(git push:*) over bash(git push:*)" {
		t.Fatalf("GrantOver = %v, %q", granted, reason)
	}
	answers, err := e.Release(ctx, end, agentturn.Approve(id))
	if err != nil {
		t.Fatal(err)
	}
	if end, err = agent.Resume(ctx, answers...); err != nil || end.Reason != agentturn.ReasonDone {
		t.Fatalf("Resume: %+v, %v", end, err)
	}

	// The next turn runs the same command without asking.
	end, err = agent.Prompt(ctx, openresponses.UserText("git push origin main"))
	if err != nil || end.Reason != agentturn.ReasonDone || len(end.Pending) != 0 {
		t.Fatalf("the second run ended %+v, %v; want done without a question", end, err)
	}
	if ran := log.list(); !reflect.DeepEqual(ran, []string{"bash git push origin main", "bash git push origin main"}) {
		t.Errorf("ran %v, want the push twice", ran)
	}
	v := verdicts.last(t, end.RunID)
	if v.Action != agentturn.Allow || v.Rule == nil || *v.Rule != grant || v.Reason != "allowed by bash(git push:*)" {
		t.Errorf("the second push's verdict = %+v, want it to name the grant", v)
	}
	if _, data := v.Record(); !json.Valid(data) || !strings.Contains(string(data), `"source":"local"`) {
		t.Errorf("the record %s does not name the grant's source", data)
	}
}

func TestEndToEndSkillGrantsItsConversation(t *testing.T) {
	bg := context.Background()
	p := teamPolicy(t)
	p.Allow = append(p.Allow, Rule{Tool: "skill"})
	e := mustBuild(t, p, shellMatchers())
	skill := RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git add:*) bash(git commit:*)")}
	// The skill tool is the product's: when it returns the skill, the
	// product activates its allowed-tools under the conversation's scope,
	// which the tool's context carries.
	skillTool := agenttool.NewFunc("skill", "", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, _ agenttool.Call) (agenttool.Result, error) {
			if _, refused := e.GrantSet(ctx, skill); len(refused) > 0 {
				t.Errorf("GrantSet refused %+v", refused)
			}
			return agenttool.Text("commit skill loaded"), nil
		})
	commit := []*openresponses.FunctionCall{bashCall("call_add", "git add -A"), bashCall("call_commit", "git commit -m wip")}
	conversation := func(log *ranLog, turns ...[]*openresponses.FunctionCall) *agentturn.Agent {
		return agentturn.New(agentturn.Config{
			Model:          &scripted.Model{Turns: turns},
			Tools:          []agenttool.Tool{log.tool("bash", "command"), skillTool},
			BeforeToolCall: e.BeforeToolCall(),
			MaxTurns:       6,
			ToolExecution:  agentturn.ExecSequential,
		})
	}
	convA := ContextWithGrantScope(bg, "conv_a")
	convB := ContextWithGrantScope(bg, "conv_b")
	logA, logB := &ranLog{}, &ranLog{}
	a := conversation(logA, []*openresponses.FunctionCall{{CallID: "call_skill", Name: "skill", Arguments: "{}"}}, commit)
	b := conversation(logB, commit)

	endA, err := a.Prompt(convA, openresponses.UserText("commit this"))
	if err != nil || endA.Reason != agentturn.ReasonDone {
		t.Fatalf("conversation A ended %+v, %v; want its commit run without asking", endA, err)
	}
	if ran := logA.list(); !reflect.DeepEqual(ran, []string{"bash git add -A", "bash git commit -m wip"}) {
		t.Errorf("conversation A ran %v", ran)
	}
	endB, err := b.Prompt(convB, openresponses.UserText("commit this"))
	if err != nil || endB.Reason != agentturn.ReasonInputRequired || len(endB.Pending) != 2 {
		t.Fatalf("conversation B ended %+v, %v; want both calls asked about", endB, err)
	}
	if ran := logB.list(); len(ran) != 0 {
		t.Errorf("conversation B ran %v without asking", ran)
	}

	// The turn boundary: the product revokes the skill, and A is asked again.
	if n := e.Revoke(convA, skillSrc.Name); n != 2 {
		t.Errorf("Revoke = %d, want 2", n)
	}
	again := conversation(&ranLog{}, commit)
	end, err := again.Prompt(convA, openresponses.UserText("commit again"))
	if err != nil || end.Reason != agentturn.ReasonInputRequired {
		t.Fatalf("after Revoke conversation A ended %+v, %v; want it asked", end, err)
	}
	e.Forget(endB.RunID)
	e.Forget(end.RunID)
}
