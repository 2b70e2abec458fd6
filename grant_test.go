package agentpolicy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// The sources the grant tests merge: an administrator's, the team's
// project file, the user's own local file, and a skill.
var (
	managedSrc = Source{Name: "managed", Trusted: true, Rank: 9}
	projectSrc = Source{Name: "project", Trusted: true, Rank: 2}
	localSrc   = Source{Name: "local", Trusted: true, Rank: 2}
	userSrc    = Source{Name: "user", Trusted: true, Rank: 1}
	skillSrc   = Source{Name: "skill:commit", Trusted: true, Rank: 2}
)

// observed collects what the observers see, in order.
type observed struct{ verdicts []Verdict }

func (j *observed) observe(_ context.Context, v Verdict) { j.verdicts = append(j.verdicts, v) }

// reasons returns the reasons of the verdicts seen since the last call,
// each prefixed with its action, and forgets them.
func (j *observed) reasons() []string {
	var out []string
	for _, v := range j.verdicts {
		out = append(out, actionWord(v.Action)+" "+v.Reason)
	}
	j.verdicts = nil
	return out
}

// rulesOf parses rules and stamps them with src.
func rulesOf(t testing.TB, s string, src Source) []Rule {
	return stamped(parseOrFail(t, s), src)
}

// pushPolicy is the team's policy: the project asks before a push, the
// administrator denies a forced one, and the default asks.
func pushPolicy(t testing.TB) Policy {
	t.Helper()
	p, err := Merge(
		RuleSet{Source: managedSrc, Deny: parseOrFail(t, "bash(git push --force:*)")},
		RuleSet{Source: projectSrc, Ask: parseOrFail(t, "bash(git push:*) bash(npm publish:*)"), Allow: parseOrFail(t, "bash(git status:*)")},
		RuleSet{Source: localSrc},
	)
	if err != nil {
		t.Fatal(err)
	}
	return p.WithDefault(Ask())
}

// would is the verdict Would gives for a bash command under ctx.
func would(t *testing.T, e *Engine, ctx context.Context, cmd string) Verdict {
	t.Helper()
	v, err := e.Would(ctx, callInfo("bash", shellArgs(cmd)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestGrantOverADefaultAskAppendsAnAllowRule(t *testing.T) {
	var j observed
	e := mustBuild(t, pushPolicy(t), shellMatchers(), WithObserver(j.observe))
	ctx := context.Background()
	v := would(t, e, ctx, "make test")
	grant := Rule{Tool: "bash", Spec: "make:*", Source: localSrc}
	ok, reason := e.GrantOver(ctx, v, grant)
	if !ok || reason != "granted bash(make:*)" {
		t.Fatalf("GrantOver = %v, %q", ok, reason)
	}
	if got := e.Policy().Allow; !slices.Contains(got, grant) {
		t.Errorf("Policy().Allow = %v, want the grant appended", got)
	}
	if ask := e.Policy().Ask; len(ask) != 2 {
		t.Errorf("Policy().Ask = %v, want the project's two rules untouched", ask)
	}
	expect{agentturn.Allow, "bash(make:*)", "allowed by bash(make:*)", ""}.check(t, would(t, e, ctx, "make build"))
	if got := j.reasons(); !reflect.DeepEqual(got, []string{"allow granted bash(make:*)"}) {
		t.Errorf("observed %q", got)
	}
}

func TestGrantOverAnAskRuleWritesTheCarveOutBesideIt(t *testing.T) {
	var j observed
	e := mustBuild(t, pushPolicy(t), shellMatchers(), WithObserver(j.observe))
	ctx := context.Background()
	v := would(t, e, ctx, "git push origin main")
	ok, reason := e.GrantOver(ctx, v, Rule{Tool: "bash", Spec: "git push origin:*", Source: localSrc})
	if !ok || reason != "granted bash(git push origin:*) over bash(git push:*)" {
		t.Fatalf("GrantOver = %v, %q", ok, reason)
	}
	wantAsk := []Rule{
		{Tool: "bash", Spec: "git push:*", Source: projectSrc},
		{Tool: "bash", Spec: "!git push origin:*", Source: localSrc},
		{Tool: "bash", Spec: "npm publish:*", Source: projectSrc},
	}
	if got := e.Policy().Ask; !reflect.DeepEqual(got, wantAsk) {
		t.Errorf("Policy().Ask = %v, want the carve-out beside the rule under the grant's source", got)
	}
	expect{agentturn.Allow, "bash(git push origin:*)", "allowed by bash(git push origin:*)", ""}.check(t, would(t, e, ctx, "git push origin main"))
	expect{agentturn.Defer, "bash(git push:*)", "approval required by bash(git push:*)", ""}.check(t, would(t, e, ctx, "git push upstream"))
	// A grant never beats a deny.
	expect{agentturn.Block, "bash(git push --force:*)", "denied by bash(git push --force:*)", ""}.check(t, would(t, e, ctx, "git push --force origin"))
	if got := j.reasons(); !reflect.DeepEqual(got, []string{"allow granted bash(git push origin:*) over bash(git push:*)"}) {
		t.Errorf("observed %q", got)
	}
	// Granting the same again adds nothing twice.
	e.GrantOver(ctx, would(t, e, ctx, "git push upstream"), Rule{Tool: "bash", Spec: "git push origin:*", Source: localSrc})
	if got := e.Policy(); len(got.Ask) != 3 || len(got.Allow) != 2 {
		t.Errorf("a repeated grant changed the policy to %v / %v", got.Ask, got.Allow)
	}
}

func TestGrantOverWithABareGrantRemovesTheAskRule(t *testing.T) {
	e := mustBuild(t, pushPolicy(t), shellMatchers())
	ctx := context.Background()
	v := would(t, e, ctx, "npm publish")
	ok, reason := e.GrantOver(ctx, v, Rule{Tool: "bash", Source: localSrc})
	if !ok || reason != "granted bash over bash(npm publish:*)" {
		t.Fatalf("GrantOver = %v, %q", ok, reason)
	}
	if got := e.Policy().Ask; !reflect.DeepEqual(got, []Rule{{Tool: "bash", Spec: "git push:*", Source: projectSrc}}) {
		t.Errorf("Policy().Ask = %v, want the answered rule removed", got)
	}
	expect{agentturn.Allow, "bash", "allowed by bash", ""}.check(t, would(t, e, ctx, "npm publish"))
	expect{agentturn.Defer, "bash(git push:*)", "approval required by bash(git push:*)", ""}.check(t, would(t, e, ctx, "git push"))
}

func TestGrantOverNamesTheGrantAsGiven(t *testing.T) {
	e := mustBuild(t, pushPolicy(t), shellMatchers(), WithAliases(map[string][]string{"Bash": {"bash"}}))
	ctx := context.Background()
	ok, reason := e.GrantOver(ctx, would(t, e, ctx, "git push"), Rule{Tool: "Bash", Spec: "git push:*", Source: localSrc})
	if !ok || reason != "granted Bash(git push:*) over bash(git push:*)" {
		t.Fatalf("GrantOver = %v, %q", ok, reason)
	}
	if got := e.PolicyOf("local"); !reflect.DeepEqual(got.Allow, rulesOf(t, "bash(git push:*)", localSrc)) ||
		!reflect.DeepEqual(got.Ask, rulesOf(t, "bash(!git push:*)", localSrc)) {
		t.Errorf("PolicyOf(local) = %+v, want the expanded grant and its carve-out", got)
	}
}

func TestGrantOverRefuses(t *testing.T) {
	policy := pushPolicy(t)
	policy.Ask = append(policy.Ask, Rule{Tool: "edit"}, Rule{Tool: "mcp__*", Source: userSrc})
	matchers := shellMatchers()
	matchers["mcp__db__query"] = ToolMatcher{Match: PrefixMatcher("sql")}
	ctx := context.Background()
	asked := func(e *Engine, cmd string) Verdict { return would(t, e, ctx, cmd) }
	pushRule := Rule{Tool: "bash", Spec: "git push:*", Source: projectSrc, Note: "the team reviews pushes"}
	for _, tc := range []struct {
		name    string
		verdict func(e *Engine) Verdict
		grant   Rule
		reason  string
	}{
		{"a rule with no matcher", func(e *Engine) Verdict { return asked(e, "git push") },
			Rule{Tool: "fetch", Spec: "https:*", Source: localSrc}, "agentpolicy: no matcher for the rule's tool: fetch(https:*)"},
		{"a tool-name glob", func(e *Engine) Verdict { return asked(e, "git push") },
			Rule{Tool: "ba*", Source: localSrc}, "agentpolicy: tool-name glob: ba* is not honoured in the allow list"},
		{"a carve-out", func(e *Engine) Verdict { return asked(e, "git push") },
			Rule{Tool: "bash", Spec: "!git push:*", Source: localSrc}, "agentpolicy: cannot grant a carve-out: bash(!git push:*)"},
		{"a deny rule", func(e *Engine) Verdict { return asked(e, "git push --force") },
			Rule{Tool: "bash", Spec: "git push --force:*", Source: managedSrc}, "cannot grant over a deny rule: bash(git push --force:*)"},
		{"an allowed call", func(e *Engine) Verdict { return asked(e, "git status") },
			Rule{Tool: "bash", Spec: "git status:*", Source: localSrc}, "nothing to grant over: the call was not deferred"},
		{"a held call", func(e *Engine) Verdict {
			v := asked(e, "git status")
			v.Action, v.Held = agentturn.Defer, true
			return v
		}, Rule{Tool: "bash", Spec: "git status:*", Source: localSrc}, "nothing to grant over: the call was held for another call's approval"},
		{"another tool", func(e *Engine) Verdict { return asked(e, "git push") },
			Rule{Tool: "read", Spec: "src:*", Source: localSrc}, "grant read(src:*) does not name the tool of bash(git push:*)"},
		{"a bare grant over a tool-name glob", func(e *Engine) Verdict {
			v, _ := e.Would(ctx, callInfo("mcp__db__query", json.RawMessage(`{"sql":"select 1"}`)))
			return v
		}, Rule{Tool: "mcp__db__query", Source: localSrc}, "grant mcp__db__query does not name the tool of mcp__*"},
		{"an ask rule of a higher rank", func(e *Engine) Verdict { return asked(e, "git push") },
			Rule{Tool: "bash", Spec: "git push:*", Source: userSrc}, "bash(git push:*) from project outranks the grant"},
		{"an unnamed ask rule of a higher rank", func(e *Engine) Verdict {
			v, _ := e.Would(ctx, callInfo("edit", json.RawMessage(`{"path":"a"}`)))
			return v
		}, Rule{Tool: "edit", Source: Source{Name: "low", Rank: -1, Trusted: true}}, "edit outranks the grant"},
		{"a rule no longer in the ask list", func(e *Engine) Verdict {
			v := asked(e, "git push")
			v.Rule = &Rule{Tool: "bash", Spec: "git pull:*", Source: projectSrc}
			return v
		}, Rule{Tool: "bash", Spec: "git push:*", Source: localSrc}, "bash(git pull:*) is no longer in the ask list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var j observed
			e := mustBuild(t, policy, matchers, WithObserver(j.observe))
			v := tc.verdict(e)
			before := e.Policy()
			ok, reason := e.GrantOver(ctx, v, tc.grant)
			if ok || reason != tc.reason {
				t.Errorf("GrantOver = %v, %q; want false, %q", ok, reason, tc.reason)
			}
			if !reflect.DeepEqual(e.Policy(), before) {
				t.Errorf("a refused grant changed the policy")
			}
			if got := j.reasons(); len(got) != 0 {
				t.Errorf("observed %q, want nothing of a grant refused", got)
			}
		})
	}
	t.Run("a rule that differs only in its note is the same rule", func(t *testing.T) {
		e := mustBuild(t, policy, matchers)
		v := asked(e, "git push")
		v.Rule = &pushRule
		if ok, reason := e.GrantOver(ctx, v, Rule{Tool: "bash", Spec: "git push:*", Source: localSrc}); !ok {
			t.Errorf("GrantOver = false, %q", reason)
		}
	})
	t.Run("a second bare grant finds the rule gone", func(t *testing.T) {
		e := mustBuild(t, policy, matchers)
		v := asked(e, "git push")
		e.GrantOver(ctx, v, Rule{Tool: "bash", Source: localSrc})
		if ok, reason := e.GrantOver(ctx, v, Rule{Tool: "bash", Source: localSrc}); ok || reason != "bash(git push:*) is no longer in the ask list" {
			t.Errorf("GrantOver = %v, %q", ok, reason)
		}
	})
	t.Run("a grant with a specifier over a tool-name glob carves the tool out", func(t *testing.T) {
		e := mustBuild(t, policy, matchers)
		args := json.RawMessage(`{"sql":"select 1"}`)
		v, _ := e.Would(ctx, callInfo("mcp__db__query", args))
		if ok, reason := e.GrantOver(ctx, v, Rule{Tool: "mcp__db__query", Spec: "select:*", Source: localSrc}); !ok {
			t.Fatalf("GrantOver = false, %q", reason)
		}
		v, _ = e.Would(ctx, callInfo("mcp__db__query", args))
		expect{agentturn.Allow, "mcp__db__query(select:*)", "allowed by mcp__db__query(select:*)", ""}.check(t, v)
		v, _ = e.Would(ctx, callInfo("mcp__db__query", json.RawMessage(`{"sql":"drop table t"}`)))
		expect{agentturn.Defer, "mcp__*", "approval required by mcp__*", ""}.check(t, v)
	})
}

func TestGrant(t *testing.T) {
	var j observed
	e := mustBuild(t, pushPolicy(t), shellMatchers(), WithObserver(j.observe),
		WithAliases(map[string][]string{"Read": {"read", "grep"}}))
	ctx := context.Background()
	if err := e.Grant(ctx, Rule{Tool: "Read", Source: localSrc}); err != nil {
		t.Fatal(err)
	}
	if got := e.PolicyOf("local").Allow; !reflect.DeepEqual(got, rulesOf(t, "read grep", localSrc)) {
		t.Errorf("PolicyOf(local).Allow = %v, want a rule per tool the alias governs", got)
	}
	if got := j.reasons(); !reflect.DeepEqual(got, []string{"allow granted Read", "allow granted Read"}) {
		t.Errorf("observed %q", got)
	}
	// A grant never outranks an ask rule, nor beats a deny.
	if err := e.Grant(ctx, Rule{Tool: "bash", Spec: "git push:*", Source: localSrc}); err != nil {
		t.Fatal(err)
	}
	expect{agentturn.Defer, "bash(git push:*)", "approval required by bash(git push:*)", ""}.check(t, would(t, e, ctx, "git push"))
	expect{agentturn.Block, "bash(git push --force:*)", "denied by bash(git push --force:*)", ""}.check(t, would(t, e, ctx, "git push --force"))
	j.reasons()
	for _, tc := range []struct {
		rule Rule
		is   error
		text string
	}{
		{Rule{Tool: "fetch", Spec: "https:*"}, ErrNoMatcher, "agentpolicy: no matcher for the rule's tool: fetch(https:*)"},
		{Rule{Tool: "Bash", Spec: "ls:*"}, ErrNoMatcher, "agentpolicy: no matcher for the rule's tool: Bash(ls:*); did you mean bash?"},
		{Rule{Tool: "mcp__*"}, ErrToolGlob, "agentpolicy: tool-name glob: mcp__* is not honoured in the allow list"},
		{Rule{Tool: "bash", Spec: "!ls"}, nil, "agentpolicy: cannot grant a carve-out: bash(!ls)"},
	} {
		err := e.Grant(ctx, tc.rule)
		if err == nil || err.Error() != tc.text || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("Grant(%s) = %v, want %q", tc.rule, err, tc.text)
		}
		if got := j.reasons(); len(got) != 0 {
			t.Errorf("observed %q, want nothing of a grant refused", got)
		}
	}
}

// TestGrantsSurviveNothingButTheirOwnSource: SetPolicy replaces what Grant
// added, as a product re-deriving its policy re-reads its settings, and
// keeps the grant sets.
func TestSetPolicyKeepsTheGrantSets(t *testing.T) {
	e := mustBuild(t, pushPolicy(t), shellMatchers())
	ctx := ContextWithGrantScope(context.Background(), "conv_1")
	if _, refused := e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git push:*)")}); len(refused) > 0 {
		t.Fatal(refused)
	}
	if err := e.SetPolicy(pushPolicy(t)); err != nil {
		t.Fatal(err)
	}
	expect{agentturn.Allow, "bash(git push:*)", "allowed by bash(git push:*)", ""}.check(t, would(t, e, ctx, "git push"))
	if got := e.Grants(); len(got) != 1 {
		t.Errorf("Grants() = %v after SetPolicy, want the set kept", got)
	}
}

func TestPolicyOf(t *testing.T) {
	e := mustBuild(t, pushPolicy(t), shellMatchers())
	if got := e.PolicyOf("local"); !reflect.DeepEqual(got, RuleSet{Source: localSrc}) {
		t.Errorf("PolicyOf(local) = %+v, want an empty set named from Sources", got)
	}
	if got := e.PolicyOf("project"); got.Source != projectSrc || len(got.Ask) != 2 || len(got.Allow) != 1 || len(got.Deny) != 0 {
		t.Errorf("PolicyOf(project) = %+v", got)
	}
	if got := e.PolicyOf("nowhere"); !reflect.DeepEqual(got, RuleSet{Source: Source{Name: "nowhere"}}) {
		t.Errorf("PolicyOf(nowhere) = %+v", got)
	}
	e.GrantSet(context.Background(), RuleSet{Source: localSrc, Allow: parseOrFail(t, "bash(ls:*)")})
	if got := e.PolicyOf("local"); len(got.Allow) != 0 {
		t.Errorf("PolicyOf(local) = %+v holds a grant set's rules", got)
	}
}

// TestPolicyOfRoundTrip is what a product does with an "always allow": it
// writes PolicyOf("local") back into its local settings file, and at the
// next start reads every file again, merges and builds. That engine must
// decide every call of the corpus as the one the grants were made on.
func TestPolicyOfRoundTrip(t *testing.T) {
	ctx := context.Background()
	corpusCalls := corpusBashAndReadCalls(t)
	matchers := shellMatchers()
	files := []RuleSet{
		{Source: managedSrc, Deny: parseOrFail(t, "bash(git push --force:*) bash(rm:*) read(.env:*)")},
		{Source: projectSrc, Ask: parseOrFail(t, "bash(git push:*) bash(npm publish:*) bash(docker:*) edit"), Allow: parseOrFail(t, "bash(git status:*) read")},
		{Source: localSrc, Allow: parseOrFail(t, "bash(make:*)"), Ask: parseOrFail(t, "bash(curl:*)")},
		{Source: userSrc, Allow: parseOrFail(t, "bash(ls:*)")},
	}
	p, err := Merge(files...)
	if err != nil {
		t.Fatal(err)
	}
	e := mustBuild(t, p.WithDefault(Ask()), matchers)
	for _, g := range []struct {
		cmd   string
		grant Rule
	}{
		{"npm test", Rule{Tool: "bash", Spec: "npm test:*", Source: localSrc}},
		{"git push origin main", Rule{Tool: "bash", Spec: "git push origin:*", Source: localSrc}},
		{"curl example.com", Rule{Tool: "bash", Spec: "curl example.com", Source: localSrc}},
		{"curl evil.test", Rule{Tool: "bash", Source: localSrc}},
	} {
		if ok, reason := e.GrantOver(ctx, would(t, e, ctx, g.cmd), g.grant); !ok {
			t.Fatalf("GrantOver(%s): %s", g.grant, reason)
		}
	}
	if ok, _ := e.GrantOver(ctx, would(t, e, ctx, "git push upstream"), Rule{Tool: "bash", Source: userSrc}); ok {
		t.Fatal("a grant from the user's file answered the project's rule")
	}

	// The product writes the local file and reads every file back.
	data, err := json.Marshal(settingsFile(e.PolicyOf("local")))
	if err != nil {
		t.Fatal(err)
	}
	var written map[string]string
	if err := json.Unmarshal(data, &written); err != nil {
		t.Fatal(err)
	}
	reread := RuleSet{Source: localSrc}
	for list, dst := range map[string]*[]Rule{"allow": &reread.Allow, "deny": &reread.Deny, "ask": &reread.Ask} {
		if *dst, err = ParseRules(written[list]); err != nil {
			t.Fatal(err)
		}
	}
	files[2] = reread
	p2, err := Merge(files...)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := mustBuild(t, p2.WithDefault(Ask()), matchers)

	calls := 0
	check := func(tool string, args json.RawMessage) {
		calls++
		a, errA := e.Would(ctx, callInfo(tool, args))
		b, errB := rebuilt.Would(ctx, callInfo(tool, args))
		if !reflect.DeepEqual(a, b) || (errA == nil) != (errB == nil) {
			t.Errorf("%s %s: with the grants %+v, rebuilt %+v", tool, args, a, b)
		}
	}
	for _, call := range corpusCalls {
		check(call.Tool, call.Args)
	}
	for _, cmd := range []string{"git push origin main", "git push upstream", "git push --force", "docker ps", "npm test", "npm publish", "curl example.com", "curl evil.test", "make", "ls -la", "rm -rf /"} {
		check("bash", shellArgs(cmd))
	}
	if calls < 60 {
		t.Errorf("the round trip decided %d calls, want the corpus's", calls)
	}
}

// corpusCall is a call of decisions.json, its arguments compacted.
type corpusCall struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

// corpusBashAndReadCalls are the bash and read calls of the corpus's
// decision cases that carry their arguments as JSON, compacted.
func corpusBashAndReadCalls(t *testing.T) []corpusCall {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "policy", "decisions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Calls []corpusCall `json:"calls"`
			Batch []corpusCall `json:"batch"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	var calls []corpusCall
	for _, c := range file.Cases {
		for _, call := range slices.Concat(c.Calls, c.Batch) {
			if (call.Tool != "bash" && call.Tool != "read") || call.Args == nil {
				continue
			}
			var b bytes.Buffer
			if err := json.Compact(&b, call.Args); err != nil {
				t.Fatal(err)
			}
			calls = append(calls, corpusCall{Tool: call.Tool, Args: b.Bytes()})
		}
	}
	return calls
}

// settingsFile is a settings file as a product might write one: each list
// in the grammar.
func settingsFile(set RuleSet) map[string]string {
	join := func(rules []Rule) string {
		var parts []string
		for _, r := range rules {
			parts = append(parts, r.String())
		}
		return strings.Join(parts, " ")
	}
	return map[string]string{"allow": join(set.Allow), "deny": join(set.Deny), "ask": join(set.Ask)}
}

// TestGrantCompilesAsBuildWould: a grant compiles only the tools it
// touches; what it leaves in force must be what Build makes of the policy
// with the grant applied, tool by tool, carve-outs and all.
func TestGrantCompilesAsBuildWould(t *testing.T) {
	p := pushPolicy(t)
	p.Ask = append(p.Ask, Rule{Tool: "mcp__*", Source: userSrc}, Rule{Tool: "edit", Source: userSrc})
	p.Deny = append(p.Deny, Rule{Tool: "read", Spec: ".env:*", Source: projectSrc})
	matchers := shellMatchers()
	matchers["mcp__db__query"] = ToolMatcher{Match: PrefixMatcher("sql")}
	e := mustBuild(t, p, matchers, WithAliases(map[string][]string{"Read": {"read", "grep"}}))
	ctx := context.Background()
	mcp, _ := e.Would(ctx, callInfo("mcp__db__query", json.RawMessage(`{"sql":"select 1"}`)))
	edit, _ := e.Would(ctx, callInfo("edit", json.RawMessage(`{"path":"a"}`)))
	for _, g := range []struct {
		v Verdict
		r Rule
	}{
		{would(t, e, ctx, "git push"), Rule{Tool: "bash", Spec: "git push origin:*", Source: localSrc}},
		{mcp, Rule{Tool: "mcp__db__query", Spec: "select:*", Source: localSrc}},
		{edit, Rule{Tool: "edit", Source: localSrc}},
		{would(t, e, ctx, "make"), Rule{Tool: "Read", Source: localSrc}},
		{would(t, e, ctx, "make"), Rule{Tool: "fetch", Source: localSrc}},
	} {
		if ok, reason := e.GrantOver(ctx, g.v, g.r); !ok {
			t.Fatalf("GrantOver(%s): %s", g.r, reason)
		}
	}
	for _, r := range []Rule{{Tool: "bash", Spec: "ls:*", Source: userSrc}, {Tool: "mcp__new", Source: userSrc}} {
		if err := e.Grant(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, want := describeIndex(e.snap.Load().ruleIndex), describeIndex(e.index(e.Policy()).ruleIndex)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the grants compiled\n%s\nwant what Build compiles\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// describeIndex renders what a decision reads of every tool of the index,
// in order: each list's rules with their sources and the carve-outs that
// reach them, how the tool splits and its default's reason.
func describeIndex(ix ruleIndex) []string {
	var out []string
	render := func(name string, tr *toolRules) {
		line := name + ": " + tr.noRule
		if tr.split != nil {
			line += " (split)"
		}
		for l, entries := range tr.lists {
			line += " |" + []string{"deny", "ask", "allow"}[l]
			for _, en := range entries {
				line += " " + en.rule.String() + "@" + en.rule.Source.Name
				for _, c := range en.carve {
					line += " !" + c.rule.String()
				}
			}
		}
		out = append(out, line)
	}
	for _, name := range slices.Sorted(maps.Keys(ix.tools)) {
		render(name, ix.tools[name])
	}
	render("(other)", &ix.other)
	return out
}

// TestGrantIsPlacedWhereAMergeWouldPutIt: a grant goes after its source's
// rules, else before the first rule of a lower rank, so the rule a verdict
// cites is the one an engine merged again from the persisted files cites.
func TestGrantIsPlacedWhereAMergeWouldPutIt(t *testing.T) {
	p, err := Merge(
		RuleSet{Source: managedSrc, Allow: parseOrFail(t, "bash(git status:*)")},
		RuleSet{Source: userSrc, Allow: parseOrFail(t, "bash(ls:*)")},
	)
	if err != nil {
		t.Fatal(err)
	}
	p.Allow = append(p.Allow, Rule{Tool: "read"})
	e := mustBuild(t, p.WithDefault(Ask()), shellMatchers())
	ctx := context.Background()
	for _, r := range []Rule{
		{Tool: "bash", Spec: "make:*", Source: localSrc},
		{Tool: "bash", Spec: "go:*", Source: userSrc},
		{Tool: "bash", Spec: "npm:*", Source: localSrc},
		{Tool: "edit"},
		{Tool: "bash", Spec: "cargo:*", Source: Source{Name: "low", Rank: -3, Trusted: true}},
	} {
		if err := e.Grant(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, r := range e.Policy().Allow {
		got = append(got, r.String()+"@"+r.Source.Name)
	}
	want := []string{"bash(git status:*)@managed", "bash(make:*)@local", "bash(npm:*)@local", "bash(ls:*)@user",
		"bash(go:*)@user", "read@", "edit@", "bash(cargo:*)@low"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Policy().Allow = %q, want %q", got, want)
	}
	if set := e.PolicyOf("local"); set.Source != localSrc || len(set.Allow) != 2 {
		t.Errorf("PolicyOf(local) = %+v, want the source its rules carry", set)
	}
}
