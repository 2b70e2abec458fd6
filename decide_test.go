package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// andSplit is a test splitter over {"command"}: it splits on " && ",
// reads a part "> path" as a write to path by the edit tool, refuses a
// backtick, and returns no subjects for an empty command.
func andSplit(args json.RawMessage) ([]Subject, error) {
	var a struct{ Command string }
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if strings.Contains(a.Command, "`") {
		return nil, errors.New("backticks are not supported")
	}
	if a.Command == "" {
		return nil, nil
	}
	var subjects []Subject
	for _, part := range strings.Split(a.Command, " && ") {
		if path, ok := strings.CutPrefix(part, "> "); ok {
			data, _ := json.Marshal(map[string]string{"path": path})
			subjects = append(subjects, Subject{Tool: "edit", Args: data, Text: path})
			continue
		}
		subjects = append(subjects, Subject{Args: shellArgs(part), Text: part})
	}
	return subjects, nil
}

// expect is what a test expects of a verdict.
type expect struct {
	action  agentturn.ToolAction
	rule    string
	reason  string
	subject string
}

// check compares the verdict with w.
func (w expect) check(t *testing.T, v Verdict) {
	t.Helper()
	rule := ""
	if v.Rule != nil {
		rule = v.Rule.String()
	}
	if v.Action != w.action || rule != w.rule || v.Reason != w.reason || v.Subject != w.subject {
		t.Errorf("verdict = {%s %q %q subject %q}, want {%s %q %q subject %q}",
			actionWord(v.Action), rule, v.Reason, v.Subject, actionWord(w.action), w.rule, w.reason, w.subject)
	}
}

func TestDecidePrecedence(t *testing.T) {
	p := Policy{
		Allow: parseOrFail(t, "read bash(git:*) bash(rm -i:*)"),
		Deny:  parseOrFail(t, "bash(rm:*) bash(git push --force:*) bash(rm -rf:*)"),
		Ask:   parseOrFail(t, "bash(git push:*) edit"),
	}
	for _, tc := range []struct {
		name string
		d    Default
		tool string
		args json.RawMessage
		want expect
	}{
		{"deny", Ask(), "bash", shellArgs("rm -rf /"), expect{agentturn.Block, "bash(rm:*)", "denied by bash(rm:*)", ""}},
		{"deny before ask", Ask(), "bash", shellArgs("git push --force"), expect{agentturn.Block, "bash(git push --force:*)", "denied by bash(git push --force:*)", ""}},
		{"deny before allow", Allow(), "bash", shellArgs("rm -i x"), expect{agentturn.Block, "bash(rm:*)", "denied by bash(rm:*)", ""}},
		{"ask before allow", Allow(), "bash", shellArgs("git push origin"), expect{agentturn.Defer, "bash(git push:*)", "approval required by bash(git push:*)", ""}},
		{"allow", Deny(), "bash", shellArgs("git status"), expect{agentturn.Allow, "bash(git:*)", "allowed by bash(git:*)", ""}},
		{"bare allow", Deny(), "read", json.RawMessage(`{"path":"/etc/hosts"}`), expect{agentturn.Allow, "read", "allowed by read", ""}},
		{"bare ask", Allow(), "edit", json.RawMessage(`{"path":"a"}`), expect{agentturn.Defer, "edit", "approval required by edit", ""}},
		{"default deny", Deny(), "bash", shellArgs("ls"), expect{agentturn.Block, "", "no rule allows bash: denied by default", ""}},
		{"default ask", Ask(), "bash", shellArgs("ls"), expect{agentturn.Defer, "", "no rule allows bash: approval required by default", ""}},
		{"default allow", Allow(), "bash", shellArgs("ls"), expect{agentturn.Allow, "", "allowed by default", ""}},
		{"default for a tool no rule names", Deny(), "fetch", json.RawMessage(`{}`), expect{agentturn.Block, "", "no rule allows fetch: denied by default", ""}},
		{"default ask for a tool no rule names", Ask(), "fetch", json.RawMessage(`{}`), expect{agentturn.Defer, "", "no rule allows fetch: approval required by default", ""}},
		{"arguments that are not JSON are not evaluated", Allow(), "bash", json.RawMessage(`rm -rf /`), expect{agentturn.Block, "", "bash call could not be evaluated: ambiguous arguments: invalid JSON at byte 0", ""}},
		{"a tool whose rules read no arguments is not held to one reading", Deny(), "fetch", json.RawMessage(`{"url":"a","url":"b"}`), expect{agentturn.Block, "", "no rule allows fetch: denied by default", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, p.WithDefault(tc.d), shellMatchers())
			v, err := e.Would(context.Background(), callInfo(tc.tool, tc.args))
			if err != nil {
				t.Fatal(err)
			}
			tc.want.check(t, v)
		})
	}
}

func TestDecideCitesTheFirstMatchingRule(t *testing.T) {
	managed := Source{Name: "managed", Trusted: true, Rank: 9}
	user := Source{Name: "user", Trusted: true}
	p, err := Merge(
		RuleSet{Source: user, Deny: parseOrFail(t, "bash(rm:*)")},
		RuleSet{Source: managed, Deny: parseOrFail(t, "bash(rm -rf:*)")},
	)
	if err != nil {
		t.Fatal(err)
	}
	e := mustBuild(t, p.WithDefault(Allow()), shellMatchers())
	v, _ := e.Would(context.Background(), callInfo("bash", shellArgs("rm -rf /")))
	expect{agentturn.Block, "bash(rm -rf:*)", "denied by bash(rm -rf:*)", ""}.check(t, v)
	if v.Rule.Source != managed {
		t.Errorf("source = %+v, want the managed source, ranked first", v.Rule.Source)
	}
}

func TestDecideReasonsCiteNotes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source Source
		reason string
	}{
		{"trusted source", Source{Name: "user", Trusted: true}, "denied by bash(curl:*): outbound network is proxied; use fetch"},
		{"unnamed source", Source{}, "denied by bash(curl:*): outbound network is proxied; use fetch"},
		{"named untrusted source", Source{Name: "repo"}, "denied by bash(curl:*)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rule := Rule{Tool: "bash", Spec: "curl:*", Source: tc.source, Note: "outbound network is proxied; use fetch"}
			e := mustBuild(t, Policy{Deny: []Rule{rule}, Default: Allow()}, shellMatchers())
			v, _ := e.Would(context.Background(), callInfo("bash", shellArgs("curl example.com")))
			if v.Reason != tc.reason {
				t.Errorf("reason = %q, want %q", v.Reason, tc.reason)
			}
			if v.Rule == nil || v.Rule.Note != rule.Note {
				t.Errorf("Verdict.Rule = %+v, want the rule with its note", v.Rule)
			}
		})
	}
}

func TestDecideHonoursToolNameGlobs(t *testing.T) {
	matchers := map[string]ToolMatcher{"mcp__fs__read": {Match: PrefixMatcher("path")}}
	for _, tc := range []struct {
		name string
		p    Policy
		tool string
		want expect
	}{
		{"deny glob for an unnamed tool", Policy{Deny: parseOrFail(t, "mcp__*")}, "mcp__github__push",
			expect{agentturn.Block, "mcp__*", "denied by mcp__*", ""}},
		{"deny glob for a named tool", Policy{Deny: parseOrFail(t, "mcp__*"), Allow: parseOrFail(t, "mcp__fs__read")}, "mcp__fs__read",
			expect{agentturn.Block, "mcp__*", "denied by mcp__*", ""}},
		{"ask glob before the tool's own rule", Policy{Ask: parseOrFail(t, "mcp__* mcp__fs__read")}, "mcp__fs__read",
			expect{agentturn.Defer, "mcp__*", "approval required by mcp__*", ""}},
		{"tool's own rule before a later glob", Policy{Ask: parseOrFail(t, "mcp__fs__read mcp__*")}, "mcp__fs__read",
			expect{agentturn.Defer, "mcp__fs__read", "approval required by mcp__fs__read", ""}},
		{"glob in the middle of a name", Policy{Ask: parseOrFail(t, "mcp__*__push")}, "mcp__github__push",
			expect{agentturn.Defer, "mcp__*__push", "approval required by mcp__*__push", ""}},
		{"glob that does not match", Policy{Deny: parseOrFail(t, "mcp__*")}, "MCP__github",
			expect{agentturn.Allow, "", "allowed by default", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, tc.p.WithDefault(Allow()), matchers)
			v, _ := e.Would(context.Background(), callInfo(tc.tool, json.RawMessage(`{"path":"a"}`)))
			tc.want.check(t, v)
		})
	}
}

func TestDecideCarveOuts(t *testing.T) {
	managed := Source{Name: "managed", Trusted: true, Rank: 9}
	user := Source{Name: "user", Trusted: true, Rank: 1}
	repo := Source{Name: "repo", Rank: 1}
	low := Source{Name: "low", Trusted: true}
	rule := func(tool, spec string, src Source) Rule { return Rule{Tool: tool, Spec: spec, Source: src} }
	envArgs := json.RawMessage(`{"path":".env.example"}`)
	for _, tc := range []struct {
		name string
		p    Policy
		want expect
	}{
		{"a carve-out of equal rank cancels the match",
			Policy{Deny: []Rule{rule("read", ".env:*", user), rule("read", "!.env.example", repo)}},
			expect{agentturn.Allow, "", "allowed by default", ""}},
		{"a carve-out of a higher rank cancels the match",
			Policy{Deny: []Rule{rule("read", ".env:*", user), rule("read", "!.env.example", managed)}},
			expect{agentturn.Allow, "", "allowed by default", ""}},
		{"a carve-out of a lower rank does not",
			Policy{Deny: []Rule{rule("read", ".env:*", managed), rule("read", "!.env.example", repo)}},
			expect{agentturn.Block, "read(.env:*)", "denied by read(.env:*)", ""}},
		{"a carve-out whose pattern does not match does not",
			Policy{Deny: []Rule{rule("read", ".env:*", user), rule("read", "!.env.local", user)}},
			expect{agentturn.Block, "read(.env:*)", "denied by read(.env:*)", ""}},
		{"a carve-out of another list does not",
			Policy{Deny: []Rule{rule("read", ".env:*", user)}, Ask: []Rule{rule("read", "!.env.example", managed)}},
			expect{agentturn.Block, "read(.env:*)", "denied by read(.env:*)", ""}},
		{"a carve-out reaches a bare rule",
			Policy{Ask: []Rule{rule("read", "", low), rule("read", "!.env.example", user)}},
			expect{agentturn.Allow, "", "allowed by default", ""}},
		{"a later rule the carve-out does not reach still matches",
			Policy{Deny: []Rule{rule("read", ".env:*", managed), rule("read", ".env:*", user), rule("read", "!.env.example", user)}},
			expect{agentturn.Block, "read(.env:*)", "denied by read(.env:*)", ""}},
		{"the cancelled rule gives way to the next list",
			Policy{Deny: []Rule{rule("read", ".env:*", user), rule("read", "!.env.example", user)}, Ask: []Rule{rule("read", "", low)}},
			expect{agentturn.Defer, "read", "approval required by read", ""}},
		{"a carve-out reaches a tool-name glob for its tool",
			Policy{Deny: []Rule{rule("re*", "", low), rule("read", "!.env.example", low)}},
			expect{agentturn.Allow, "", "allowed by default", ""}},
		{"a carve-out on its own matches nothing",
			Policy{Deny: []Rule{rule("read", "!.env.example", low)}},
			expect{agentturn.Allow, "", "allowed by default", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, tc.p.WithDefault(Allow()), shellMatchers())
			v, _ := e.Would(context.Background(), callInfo("read", envArgs))
			tc.want.check(t, v)
		})
	}
}

func TestDecideFoldsSubjects(t *testing.T) {
	p := Policy{
		Allow:   parseOrFail(t, "bash(git:*) bash(ls:*) bash(echo:*)"),
		Deny:    parseOrFail(t, "bash(rm:*) edit(/etc/:*)"),
		Ask:     parseOrFail(t, "bash(git push:*) bash(./deploy:*)"),
		Default: Deny(),
	}
	matchers := map[string]ToolMatcher{
		"bash": {Match: PrefixMatcher("command"), Subjects: andSplit},
		"edit": {Match: PrefixMatcher("path")},
	}
	e := mustBuild(t, p, matchers)
	for _, tc := range []struct {
		name string
		cmd  string
		want expect
	}{
		{"one subject keeps its reason", "rm -rf /", expect{agentturn.Block, "bash(rm:*)", "denied by bash(rm:*)", "rm -rf /"}},
		{"a denied half blocks the call", "git status && rm -rf /",
			expect{agentturn.Block, "bash(rm:*)", `denied by bash(rm:*) on "rm -rf /"; nothing in this command ran, including "git status"`, "rm -rf /"}},
		{"two others", "ls && rm -rf / && git status",
			expect{agentturn.Block, "bash(rm:*)", `denied by bash(rm:*) on "rm -rf /"; nothing in this command ran, including "ls" and "git status"`, "rm -rf /"}},
		{"three others, each once", "ls && rm -rf / && ls && git status && echo hi",
			expect{agentturn.Block, "bash(rm:*)", `denied by bash(rm:*) on "rm -rf /"; nothing in this command ran, including "ls", "git status" and "echo hi"`, "rm -rf /"}},
		{"the winner's text is not listed again", "rm -rf / && rm -rf /",
			expect{agentturn.Block, "bash(rm:*)", `denied by bash(rm:*) on "rm -rf /"; nothing in this command ran`, "rm -rf /"}},
		{"the first of two blocks wins", "rm a && git push && rm b",
			expect{agentturn.Block, "bash(rm:*)", `denied by bash(rm:*) on "rm a"; nothing in this command ran, including "git push" and "rm b"`, "rm a"}},
		{"a block beats an earlier ask", "git push && rm a",
			expect{agentturn.Block, "bash(rm:*)", `denied by bash(rm:*) on "rm a"; nothing in this command ran, including "git push"`, "rm a"}},
		{"a default block is compound too", "ls && make",
			expect{agentturn.Block, "", `no rule allows bash: denied by default on "make"; nothing in this command ran, including "ls"`, "make"}},
		{"a block by default beats a later ask", "npm run build && ./deploy --prod",
			expect{agentturn.Block, "", `no rule allows bash: denied by default on "npm run build"; nothing in this command ran, including "./deploy --prod"`, "npm run build"}},
		{"an ask defers the call", "git status && ./deploy --prod",
			expect{agentturn.Defer, "bash(./deploy:*)", "approval required by bash(./deploy:*)", "./deploy --prod"}},
		{"every subject allowed", "git status && ls -la",
			expect{agentturn.Allow, "bash(git:*)", "allowed by bash(git:*)", "git status"}},
		{"a redirect is decided under the file tool", "echo hi && > /etc/passwd",
			expect{agentturn.Block, "edit(/etc/:*)", `denied by edit(/etc/:*) on "/etc/passwd"; nothing in this command ran, including "echo hi"`, "/etc/passwd"}},
		{"a redirect no rule names takes the file tool's default", "echo hi && > notes.txt",
			expect{agentturn.Block, "", `no rule allows edit: denied by default on "notes.txt"; nothing in this command ran, including "echo hi"`, "notes.txt"}},
		{"a splitter error blocks", "echo `id`",
			expect{agentturn.Block, "", "bash call could not be evaluated: backticks are not supported", ""}},
		{"an empty split blocks", "",
			expect{agentturn.Block, "", "bash call could not be evaluated: splitter returned no subjects", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, _ := e.Would(context.Background(), callInfo("bash", shellArgs(tc.cmd)))
			tc.want.check(t, v)
		})
	}
}

func TestDecideBlocksWhenTheContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := mustBuild(t, Policy{Allow: parseOrFail(t, "read"), Default: Allow()}, nil)
	d, err := e.Decide(ctx, callInfo("read", json.RawMessage(`{}`)))
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != agentturn.Block || d.Reason != "read call could not be evaluated: context canceled" {
		t.Errorf("decision = %v %q, want a block that says the call could not be evaluated", d.Action, d.Reason)
	}
}

func TestDecideConstraintSubjects(t *testing.T) {
	// The skill tool reports the files it will read as constraints.
	skillSplit := func(args json.RawMessage) ([]Subject, error) {
		var a struct{ Reads []string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		var subjects []Subject
		for _, path := range a.Reads {
			data, _ := json.Marshal(map[string]string{"path": path})
			subjects = append(subjects, Subject{Tool: "read", Args: data, Text: path, Constrain: true})
		}
		return subjects, nil
	}
	matchers := map[string]ToolMatcher{"skill": {Subjects: skillSplit}, "read": {Match: PrefixMatcher("path")}}
	for _, tc := range []struct {
		name string
		p    Policy
		args string
		want expect
	}{
		{"an ask rule asks about the constraint", Policy{Allow: parseOrFail(t, "skill"), Ask: parseOrFail(t, "read(.env:*)"), Default: Deny()},
			`{"reads":[".env"]}`, expect{agentturn.Defer, "read(.env:*)", "approval required by read(.env:*)", ".env"}},
		{"a deny rule blocks it", Policy{Allow: parseOrFail(t, "skill"), Deny: parseOrFail(t, "read(.env:*)"), Default: Allow()},
			`{"reads":["README.md",".env"]}`, expect{agentturn.Block, "read(.env:*)", `denied by read(.env:*) on ".env"; nothing in this command ran, including "README.md"`, ".env"}},
		{"a constraint no rule matches adds nothing", Policy{Allow: parseOrFail(t, "skill"), Ask: parseOrFail(t, "read(.env:*)"), Default: Deny()},
			`{"reads":["README.md"]}`, expect{agentturn.Allow, "skill", "allowed by skill", ""}},
		{"a constraint never allows", Policy{Allow: parseOrFail(t, "read"), Default: Ask()},
			`{"reads":["README.md"]}`, expect{agentturn.Defer, "", "no rule allows skill: approval required by default", ""}},
		{"the call's own arguments come first", Policy{Deny: parseOrFail(t, "skill"), Ask: parseOrFail(t, "read"), Default: Allow()},
			`{"reads":["a"]}`, expect{agentturn.Block, "skill", "denied by skill", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, tc.p, matchers)
			v, _ := e.Would(context.Background(), callInfo("skill", json.RawMessage(tc.args)))
			tc.want.check(t, v)
		})
	}
}

func TestDecideConstraintAlongsideOrdinarySubjects(t *testing.T) {
	split := func(json.RawMessage) ([]Subject, error) {
		return []Subject{
			{Args: shellArgs("make"), Text: "make"},
			{Tool: "read", Args: json.RawMessage(`{"path":"notes"}`), Text: "notes", Constrain: true},
		}, nil
	}
	matchers := map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command"), Subjects: split}, "read": {Match: PrefixMatcher("path")}}
	e := mustBuild(t, Policy{Allow: parseOrFail(t, "bash(make:*)"), Default: Deny()}, matchers)
	v, _ := e.Would(context.Background(), callInfo("bash", shellArgs("make")))
	expect{agentturn.Allow, "bash(make:*)", "allowed by bash(make:*)", "make"}.check(t, v)
}

func TestDecideConfinement(t *testing.T) {
	const sandbox = "landlock+seccomp"
	matchers := map[string]ToolMatcher{
		"bash": {Match: PrefixMatcher("command"), Subjects: andSplit},
		"edit": {Match: PrefixMatcher("path")},
	}
	base := Policy{Deny: parseOrFail(t, "bash(rm:*)"), Ask: parseOrFail(t, "bash bash(sandbox:escalated) edit"), Default: Deny()}
	for _, tc := range []struct {
		name     string
		p        Policy
		tool     agenttool.Tool
		called   string
		cmd      string
		want     expect
		confined string
	}{
		{"a bare ask is skipped", base, confinedTool("bash", sandbox), "bash", "make",
			expect{agentturn.Allow, "bash", "confined by landlock+seccomp, so bash does not ask", "make"}, sandbox},
		{"unnamed confinement", base, confinedTool("bash", ""), "bash", "make",
			expect{agentturn.Allow, "bash", "confined, so bash does not ask", "make"}, ""},
		{"a deny still applies", base, confinedTool("bash", sandbox), "bash", "rm -rf src",
			expect{agentturn.Block, "bash(rm:*)", "denied by bash(rm:*)", "rm -rf src"}, sandbox},
		{"an ask with a specifier still asks", base, confinedTool("bash", sandbox), "bash", "sandbox:escalated",
			expect{agentturn.Defer, "bash(sandbox:escalated)", "approval required by bash(sandbox:escalated)", "sandbox:escalated"}, sandbox},
		{"another tool's subject is not confined", base, confinedTool("bash", sandbox), "bash", "make && > out.txt",
			expect{agentturn.Defer, "edit", "approval required by edit", "out.txt"}, sandbox},
		{"an unresolved tool is not confined", base, nil, "bash", "make",
			expect{agentturn.Defer, "bash", "approval required by bash", "make"}, ""},
		{"a tool that claims nothing asks", base, agenttool.NewFunc("bash", "", nil, nil), "bash", "make",
			expect{agentturn.Defer, "bash", "approval required by bash", "make"}, ""},
		{"the default still applies", Policy{Default: Ask()}, confinedTool("fmt", sandbox), "fmt", "",
			expect{agentturn.Defer, "", "no rule allows fmt: approval required by default", ""}, sandbox},
		{"the note is not part of the skipped rule", Policy{Ask: []Rule{{Tool: "bash", Note: "shell"}}, Default: Deny()}, confinedTool("bash", sandbox), "bash", "make",
			expect{agentturn.Allow, "bash", "confined by landlock+seccomp, so bash does not ask", "make"}, sandbox},
		{"a glob naming the tool is skipped", Policy{Ask: parseOrFail(t, "mcp__*"), Default: Deny()}, confinedTool("mcp__fs", sandbox), "mcp__fs", "",
			expect{agentturn.Allow, "mcp__*", "confined by landlock+seccomp, so mcp__* does not ask", ""}, sandbox},
		{"the skipped ask stands in the allow rules' place", Policy{Allow: parseOrFail(t, "bash(make:*)"), Ask: parseOrFail(t, "bash"), Default: Deny()},
			confinedTool("bash", sandbox), "bash", "make", expect{agentturn.Allow, "bash", "confined by landlock+seccomp, so bash does not ask", "make"}, sandbox},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, tc.p, matchers)
			info := callInfo(tc.called, shellArgs(tc.cmd))
			info.Tool = tc.tool
			v, _ := e.Would(context.Background(), info)
			tc.want.check(t, v)
			if v.Confined != tc.confined {
				t.Errorf("Confined = %q, want %q", v.Confined, tc.confined)
			}
		})
	}
}

func TestWithConfinementReplacesTheReading(t *testing.T) {
	p := Policy{Ask: parseOrFail(t, "bash"), Default: Deny()}
	info := callInfo("bash", shellArgs("ls"))
	info.Tool = confinedTool("bash", "container")
	ctx := context.Background()

	off := mustBuild(t, p, nil, WithConfinement(nil))
	v, _ := off.Would(ctx, info)
	expect{agentturn.Defer, "bash", "approval required by bash", ""}.check(t, v)
	if v.Confined != "" {
		t.Errorf("Confined = %q with the reading off", v.Confined)
	}

	var gotTool agenttool.Tool
	var gotArgs string
	own := mustBuild(t, p, nil, WithConfinement(func(_ context.Context, tool agenttool.Tool, args json.RawMessage) (bool, string) {
		gotTool, gotArgs = tool, string(args)
		return true, "read-only"
	}))
	v, _ = own.Would(ctx, info)
	expect{agentturn.Allow, "bash", "confined by read-only, so bash does not ask", ""}.check(t, v)
	if gotTool != info.Tool || gotArgs != string(info.Args) {
		t.Errorf("the reading was given %v %s, want the call's tool and arguments", gotTool, gotArgs)
	}
}

func TestDecideNamesTheCallAndThePolicy(t *testing.T) {
	e := mustBuild(t, Policy{Deny: parseOrFail(t, "bash(rm:*)"), Default: Allow()}, shellMatchers())
	info := callInfo("bash", shellArgs("rm x"))
	info.RunID, info.Turn, info.Call.CallID = "run_9", 4, "call_3"
	var seen []Verdict
	e2 := mustBuild(t, e.Policy(), shellMatchers(), WithObserver(func(_ context.Context, v Verdict) { seen = append(seen, v) }))
	d, err := e2.Decide(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != agentturn.Block || d.Reason != "denied by bash(rm:*)" || d.By != "policy" || d.Held || d.Subject != "" {
		t.Errorf("decision = %+v", d)
	}
	if len(seen) != 1 {
		t.Fatalf("observer saw %d verdicts, want 1", len(seen))
	}
	v := seen[0]
	if v.RunID != "run_9" || v.Turn != 4 || v.CallID != "call_3" || v.Tool != "bash" || v.By != ByPolicy || v.Action != d.Action || v.Reason != d.Reason {
		t.Errorf("verdict = %+v", v)
	}
	v.Rule.Spec = "changed"
	if again, _ := e2.Would(context.Background(), info); again.Rule.Spec != "rm:*" {
		t.Errorf("changing Verdict.Rule changed the engine's rule: %+v", again.Rule)
	}
}

func TestObserversSeeEveryDecisionOnceInOrder(t *testing.T) {
	var log []string
	observer := func(name string) func(context.Context, Verdict) {
		return func(_ context.Context, v Verdict) { log = append(log, name+":"+v.CallID) }
	}
	e := mustBuild(t, Policy{Default: Allow()}, nil, WithObserver(observer("a")), WithObserver(nil), WithObserver(observer("b")))
	ctx := context.Background()
	for _, id := range []string{"call_1", "call_2"} {
		info := callInfo("read", json.RawMessage(`{}`))
		info.Call.CallID = id
		if _, err := e.Decide(ctx, info); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Would(ctx, callInfo("read", json.RawMessage(`{}`))); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, " "), "a:call_1 b:call_1 a:call_2 b:call_2"; got != want {
		t.Errorf("observers saw %q, want %q (Would tells no observer)", got, want)
	}
}

func TestWouldMatchesDecide(t *testing.T) {
	e := mustBuild(t, Policy{Ask: parseOrFail(t, "bash(git push:*)"), Allow: parseOrFail(t, "bash(git:*)"), Default: Deny()},
		map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command"), Subjects: andSplit}})
	for _, cmd := range []string{"git status", "git status && git push", "ls", "`x`"} {
		info := callInfo("bash", shellArgs(cmd))
		v, _ := e.Would(context.Background(), info)
		d, _ := e.Decide(context.Background(), info)
		if d.Action != v.Action || d.Reason != v.Reason || d.Subject != v.Subject || d.By != v.By {
			t.Errorf("%s: Decide %+v, Would %+v", cmd, d, v)
		}
	}
}

func TestWouldWithoutTheModelsCallNamesTheTool(t *testing.T) {
	e := mustBuild(t, Policy{Ask: parseOrFail(t, "fetch"), Default: Allow()}, nil)
	info := agentturn.ToolCallInfo{Tool: agenttool.NewFunc("fetch", "", nil, nil), Args: json.RawMessage(`{}`)}
	v, err := e.Would(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	if v.Tool != "fetch" || v.CallID != "" {
		t.Errorf("verdict names tool %q call %q, want fetch and no call", v.Tool, v.CallID)
	}
	expect{agentturn.Defer, "fetch", "approval required by fetch", ""}.check(t, v)
}

// TestVerdictsHandedOutAreCopies changes the rule of every verdict the
// engine hands out, to its journal and its observers, from Would,
// Deferred and Answers (a replay the policy allows and one it denies): the
// engine's rules, and so every later verdict, stay as they were.
func TestVerdictsHandedOutAreCopies(t *testing.T) {
	vandalise := func(v Verdict) {
		if v.Rule != nil {
			*v.Rule = Rule{Tool: "changed", Spec: "changed", Source: Source{Name: "changed", Rank: 99}}
		}
	}
	e := mustBuild(t, gitPolicy(t), shellMatchers(),
		WithJournal(JournalFunc(func(_ context.Context, v Verdict) error { vandalise(v); return nil })),
		WithObserver(func(_ context.Context, v Verdict) { vandalise(v) }))
	ctx := context.Background()
	want := map[string]string{
		"ls -la":   "allowed by bash(ls:*)",
		"git push": "approval required by bash(git push:*)",
		"rm -rf /": "denied by bash(rm:*)",
	}
	check := func(after string) {
		t.Helper()
		for cmd, reason := range want {
			v, err := e.Would(ctx, callInfo("bash", shellArgs(cmd)))
			if err != nil || v.Reason != reason || v.Rule == nil || v.Rule.Tool != "bash" || v.Rule.Source.Rank != 0 {
				t.Errorf("after %s, Would(%q) = %+v, %v", after, cmd, v, err)
			}
			vandalise(v)
		}
	}
	for cmd := range want {
		if _, err := e.Decide(ctx, callInfo("bash", shellArgs(cmd))); err != nil {
			t.Fatal(err)
		}
	}
	check("the journal and the observers changed what Decide gave them")
	check("Would's callers changed what it gave them")
	if v, ok := e.Deferred("run_1", "call_1"); ok {
		vandalise(v)
	} else {
		t.Fatal("the asked call was not remembered")
	}
	check("Deferred's caller changed what it gave")
	safe := replayBash(agenttool.ReplaySafe, "")
	for _, cmd := range []string{"ls -la", "rm -rf /"} {
		if _, err := e.Answers(ctx, &fixedReview{rev: Review{Outcome: Refused}}, cutEnd(cmd, safe)); err != nil {
			t.Fatal(err)
		}
		check("the observers changed the verdict of a replay of " + cmd)
	}
}
