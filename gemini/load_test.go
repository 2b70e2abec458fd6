package gemini

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLoad: the user directory, or the --policy files in its place, and
// the admin directory; a broken file is refused beside the others.
func TestLoad(t *testing.T) {
	home, admin, dir := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path, content string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	shell := `toolName = "run_shell_command"` + "\n"
	write(filepath.Join(home, "policies", "mine.toml"), rule(shell+`commandPrefix = "ls"`+"\ndecision = \"allow\"\npriority = 999"))
	write(filepath.Join(home, "policies", "notes.md"), "not a policy")
	write(filepath.Join(admin, "org.toml"), rule(shell+`commandPrefix = "ls"`+"\ndecision = \"deny\"\npriority = 0"))
	policy := write(filepath.Join(dir, "team.toml"), rule(shell+`commandPrefix = "make"`+"\ndecision = \"allow\"\npriority = 1"))

	for _, c := range []struct {
		opts  LoadOptions
		names []string
		ls    string
	}{
		{LoadOptions{Home: home}, []string{"gemini:user/mine.toml@4999"}, ListAllow},
		{LoadOptions{Home: home, AdminDir: admin}, []string{"gemini:admin/org.toml@5000", "gemini:user/mine.toml@4999"}, ListDeny},
		{LoadOptions{Home: home, Policies: []string{policy}}, []string{"gemini:policy#1/team.toml@4001"}, ListAsk},
	} {
		rules, err := Load(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range rules.RuleSets() {
			if len(s.Allow)+len(s.Deny)+len(s.Ask) > 0 && s.Source.Rank%2 == 0 {
				names = append(names, s.Source.Name)
			}
		}
		if !slices.Equal(names, c.names) {
			t.Errorf("%+v: sources %v, want %v", c.opts, names, c.names)
		}
		p, err := rules.Policy(ask())
		if err != nil {
			t.Fatal(err)
		}
		if got := decide(t, build(t, p), "Bash", "ls -la"); got != c.ls {
			t.Errorf("%+v: ls -la: got %s, want %s", c.opts, got, c.ls)
		}
	}
	write(filepath.Join(home, "policies", "broken.toml"), "[[rule]\n")
	rules, err := Load(LoadOptions{Home: home})
	var fe *FileError
	if !errors.As(err, &fe) || filepath.Base(fe.Path) != "broken.toml" || len(rules.Files()) != 1 {
		t.Errorf("a broken file: got %v and %d files, want its *FileError beside the other file", err, len(rules.Files()))
	}
}
