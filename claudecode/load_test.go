package claudecode

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// fixture copies testdata/scopes into a temporary directory, away from any
// git repository, and returns the options that read it.
func fixture(t *testing.T) (LoadOptions, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/scopes")); err != nil {
		t.Fatal(err)
	}
	return LoadOptions{
		Project:    filepath.Join(root, "proj"),
		Home:       filepath.Join(root, "home"),
		ConfigDir:  filepath.Join(root, "home", ".claude"),
		ManagedDir: filepath.Join(root, "managed"),
		Trusted:    true,
		Tracked:    func(string) (bool, error) { return false, nil },
	}, root
}

func TestLoadScopes(t *testing.T) {
	opts, root := fixture(t)
	s, err := Load(opts)
	var fe *FileError
	if !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, "20-broken.json") || fe.Line != 3 || fe.Column != 27 {
		t.Fatalf("Load error = %v, want the broken drop-in rejected at 3:27", err)
	}
	if s == nil {
		t.Fatal("Load returned no settings beside the rejected file")
	}
	want := []struct {
		name  string
		scope Scope
		rank  int
		path  string
	}{
		{"managed", ScopeManaged, 50, "managed/managed-settings.json"},
		{"managed.d/10-network.json", ScopeManaged, 50, "managed/managed-settings.d/10-network.json"},
		{"local", ScopeLocal, 30, "proj/.claude/settings.local.json"},
		{"project", ScopeProject, 20, "proj/.claude/settings.json"},
		{"user", ScopeUser, 10, "home/.claude/settings.json"},
	}
	files := s.Files()
	if len(files) != len(want) {
		t.Fatalf("read %d files, want %d: %+v", len(files), len(want), files)
	}
	for i, w := range want {
		f := files[i]
		path := filepath.Join(root, w.path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if f.Source.Name != w.name || f.Scope != w.scope || f.Source.Rank != w.rank || f.Source.Path != path ||
			f.Source.Hash != "sha256:"+hex.EncodeToString(sum[:]) || !f.Source.Trusted {
			t.Errorf("file %d = %+v, want %s %s rank %d at %s with its hash, trusted", i, f.Source, w.name, w.scope, w.rank, path)
		}
	}
	sets := s.RuleSets()
	if len(sets) != len(files) || sets[0].Source != files[0].Source || len(sets[0].Deny) != 3 {
		t.Errorf("RuleSets = %+v, want one per file, the managed file's three deny rules (a Read deny is two)", sets)
	}
	// auto from the project file is ignored for the built-in default,
	// not for the user file's acceptEdits (spec §1.5).
	if s.Mode() != ModeDefault {
		t.Errorf("Mode = %s, want default", s.Mode())
	}
	dirs := []string{filepath.Join(root, "home", "shared"), filepath.Join(root, "docs")}
	if got := s.AdditionalDirectories(); !slices.Equal(got, dirs) {
		t.Errorf("AdditionalDirectories = %v, want %v", got, dirs)
	}
}

func TestLoadProblems(t *testing.T) {
	opts, root := fixture(t)
	s, _ := Load(opts)
	project := filepath.Join(root, "proj", ".claude", "settings.json")
	want := []Problem{
		{Path: filepath.Join(root, "managed", "managed-settings.d", "20-broken.json"), Index: -1},
		{Path: project, List: Allow, Index: 3, Rule: "42", Reason: "not a string"},
		{Path: project, List: Allow, Index: 4, Rule: "Bash(", Reason: "malformed Tool(content) rule"},
		{Path: project, List: Allow, Index: 5, Rule: "Write(docs/**)"},
	}
	got := s.Problems()
	if len(got) != len(want) {
		t.Fatalf("Problems = %v, want %d", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Path != w.Path || g.List != w.List || g.Index != w.Index || g.Rule != w.Rule || (w.Reason != "" && g.Reason != w.Reason) || g.Reason == "" {
			t.Errorf("problem %d = %+v, want %+v", i, g, w)
		}
	}
	if !strings.HasPrefix(got[0].Reason, "line 3, column 27: invalid JSON") {
		t.Errorf("rejected file's problem %q does not say where", got[0])
	}
	if line := got[2].String(); line != project+`: permissions.allow[4] "Bash(": malformed Tool(content) rule` {
		t.Errorf("String = %q", line)
	}
	// The linter's view: every entry of the project file, in order, with
	// what it became.
	var projectFile File
	for _, f := range s.Files() {
		if f.Scope == ScopeProject {
			projectFile = f
		}
	}
	if n := len(projectFile.Entries); n != 11 {
		t.Fatalf("project entries = %d, want 11", n)
	}
	e := projectFile.Entries[0]
	if e.List != Deny || e.Index != 0 || e.Text != "Bash(npm *)" || len(e.Rules) != 1 || e.Rules[0].String() != "Bash(npm:*)" {
		t.Errorf("first entry = %+v", e)
	}
}

// TestLoadUnion is the table of spec §1.3 over real files: lists from
// every scope are unioned and decided deny, ask, allow.
func TestLoadUnion(t *testing.T) {
	rows := []struct {
		name    string
		files   map[Scope]lists
		command string
		want    string
	}{
		{"user allows, project denies", map[Scope]lists{ScopeUser: {Allow: []string{"Bash(npm test)"}}, ScopeProject: {Deny: []string{"Bash(npm *)"}}}, "npm test", "deny"},
		{"project allows, user denies", map[Scope]lists{ScopeProject: {Allow: []string{"Bash(npm test)"}}, ScopeUser: {Deny: []string{"Bash(npm test)"}}}, "npm test", "deny"},
		{"user allows, project denies (reverse)", map[Scope]lists{ScopeUser: {Deny: []string{"Bash(npm test)"}}, ScopeProject: {Allow: []string{"Bash(npm test)"}}}, "npm test", "deny"},
		{"managed denies, settings allows", map[Scope]lists{ScopeManaged: {Deny: []string{"Bash(curl *)"}}, ScopeCommandLine: {Allow: []string{"Bash(curl *)"}}}, "curl x", "deny"},
		{"local allows, project asks", map[Scope]lists{ScopeLocal: {Allow: []string{"Bash(git push *)"}}, ScopeProject: {Ask: []string{"Bash(git push *)"}}}, "git push origin", "ask"},
		{"allow from any scope", map[Scope]lists{ScopeUser: {Allow: []string{"Bash(make *)"}}}, "make all", "allow"},
	}
	for _, r := range rows {
		w := newWorld(t)
		for scope, l := range r.files {
			if scope == ScopeCommandLine {
				w.opts.Settings = append(w.opts.Settings, l.file())
				continue
			}
			w.write(w.scopeFile(scope), l.file())
		}
		if v := w.decide("Bash", cmd(r.command)); outcome(v) != r.want {
			t.Errorf("%s: got %s (%s), want %s", r.name, outcome(v), v.Reason, r.want)
		}
	}
}

func TestLoadFixtureDecisions(t *testing.T) {
	opts, _ := fixture(t)
	s, _ := Load(opts)
	p, err := s.Policy()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases()))
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		tool string
		args string
		want string
	}{
		{"Bash", `{"command":"curl https://x.example"}`, "deny"}, // managed deny beats the user allow
		{"Bash", `{"command":"npm test"}`, "deny"},               // project deny beats the user allow
		{"Bash", `{"command":"git push origin main"}`, "ask"},    // ask beats the local allow
		{"Bash", `{"command":"make all"}`, "allow"},              // local allow
		{"Read", `{"file_path":"` + opts.Project + `/src/a.go"}`, "allow"},
		{"Read", `{"file_path":"` + opts.Project + `/.env.local"}`, "deny"},
		{"Read", `{"file_path":"` + opts.ConfigDir + `/secrets/k"}`, "deny"}, // user "/" is ~/.claude
		{"WebFetch", `{"url":"https://a.evil.example/"}`, "deny"},            // drop-in
		{"Read", `{"file_path":"/etc/shadow"}`, "deny"},
	}
	for _, r := range rows {
		if v := wouldRaw(t, eng, r.tool, []byte(r.args)); outcome(v) != r.want {
			t.Errorf("%s %s: got %s (%s), want %s", r.tool, r.args, outcome(v), v.Reason, r.want)
		}
	}
}

func TestLoadTrust(t *testing.T) {
	opts, root := fixture(t)
	opts.Trusted = false
	s, _ := Load(opts)
	p, err := s.Policy()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Allow {
		if r.Source.Name == "project" {
			t.Errorf("untrusted project allow %s applies", r)
		}
	}
	withheld := 0
	for _, r := range p.Withheld {
		if r.Source.Name == "project" {
			withheld++
		}
	}
	if withheld == 0 {
		t.Error("the untrusted project's allow rules are not withheld")
	}
	denies := 0
	for _, r := range p.Deny {
		if r.Source.Name == "project" {
			denies++
		}
	}
	if denies == 0 {
		t.Error("the untrusted project's deny rules do not apply")
	}
	if slices.Contains(s.AdditionalDirectories(), filepath.Join(root, "docs")) {
		t.Error("the untrusted project's additional directory applies")
	}
	// A local file git tracks is gated like the project's.
	opts.Tracked = func(string) (bool, error) { return true, nil }
	if err := os.Mkdir(filepath.Join(opts.Project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, _ = Load(opts)
	for _, f := range s.Files() {
		if f.Scope == ScopeLocal && f.Source.Trusted {
			t.Error("a tracked local file is trusted without the user's answer")
		}
	}
	// So is one whose git answer is an error.
	opts.Tracked = func(string) (bool, error) { return false, errors.New("no git") }
	s, _ = Load(opts)
	for _, f := range s.Files() {
		if f.Scope == ScopeLocal && f.Source.Trusted {
			t.Error("a local file git could not answer for is trusted")
		}
	}
}

func TestLoadLocalSymlinkGated(t *testing.T) {
	w := newWorld(t)
	real := filepath.Join(w.root, "elsewhere")
	w.write(filepath.Join(real, "settings.local.json"), lists{Allow: []string{"Bash"}}.file())
	if err := os.Symlink(real, filepath.Join(w.cwd, ".claude")); err != nil {
		t.Fatal(err)
	}
	w.opts.Trusted = false
	s := w.load()
	files := s.Files()
	if len(files) != 1 || files[0].Scope != ScopeLocal || files[0].Source.Trusted {
		t.Fatalf("files = %+v, want the local file read untrusted", files)
	}
	if v := w.decide("Bash", cmd("make")); outcome(v) != "ask" {
		t.Errorf("make under the gated local allow: %s (%s), want ask", outcome(v), v.Reason)
	}
}

func TestLoadManagedRulesOnly(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeManaged), `{"allowManagedPermissionRulesOnly": true, "permissions": {"allow": ["Bash(make)"]}}`)
	w.write(w.scopeFile(ScopeUser), lists{Allow: []string{"Bash(npm *)"}, Deny: []string{"Bash(make)"}}.file())
	w.opts.Settings = []string{lists{Allow: []string{"Bash(go test)"}}.file()}
	s := w.load()
	if !s.ManagedRulesOnly() {
		t.Fatal("ManagedRulesOnly is off")
	}
	eng := w.engine(s)
	for command, want := range map[string]string{"make": "allow", "npm test": "ask", "go test": "ask"} {
		if v := w.would(eng, "Bash", cmd(command)); outcome(v) != want {
			t.Errorf("%s: got %s (%s), want %s", command, outcome(v), v.Reason, want)
		}
	}
	// The key is honoured only from a managed file.
	w2 := newWorld(t)
	w2.write(w2.scopeFile(ScopeUser), `{"allowManagedPermissionRulesOnly": true}`)
	if w2.load().ManagedRulesOnly() {
		t.Error("a user file turned on allowManagedPermissionRulesOnly")
	}
}

func TestLoadRejectsInvalid(t *testing.T) {
	rows := []struct {
		file         string
		line, column int
		says         string
	}{
		{"settings.json", 4, 5, "invalid JSON"},
		{"shape.json", 0, 0, "permissions.allow is not an array"},
		{"trailing.json", 1, 42, "invalid JSON"},
		{"array.json", 0, 0, "not a settings object"},
		{"null.json", 0, 0, "not a settings object"},
		{"string.json", 0, 0, "not a settings object"},
	}
	for _, r := range rows {
		w := newWorld(t)
		data, err := os.ReadFile(filepath.Join("testdata", "invalid", r.file))
		if err != nil {
			t.Fatal(err)
		}
		path := w.write(w.scopeFile(ScopeProject), string(data))
		w.write(w.scopeFile(ScopeUser), lists{Deny: []string{"Bash(rm *)"}}.file())
		s, err := Load(w.opts)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != path || fe.Line != r.line || fe.Column != r.column || !strings.Contains(err.Error(), r.says) {
			t.Errorf("%s: error %v, want %s at %d:%d saying %q", r.file, err, path, r.line, r.column, r.says)
			continue
		}
		if len(s.Files()) != 1 || s.Files()[0].Scope != ScopeUser {
			t.Errorf("%s: files %+v, want the user file alone", r.file, s.Files())
		}
	}
}

func TestLoadCommandLine(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(w.root, "ci")
	path := w.write(filepath.Join(dir, "ci.json"), lists{Deny: []string{"Read(/keys/**)"}, Allow: []string{"Bash(go test *)"}}.file())
	w.opts.Settings = []string{path, `{"permissions": {"deny": ["Bash(go test -run X)"]}}`}
	s := w.load()
	files := s.Files()
	if len(files) != 2 || files[0].Source.Name != "settings" || files[1].Source.Name != "settings#2" || files[1].Source.Path != "<inline #2>" || files[0].Source.Rank != 40 {
		t.Fatalf("files = %+v", files)
	}
	eng := w.engine(s)
	rows := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"Read", file(filepath.Join(dir, "keys", "k")), "deny"},
		{"Read", file("<cwd>/keys/k"), "allow"}, // not the file's /keys: a read in the working directory
		{"Bash", cmd("go test ./..."), "allow"},
		{"Bash", cmd("go test -run X"), "deny"},
	}
	for _, r := range rows {
		if v := w.would(eng, r.tool, r.args); outcome(v) != r.want {
			t.Errorf("%s %v: got %s (%s), want %s", r.tool, r.args, outcome(v), v.Reason, r.want)
		}
	}
	big := w.write(filepath.Join(dir, "big.json"), `{"x":"`+strings.Repeat("a", maxSettingsSize)+`"}`)
	w.opts.Settings = []string{big, dir}
	if _, err := Load(w.opts); err == nil || !strings.Contains(err.Error(), "2 MiB") || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Load of a large file and a directory: %v", err)
	}
}

func TestLoadSettingSourcesAndConfigDir(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Deny: []string{"Bash(a)"}}.file())
	w.write(w.scopeFile(ScopeLocal), lists{Deny: []string{"Bash(b)"}}.file())
	config := filepath.Join(w.root, "config")
	w.write(filepath.Join(config, "settings.json"), lists{Deny: []string{"Bash(c)"}}.file())
	w.opts.ConfigDir = ""
	t.Setenv("CLAUDE_CONFIG_DIR", config)
	w.opts.Sources = []string{"user", "local"}
	var names []string
	for _, f := range w.load().Files() {
		names = append(names, f.Source.Name+"="+f.Source.Path)
	}
	want := []string{"local=" + w.scopeFile(ScopeLocal), "user=" + filepath.Join(config, "settings.json")}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
}

func TestLoadGitRoot(t *testing.T) {
	w := newWorld(t)
	if err := os.Mkdir(filepath.Join(w.cwd, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(w.cwd, "pkg", "sub")
	rootLocal := w.write(filepath.Join(w.cwd, ".claude", "settings.local.json"), `{"permissions": {"deny": ["Bash(a)"], "defaultMode": "plan"}}`)
	startLocal := w.write(filepath.Join(sub, ".claude", "settings.local.json"), `{"permissions": {"deny": ["Bash(b)"], "defaultMode": "dontAsk"}}`)
	w.opts.Project = sub
	s := w.load()
	var got []string
	for _, f := range s.Files() {
		got = append(got, f.Source.Name+"="+f.Source.Path)
	}
	if want := []string{"local=" + rootLocal, "local-start=" + startLocal}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	if s.Mode() != ModePlan {
		t.Errorf("Mode = %s, want the root file's plan", s.Mode())
	}
	// A worktree's local file is the main checkout's.
	main := filepath.Join(w.root, "main")
	gitdir := filepath.Join(main, ".git", "worktrees", "wt")
	w.write(filepath.Join(gitdir, "commondir"), "../..\n")
	mainLocal := w.write(filepath.Join(main, ".claude", "settings.local.json"), `{}`)
	wt := filepath.Join(w.root, "wt")
	w.write(filepath.Join(wt, ".git"), "gitdir: "+gitdir+"\n")
	if dir := localDir(wt, w.home); dir != main {
		t.Errorf("localDir of a worktree = %s, want %s (%s)", dir, main, mainLocal)
	}
	// Outside a repository, and at a repository rooted at home, the
	// starting directory keeps it.
	outside := filepath.Join(w.root, "plain")
	if dir := localDir(outside, w.home); dir != outside {
		t.Errorf("localDir outside git = %s", dir)
	}
	if err := os.Mkdir(filepath.Join(w.home, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	inHome := filepath.Join(w.home, "notes")
	if dir := localDir(inHome, w.home); dir != inHome {
		t.Errorf("localDir in a repository at home = %s", dir)
	}
}

func TestLoadMode(t *testing.T) {
	rows := []struct {
		name      string
		files     map[Scope]string
		want      Mode
		untrusted bool
	}{
		{"none", nil, ModeDefault, false},
		{"user", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"acceptEdits"}}`}, ModeAcceptEdits, false},
		{"manual alias", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"manual"}}`}, ModeDefault, false},
		{"project over user", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"acceptEdits"}}`, ScopeProject: `{"permissions":{"defaultMode":"plan"}}`}, ModePlan, false},
		{"local over project", map[Scope]string{ScopeLocal: `{"permissions":{"defaultMode":"dontAsk"}}`, ScopeProject: `{"permissions":{"defaultMode":"plan"}}`}, ModeDontAsk, false},
		{"managed over all", map[Scope]string{ScopeManaged: `{"permissions":{"defaultMode":"default"}}`, ScopeLocal: `{"permissions":{"defaultMode":"dontAsk"}}`}, ModeDefault, false},
		{"auto from user", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"auto"}}`}, ModeAuto, false},
		{"auto from local ignored", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"plan"}}`, ScopeLocal: `{"permissions":{"defaultMode":"auto"}}`}, ModeDefault, false},
		{"auto disabled", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"auto"}}`, ScopeProject: `{"disableAutoMode":"disable"}`}, ModeDefault, false},
		{"bypass", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"bypassPermissions"}}`}, ModeBypass, false},
		{"bypass disabled", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"bypassPermissions"}}`, ScopeProject: `{"permissions":{"disableBypassPermissionsMode":"disable"}}`}, ModeDefault, false},
		{"unknown", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"yolo"}}`}, ModeDefault, false},
		// An untrusted project may not turn the prompts off; it may
		// ask for acceptEdits, which still asks outside the project.
		{"bypass from an untrusted project", map[Scope]string{ScopeProject: `{"permissions":{"defaultMode":"bypassPermissions"}}`}, ModeDefault, true},
		{"bypass from an untrusted project over user", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"plan"}}`, ScopeProject: `{"permissions":{"defaultMode":"bypassPermissions"}}`}, ModePlan, true},
		// Nor may a trusted one, nor the local file: Claude Code takes
		// bypassPermissions from the user's own file alone of the three.
		{"bypass from a trusted project ignored", map[Scope]string{ScopeProject: `{"permissions":{"defaultMode":"bypassPermissions"}}`}, ModeDefault, false},
		{"bypass from local ignored", map[Scope]string{ScopeLocal: `{"permissions":{"defaultMode":"bypassPermissions"}}`}, ModeDefault, false},
		{"bypass from the user, project untrusted", map[Scope]string{ScopeUser: `{"permissions":{"defaultMode":"bypassPermissions"}}`}, ModeBypass, true},
		{"acceptEdits from an untrusted project", map[Scope]string{ScopeProject: `{"permissions":{"defaultMode":"acceptEdits"}}`}, ModeAcceptEdits, true},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.opts.Trusted = !r.untrusted
		for scope, content := range r.files {
			w.write(w.scopeFile(scope), content)
		}
		s := w.load()
		if s.Mode() != r.want {
			t.Errorf("%s: Mode = %s, want %s", r.name, s.Mode(), r.want)
		}
	}
	defaults := map[Mode]string{ModeDefault: "ask", ModeAcceptEdits: "ask", ModePlan: "ask", ModeAuto: "ask", ModeDontAsk: "deny", ModeBypass: "allow"}
	for mode, want := range defaults {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeUser), `{"permissions":{"defaultMode":"`+string(mode)+`","ask":["Bash(git push *)"]}}`)
		eng := w.engine(w.load())
		if v := w.would(eng, "Bash", cmd("make")); outcome(v) != want {
			t.Errorf("%s: unmatched call %s, want %s", mode, outcome(v), want)
		}
		wantAsk := "ask"
		if mode == ModeDontAsk {
			wantAsk = "deny"
		}
		if v := w.would(eng, "Bash", cmd("git push origin")); outcome(v) != wantAsk {
			t.Errorf("%s: an ask rule gives %s, want %s", mode, outcome(v), wantAsk)
		}
	}
}

// TestGitTracked asks a real repository whether it tracks a file, as Load
// does when no Tracked is given.
func TestGitTracked(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	tracked := filepath.Join(dir, ".claude", "settings.local.json")
	untracked := filepath.Join(dir, "other.json")
	for _, p := range []string{tracked, untracked} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"permissions":{"allow":["Bash"]}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", ".claude/settings.local.json")
	git("commit", "-q", "-m", "x")
	if ok, err := gitTracked(tracked); !ok || err != nil {
		t.Errorf("gitTracked(tracked) = %v, %v", ok, err)
	}
	if ok, err := gitTracked(untracked); ok || err != nil {
		t.Errorf("gitTracked(untracked) = %v, %v", ok, err)
	}
	if _, err := gitTracked(filepath.Join(t.TempDir(), "x.json")); err == nil {
		t.Error("gitTracked outside a repository gave no error")
	}
	// Through Load: the tracked local file waits for the user's trust.
	home := t.TempDir()
	s, err := Load(LoadOptions{Project: dir, Home: home, ConfigDir: filepath.Join(home, ".claude"), ManagedDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	files := s.Files()
	if len(files) != 1 || files[0].Scope != ScopeLocal || files[0].Source.Trusted {
		t.Errorf("files = %+v, want the tracked local file untrusted", files)
	}
}

// LocalSource is the local file's own source when one was read, and the
// source it would have at the git root when none was: where an "always
// allow" is written either way.
func TestLoadLocalSource(t *testing.T) {
	w := newWorld(t)
	if err := os.Mkdir(filepath.Join(w.cwd, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(w.cwd, "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	w.opts.Project = sub
	want := agentpolicy.Source{Name: "local", Path: filepath.Join(w.cwd, ".claude", "settings.local.json"), Rank: ScopeLocal.rank(), Trusted: true}
	if got := w.load().LocalSource(); got != want {
		t.Errorf("LocalSource with no local file = %+v, want %+v", got, want)
	}
	w.write(want.Path, `{"permissions": {"allow": ["Bash(make)"]}}`)
	got := w.load().LocalSource()
	if got.Name != "local" || got.Path != want.Path || got.Rank != want.Rank || !got.Trusted || !strings.HasPrefix(got.Hash, "sha256:") {
		t.Errorf("LocalSource with a local file = %+v, want the file's source with its hash", got)
	}
	if got := (&Settings{}).LocalSource(); got != (agentpolicy.Source{}) {
		t.Errorf("LocalSource without a project = %+v, want the zero source", got)
	}
}

// TestUserAnchorRelativeConfigDir: a user rule's leading "/" is the user's
// settings directory even when that directory is named relative to the
// process's working directory ($CLAUDE_CONFIG_DIR=.claude-home, say), not
// a path under the project.
func TestUserAnchorRelativeConfigDir(t *testing.T) {
	w := newWorld(t)
	t.Chdir(w.root)
	w.opts.ConfigDir = "config"
	w.write(filepath.Join(w.root, "config", "settings.json"), lists{Deny: []string{"Read(/secrets/**)"}}.file())
	if v := w.decide("Read", file(filepath.Join(w.root, "config", "secrets", "k"))); outcome(v) != "deny" {
		t.Errorf("the user's secret: got %s (%s), want deny", outcome(v), v.Reason)
	}
	if v := w.decide("Read", file(filepath.Join(w.cwd, "config", "secrets", "k"))); outcome(v) != "allow" {
		t.Errorf("the project's config/secrets/k: got %s (%s), want allow", outcome(v), v.Reason)
	}
	// So is "~/" with a home named relative to the process.
	w = newWorld(t)
	t.Chdir(w.root)
	w.opts.Home = "home"
	w.write(w.scopeFile(ScopeProject), lists{Deny: []string{"Read(~/.ssh/**)"}}.file())
	if v := w.decide("Read", file(filepath.Join(w.home, ".ssh", "id"))); outcome(v) != "deny" {
		t.Errorf("~/.ssh/id under a relative home: got %s (%s), want deny", outcome(v), v.Reason)
	}
}
