package claudecode

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// TestBuiltin is spec §3.3 to §3.5 as far as rules express it: reads in
// the working directories, edits there in acceptEdits, and protected
// paths that no allow rule approves, in each mode.
func TestBuiltin(t *testing.T) {
	rows := []struct {
		mode  Mode
		rules lists
		tool  string
		args  map[string]any
		want  string
	}{
		{ModeDefault, lists{}, "Read", file("<cwd>/src/a.go"), "allow"},
		{ModeDefault, lists{}, "Grep", map[string]any{"pattern": "x"}, "allow"},
		{ModeDefault, lists{}, "Read", file("/opt/other/a.go"), "ask"},
		{ModeDefault, lists{}, "Read", file("<cwd>/../sibling/a.go"), "ask"},
		{ModeDefault, lists{}, "Read", file("<docs>/guide.md"), "allow"},
		{ModeDefault, lists{Deny: []string{"Read(.env)"}}, "Read", file("<cwd>/.env"), "deny"},
		{ModeDefault, lists{}, "Edit", file("<cwd>/src/a.go"), "ask"},
		{ModeAcceptEdits, lists{}, "Edit", file("<cwd>/src/a.go"), "allow"},
		{ModeAcceptEdits, lists{}, "Write", file("<docs>/new.md"), "allow"},
		{ModeAcceptEdits, lists{}, "Edit", file("/opt/other/a.go"), "ask"},
		{ModeAcceptEdits, lists{}, "Edit", file("<cwd>/.git/config"), "ask"},
		{ModeAcceptEdits, lists{}, "Write", file("<cwd>/sub/.bashrc"), "ask"},
		{ModeAcceptEdits, lists{}, "Edit", file("<cwd>/.claude/settings.json"), "ask"},
		{ModeAcceptEdits, lists{}, "Edit", file("<cwd>/.claude/worktrees/a/x.go"), "allow"},
		{ModeAcceptEdits, lists{}, "Edit", file("<cwd>/.github/workflows/ci.yml"), "allow"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("touch x.txt"), "allow"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("mkdir -p d/e"), "allow"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("mkdir -p /opt/other/d"), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("touch .git/x"), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("rm -rf ."), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("mv .claude x"), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("mv sub x"), "allow"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("cp settings.local.json .claude"), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("cp settings.local.json sub"), "allow"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("cp -rT sub .claude"), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("cp -rT sub other"), "allow"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("mv .git x"), "ask"},
		{ModeAcceptEdits, lists{}, "Bash", cmd("npm test"), "ask"},
		{ModeDefault, lists{}, "Bash", cmd("touch x.txt"), "ask"},
		{ModeDefault, lists{}, "Agent", map[string]any{"subagent_type": "Explore", "prompt": "x"}, "allow"},
		{ModePlan, lists{}, "Agent", map[string]any{"subagent_type": "Explore", "prompt": "x"}, "ask"},
		{ModeDefault, lists{}, "Skill", map[string]any{"skill": "greet"}, "allow"},
		{ModePlan, lists{}, "Skill", map[string]any{"skill": "greet"}, "allow"},
		{ModeDontAsk, lists{}, "Skill", map[string]any{"skill": "greet"}, "allow"},
		{ModeDefault, lists{Deny: []string{"Skill(greet)"}}, "Skill", map[string]any{"skill": "greet"}, "deny"},
		{ModeDefault, lists{Deny: []string{"Skill(*)"}}, "Skill", map[string]any{"skill": "greet"}, "deny"},
		{ModeDefault, lists{Deny: []string{"Skill(gr:*)"}}, "Skill", map[string]any{"skill": "greet"}, "deny"},
		{ModeDefault, lists{Deny: []string{"Skill(gr:*)"}}, "Skill", map[string]any{"skill": "other"}, "allow"},
		{ModeDefault, lists{Allow: []string{"WebFetch(*)"}}, "WebFetch", fetch("https://example.com/x"), "allow"},
		{ModeDefault, lists{Allow: []string{"Read(*)"}}, "Read", file("/opt/other/a.go"), "ask"},
		{ModeDefault, lists{Allow: []string{"Edit"}}, "Edit", file("~/.zshrc"), "ask"},
		{ModeDefault, lists{Allow: []string{"Bash(echo *)"}}, "Bash", cmd("echo x >> .bashrc"), "ask"},
		{ModeDontAsk, lists{}, "Read", file("<cwd>/src/a.go"), "allow"},
		{ModeDontAsk, lists{}, "Read", file("/opt/other/a.go"), "deny"},
		{ModeDontAsk, lists{Allow: []string{"Edit"}}, "Edit", file("<cwd>/.git/config"), "deny"},
		{ModeBypass, lists{}, "Edit", file("<cwd>/.git/config"), "allow"},
		{ModeBypass, lists{Deny: []string{"Edit(.git/**)"}}, "Edit", file("<cwd>/.git/config"), "deny"},
	}
	for _, r := range rows {
		w := newWorld(t)
		content := map[string]any{"permissions": map[string]any{
			"defaultMode": string(r.mode), "additionalDirectories": []string{"../docs"},
			"allow": r.rules.Allow, "deny": r.rules.Deny, "ask": r.rules.Ask,
		}}
		w.write(w.scopeFile(ScopeUser), mustJSON(t, content))
		args := map[string]any{}
		for k, v := range r.args {
			if s, ok := v.(string); ok && len(s) > 6 && s[:6] == "<docs>" {
				v = filepath.Join(w.root, "docs") + s[6:]
			}
			args[k] = v
		}
		if v := w.decide(r.tool, args); outcome(v) != r.want {
			t.Errorf("%s %+v: %s %v: got %s (%s), want %s", r.mode, r.rules, r.tool, r.args, outcome(v), v.Reason, r.want)
		}
	}
}

// TestBuiltinOutranksGrants: a front's "always allow" from a settings file
// cannot answer a protected path's question, since its rules outrank every
// file, and a read inside the working directories
// cites a file's own allow rule when one matches.
func TestBuiltinOutranksGrants(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeLocal), lists{Allow: []string{"Read(src/**)"}}.file())
	s := w.load()
	eng := w.engine(s)
	v := w.would(eng, "Edit", file("<cwd>/.git/config"))
	if outcome(v) != "ask" || v.Rule == nil || v.Rule.Source != ProtectedSource {
		t.Fatalf("got %s by %v", outcome(v), v.Rule)
	}
	if ProtectedSource.Rank <= ScopeManaged.rank() {
		t.Error("a settings file ranks at or above the protected paths' rules, so its grant could answer them")
	}
	local := s.Files()[0].Source
	if granted, reason := eng.GrantOver(context.Background(), v, agentpolicy.Rule{Tool: "Edit", Spec: ".git/**", Source: local}); granted {
		t.Error("a local grant answered a protected path's ask rule")
	} else if reason == "" {
		t.Error("the refused grant gives no reason")
	}
	if v := w.would(eng, "Edit", file("<cwd>/.git/config")); outcome(v) != "ask" {
		t.Errorf("after the refused grant: %s (%s)", outcome(v), v.Reason)
	}
	if v := w.would(eng, "Read", file("<cwd>/src/a.go")); v.Rule == nil || v.Rule.Source.Name != "local" {
		t.Errorf("read cited %v, want the local file's rule", v.Rule)
	}
}

// TestGrantOverFileRules: the ranks Load gives make "always allow" work as
// Claude Code's own prompt does: a local grant answers the project's ask
// rule, and cannot answer the managed file's.
func TestGrantOverFileRules(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Ask: []string{"Bash(git push *)"}}.file())
	w.write(w.scopeFile(ScopeManaged), lists{Ask: []string{"Bash(npm publish *)"}}.file())
	w.write(w.scopeFile(ScopeLocal), lists{}.file())
	s := w.load()
	eng := w.engine(s)
	var local agentpolicy.Source
	for _, f := range s.Files() {
		if f.Scope == ScopeLocal {
			local = f.Source
		}
	}
	ctx := context.Background()
	v := w.would(eng, "Bash", cmd("git push origin main"))
	if granted, reason := eng.GrantOver(ctx, v, agentpolicy.Rule{Tool: "Bash", Spec: "git push:*", Source: local}); !granted {
		t.Fatalf("local grant over the project's ask: %s", reason)
	}
	if v := w.would(eng, "Bash", cmd("git push origin main")); outcome(v) != "allow" {
		t.Errorf("after the grant: %s (%s)", outcome(v), v.Reason)
	}
	v = w.would(eng, "Bash", cmd("npm publish --tag x"))
	if granted, _ := eng.GrantOver(ctx, v, agentpolicy.Rule{Tool: "Bash", Spec: "npm publish:*", Source: local}); granted {
		t.Error("a local grant answered the managed file's ask rule")
	}
}
