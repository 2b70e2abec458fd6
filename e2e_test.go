package agentpolicy

// End-to-end tests: the engine as the BeforeToolCall hook of a real
// agentturn.Agent (the stand-in loop), over the echo model and over a
// scripted model that asks for several calls in one turn.

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/scripted"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// ranLog records, in order, what the tools of a test ran.
type ranLog struct {
	mu  sync.Mutex
	ran []string
}

func (l *ranLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ran = append(l.ran, s)
}

func (l *ranLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ran)
}

// loggedTool is a tool that takes one required string field and logs
// "<name> <value>" when it runs.
func (l *ranLog) tool(name, field string, opts ...agenttool.Option) agenttool.Tool {
	schema := `{"type":"object","properties":{"` + field + `":{"type":"string"}},"required":["` + field + `"]}`
	return agenttool.NewFunc(name, "", json.RawMessage(schema),
		func(_ context.Context, c agenttool.Call) (agenttool.Result, error) {
			var args map[string]string
			_ = json.Unmarshal(c.Args, &args)
			l.add(name + " " + args[field])
			return agenttool.Text("ok"), nil
		}, opts...)
}

// bashCall is a call of the bash tool, for a script.
func bashCall(id, cmd string) *openresponses.FunctionCall {
	return &openresponses.FunctionCall{CallID: id, Name: "bash", Arguments: string(shellArgs(cmd))}
}

// gitTurn is the turn the seed describes: add, commit and a forced push.
func gitTurn() []*openresponses.FunctionCall {
	return []*openresponses.FunctionCall{
		bashCall("call_add", "git add -A"),
		bashCall("call_commit", "git commit -m wip"),
		bashCall("call_push", "git push --force"),
	}
}

// outputs maps each call ID to the text of its output in items.
func outputs(items openresponses.Items) map[string]string {
	out := map[string]string{}
	for _, item := range items {
		if o, ok := item.(*openresponses.FunctionCallOutput); ok {
			out[o.CallID] = o.Output.String()
		}
	}
	return out
}

// asked lists the pending calls the front must put to the user: those the
// engine deferred and did not hold.
func asked(t *testing.T, e *Engine, end *agentturn.RunEnd) []string {
	t.Helper()
	var ids []string
	for _, p := range end.Pending {
		v, ok := e.Deferred(end.RunID, p.Call.CallID)
		if !ok {
			t.Fatalf("Deferred(%s, %s) reports nothing for a pending call", end.RunID, p.Call.CallID)
		}
		if !v.Held {
			ids = append(ids, p.Call.CallID)
		}
	}
	return ids
}

func TestEndToEndDeniedCall(t *testing.T) {
	log := &ranLog{}
	e := mustBuild(t, Policy{Deny: parseOrFail(t, "bash(rm:*)"), Default: Allow()}, shellMatchers())
	agent := agentturn.New(agentturn.Config{Model: &echo.Adapter{}, Tools: []agenttool.Tool{log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4})
	end, err := agent.Prompt(context.Background(), openresponses.UserText("rm -rf /"))
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != agentturn.ReasonDone {
		t.Fatalf("the run ended %s, want done", end.Reason)
	}
	var got []string
	for _, text := range outputs(end.Items) {
		got = append(got, text)
	}
	if want := []string{"Error: denied by bash(rm:*)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("outputs = %q, want %q", got, want)
	}
	if ran := log.list(); len(ran) != 0 {
		t.Errorf("the denied call ran: %v", ran)
	}
}

func TestEndToEndDeferredCall(t *testing.T) {
	log := &ranLog{}
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	agent := agentturn.New(agentturn.Config{Model: &echo.Adapter{}, Tools: []agenttool.Tool{log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4})
	ctx := context.Background()
	end, err := agent.Prompt(ctx, openresponses.UserText("git push origin main"))
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != agentturn.ReasonInputRequired || len(end.Pending) != 1 {
		t.Fatalf("the run ended %s with %d pending, want input_required with 1", end.Reason, len(end.Pending))
	}
	id := end.Pending[0].Call.CallID
	if got := asked(t, e, end); !reflect.DeepEqual(got, []string{id}) {
		t.Errorf("asked calls = %v, want [%s]", got, id)
	}
	answers, err := e.Release(ctx, end, agentturn.Approve(id))
	if err != nil {
		t.Fatal(err)
	}
	if end, err = agent.Resume(ctx, answers...); err != nil || end.Reason != agentturn.ReasonDone {
		t.Fatalf("Resume: %v, %v", end, err)
	}
	if ran := log.list(); !reflect.DeepEqual(ran, []string{"bash git push origin main"}) {
		t.Errorf("ran %v, want the approved push", ran)
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Runs() = %v after the release, want none", runs)
	}
}

// gitAgent is an agent whose model asks for the git turn once, with the
// engine as its hook.
func gitAgent(e *Engine, log *ranLog) *agentturn.Agent {
	return agentturn.New(agentturn.Config{
		Model:          &scripted.Model{Turns: [][]*openresponses.FunctionCall{gitTurn()}},
		Tools:          []agenttool.Tool{log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(),
		MaxTurns:       4,
		ToolExecution:  agentturn.ExecSequential,
	})
}

func TestEndToEndBatchHold(t *testing.T) {
	refusal := openresponses.NewFunctionCallOutput("call_push", "Error: the user does not want a forced push")
	all := []string{"bash git add -A", "bash git commit -m wip", "bash git push --force"}
	for _, tc := range []struct {
		name    string
		answer  agentturn.Answer
		reason  agentturn.Reason
		cause   agentturn.StopCause
		ran     []string
		outputs map[string]string
	}{
		{"an approval runs the whole batch in order", agentturn.Approve("call_push"),
			agentturn.ReasonDone, "", all,
			map[string]string{"call_add": "ok", "call_commit": "ok", "call_push": "ok"}},
		{"a refusal that ends the turn runs nothing", agentturn.Refuse(refusal),
			agentturn.ReasonStopped, agentturn.StopRefused, nil,
			map[string]string{"call_add": textNotReleased, "call_commit": textNotReleased, "call_push": refusal.Output.Text}},
		{"a plain refusal lets the held calls run", agentturn.Output(refusal),
			agentturn.ReasonDone, "", all[:2],
			map[string]string{"call_add": "ok", "call_commit": "ok", "call_push": refusal.Output.Text}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &ranLog{}
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), shellMatchers(), WithObserver(rec.observe))
			agent := gitAgent(e, log)
			ctx := context.Background()
			end, err := agent.Prompt(ctx, openresponses.UserText("commit and push"))
			if err != nil {
				t.Fatal(err)
			}
			if end.Reason != agentturn.ReasonInputRequired || len(end.Pending) != 3 {
				t.Fatalf("the run ended %s with %d pending, want input_required with 3", end.Reason, len(end.Pending))
			}
			if ran := log.list(); len(ran) != 0 {
				t.Fatalf("ran %v while the push waited for an answer", ran)
			}
			if got := asked(t, e, end); !reflect.DeepEqual(got, []string{"call_push"}) {
				t.Fatalf("asked calls = %v, want [call_push]", got)
			}
			rec.take()
			answers, err := e.Release(ctx, end, tc.answer)
			if err != nil {
				t.Fatal(err)
			}
			if vs := rec.take(); len(vs) != 2 || !vs[0].Held || !vs[1].Held {
				t.Errorf("release verdicts = %+v, want two, held", vs)
			}
			end, err = agent.Resume(ctx, answers...)
			if err != nil {
				t.Fatal(err)
			}
			if end.Reason != tc.reason || end.Cause != tc.cause {
				t.Errorf("the resumed run ended %s/%s, want %s/%s", end.Reason, end.Cause, tc.reason, tc.cause)
			}
			if ran := log.list(); !reflect.DeepEqual(ran, tc.ran) {
				t.Errorf("ran %q, want %q", ran, tc.ran)
			}
			if got := outputs(end.Items); !reflect.DeepEqual(got, tc.outputs) {
				t.Errorf("outputs = %q, want %q", got, tc.outputs)
			}
			if runs := e.Runs(); len(runs) != 0 {
				t.Errorf("Runs() = %v after the release, want none", runs)
			}
		})
	}
}

func TestEndToEndAgentsShareAnEngine(t *testing.T) {
	ctx := context.Background()
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	logA, logB := &ranLog{}, &ranLog{}
	a, b := gitAgent(e, logA), gitAgent(e, logB)
	endA, err := a.Prompt(ctx, openresponses.UserText("commit and push"))
	if err != nil {
		t.Fatal(err)
	}
	endB, err := b.Prompt(ctx, openresponses.UserText("commit and push"))
	if err != nil {
		t.Fatal(err)
	}
	if want := slices.Sorted(slices.Values([]string{endA.RunID, endB.RunID})); !reflect.DeepEqual(e.Runs(), want) {
		t.Fatalf("Runs() = %v, want %v", e.Runs(), want)
	}
	// Both runs use the same call IDs; each is remembered under its own run.
	answers, err := e.Release(ctx, endB, agentturn.Approve("call_push"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Resume(ctx, answers...); err != nil {
		t.Fatal(err)
	}
	if v, ok := e.Deferred(endA.RunID, "call_add"); !ok || !v.Held {
		t.Errorf("releasing run B forgot run A's held call: %+v, %v", v, ok)
	}
	if got := e.Runs(); !reflect.DeepEqual(got, []string{endA.RunID}) {
		t.Errorf("Runs() = %v after run B was released, want [%s]", got, endA.RunID)
	}
	if len(logA.list()) != 0 || len(logB.list()) != 3 {
		t.Errorf("ran A %v, B %v; want nothing of A and all of B", logA.list(), logB.list())
	}
	answers, err = e.Release(ctx, endA, agentturn.Approve("call_push"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Resume(ctx, answers...); err != nil {
		t.Fatal(err)
	}
	if len(logA.list()) != 3 || len(e.Runs()) != 0 {
		t.Errorf("ran A %v, Runs() %v; want all of A and no run left", logA.list(), e.Runs())
	}
}

func TestEndToEndConfinedCommandInABatch(t *testing.T) {
	p := Policy{Allow: parseOrFail(t, "read"), Ask: parseOrFail(t, "bash"), Default: Ask()}
	turn := []*openresponses.FunctionCall{
		{CallID: "call_read", Name: "read", Arguments: `{"path":"Makefile"}`},
		bashCall("call_make", "make test"),
	}
	for _, tc := range []struct {
		name      string
		withTools bool
		pending   []string
		ran       []string
	}{
		{"the hold reads the later command's sandbox through WithTools", true,
			nil, []string{"read Makefile", "bash make test"}},
		{"without WithTools the read is held until Release", false,
			[]string{"call_read"}, []string{"bash make test", "read Makefile"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &ranLog{}
			confined := agenttool.WithConfined(func(context.Context, json.RawMessage) (bool, string) { return true, "landlock" })
			tools := agenttool.Set{log.tool("read", "path"), log.tool("bash", "command", confined)}
			var opts []Option
			if tc.withTools {
				opts = append(opts, WithTools(tools.Lookup))
			}
			e := mustBuild(t, p, map[string]ToolMatcher{}, opts...)
			agent := agentturn.New(agentturn.Config{Model: &scripted.Model{Turns: [][]*openresponses.FunctionCall{turn}},
				Tools: tools, BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4})
			ctx := context.Background()
			end, err := agent.Prompt(ctx, openresponses.UserText("test it"))
			if err != nil {
				t.Fatal(err)
			}
			var pending []string
			for _, pc := range end.Pending {
				pending = append(pending, pc.Call.CallID)
			}
			if !reflect.DeepEqual(pending, tc.pending) {
				t.Fatalf("pending %v, want %v", pending, tc.pending)
			}
			if end.Reason == agentturn.ReasonInputRequired {
				answers, err := e.Release(ctx, end)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := agent.Resume(ctx, answers...); err != nil {
					t.Fatal(err)
				}
			}
			if ran := log.list(); !reflect.DeepEqual(ran, tc.ran) {
				t.Errorf("ran %q, want %q", ran, tc.ran)
			}
			if runs := e.Runs(); len(runs) != 0 {
				t.Errorf("Runs() = %v, want none", runs)
			}
		})
	}
}

func TestEndToEndNestedDeferral(t *testing.T) {
	log := &ranLog{}
	rec := &recorder{}
	var nested error
	delegate := agenttool.NewFunc("delegate", "", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, _ agenttool.Call) (agenttool.Result, error) {
			res, err := agentturn.Invoke(ctx, "bash", shellArgs("git push"))
			nested = err
			return res, nil
		})
	e := mustBuild(t, Policy{Allow: parseOrFail(t, "delegate"), Ask: parseOrFail(t, "bash(git push:*)"), Default: Ask()},
		shellMatchers(), WithObserver(rec.observe))
	agent := agentturn.New(agentturn.Config{
		Model:          &scripted.Model{Turns: [][]*openresponses.FunctionCall{{{CallID: "call_d", Name: "delegate", Arguments: `{}`}}}},
		Tools:          []agenttool.Tool{delegate, log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(),
		MaxTurns:       4,
	})
	end, err := agent.Prompt(context.Background(), openresponses.UserText("delegate"))
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != agentturn.ReasonDone {
		t.Errorf("the run ended %s, want done: a nested call never ends it pending", end.Reason)
	}
	if want := "a nested call cannot be deferred to the caller: approval required by bash(git push:*)"; nested == nil || nested.Error() != want {
		t.Errorf("the nested call returned %v, want %q", nested, want)
	}
	var deferred int
	for _, v := range rec.take() {
		if v.Action == agentturn.Defer {
			deferred++
		}
	}
	if deferred != 1 {
		t.Errorf("the observer saw %d deferrals, want the nested call's", deferred)
	}
	if runs := e.Runs(); len(runs) != 0 || len(log.list()) != 0 {
		t.Errorf("Runs() = %v, ran %v; want nothing remembered and nothing run", runs, log.list())
	}
}
