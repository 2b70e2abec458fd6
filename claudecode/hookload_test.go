package claudecode

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A policy file is read as a managed file: its rules apply beside the
// others', under the source "policy", and they survive
// allowManagedPermissionRulesOnly, which drops the user's rules.
func TestLoadPolicies(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeUser), lists{Allow: []string{"Bash(git push *)", "Bash(make *)"}}.file())
	team := w.write(filepath.Join(w.root, "team", "policy.json"), `{"allowManagedPermissionRulesOnly": true, "permissions": {"deny": ["Bash(git push *)"], "allow": ["Bash(make test)"]}}`)
	w.opts.Policies = []string{team}
	s := w.load()
	var found *File
	for _, f := range s.Files() {
		if f.Source.Name == "policy" {
			found = &f
		}
	}
	if found == nil || found.Scope != ScopeManaged || found.Source.Path != team || found.Source.Rank != ScopeManaged.rank() || !found.Source.Trusted {
		t.Fatalf("policy file read as %+v, want a trusted managed file at %s", found, team)
	}
	eng := w.engine(s)
	for _, c := range []struct {
		command string
		want    string
	}{
		{"git push origin main", "deny"},
		{"make test", "allow"}, // the policy's own allow rule holds
		{"make build", "ask"},  // the user's allow rule is dropped
	} {
		if v := w.would(eng, "Bash", map[string]any{"command": c.command}); outcome(v) != c.want {
			t.Errorf("%s: %s %q, want %s", c.command, outcome(v), v.Reason, c.want)
		}
	}
}

// A policy file that is missing, or no regular file, is rejected with an
// error that names it, as a host that names a policy means it to hold.
func TestLoadPolicyMissing(t *testing.T) {
	w := newWorld(t)
	missing := filepath.Join(w.root, "nope.json")
	w.opts.Policies = []string{w.root, missing}
	_, err := Load(w.opts)
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("Load error = %v, want a FileError", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load error = %v, want the missing policy reported", err)
	}
	var paths []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if errors.As(e, &fe) {
			paths = append(paths, fe.Path)
		}
	}
	if len(paths) != 2 || paths[0] != w.root || paths[1] != missing {
		t.Errorf("rejected %v, want the directory and the missing file", paths)
	}
}

// The session's mode stands over the files' defaultMode; a mode Claude
// Code does not know leaves the files' own.
func TestLoadSessionMode(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeUser), `{"permissions": {"defaultMode": "acceptEdits"}}`)
	for _, c := range []struct {
		given Mode
		want  Mode
	}{
		{"", ModeAcceptEdits},
		{ModeBypass, ModeBypass},
		{ModeDontAsk, ModeDontAsk},
		{"manual", ModeDefault},
		{"yolo", ModeAcceptEdits},
	} {
		w.opts.Mode = c.given
		if got := w.load().Mode(); got != c.want {
			t.Errorf("Mode %q: session runs in %q, want %q", c.given, got, c.want)
		}
	}
}

func TestTrusted(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	sub := filepath.Join(repo, "sub")
	other := filepath.Join(home, "other")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := Trusted(home, repo); ok || err != nil {
		t.Fatalf("without .claude.json: Trusted = %v, %v; want false, nil", ok, err)
	}
	state := `{"projects": {"` + repo + `": {"hasTrustDialogAccepted": true}, "` + other + `": {"hasTrustDialogAccepted": false}}}`
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{repo: true, sub: true, other: false, home: false} {
		if ok, err := Trusted(home, dir); ok != want || err != nil {
			t.Errorf("Trusted(%s) = %v, %v; want %v", dir, ok, err, want)
		}
	}
	// $CLAUDE_CONFIG_DIR moves the file, as it moves Claude Code's.
	t.Setenv("CLAUDE_CONFIG_DIR", other)
	if ok, err := Trusted(home, repo); ok || err != nil {
		t.Errorf("with CLAUDE_CONFIG_DIR elsewhere: Trusted = %v, %v; want false, nil", ok, err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	// The record is read again at every call: a file changed in one byte,
	// its length the same, says what it now says.
	for _, trust := range []string{"false", "true ", "false"} {
		changed := `{"projects": {"` + repo + `": {"hasTrustDialogAccepted": ` + trust + `}}}`
		if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(changed), 0o600); err != nil {
			t.Fatal(err)
		}
		if ok, err := Trusted(home, repo); ok != (trust == "true ") || err != nil {
			t.Errorf("after the record became %s: Trusted = %v, %v", trust, ok, err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"projects": `), 0o600); err != nil {
		t.Fatal(err)
	}
	var fe *FileError
	if ok, err := Trusted(home, repo); ok || !errors.As(err, &fe) {
		t.Errorf("a broken .claude.json: Trusted = %v, %v; want false and a FileError", ok, err)
	}
}

// For a trusted project, whether git tracks the local file changes
// nothing, so git is not asked: a hook loads the settings on every call.
func TestLoadTrustedAsksNoGit(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeLocal), lists{Allow: []string{"Bash(make *)"}}.file())
	if err := os.Mkdir(filepath.Join(w.cwd, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	asked := 0
	w.opts.Tracked = func(string) (bool, error) { asked++; return true, nil }
	for _, trusted := range []bool{true, false} {
		w.opts.Trusted = trusted
		for _, f := range w.load().Files() {
			if f.Scope == ScopeLocal && f.Source.Trusted != trusted {
				t.Errorf("trusted %v: the tracked local file is read as trusted %v", trusted, f.Source.Trusted)
			}
		}
	}
	if asked != 1 {
		t.Errorf("git was asked %d times, want once: for the untrusted project alone", asked)
	}
}
