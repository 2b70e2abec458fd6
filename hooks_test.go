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
	"github.com/ChristopherDavenport/openresponses"
)

// fixed is a hook that returns d, whatever the call.
func fixed(d *agentturn.ToolDecision) hook {
	return func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		if d == nil {
			return nil, nil
		}
		c := *d
		return &c, nil
	}
}

// folded is what a test expects of a folded decision and its verdict.
type folded struct {
	action    agentturn.ToolAction
	reason    string
	by        string
	rule      string
	subject   string
	args      string
	note      string
	terminate bool
}

func (w folded) check(t *testing.T, d *agentturn.ToolDecision, v Verdict) {
	t.Helper()
	rule := ""
	if v.Rule != nil {
		rule = v.Rule.String()
	}
	got := folded{d.Action, d.Reason, d.By, rule, v.Subject, string(d.Args), d.Note, d.Terminate}
	if got != w {
		t.Errorf("folded decision = %+v\n                      want %+v", got, w)
	}
	if v.Action != d.Action || v.Reason != d.Reason || v.By != d.By {
		t.Errorf("verdict {%s %q %q} differs from the decision", actionWord(v.Action), v.Reason, v.By)
	}
}

func TestHooksFold(t *testing.T) {
	push := shellArgs("git push")
	for _, tc := range []struct {
		name  string
		cmd   string
		hooks []hook
		want  folded
	}{
		{"no decision changes nothing", "git add -A", []hook{fixed(nil)},
			folded{agentturn.Allow, "allowed by bash(git add:*)", ByPolicy, "bash(git add:*)", "git add -A", "", "", false}},
		{"an allow keeps the policy's reason and rule", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Allow, Reason: "fine", By: ByHuman})},
			folded{agentturn.Allow, "allowed by bash(git add:*)", ByPolicy, "bash(git add:*)", "git add -A", "", "", false}},
		{"a stricter hook brings its reason and decider", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Defer, Reason: "metered: ask first", By: ByAgent})},
			folded{agentturn.Defer, "metered: ask first", ByAgent, "", "", "", "", false}},
		{"a stricter hook naming no decider is the policy", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Block, Reason: "quota spent"})},
			folded{agentturn.Block, "quota spent", ByPolicy, "", "", "", "", false}},
		{"an allow does not loosen an ask", "git push",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Allow, Reason: "trusted"})},
			folded{agentturn.Defer, "approval required by bash(git push:*)", ByPolicy, "bash(git push:*)", "git push", "", "", false}},
		{"an equal action keeps the first reason", "git push",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Defer, Reason: "second", By: ByHuman})},
			folded{agentturn.Defer, "approval required by bash(git push:*)", ByPolicy, "bash(git push:*)", "git push", "", "", false}},
		{"a block ends the fold", "git add -A",
			[]hook{
				fixed(&agentturn.ToolDecision{Action: agentturn.Block, Reason: "first"}),
				func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
					return nil, errors.New("a hook after a block was called")
				},
			},
			folded{agentturn.Block, "first", ByPolicy, "", "", "", "", false}},
		{"the policy's block calls no hook", "rm -rf /",
			[]hook{func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
				return nil, errors.New("a hook was called for a denied call")
			}},
			folded{agentturn.Block, "denied by bash(rm:*)", ByPolicy, "bash(rm:*)", "rm -rf /", "", "", false}},
		{"the first note stands and Terminate is or-ed", "git add -A",
			[]hook{
				fixed(&agentturn.ToolDecision{Note: "first note"}),
				fixed(&agentturn.ToolDecision{Note: "second note", Terminate: true}),
				fixed(&agentturn.ToolDecision{}),
			},
			folded{agentturn.Allow, "allowed by bash(git add:*)", ByPolicy, "bash(git add:*)", "git add -A", "", "first note", true}},
		{"rewritten arguments reach the later hooks", "git add -A",
			[]hook{
				fixed(&agentturn.ToolDecision{Args: shellArgs("git add src")}),
				func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
					if string(info.Args) != string(shellArgs("git add src")) {
						return nil, errors.New("the second hook saw " + string(info.Args))
					}
					return nil, nil
				},
			},
			folded{agentturn.Allow, "allowed by bash(git add:*)", ByPolicy, "bash(git add:*)", "git add src", `{"command":"git add src"}`, "", false}},
		{"a rewrite the policy asks about is asked about", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Args: push})},
			folded{agentturn.Defer, "approval required by bash(git push:*)", ByPolicy, "bash(git push:*)", "git push", string(push), "", false}},
		{"a rewrite allowed by another rule cites it", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Args: shellArgs("ls")})},
			folded{agentturn.Allow, "allowed by bash(ls:*)", ByPolicy, "bash(ls:*)", "ls", `{"command":"ls"}`, "", false}},
		{"a rewrite the policy allows leaves an ask standing", "git push",
			[]hook{fixed(&agentturn.ToolDecision{Args: shellArgs("ls")})},
			folded{agentturn.Defer, "approval required by bash(git push:*)", ByPolicy, "bash(git push:*)", "git push", `{"command":"ls"}`, "", false}},
		{"a rewrite no stricter than the hook's ask keeps the hook's verdict", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Defer, Reason: "metered", Args: shellArgs("ls")})},
			folded{agentturn.Defer, "metered", ByPolicy, "", "", `{"command":"ls"}`, "", false}},
		{"a rewrite stricter than the hook's ask is the policy's", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Action: agentturn.Defer, Reason: "metered", By: ByAgent, Args: shellArgs("rm -rf /")})},
			folded{agentturn.Block, "denied by bash(rm:*)", ByPolicy, "bash(rm:*)", "rm -rf /", `{"command":"rm -rf /"}`, "", false}},
		{"a rewrite that cannot be split blocks", "git add -A",
			[]hook{fixed(&agentturn.ToolDecision{Args: shellArgs("ls `pwd`")})},
			folded{agentturn.Block, "bash call could not be evaluated: backticks are not supported", ByPolicy, "", "", "{\"command\":\"ls `pwd`\"}", "", false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(tc.hooks...), WithObserver(rec.observe))
			info := callInfo("bash", shellArgs(tc.cmd))
			d, err := e.Decide(context.Background(), info)
			if err != nil {
				t.Fatal(err)
			}
			vs := rec.take()
			if len(vs) != 1 {
				t.Fatalf("the observer saw %d verdicts, want 1", len(vs))
			}
			tc.want.check(t, d, vs[0])
			would, err := e.Would(context.Background(), info)
			if err != nil || !reflect.DeepEqual(would, vs[0]) {
				t.Errorf("Would = %+v, %v; want Decide's verdict %+v", would, err, vs[0])
			}
		})
	}
}

func TestHookErrorFailsTheDecision(t *testing.T) {
	boom := errors.New("meter unreachable")
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe),
		WithHooks(func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) { return nil, boom }),
		WithHooks(func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
			t.Error("a hook after a failed one was called")
			return nil, nil
		}))
	d, err := e.Decide(context.Background(), callInfo("bash", shellArgs("git add -A")))
	if d != nil || err != boom {
		t.Errorf("Decide = %+v, %v; want no decision and the hook's own error", d, err)
	}
	if vs := rec.take(); len(vs) != 0 {
		t.Errorf("the observer saw %+v for a failed decision", vs)
	}
	if _, err := e.Would(context.Background(), callInfo("bash", shellArgs("git add -A"))); err != boom {
		t.Errorf("Would error = %v, want the hook's own error", err)
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("a failed decision left runs %v", runs)
	}
}

func TestWithHooksAddsInOrder(t *testing.T) {
	var order []string
	named := func(name string) hook {
		return func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
			order = append(order, name)
			return nil, nil
		}
	}
	e := mustBuild(t, gitPolicy(t), splitMatchers(),
		WithHooks(named("a"), nil, named("b")), WithHooks(), WithHooks(nil), WithHooks(named("c")))
	if _, err := e.Decide(context.Background(), callInfo("bash", shellArgs("ls"))); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, " "); got != "a b c" {
		t.Errorf("hooks ran in the order %q, want \"a b c\"", got)
	}
}

func TestRewriteConfinement(t *testing.T) {
	// The tool's calls run confined unless they ask to leave the sandbox.
	sandboxed := agenttool.NewFunc("bash", "", json.RawMessage(`{"type":"object"}`), nil,
		agenttool.WithConfined(func(_ context.Context, args json.RawMessage) (bool, string) {
			return !strings.Contains(string(args), "escalated"), "landlock"
		}))
	p := Policy{Ask: parseOrFail(t, "bash"), Default: Allow()}
	escalate := fixed(&agentturn.ToolDecision{Args: json.RawMessage(`{"command":"make","sandbox":"escalated"}`)})
	confine := fixed(&agentturn.ToolDecision{Args: json.RawMessage(`{"command":"make"}`)})
	for _, tc := range []struct {
		name     string
		args     string
		hook     hook
		want     folded
		confined string
	}{
		{"a confined call", `{"command":"make"}`, fixed(nil),
			folded{agentturn.Allow, "confined by landlock, so bash does not ask", ByPolicy, "bash", "", "", "", false}, "landlock"},
		{"a rewrite out of the sandbox is asked about", `{"command":"make"}`, escalate,
			folded{agentturn.Defer, "approval required by bash", ByPolicy, "bash", "", `{"command":"make","sandbox":"escalated"}`, "", false}, ""},
		{"a rewrite into the sandbox keeps the ask and says it is confined", `{"command":"make","sandbox":"escalated"}`, confine,
			folded{agentturn.Defer, "approval required by bash", ByPolicy, "bash", "", `{"command":"make"}`, "", false}, "landlock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			e := mustBuild(t, p, map[string]ToolMatcher{}, WithHooks(tc.hook), WithObserver(rec.observe))
			info := callInfo("bash", json.RawMessage(tc.args))
			info.Tool = sandboxed
			d, err := e.Decide(context.Background(), info)
			if err != nil {
				t.Fatal(err)
			}
			v := rec.take()[0]
			tc.want.check(t, d, v)
			if v.Confined != tc.confined {
				t.Errorf("Verdict.Confined = %q, want %q", v.Confined, tc.confined)
			}
		})
	}
}

func TestHooksAreCalledForSiblings(t *testing.T) {
	type seen struct {
		call, run, args string
		index           int
		tool            bool
	}
	var mu sync.Mutex
	var calls []seen
	spy := func(ctx context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, seen{info.Call.CallID, agentturn.RunIDFromContext(ctx), string(info.Args), info.Index, info.Tool != nil})
		return nil, nil
	}
	read := agenttool.NewFunc("read", "", json.RawMessage(`{"type":"object"}`), nil)
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(spy), WithTools(agenttool.Set{read}.Lookup))
	batch := []*openresponses.FunctionCall{
		{CallID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
		{CallID: "call_2", Name: "read"},
	}
	info := batchInfo("run_1", batch, 0, nil)
	if _, err := e.Decide(context.Background(), info); err != nil {
		t.Fatal(err)
	}
	want := []seen{
		{"call_1", "", `{"command":"ls"}`, 0, false},
		{"call_2", "run_1", `{}`, 1, true},
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("the hook saw %+v, want %+v: its own call, then the sibling with the lookup's tool, \"{}\" for no arguments and the run on the context", calls, want)
	}
}

func TestHooksHoldTheBatch(t *testing.T) {
	meter := func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		var a struct{ Command string }
		_ = json.Unmarshal(info.Args, &a)
		switch {
		case strings.HasPrefix(a.Command, "curl"):
			return &agentturn.ToolDecision{Action: agentturn.Defer, Reason: "metered: ask first"}, nil
		case strings.HasPrefix(a.Command, "git push"):
			return &agentturn.ToolDecision{Action: agentturn.Block, Reason: "pushes are off today"}, nil
		case strings.HasPrefix(a.Command, "wget"):
			return nil, errors.New("meter unreachable")
		}
		return nil, nil
	}
	for _, tc := range []struct {
		name  string
		cmds  []string
		first decided
	}{
		{"a hook's ask holds the batch", []string{"git add -A", "curl example.com"}, heldAdd},
		{"a hook's block of an asked call holds nothing", []string{"git add -A", "git push"}, allowAdd},
		{"a hook failing for a sibling reads as asking", []string{"git add -A", "wget example.com"}, heldAdd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(meter))
			calls := bashBatch(tc.cmds...)
			d, err := e.Decide(context.Background(), batchInfo("run_1", calls, 0, nil))
			if err != nil {
				t.Fatal(err)
			}
			tc.first.check(t, "call_1", d)
		})
	}
}

func TestWithToolsForAnswersPerRun(t *testing.T) {
	sandboxed := confinedTool("bash", "sandbox")
	plain := agenttool.NewFunc("bash", "", json.RawMessage(`{"type":"object"}`), nil)
	lookup := func(ctx context.Context, name string) (agenttool.Tool, bool) {
		if name != "bash" {
			return nil, false
		}
		if agentturn.RunIDFromContext(ctx) == "run_sandboxed" {
			return sandboxed, true
		}
		return plain, true
	}
	p := Policy{Allow: parseOrFail(t, "read"), Ask: parseOrFail(t, "bash"), Default: Ask()}
	e := mustBuild(t, p, map[string]ToolMatcher{}, WithToolsFor(lookup))
	for run, want := range map[string]decided{
		"run_sandboxed": {agentturn.Allow, false, "allowed by read"},
		"run_plain":     {agentturn.Defer, true, "held for approval: allowed by read"},
	} {
		batch := []*openresponses.FunctionCall{
			{CallID: "call_1", Name: "read", Arguments: `{"path":"a"}`},
			{CallID: "call_2", Name: "bash", Arguments: `{"command":"make"}`},
		}
		// The caller's context carries no run: the engine puts the
		// decision's run there for the lookup.
		d, err := e.Decide(context.Background(), batchInfo(run, batch, 0, nil))
		if err != nil {
			t.Fatal(err)
		}
		want.check(t, run+" call_1", d)
	}
}
