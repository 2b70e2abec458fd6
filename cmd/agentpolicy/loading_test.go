package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// explain, lint and test take the hook's --policy and read it as the hook
// does, as managed settings, so what the hook enforces can be previewed;
// a --settings file is labelled as the command line's.
func TestLoadingFlagsPreviewThePolicy(t *testing.T) {
	u := newUser(t)
	u.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(git *)"]}}`)
	policy := u.write("team.json", teamPolicy)
	tests := u.write("policy_test.json", `{"tests": [{"tool": "Bash", "command": "git push origin main", "want": "deny", "rule": "Bash(git push *)"}]}`)
	stdout, stderr, code := u.run("", "--trust", "--policy", policy, "explain", "Bash", "--", "git", "push", "origin", "main")
	if code != 0 || !strings.Contains(stdout, "decision:  deny") || !strings.Contains(stdout, "from:      policy settings, team.json") {
		t.Errorf("explain --policy: exit %d, %q\n%s", code, stderr, stdout)
	}
	if stdout, _, code := u.run("", "--trust", "explain", "Bash", "--", "git", "push", "origin", "main"); code != 0 || !strings.Contains(stdout, "decision:  allow") {
		t.Errorf("explain without the policy: exit %d\n%s; want the project's allow", code, stdout)
	}
	if stdout, stderr, code := u.run("", "--trust", "--policy", policy, "test", tests); code != 0 {
		t.Errorf("test --policy: exit %d, %q\n%s", code, stderr, stdout)
	}
	if stdout, _, code := u.run("", "--trust", "test", tests); code != exitFailed {
		t.Errorf("test without the policy: exit %d\n%s; want the test to fail", code, stdout)
	}
	unusable := u.write("unusable.json", `{"permissions": {"deny": ["Bash(foo (bar)"]}}`)
	for _, command := range [][]string{{"explain", "Bash", "--", "ls"}, {"lint"}, {"test", tests}} {
		_, stderr, code := u.run("", append([]string{"--policy", unusable}, command...)...)
		if code != exitInput || !strings.Contains(stderr, "unusable.json:1:") || !strings.Contains(stderr, `"Bash(foo (bar)"`) {
			t.Errorf("%s with an unusable --policy rule: exit %d, %q; want 2 naming the file, line and rule", command[0], code, stderr)
		}
	}
	extra := u.write("extra.json", `{"permissions": {"deny": ["Bash(make *)"]}}`)
	if stdout, _, _ := u.run("", "--settings", extra, "explain", "Bash", "--", "make"); !strings.Contains(stdout, "from:      command-line settings, extra.json") {
		t.Errorf("a --settings file's label:\n%s", stdout)
	}
}

// A --project that does not exist is an error, exit 2, for every command,
// never an empty project; its harmless twin, an existing directory with
// no settings, lints clean.
func TestLoadingFlagsMissingProject(t *testing.T) {
	u := newUser(t)
	missing := filepath.Join(u.wd, "no-such-project")
	tests := u.write("policy_test.json", `{"tests": [{"tool": "Bash", "command": "ls", "want": "allow"}]}`)
	for _, command := range [][]string{{"lint"}, {"explain", "Bash", "--", "ls"}, {"test", tests}, {"hook", "install", "--scope", "project"}} {
		_, stderr, code := u.run("", append([]string{"--project", missing}, command...)...)
		if code != exitInput || !strings.Contains(stderr, "--project "+missing+": no such directory") {
			t.Errorf("%s: exit %d, %q; want 2 and the directory named", command[0], code, stderr)
		}
	}
	if stdout, stderr, code := u.run("", "--project", u.wd, "lint"); code != 0 || stdout != "0 errors, 0 warnings\n" {
		t.Errorf("an empty project: exit %d, %q %q", code, stdout, stderr)
	}
}

// --verbose lists the files read on standard error, and --json carries
// them, for explain and lint.
func TestLoadingFlagsListFilesRead(t *testing.T) {
	u := newUser(t)
	u.write(".claude/settings.json", `{"permissions": {"deny": ["Bash(rm *)"]}}`)
	u.write(filepath.Join(u.managed, "managed-settings.json"), `{"permissions": {"deny": ["Bash(sudo *)"]}}`)
	_, stderr, _ := u.run("", "--verbose", "lint")
	for _, want := range []string{"read: managed settings, " + filepath.Join(u.managed, "managed-settings.json"), "read: project settings, .claude/settings.json"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("lint --verbose: stderr %q, want %q", stderr, want)
		}
	}
	tests := u.write("policy_test.json", `{"tests": [{"tool": "Bash", "command": "rm x", "want": "deny"}]}`)
	if _, stderr, code := u.run("", "-v", "test", tests); code != 0 || !strings.Contains(stderr, "read: project settings, .claude/settings.json") {
		t.Errorf("test -v: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, _ := u.run("", "lint"); stderr != "" {
		t.Errorf("lint without --verbose printed %q on stderr", stderr)
	}
	for _, command := range [][]string{{"explain", "--json", "Bash", "--", "ls"}, {"lint", "--json"}} {
		stdout, _, _ := u.run("", command...)
		var out struct{ Files []fileRead }
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Files) != 2 || out.Files[1] != (fileRead{"project settings", ".claude/settings.json"}) {
			t.Errorf("%s --json: files %+v (%v)\n%s", command[0], out.Files, err, stdout)
		}
	}
}

// --version prints the version, as version does; hook run at a terminal
// (or from /dev/null, a character device too) says what it reads.
func TestVersionFlagAndHookAtATerminal(t *testing.T) {
	u := newUser(t)
	flag, _, code := u.run("", "--version")
	command, _, _ := u.run("", "version")
	if code != 0 || !strings.HasPrefix(flag, "agentpolicy ") || flag != command {
		t.Errorf("--version: exit %d, %q; version: %q", code, flag, command)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if !atTerminal(devnull) {
		t.Fatalf("%s is not read as a terminal", os.DevNull)
	}
	_, stderr, code := cli(t, "hook")
	if code != exitInput || !strings.Contains(stderr, "no event on standard input") {
		t.Errorf("hook with empty input: exit %d, %q", code, stderr)
	}
	var out, errb strings.Builder
	if code := run(t.Context(), []string{"hook"}, devnull, &out, &errb); code != exitInput || !strings.Contains(errb.String(), "reads one PreToolUse event from standard input") {
		t.Errorf("hook at a terminal: exit %d, %q", code, errb.String())
	}
}
