package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// parseOrFail parses rules the test needs to be valid.
func parseOrFail(t testing.TB, s string) []Rule {
	t.Helper()
	rules, err := ParseRules(s)
	if err != nil {
		t.Fatalf("ParseRules(%q): %v", s, err)
	}
	return rules
}

// command is the arguments of a shell call.
func shellArgs(cmd string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"command": cmd})
	return data
}

// callInfo is the hook's view of a single call of tool, the only call of
// its batch, in turn 1 of run_1.
func callInfo(tool string, args json.RawMessage) agentturn.ToolCallInfo {
	call := &openresponses.FunctionCall{CallID: "call_1", Name: tool, Arguments: string(args)}
	return agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: args,
		Batch: []*openresponses.FunctionCall{call}}
}

// confinedTool is a tool whose calls all run confined by what by names.
func confinedTool(name, by string) agenttool.Tool {
	return agenttool.NewFunc(name, "", json.RawMessage(`{"type":"object"}`),
		func(context.Context, agenttool.Call) (agenttool.Result, error) { return agenttool.Text("ok"), nil },
		agenttool.WithConfined(func(context.Context, json.RawMessage) (bool, string) { return true, by }))
}

// shellMatchers is a bash tool matched by prefix on its command and a read
// tool matched by prefix on its path.
func shellMatchers() map[string]ToolMatcher {
	return map[string]ToolMatcher{
		"bash": {Match: PrefixMatcher("command")},
		"read": {Match: PrefixMatcher("path")},
	}
}

// mustBuild builds an engine the test needs.
func mustBuild(t testing.TB, p Policy, matchers map[string]ToolMatcher, opts ...Option) *Engine {
	t.Helper()
	e, err := Build(p, matchers, opts...)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return e
}

func TestBuildRefusesPoliciesThatCouldNotBeDecided(t *testing.T) {
	for _, tc := range []struct {
		name     string
		policy   Policy
		matchers map[string]ToolMatcher
		is       error
		want     string
	}{
		{"unset default", Policy{Allow: []Rule{{Tool: "read"}}}, nil, ErrNoDefault,
			"agentpolicy: policy default is not set; use Allow(), Deny() or Ask()"},
		{"spec without matcher", Policy{Deny: []Rule{{Tool: "fetch", Spec: "http:*"}}, Default: Ask()}, shellMatchers(), ErrNoMatcher,
			"agentpolicy: no matcher for the rule's tool: fetch(http:*)"},
		{"carve-out without matcher", Policy{Ask: []Rule{{Tool: "fetch", Spec: "!http://localhost:*"}}, Default: Ask()}, nil, ErrNoMatcher,
			"agentpolicy: no matcher for the rule's tool: fetch(!http://localhost:*)"},
		{"near miss in case", Policy{Allow: []Rule{{Tool: "Bash", Spec: "ls:*"}}, Default: Ask()},
			map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command")}, "BASH": {Match: PrefixMatcher("command")}, "Bash2": {Match: PrefixMatcher("c")}},
			ErrNoMatcher, "agentpolicy: no matcher for the rule's tool: Bash(ls:*); did you mean BASH?"},
		{"splitter without match is no matcher", Policy{Allow: []Rule{{Tool: "sh", Spec: "ls:*"}}, Default: Ask()},
			map[string]ToolMatcher{"sh": {Subjects: func(json.RawMessage) ([]Subject, error) { return nil, nil }}}, ErrNoMatcher,
			"agentpolicy: no matcher for the rule's tool: sh(ls:*)"},
		{"glob in allow", Policy{Allow: []Rule{{Tool: "mcp__*"}}, Default: Ask()}, nil, ErrToolGlob,
			"agentpolicy: tool-name glob: mcp__* is not honoured in the allow list"},
		{"glob with spec", Policy{Deny: []Rule{{Tool: "mcp__*", Spec: "x"}}, Default: Ask()}, nil, ErrToolGlob,
			"agentpolicy: tool-name glob: mcp__*(x) takes no specifier"},
		{"hand-built rule without a name", Policy{Ask: []Rule{{Spec: "x"}}, Default: Ask()}, nil, nil,
			`agentpolicy: rule "(x)": missing tool name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Build(tc.policy, tc.matchers)
			if err == nil {
				t.Fatalf("Build succeeded, want %q", tc.want)
			}
			if e != nil {
				t.Errorf("Build returned an engine with its error")
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q, want %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
		})
	}
}

func TestBuildAcceptsBareRulesWithoutMatchers(t *testing.T) {
	e := mustBuild(t, Policy{Allow: []Rule{{Tool: "read"}}, Deny: []Rule{{Tool: "mcp__*"}}, Ask: []Rule{{Tool: "fetch"}}, Default: Deny()}, nil)
	v, _ := e.Would(context.Background(), callInfo("read", json.RawMessage(`{}`)))
	if v.Action != agentturn.Allow || v.Reason != "allowed by read" {
		t.Errorf("read: %v %q, want allow, allowed by read", v.Action, v.Reason)
	}
}

func TestBuildExpandsAliases(t *testing.T) {
	src := Source{Name: "skill:commit", Trusted: true, Rank: 1}
	p := Policy{
		Allow:   []Rule{{Tool: "Read", Spec: "src/:*", Note: "sources", Source: src}},
		Ask:     []Rule{{Tool: "Bash"}, {Tool: "edit"}},
		Deny:    []Rule{{Tool: "mcp__*"}},
		Default: Ask(),
	}
	matchers := map[string]ToolMatcher{"read": {Match: PrefixMatcher("path")}, "grep": {Match: PrefixMatcher("path")}}
	e := mustBuild(t, p, matchers, WithAliases(map[string][]string{
		"Read": {"read", "grep"},
		"Bash": {"bash", "Read"}, // one level: the "Read" a tool alias names is a tool's own name
	}))
	got := e.Policy()
	wantAllow := []Rule{
		{Tool: "read", Spec: "src/:*", Note: "sources", Source: src},
		{Tool: "grep", Spec: "src/:*", Note: "sources", Source: src},
	}
	if !reflect.DeepEqual(got.Allow, wantAllow) {
		t.Errorf("Allow = %+v, want %+v", got.Allow, wantAllow)
	}
	if wantAsk := []Rule{{Tool: "bash"}, {Tool: "Read"}, {Tool: "edit"}}; !reflect.DeepEqual(got.Ask, wantAsk) {
		t.Errorf("Ask = %+v, want %+v", got.Ask, wantAsk)
	}
	v, _ := e.Would(context.Background(), callInfo("grep", json.RawMessage(`{"path":"src/main.go"}`)))
	if v.Reason != "allowed by grep(src/:*): sources" {
		t.Errorf("grep reason = %q, want the expanded rule cited", v.Reason)
	}
}

func TestBuildRefusesAliasTablesThatNameNoTool(t *testing.T) {
	for _, tc := range []struct {
		name    string
		aliases map[string][]string
		want    string
	}{
		{"empty name", map[string][]string{"": {"bash"}}, "agentpolicy: alias: an entry has no rule name"},
		{"glob name", map[string][]string{"mcp__*": {"mcp__a"}}, `agentpolicy: alias "mcp__*": a rule name with a glob names no tool`},
		{"no tools", map[string][]string{"Bash": {}}, `agentpolicy: alias "Bash": names no tool`},
		{"empty target", map[string][]string{"Read": {"read", ""}}, `agentpolicy: alias "Read": "" is not a tool name`},
		{"glob target", map[string][]string{"Read": {"re*"}}, `agentpolicy: alias "Read": "re*" is not a tool name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(Policy{Default: Ask()}, nil, WithAliases(tc.aliases))
			if err == nil || err.Error() != tc.want {
				t.Errorf("Build error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestBuildNeedsAMatcherForEveryExpandedTool(t *testing.T) {
	p := Policy{Allow: []Rule{{Tool: "Read", Spec: "src/:*"}}, Default: Ask()}
	_, err := Build(p, map[string]ToolMatcher{"read": {Match: PrefixMatcher("path")}}, WithAliases(map[string][]string{"Read": {"read", "glob"}}))
	if want := "agentpolicy: no matcher for the rule's tool: glob(src/:*)"; err == nil || err.Error() != want || !errors.Is(err, ErrNoMatcher) {
		t.Errorf("Build error = %v, want %q", err, want)
	}
}

func TestBuildDoesNotRetainTheCallersLists(t *testing.T) {
	p := Policy{
		Allow:    parseOrFail(t, "bash(git status:*)"),
		Deny:     parseOrFail(t, "bash(rm:*)"),
		Default:  Ask(),
		Sources:  []Source{{Name: "user"}},
		Withheld: parseOrFail(t, "bash(make:*)"),
	}
	matchers := shellMatchers()
	aliases := map[string][]string{"Bash": {"bash"}}
	e := mustBuild(t, p, matchers, WithAliases(aliases))
	before := e.Policy()

	p.Allow[0].Spec = "rm:*"
	p.Deny[0].Spec = "git status:*"
	p.Sources[0].Name = "changed"
	p.Withheld[0].Tool = "changed"
	matchers["bash"] = ToolMatcher{Match: func(string, json.RawMessage) bool { return false }}
	aliases["Bash"][0] = "changed"

	if got := e.Policy(); !reflect.DeepEqual(got, before) {
		t.Errorf("Policy changed with the caller's slices:\n%+v\nwas\n%+v", got, before)
	}
	v, _ := e.Would(context.Background(), callInfo("bash", shellArgs("rm -rf /")))
	if v.Action != agentturn.Block || v.Reason != "denied by bash(rm:*)" {
		t.Errorf("rm: %v %q after the caller changed its lists, want denied by bash(rm:*)", v.Action, v.Reason)
	}
}

func TestPolicyReturnsACopy(t *testing.T) {
	e := mustBuild(t, Policy{Allow: parseOrFail(t, "read"), Sources: []Source{{Name: "user"}}, Withheld: parseOrFail(t, "edit"), Default: Ask()}, nil)
	p := e.Policy()
	p.Allow[0].Tool = "edit"
	p.Sources[0].Name = "x"
	p.Withheld[0].Tool = "x"
	e.Sources()[0].Name = "y"
	e.Withheld()[0].Tool = "y"
	got := e.Policy()
	if got.Allow[0].Tool != "read" || got.Sources[0].Name != "user" || got.Withheld[0].Tool != "edit" {
		t.Errorf("the engine's policy changed through a copy: %+v", got)
	}
}

func TestSourcesAndWithheldReportTheMerge(t *testing.T) {
	user := Source{Name: "user", Path: "/home/u/.settings.json", Hash: "h1", Trusted: true}
	repo := Source{Name: "repo", Path: "/repo/.settings.json", Hash: "h2", Rank: 1}
	p, err := Merge(RuleSet{Source: user, Allow: parseOrFail(t, "read")}, RuleSet{Source: repo, Allow: parseOrFail(t, "bash(make:*)")})
	if err != nil {
		t.Fatal(err)
	}
	e := mustBuild(t, p.WithDefault(Ask()), shellMatchers())
	if want := []Source{repo, user}; !reflect.DeepEqual(e.Sources(), want) {
		t.Errorf("Sources = %+v, want %+v", e.Sources(), want)
	}
	if want := []Rule{{Tool: "bash", Spec: "make:*", Source: repo}}; !reflect.DeepEqual(e.Withheld(), want) {
		t.Errorf("Withheld = %+v, want %+v", e.Withheld(), want)
	}
	v, _ := e.Would(context.Background(), callInfo("bash", shellArgs("make test")))
	if v.Action != agentturn.Defer {
		t.Errorf("a withheld rule was evaluated: %v %q", v.Action, v.Reason)
	}
}

func TestSetPolicyReplacesTheRulesForTheNextDecision(t *testing.T) {
	calls := 0
	matchers := map[string]ToolMatcher{"bash": {Match: func(spec string, args json.RawMessage) bool {
		calls++
		return PrefixMatcher("command")(spec, args)
	}}}
	e := mustBuild(t, Policy{Allow: parseOrFail(t, "bash(ls:*)"), Default: Deny()}, matchers, WithAliases(map[string][]string{"Bash": {"bash"}}))
	hook := e.BeforeToolCall()
	ctx := context.Background()
	if d, _ := hook(ctx, callInfo("bash", shellArgs("ls"))); d.Action != agentturn.Allow {
		t.Fatalf("before SetPolicy: %v %q", d.Action, d.Reason)
	}
	if err := e.SetPolicy(Policy{Deny: parseOrFail(t, "Bash(ls:*)"), Default: Allow()}); err != nil {
		t.Fatal(err)
	}
	d, _ := hook(ctx, callInfo("bash", shellArgs("ls")))
	if d.Action != agentturn.Block || d.Reason != "denied by bash(ls:*)" {
		t.Errorf("after SetPolicy: %v %q, want the expanded deny", d.Action, d.Reason)
	}
	if calls != 2 {
		t.Errorf("the registered matcher ran %d times, want 2: SetPolicy must keep the matchers", calls)
	}
}

func TestSetPolicyKeepsThePolicyInForceOnError(t *testing.T) {
	e := mustBuild(t, Policy{Allow: parseOrFail(t, "read"), Default: Deny()}, nil)
	for _, p := range []Policy{
		{Allow: parseOrFail(t, "read")},
		{Allow: parseOrFail(t, "bash(ls:*)"), Default: Allow()},
		{Allow: parseOrFail(t, "mcp__*"), Default: Allow()},
	} {
		if err := e.SetPolicy(p); err == nil {
			t.Errorf("SetPolicy(%+v) succeeded", p)
		}
	}
	v, _ := e.Would(context.Background(), callInfo("edit", json.RawMessage(`{}`)))
	if v.Reason != "no rule allows edit: denied by default" {
		t.Errorf("after refused replacements: %q, want the first policy's default", v.Reason)
	}
}

func TestNilOptionsAddNothing(t *testing.T) {
	e := mustBuild(t, Policy{Default: Allow()}, nil, nil, WithObserver(nil))
	if len(e.observers) != 0 {
		t.Errorf("observers = %d, want 0", len(e.observers))
	}
	if _, err := e.Decide(context.Background(), callInfo("read", json.RawMessage(`{}`))); err != nil {
		t.Fatal(err)
	}
}
