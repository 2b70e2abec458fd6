package claudecode

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestPathRules is the table of spec §5.3 over its project tree, and the
// anchors of §5.1 and §5.2, each row decided by the engine.
func TestPathRules(t *testing.T) {
	rows := []matchRow{
		{list: Allow, rule: "Edit(src/**)", tool: "Edit", args: file("<cwd>/src/app.ts"), match: true},
		{list: Allow, rule: "Edit(src/**)", tool: "Edit", args: file("<cwd>/vendor/pkg/src/lib.js"), match: false},
		{list: Deny, rule: "Edit(src/**)", tool: "Edit", args: file("<cwd>/src/app.ts"), match: true},
		{list: Deny, rule: "Edit(src/**)", tool: "Edit", args: file("<cwd>/vendor/pkg/src/lib.js"), match: true},
		{list: Ask, rule: "Edit(src/**)", tool: "Edit", args: file("<cwd>/vendor/pkg/src/lib.js"), match: true},
		{rule: "Edit(/src/**)", tool: "Edit", args: file("<cwd>/src/app.ts"), match: true},
		{rule: "Edit(/src/**)", tool: "Edit", args: file("<cwd>/vendor/pkg/src/lib.js"), match: false},
		{rule: "Edit(**/src/**)", tool: "Edit", args: file("<cwd>/src/app.ts"), match: true},
		{rule: "Edit(**/src/**)", tool: "Edit", args: file("<cwd>/vendor/pkg/src/lib.js"), match: true},
		{list: Deny, rule: "Read(.env)", tool: "Read", args: file("<cwd>/.env"), match: true},
		{list: Deny, rule: "Read(.env)", tool: "Read", args: file("<cwd>/app/.env"), match: true},
		{list: Deny, rule: "Read(.env)", tool: "Read", args: file("<cwd>/../.env"), match: false},
		{list: Deny, rule: "Read(.env)", tool: "Read", args: file("/elsewhere/other/.env"), match: false},
		{list: Deny, rule: "Read(//**/.env)", tool: "Read", args: file("/elsewhere/other/.env"), match: true},
		{list: Deny, rule: "Read(//**/.env)", tool: "Read", args: file("<cwd>/../.env"), match: true},
		{list: Deny, rule: "Read(*.env)", tool: "Read", args: file("<cwd>/x/b.env"), match: true},
		{list: Deny, rule: "Read(*.env)", tool: "Read", args: file("<cwd>/a.envy"), match: false},
		{rule: "Read(~/Documents/*.pdf)", tool: "Read", args: file("~/Documents/a.pdf"), match: true},
		{rule: "Read(~/Documents/*.pdf)", tool: "Read", args: file("~/Documents/x/a.pdf"), match: false},
		{rule: "Edit(/docs/**)", tool: "Edit", args: file("<cwd>/docs/a.md"), match: true},
		{rule: "Edit(/docs/**)", tool: "Edit", args: file("/docs/a.md"), match: false},
		{rule: "Edit(/docs/**)", tool: "Edit", args: file("<cwd>/.claude/docs/a.md"), match: false},
		{rule: "Edit(//tmp/scratch.txt)", tool: "Edit", args: file("/tmp/scratch.txt"), match: true},
		{scope: ScopeUser, rule: "Read(/secrets/**)", tool: "Read", args: file("~/.claude/secrets/k"), match: true},
		{scope: ScopeUser, rule: "Read(/secrets/**)", tool: "Read", args: file("<cwd>/secrets/k"), match: false},
		{list: Deny, rule: "Edit(docs/**)", tool: "Write", args: file("<cwd>/docs/new.md"), match: true},
		{list: Deny, rule: "Read(./secrets/**)", tool: "Write", args: file("<cwd>/secrets/new.txt"), match: true},
		{list: Deny, rule: "Read(./secrets/**)", tool: "Edit", args: file("<cwd>/secrets/new.txt"), match: true},
		{list: Deny, rule: "Write(docs/**)", tool: "Write", args: file("<cwd>/docs/new.md"), match: false},
		{list: Deny, rule: "Write", tool: "Write", args: file("<cwd>/docs/new.md"), match: true},
		{rule: "Edit(./Finance (2024)/**)", tool: "Edit", args: file("<cwd>/Finance (2024)/a.xlsx"), match: true},
		{rule: "Read(/Users/alice/file)", tool: "Read", args: file("<cwd>/Users/alice/file"), match: true},
		{rule: "Read(/Users/alice/file)", tool: "Read", args: file("/Users/alice/file"), match: false},
		// Read rules govern Grep and Glob on the directory they search.
		{list: Deny, rule: "Read(./secrets/**)", tool: "Grep", args: map[string]any{"pattern": "key", "path": "<cwd>/secrets/a"}, match: true},
		{list: Deny, rule: "Read(./secrets/**)", tool: "Glob", args: map[string]any{"pattern": "*", "path": "secrets"}, match: true},
		{list: Allow, rule: "Read(src/**)", tool: "Glob", args: map[string]any{"pattern": "**/*.ts", "path": "<cwd>/src"}, match: true},
		// An Edit allow also grants reading; a Read allow grants no edit.
		{list: Allow, rule: "Edit(src/**)", tool: "Read", args: file("<cwd>/src/app.ts"), match: true},
		{list: Allow, rule: "Read(src/**)", tool: "Edit", args: file("<cwd>/src/app.ts"), match: false},
		// Paths are cleaned before matching, so ".." escapes nothing.
		{list: Deny, rule: "Read(./.env)", tool: "Read", args: file("<cwd>/src/../.env"), match: true},
		{list: Deny, rule: "Read(./.env)", tool: "Read", args: file("src/../.env"), match: true},
		{list: Allow, rule: "Read(src/**)", tool: "Read", args: file("<cwd>/src/../.env"), match: false},
		{list: Deny, rule: "Read(~/.ssh/**)", tool: "Read", args: file("~/.ssh/../.ssh/id_rsa"), match: true},
		// "~/**" is the home directory, not a directory named "~" at any
		// depth.
		{list: Deny, rule: "Read(~/**)", tool: "Read", args: file("~/notes.txt"), match: true},
		{list: Ask, rule: "Read(~/**)", tool: "Read", args: file("~/a/b.txt"), match: true},
		{list: Deny, rule: "Read(~/**)", tool: "Read", args: file("/elsewhere/notes.txt"), match: false},
		// An unusable pattern protects its literal path and approves
		// nothing (spec §5.4).
		{list: Deny, rule: "Read([abc)", tool: "Read", args: file("<cwd>/[abc"), match: true},
		{list: Allow, rule: "Read([abc)", tool: "Read", args: file("<cwd>/[abc"), match: false},
		// Braces are literal, as in gitignore.
		{list: Deny, rule: "Read({a,b}.txt)", tool: "Read", args: file("<cwd>/a.txt"), match: false},
		{list: Deny, rule: "Read({a,b}.txt)", tool: "Read", args: file("<cwd>/{a,b}.txt"), match: true},
		// A bare directory name excludes what is inside it, as a
		// gitignore line does.
		{list: Deny, rule: "Read(secrets)", tool: "Read", args: file("<cwd>/app/secrets/k"), match: true},
		// A trailing "*" stands for nothing too: ".env*" covers ".env".
		{rule: "Read(**/.env*)", tool: "Read", args: file("<cwd>/.env"), match: true},
		{rule: "Read(**/.env*)", tool: "Read", args: file("<cwd>/app/.env.local"), match: true},
		{rule: "Read(**/.env*)", tool: "Read", args: file("<cwd>/app/x.env"), match: false},
		{rule: "Read(.env*)", tool: "Read", args: file("<cwd>/app/.env"), match: true},
		{rule: "Read(secrets/key*)", tool: "Read", args: file("<cwd>/secrets/key"), match: true},
		{rule: "Read(secrets/key*)", tool: "Read", args: file("<cwd>/secrets/ke"), match: false},
		{rule: `Read(secrets/key\*)`, tool: "Read", args: file("<cwd>/secrets/key"), match: false},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
}

// TestEvaluation is the table of spec §3.1: deny before ask before allow,
// whatever the rules' order or specificity.
func TestEvaluation(t *testing.T) {
	rows := []struct {
		rules lists
		tool  string
		args  map[string]any
		want  string
	}{
		{lists{Deny: []string{"Bash(aws *)"}, Allow: []string{"Bash(aws s3 ls)"}}, "Bash", cmd("aws s3 ls"), "deny"},
		{lists{Ask: []string{"Bash(git *)"}, Allow: []string{"Bash(git status)"}}, "Bash", cmd("git status"), "ask"},
		{lists{Deny: []string{"Read(./.env)"}, Allow: []string{"Read"}}, "Read", file("<cwd>/.env"), "deny"},
		{lists{Allow: []string{"Bash"}}, "Bash", cmd("rm -rf build"), "allow"},
		{lists{Deny: []string{"mcp__*"}}, "mcp__github__get_issue", map[string]any{}, "deny"},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), r.rules.file())
		if v := w.decide(r.tool, r.args); outcome(v) != r.want {
			t.Errorf("%+v on %s %v: got %s (%s), want %s", r.rules, r.tool, r.args, outcome(v), v.Reason, r.want)
		}
	}
	// A bare deny, a Tool(*) deny and a tool-name glob remove the tool
	// from the offer; a scoped deny keeps it (spec §3.2).
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Deny: []string{"WebSearch", "Bash(*)", "mcp__*", "WebFetch(domain:*)"}}.file())
	eng := w.engine(w.load())
	for tool, removed := range map[string]bool{"WebSearch": true, "Bash": true, "mcp__x__y": true, "WebFetch": false} {
		if _, ok := eng.Removes(tool); ok != removed {
			t.Errorf("Removes(%s) = %v, want %v", tool, ok, removed)
		}
	}
}

// TestNegation is spec §5.5: a "!" takes paths back from the relative
// path rules before it, in its own list of its own file only.
func TestNegation(t *testing.T) {
	rows := []struct {
		name  string
		files map[Scope]lists
		path  string
		want  string
	}{
		// A path the carve-out takes back is read as any path inside the
		// working directory is: allowed.
		{"carve-out", map[Scope]lists{ScopeProject: {Deny: []string{"Read(*.env)", "Read(!sample.env)"}}}, "<cwd>/app/sample.env", "allow"},
		{"rest still blocked", map[Scope]lists{ScopeProject: {Deny: []string{"Read(*.env)", "Read(!sample.env)"}}}, "<cwd>/app/prod.env", "deny"},
		{"listed first removes nothing", map[Scope]lists{ScopeProject: {Deny: []string{"Read(!sample.env)", "Read(*.env)"}}}, "<cwd>/sample.env", "deny"},
		{"other file untouched", map[Scope]lists{ScopeManaged: {Deny: []string{"Read(*.env)"}}, ScopeProject: {Deny: []string{"Read(!sample.env)"}}}, "<cwd>/sample.env", "deny"},
		{"same scope other file untouched", map[Scope]lists{ScopeUser: {Deny: []string{"Read(*.env)"}}, ScopeProject: {Deny: []string{"Read(!sample.env)"}}}, "<cwd>/sample.env", "deny"},
		{"anchor after ! is relative", map[Scope]lists{ScopeProject: {Deny: []string{"Read(~/notes/**)", "Read(!~/notes/public/**)"}}}, "~/notes/public/a.md", "deny"},
		{"directory blocked whole", map[Scope]lists{ScopeProject: {Deny: []string{"Read(secrets/**)", "Read(!secrets/public/**)"}}}, "<cwd>/secrets/public/x", "deny"},
		{"edits follow the read carve-out", map[Scope]lists{ScopeProject: {Deny: []string{"Read(*.env)", "Read(!sample.env)"}}}, "<cwd>/sample.env", "allow"},
		{"anchored rule not reached", map[Scope]lists{ScopeProject: {Deny: []string{"Read(//tmp/*.env)", "Read(!sample.env)"}}}, "/tmp/sample.env", "deny"},
		{"ask list", map[Scope]lists{ScopeProject: {Ask: []string{"Read(*.env)", "Read(!sample.env)"}, Allow: []string{"Read"}}}, "<cwd>/sample.env", "allow"},
	}
	for _, r := range rows {
		w := newWorld(t)
		for scope, l := range r.files {
			w.write(w.scopeFile(scope), l.file())
		}
		if v := w.decide("Read", file(r.path)); outcome(v) != r.want {
			t.Errorf("%s: got %s (%s), want %s", r.name, outcome(v), v.Reason, r.want)
		}
	}
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Deny: []string{"Read(*.env)", "Read(!sample.env)"}}.file())
	if v := w.decide("Edit", file("<cwd>/sample.env")); v.Rule != nil || outcome(v) != "ask" {
		t.Errorf("Edit of sample.env: decided by %s, want the carve-out to reach the Read deny's edit rule", v.Rule)
	}
	w2 := newWorld(t)
	w2.write(w2.scopeFile(ScopeProject), lists{Allow: []string{"Read(!x)"}, Deny: []string{"Read(!y)"}}.file())
	if n := len(w2.load().Problems()); n != 2 {
		t.Errorf("a ! in allow and a ! reaching nothing: %d problems, want 2", n)
	}
}

// TestSymlinks is the table of spec §5.6: an allow rule must match the
// requested path and the resolved one, a deny rule either.
func TestSymlinks(t *testing.T) {
	w := newWorld(t)
	rel := func(p string) string { return w.expand(p)[1:] }
	links := fstest.MapFS{
		rel("<cwd>/project/key"):  {Data: []byte(w.expand("~/.ssh/id_rsa")), Mode: fs.ModeSymlink},
		rel("<cwd>/project/link"): {Data: []byte("/opt/x"), Mode: fs.ModeSymlink},
		rel("~/.ssh/id_rsa"):      {Data: []byte("key")},
		"opt/x":                   {Data: []byte("x")},
		rel("<cwd>/loop/a"):       {Data: []byte("b"), Mode: fs.ModeSymlink},
		rel("<cwd>/loop/b"):       {Data: []byte("a"), Mode: fs.ModeSymlink},
	}
	w.matcherOpt = Options{Links: links}
	rows := []struct {
		rules lists
		path  string
		want  string
	}{
		{lists{Allow: []string{"Read(./project/**)"}, Deny: []string{"Read(~/.ssh/**)"}}, "<cwd>/project/key", "deny"},
		{lists{Allow: []string{"Read(./project/**)"}}, "<cwd>/project/link", "ask"},
		{lists{Allow: []string{"Read(./project/**)", "Read(//opt/**)"}}, "<cwd>/project/link", "allow"},
		{lists{Allow: []string{"Read"}}, "<cwd>/loop/a", "deny"},
		{lists{Allow: []string{"Read(./project/**)"}}, "<cwd>/project/new.txt", "allow"},
	}
	for _, r := range rows {
		w.write(w.scopeFile(ScopeProject), r.rules.file())
		if v := w.decide("Read", file(r.path)); outcome(v) != r.want {
			t.Errorf("%+v on %s: got %s (%s), want %s", r.rules, r.path, outcome(v), v.Reason, r.want)
		}
	}
}

// TestWebFetchRules is the table of spec §6.1.
func TestWebFetchRules(t *testing.T) {
	rows := []matchRow{
		{rule: "WebFetch(domain:example.com)", tool: "WebFetch", args: fetch("https://example.com/x"), match: true},
		{rule: "WebFetch(domain:example.com)", tool: "WebFetch", args: fetch("https://EXAMPLE.com./x"), match: true},
		{rule: "WebFetch(domain:example.com)", tool: "WebFetch", args: fetch("https://api.example.com/"), match: false},
		{rule: "WebFetch(domain:*.example.com)", tool: "WebFetch", args: fetch("https://api.example.com/"), match: true},
		{rule: "WebFetch(domain:*.example.com)", tool: "WebFetch", args: fetch("https://a.b.example.com/"), match: true},
		{rule: "WebFetch(domain:*.example.com)", tool: "WebFetch", args: fetch("https://example.com/"), match: false},
		{rule: "WebFetch(domain:example.*)", tool: "WebFetch", args: fetch("https://example.org/"), match: true},
		{rule: "WebFetch(domain:example.*)", tool: "WebFetch", args: fetch("https://example.evil.example/"), match: false},
		{rule: "WebFetch(domain:api.*.example.com)", tool: "WebFetch", args: fetch("https://api.eu.example.com/"), match: true},
		{rule: "WebFetch(domain:api.*.example.com)", tool: "WebFetch", args: fetch("https://api.a.b.example.com/"), match: false},
		{rule: "WebFetch(domain:*)", tool: "WebFetch", args: fetch("https://anything.example/"), match: true},
		{rule: "WebFetch", tool: "WebFetch", args: fetch("https://anything.example/"), match: true},
		// The host is what the fetch reaches: userinfo is not the host,
		// and the port and scheme play no part.
		{rule: "WebFetch(domain:github.com)", tool: "WebFetch", args: fetch("https://github.com@evil.example/x"), match: false},
		{list: Deny, rule: "WebFetch(domain:evil.example)", tool: "WebFetch", args: fetch("https://github.com@evil.example/x"), match: true},
		{rule: "WebFetch(domain:example.com)", tool: "WebFetch", args: fetch("http://example.com:8080/x"), match: true},
		{rule: "WebFetch(domain:[::1])", tool: "WebFetch", args: fetch("http://[::1]:443/"), match: true},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
	// A URL whose host two parsers could read differently is refused
	// before any rule, an allow of every host included.
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"WebFetch"}}.file())
	eng := w.engine(w.load())
	for _, u := range []string{`https://evil.example\@github.com/`, "https://exa mple.com/", "file:///etc/passwd", "example.com/x", "https:///x"} {
		if v := w.would(eng, "WebFetch", fetch(u)); outcome(v) != "deny" {
			t.Errorf("%q: got %s (%s), want deny", u, outcome(v), v.Reason)
		}
	}
}

// TestMCPRules is the table of spec §6.3 and the tool-name globs of §2.3.
func TestMCPRules(t *testing.T) {
	rows := []matchRow{
		{list: Deny, rule: "mcp__puppeteer", tool: "mcp__puppeteer__navigate", match: true},
		{list: Ask, rule: "mcp__puppeteer", tool: "mcp__puppeteer__navigate", match: true},
		{list: Deny, rule: "mcp__puppeteer__*", tool: "mcp__puppeteer__navigate", match: true},
		{list: Ask, rule: "mcp__puppeteer__*", tool: "mcp__puppeteer__navigate", match: true},
		{rule: "mcp__puppeteer__puppeteer_navigate", tool: "mcp__puppeteer__puppeteer_navigate", match: true},
		{rule: "mcp__puppeteer__puppeteer_navigate", tool: "mcp__puppeteer__click", match: false},
		{list: Deny, rule: "mcp__*", tool: "mcp__any__tool", match: true},
		{list: Ask, rule: "mcp__*", tool: "mcp__any__tool", match: true},
		{list: Allow, rule: "mcp__*", tool: "mcp__any__tool", match: false},
		{list: Allow, rule: "mcp__git*__x", tool: "mcp__github__x", match: false},
		{list: Deny, rule: "mcp__github__create_issue(repo:x)", tool: "mcp__github__create_issue", match: false},
		{rule: "mcp__pup", tool: "mcp__puppeteer__x", match: false},
		{list: Deny, rule: "B*", tool: "Bash", args: cmd("ls"), match: true},
		{list: Deny, rule: "*", tool: "Read", args: file("<cwd>/a"), match: true},
		{list: Allow, rule: "*", tool: "Read", args: file("<cwd>/a"), match: false},
		// A parenthesised MCP rule is skipped in a settings file, a star
		// included; in deny and ask the star is the bare name.
		{list: Allow, rule: "mcp__puppeteer(*)", tool: "mcp__puppeteer__navigate", match: false},
		{list: Allow, rule: "mcp__puppeteer__*(*)", tool: "mcp__puppeteer__navigate", match: false},
		{list: Allow, rule: "B*(*)", tool: "Bash", args: cmd("ls"), match: false},
		{list: Deny, rule: "mcp__puppeteer(*)", tool: "mcp__puppeteer__navigate", match: true},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
	// An allow over a whole server or a glob after its prefix is
	// expanded over the tool names the host gives Policy.
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"mcp__github__get_*", "mcp__puppeteer", "mcp__slack__*"}}.file())
	s := w.load()
	p, err := s.Policy("mcp__github__get_issue", "mcp__github__list_prs", "mcp__puppeteer__navigate", "mcp__slack__post")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, r := range p.Allow {
		if !builtin(r.Source) {
			allowed[r.Tool] = true
		}
	}
	want := map[string]bool{"mcp__github__get_issue": true, "mcp__puppeteer__navigate": true, "mcp__slack__post": true}
	if len(allowed) != len(want) || !allowed["mcp__github__get_issue"] || !allowed["mcp__puppeteer__navigate"] || !allowed["mcp__slack__post"] {
		t.Errorf("allowed %v, want %v", allowed, want)
	}
	eng, err := buildWith(s, p)
	if err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]string{"mcp__github__get_issue": "allow", "mcp__github__list_prs": "ask", "mcp__puppeteer__navigate": "allow"} {
		if v := wouldRaw(t, eng, tool, []byte("{}")); outcome(v) != want {
			t.Errorf("%s: got %s (%s), want %s", tool, outcome(v), v.Reason, want)
		}
	}
}

// TestAgentAndSkill is spec §6.4.
func TestAgentAndSkill(t *testing.T) {
	rows := []matchRow{
		{rule: "Agent(Explore)", tool: "Agent", args: map[string]any{"subagent_type": "Explore", "prompt": "x"}, match: true},
		{rule: "Agent(Explore)", tool: "Agent", args: map[string]any{"subagent_type": "Plan", "prompt": "x"}, match: false},
		{rule: "Task(my-custom-agent)", tool: "Agent", args: map[string]any{"subagent_type": "my-custom-agent"}, match: true},
		{rule: "Task", tool: "Agent", args: map[string]any{"subagent_type": "Plan"}, match: true},
		{rule: "Skill(commit)", tool: "Skill", args: map[string]any{"skill": "commit"}, match: true},
		{list: Allow, rule: "Skill(commit)", tool: "Skill", args: map[string]any{"skill": "commit", "args": "-m x"}, match: false},
		{list: Deny, rule: "Skill(commit)", tool: "Skill", args: map[string]any{"skill": "commit", "args": "-m x"}, match: true},
		{rule: "Skill(review-pr *)", tool: "Skill", args: map[string]any{"skill": "review-pr", "args": "123"}, match: true},
		{rule: "Skill(review-pr *)", tool: "Skill", args: map[string]any{"skill": "review-pr"}, match: true},
		{rule: "Skill(review-pr *)", tool: "Skill", args: map[string]any{"skill": "review-prs"}, match: false},
		{list: Deny, rule: "Skill", tool: "Skill", args: map[string]any{"skill": "x"}, match: true},
		{list: Deny, rule: "Skill(skill:commit)", tool: "Skill", args: map[string]any{"skill": "commit", "args": "x"}, match: true},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
	// Arguments that say two things are refused, not matched.
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Deny: []string{"Agent(Explore)"}, Allow: []string{"Agent"}}.file())
	eng := w.engine(w.load())
	if v := wouldRaw(t, eng, "Agent", []byte(`{"subagent_type":"Explore","subagent_type":"Plan"}`)); outcome(v) != "deny" {
		t.Errorf("duplicate subagent_type: got %s (%s), want deny", outcome(v), v.Reason)
	}
}

// TestSpecExample loads the settings file of spec §1.8 as a project file
// and decides the calls its rules name.
func TestSpecExample(t *testing.T) {
	w := newWorld(t)
	data, err := os.ReadFile("testdata/example/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	w.write(w.scopeFile(ScopeProject), string(data))
	s := w.load()
	if s.Mode() != ModeAcceptEdits || len(s.Problems()) != 0 {
		t.Fatalf("Mode %s, problems %v", s.Mode(), s.Problems())
	}
	if dirs := s.AdditionalDirectories(); len(dirs) != 1 || dirs[0] != filepath.Join(w.root, "docs") {
		t.Errorf("AdditionalDirectories = %v", dirs)
	}
	p, err := s.Policy("mcp__github__get_issue", "mcp__github__create_issue")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := buildWith(s, p)
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"Bash", cmd("npm run lint"), "allow"},
		{"Bash", cmd("git push origin main"), "ask"},
		{"Bash", cmd("curl https://x.example"), "deny"},
		{"Read", file("<cwd>/.env"), "deny"},
		{"Read", file("<cwd>/.env.production"), "deny"},
		{"Read", file("<cwd>/secrets/k"), "deny"},
		{"Edit", file("<cwd>/.env"), "deny"},
		{"Read", file("~/.zshrc"), "allow"},
		{"mcp__github__get_issue", map[string]any{}, "allow"},
		{"mcp__github__create_issue", map[string]any{}, "ask"},
	}
	for _, r := range rows {
		if v := w.would(eng, r.tool, r.args); outcome(v) != r.want {
			t.Errorf("%s %v: got %s (%s), want %s", r.tool, r.args, outcome(v), v.Reason, r.want)
		}
	}
}

// TestSkippedForms: the rule forms spec §2.1, §2.2 and §5.8 say Claude
// Code skips or never consults are reported, and nothing is built for them.
func TestSkippedForms(t *testing.T) {
	for _, rule := range []string{"Bash(ls) x", "Bash(", "Cd(~/code/*)", "Cd(**/node_modules)", "Glob(src/**)", "NotebookEdit(x)", "WebSearch(x)", "WebFetch(https://x.example)", "(x)", "Bash()"} {
		for _, list := range []string{Allow, Ask, Deny} {
			w := newWorld(t)
			w.write(w.scopeFile(ScopeProject), in(list, rule).file())
			s := w.load()
			f := s.Files()[0]
			if len(s.Problems()) != 1 || len(f.Entries[0].Rules) != 0 {
				t.Errorf("%s %s: problems %v, rules %v", list, rule, s.Problems(), f.Entries[0].Rules)
			}
		}
	}
	// A bare Cd in deny disables the user's /cd; there is no model tool to
	// take it from, and the rule is kept as Claude Code keeps it.
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Deny: []string{"Cd"}}.file())
	if s := w.load(); len(s.Problems()) != 0 {
		t.Errorf("bare Cd: problems %v", s.Problems())
	}
}
