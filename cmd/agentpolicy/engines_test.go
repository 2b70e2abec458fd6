package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// The resident process's engines: an engine is reused only for a call
// whose settings, policy, directory and agents' rules equal those it was
// built from, and it answers as a new one would.
func TestEngineCache(t *testing.T) {
	project, home, managed := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	policy := filepath.Join(t.TempDir(), "policy.json")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(policy, `{"permissions": {"deny": ["Bash(rm *)"]}}`)
	cache := &engineCache{}
	load := func(dir string) *loadedPolicy {
		t.Helper()
		f := settingsFlags{project: project, dir: dir, managedDir: managed, policies: []string{policy}, engines: cache}
		p, err := f.load()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	decide := func(p *loadedPolicy, command string) agentturn.ToolAction {
		t.Helper()
		v, err := p.engine.Would(context.Background(), callInfo("Bash", []byte(`{"command": "`+command+`"}`)))
		if err != nil {
			t.Fatal(err)
		}
		return v.Action
	}
	first := load(project)
	if again := load(project); again.engine != first.engine {
		t.Errorf("the same files and directory built a second engine")
	}
	if decide(first, "rm -rf x") != agentturn.Block {
		t.Fatalf("the policy's deny does not hold")
	}
	// Another directory, another engine; the first is kept.
	sub := filepath.Join(project, "sub")
	if other := load(sub); other.engine == first.engine {
		t.Errorf("another directory reused the engine")
	}
	if again := load(project); again.engine != first.engine {
		t.Errorf("the first engine was not kept beside the second")
	}
	// Any file read with another content, or a file that was not there,
	// builds anew and decides by it.
	write(policy, `{"permissions": {"deny": ["Bash(rm *)", "Bash(curl *)"]}}`)
	changed := load(project)
	if changed.engine == first.engine || decide(changed, "curl example.com") != agentturn.Block {
		t.Errorf("a changed policy file was decided by the old engine")
	}
	write(filepath.Join(project, ".claude", "settings.json"), `{"permissions": {"deny": ["Bash(wget *)"]}}`)
	added := load(project)
	if added.engine == changed.engine || decide(added, "wget example.com") != agentturn.Block {
		t.Errorf("a new settings file was decided by the old engine")
	}
	// The cache holds maxCachedEngines, the least recent leaving first.
	for i := range maxCachedEngines {
		load(filepath.Join(project, "d", string(rune('a'+i))))
	}
	if len(cache.entries) != maxCachedEngines {
		t.Errorf("the cache holds %d engines, want %d", len(cache.entries), maxCachedEngines)
	}
	if again := load(project); again.engine == added.engine {
		t.Errorf("the least recent engine was not let go")
	}
}
