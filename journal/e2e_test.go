package journal_test

// End-to-end tests of a product that runs agents unattended and answers
// them across restarts: the engine, a file journal and a file queue over
// the stand-in loop, as separate processes would see them, sharing only
// the files and the settings.

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/internal/scripted"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// shell is a bash tool that runs nothing and logs each command it is
// handed.
type shell struct {
	mu  sync.Mutex
	ran []string
}

func (s *shell) tool() agenttool.Tool {
	schema := json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)
	return agenttool.NewFunc("bash", "runs a command", schema, func(_ context.Context, c agenttool.Call) (agenttool.Result, error) {
		var args struct{ Command string }
		_ = json.Unmarshal(c.Args, &args)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.ran = append(s.ran, args.Command)
		return agenttool.Text("ok"), nil
	})
}

func (s *shell) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ran)
}

func call(id, cmd string) *openresponses.FunctionCall {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return &openresponses.FunctionCall{CallID: id, Name: "bash", Arguments: string(args)}
}

var (
	project = agentpolicy.Source{Name: "project", Trusted: true, Rank: 1}
	local   = agentpolicy.Source{Name: "local", Trusted: true, Rank: 2}
)

// settings is the policy the project's file and the local file make:
// adding and committing run, a push asks, anything else is denied.
func settings(t *testing.T, localRules agentpolicy.RuleSet) agentpolicy.Policy {
	t.Helper()
	parse := func(s string) []agentpolicy.Rule {
		rules, err := agentpolicy.ParseRules(s)
		if err != nil {
			t.Fatal(err)
		}
		return rules
	}
	shared := agentpolicy.RuleSet{Source: project, Allow: parse("bash(git add:*) bash(git commit:*)"), Ask: parse("bash(git push:*)")}
	localRules.Source = local
	p, err := agentpolicy.Merge(shared, localRules)
	if err != nil {
		t.Fatal(err)
	}
	p.Default = agentpolicy.Deny()
	return p
}

func build(t *testing.T, p agentpolicy.Policy, opts ...agentpolicy.Option) *agentpolicy.Engine {
	t.Helper()
	e, err := agentpolicy.Build(p, map[string]agentpolicy.ToolMatcher{"bash": {Match: agentpolicy.PrefixMatcher("command")}}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func agent(e *agentpolicy.Engine, sh *shell, turns ...[]*openresponses.FunctionCall) *agentturn.Agent {
	return agentturn.New(agentturn.Config{
		Model:          &scripted.Model{Turns: turns},
		Tools:          []agenttool.Tool{sh.tool()},
		BeforeToolCall: e.BeforeToolCall(),
		MaxTurns:       4,
		ToolExecution:  agentturn.ExecSequential,
	})
}

func outputOf(end *agentturn.RunEnd, callID string) string {
	for _, item := range end.Items {
		if o, ok := item.(*openresponses.FunctionCallOutput); ok && o.CallID == callID {
			return o.Output.String()
		}
	}
	return ""
}

// An unattended run asks about a push: the push does not run and the
// queue holds it. A person approves it from the queue in another process,
// which writes the grant into the local settings, and the next run, with
// those settings, pushes without asking.
func TestEndToEndUnattendedRunQueuesAPushAnApprovalAllows(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	verdicts, queued := filepath.Join(dir, "verdicts.jsonl"), filepath.Join(dir, "queue.jsonl")

	// The night run.
	jnl := openFile(t, verdicts)
	queue := openFile(t, queued)
	e := build(t, settings(t, agentpolicy.RuleSet{}), agentpolicy.WithJournal(jnl))
	sh := &shell{}
	a := agent(e, sh, []*openresponses.FunctionCall{call("call_push", "git push origin main")})
	end, err := a.Prompt(ctx, openresponses.UserText("push the release"))
	if err != nil || end.Reason != agentturn.ReasonInputRequired {
		t.Fatalf("the run ended %v, %v; want input_required", end.Reason, err)
	}
	answers, err := e.Answers(ctx, agentpolicy.Unattended(queue), end)
	if err != nil {
		t.Fatal(err)
	}
	if end, err = a.Resume(ctx, answers...); err != nil || end.Reason != agentturn.ReasonDone {
		t.Fatalf("the resumed run ended %v, %v; want done", end.Reason, err)
	}
	if ran := sh.log(); len(ran) != 0 {
		t.Errorf("the unattended run ran %q", ran)
	}
	want := "Denied by policy: queued for a person to review; it did not run. " +
		"Do not pursue the same outcome through a workaround, indirect execution or policy circumvention."
	if got := outputOf(end, "call_push"); got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	for _, f := range []*journal.File{jnl, queue} {
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}

	// The review, in another process: list the queue, approve the push.
	entries, err := journal.Verdicts(queued)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("the queue holds %d entries, want the push", len(entries))
	}
	entry := entries[0]
	if entry.CallID != "call_push" || entry.Tool != "bash" || entry.Args != `{"command":"git push origin main"}` ||
		entry.Rule.String() != "bash(git push:*)" || entry.Rule.Source.Name != "project" ||
		entry.Reason != "approval required by bash(git push:*)" {
		t.Errorf("the queue's entry is %+v", entry)
	}
	jnl = openFile(t, verdicts)
	reviewer := build(t, settings(t, agentpolicy.RuleSet{}), agentpolicy.WithJournal(jnl))
	grant := agentpolicy.Rule{Tool: "bash", Spec: "git push origin main", Source: local}
	if ok, reason := reviewer.GrantOver(ctx, entry, grant); !ok || reason != "granted bash(git push origin main) over bash(git push:*)" {
		t.Fatalf("GrantOver = %v, %q", ok, reason)
	}
	saved := reviewer.PolicyOf("local")
	if got := ruleStrings(saved.Allow, saved.Ask); !reflect.DeepEqual(got, []string{"bash(git push origin main)", "bash(!git push origin main)"}) {
		t.Errorf("the local settings hold %q", got)
	}
	if err := jnl.Close(); err != nil {
		t.Fatal(err)
	}
	records, err := journal.Verdicts(verdicts)
	if err != nil {
		t.Fatal(err)
	}
	if last := records[len(records)-1]; last.Action != agentturn.Allow || last.Reason != "granted bash(git push origin main) over bash(git push:*)" || last.CallID != "call_push" {
		t.Errorf("the journal ends with %+v, want the grant", last)
	}

	// The next night run, with the local settings.
	next := build(t, settings(t, saved))
	sh = &shell{}
	a = agent(next, sh, []*openresponses.FunctionCall{call("call_push", "git push origin main")})
	if end, err = a.Prompt(ctx, openresponses.UserText("push the release")); err != nil || end.Reason != agentturn.ReasonDone {
		t.Fatalf("the second run ended %v, %v; want done", end.Reason, err)
	}
	if ran := sh.log(); !reflect.DeepEqual(ran, []string{"git push origin main"}) {
		t.Errorf("the second run ran %q, want the push", ran)
	}
	// The grant is the push approved, not every push.
	force := agentturn.ToolCallInfo{RunID: "run_x", Call: call("call_f", "git push --force"), Args: json.RawMessage(`{"command":"git push --force"}`)}
	if v, _ := next.Would(ctx, force); v.Action != agentturn.Defer {
		t.Errorf("a forced push was decided %+v, want it asked about", v)
	}
}

func ruleStrings(lists ...[]agentpolicy.Rule) []string {
	var out []string
	for _, list := range lists {
		for _, r := range list {
			out = append(out, r.String())
		}
	}
	return out
}

// A run ends waiting for an answer, one call asked about and two held for
// it. The process ends; a new one builds the engine from the same
// settings, restores it from the journal and seeds the loop from the
// session. The front approves the asked call, Release answers the held
// ones, and Resume runs all three in order.
func TestEndToEndARunIsAnsweredAfterARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	ctx := context.Background()
	turn := []*openresponses.FunctionCall{
		call("call_add", "git add -A"), call("call_commit", "git commit -m release"), call("call_push", "git push origin main"),
	}

	jnl := openFile(t, path)
	first := build(t, settings(t, agentpolicy.RuleSet{}), agentpolicy.WithJournal(jnl))
	sh := &shell{}
	end, err := agent(first, sh, turn).Prompt(ctx, openresponses.UserText("release"))
	if err != nil || end.Reason != agentturn.ReasonInputRequired || len(end.Pending) != 3 {
		t.Fatalf("the run ended %v with %d pending, %v; want input_required with 3", end.Reason, len(end.Pending), err)
	}
	session := end.Items
	if err := jnl.Close(); err != nil {
		t.Fatal(err)
	}

	// The restart: nothing of the first process but the files.
	jnl = openFile(t, path)
	defer jnl.Close()
	e := build(t, settings(t, agentpolicy.RuleSet{}), agentpolicy.WithJournal(jnl))
	recorded, err := journal.Verdicts(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Restore(ctx, recorded...); err != nil {
		t.Fatal(err)
	}
	var asked, held []string
	for _, p := range end.Pending {
		v, ok := e.Deferred(end.RunID, p.Call.CallID)
		switch {
		case !ok:
			t.Errorf("%s is not deferred after the restore", p.Call.CallID)
		case v.Held:
			held = append(held, p.Call.CallID)
		default:
			asked = append(asked, p.Call.CallID)
		}
	}
	if !reflect.DeepEqual(asked, []string{"call_push"}) || !reflect.DeepEqual(held, []string{"call_add", "call_commit"}) {
		t.Fatalf("restored asked %v and held %v", asked, held)
	}
	sh = &shell{}
	a := agentturn.New(agentturn.Config{
		Model:          &scripted.Model{},
		Tools:          []agenttool.Tool{sh.tool()},
		BeforeToolCall: e.BeforeToolCall(),
		MaxTurns:       4,
		ToolExecution:  agentturn.ExecSequential,
	}, agentturn.WithTranscript(agentturn.Transcript(session)), agentturn.WithPending(end.Pending))
	pending := &agentturn.RunEnd{RunID: end.RunID, Reason: agentturn.ReasonInputRequired, Pending: a.State().Pending}
	answers, err := e.Release(ctx, pending, agentturn.Approve("call_push").WithBy(agentpolicy.ByHuman))
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := a.Resume(ctx, answers...)
	if err != nil || resumed.Reason != agentturn.ReasonDone {
		t.Fatalf("the resumed run ended %v, %v; want done", resumed.Reason, err)
	}
	if ran, want := sh.log(), []string{"git add -A", "git commit -m release", "git push origin main"}; !reflect.DeepEqual(ran, want) {
		t.Errorf("ran %q, want %q", ran, want)
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("the engine still holds %v", runs)
	}
	lines, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	released := 0
	for _, line := range lines {
		if strings.Contains(string(line), `"reason":"released: allowed by bash(git`) {
			released++
		}
	}
	if released != 2 {
		t.Errorf("the journal records %d releases, want the two held calls", released)
	}
}

func openFile(t *testing.T, path string) *journal.File {
	t.Helper()
	f, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
