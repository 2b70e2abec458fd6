package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// explainIn runs explain in a project of its own, with the settings given
// inline and nothing of the machine's, and returns what it printed.
func explainIn(t *testing.T, project, settings string, args ...string) string {
	t.Helper()
	flags := []string{"--project", project, "--user-dir", filepath.Join(project, "nowhere"), "--managed-dir", filepath.Join(project, "nowhere"),
		"--settings", settings, "--trust", "explain"}
	out, errs, code := cli(t, append(flags, args...)...)
	if code != exitOK || errs != "" {
		t.Fatalf("explain %v: exit %d, stderr %q\n%s", args, code, errs, out)
	}
	return out
}

// decision is the first line of explain's output.
func decision(out string) string {
	line, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(strings.TrimPrefix(line, "decision:"))
}

// A Write decided by an Edit rule, or an Edit by a Read deny, cites the
// rule as the file writes it.
func TestExplainCitesTheWrittenRule(t *testing.T) {
	dir := t.TempDir()
	settings := `{"permissions": {"deny": ["Edit(docs/**)", "Read(secrets/**)"]}}`
	for _, c := range []struct{ tool, path, rule string }{
		{"Write", "docs/a.md", "Edit(docs/**)"},
		{"Edit", "secrets/k", "Read(secrets/**)"},
		{"Read", "secrets/k", "Read(secrets/**)"},
	} {
		out := explainIn(t, dir, settings, c.tool, `{"file_path": "`+c.path+`"}`)
		if !strings.Contains(out, "rule:      "+c.rule+"\n") {
			t.Errorf("%s %s: want the rule cited as %s\n%s", c.tool, c.path, c.rule, out)
		}
	}
}

// An allow rule over a whole MCP server, or a glob of its tools, allows
// the server's tools and no other server's.
func TestExplainMCPServerRules(t *testing.T) {
	dir := t.TempDir()
	settings := `{"permissions": {"allow": ["mcp__github", "mcp__jira__get_*"]}}`
	for tool, want := range map[string]string{
		"mcp__github__get_issue": "allow",
		"mcp__jira__get_ticket":  "allow",
		"mcp__jira__delete":      "ask",
		"mcp__gitlab__get_issue": "ask",
		"mcp__githubx__get":      "ask",
	} {
		if got := decision(explainIn(t, dir, settings, tool, `{}`)); got != want {
			t.Errorf("%s: %s, want %s", tool, got, want)
		}
	}
}

// A file tool's call is decided on the file a symbolic link leads to: a
// link in the project to a denied file is denied.
func TestExplainFollowsLinks(t *testing.T) {
	root := t.TempDir()
	project, secrets := filepath.Join(root, "project"), filepath.Join(root, "secrets")
	for _, d := range []string{project, secrets} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(secrets, "id_rsa"), []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "notes.txt"), []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(secrets, "id_rsa"), filepath.Join(project, "key")); err != nil {
		t.Fatal(err)
	}
	settings := `{"permissions": {"deny": ["Read(/` + filepath.ToSlash(secrets) + `/**)"]}}`
	for path, want := range map[string]string{"key": "deny", "notes.txt": "allow"} {
		if got := decision(explainIn(t, project, settings, "Read", `{"file_path": "`+path+`"}`)); got != want {
			t.Errorf("Read %s: %s, want %s", path, got, want)
		}
	}
}

// A file a command's redirect writes asks under a bare Edit allow, and its
// "always allow" is Edit of that file, a rule Claude Code reads, which then
// allows the command: never the engine's pseudo-tool (Edit.redirect), nor a
// bare Edit, which does not reach it.
func TestExplainRedirectGrantsEditOfTheFile(t *testing.T) {
	dir := t.TempDir()
	out := explainIn(t, dir, `{"permissions": {"allow": ["Edit"]}}`, "Bash", "--", "echo", "hi", ">", "out.txt")
	if decision(out) != "ask" {
		t.Fatalf("echo hi > out.txt under a bare Edit allow: want ask\n%s", out)
	}
	if strings.Contains(out, "Edit.") || !strings.Contains(out, "can be granted as Edit(./out.txt) in the local settings") {
		t.Errorf("want the grant named Edit(./out.txt) and no pseudo-tool\n%s", out)
	}
	granted := explainIn(t, dir, `{"permissions": {"allow": ["Edit(./out.txt)"]}}`, "Bash", "--", "echo", "hi", ">", "out.txt")
	if decision(granted) != "allow" {
		t.Errorf("under the granted rule Edit(./out.txt): want allow\n%s", granted)
	}
	twin := explainIn(t, dir, `{"permissions": {"allow": ["Edit(./out.txt)"]}}`, "Bash", "--", "echo", "hi", ">", "other.txt")
	if decision(twin) != "ask" {
		t.Errorf("a redirect to another file under Edit(./out.txt): want ask\n%s", twin)
	}
}
