package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the command's output")

// cli runs the command line and returns what it printed and its status.
func cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// team are the flags that read the fixture tree: a managed file with a
// drop-in, a user file and a trusted team project, and nothing of the
// machine the test runs on.
var team = []string{"--project", "testdata/team", "--user-dir", "testdata/user", "--managed-dir", "testdata/managed", "--trust"}

// lintFixture reads a project built to hold every kind of finding, and a
// --settings file that repeats one of its rules.
var lintFixture = []string{"--project", "testdata/lint", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere",
	"--settings", "testdata/lint/extra-settings.json", "--trust"}

// golden compares got with testdata/golden/name, or rewrites the file
// under -update. A golden file is reviewed when it changes, never
// accepted blindly.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestGoldenOutputs(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"explain_compound.txt", append(slicesOf(team), "explain", "Bash", "--", "git", "status", "&&", "rm", "-rf", "/"), 0},
		{"explain_compound.json", append(slicesOf(team), "explain", "--json", "Bash", "--", "git", "status", "&&", "rm", "-rf", "/"), 0},
		{"explain_ask.txt", append(slicesOf(team), "explain", "Bash", "--", "git", "push", "origin", "main"), 0},
		{"explain_ask.json", append(slicesOf(team), "explain", "--json", "Bash", "--", "git", "push", "origin", "main"), 0},
		{"explain_read.txt", append(slicesOf(team), "explain", "Read", `{"file_path": ".env"}`), 0},
		{"explain_managed.txt", append(slicesOf(team), "explain", "Bash", "--", "sudo", "make", "install"), 0},
		{"explain_untrusted.txt", []string{"--project", "testdata/team", "--user-dir", "testdata/user", "--managed-dir", "testdata/managed", "explain", "Bash", "--", "npm", "run", "test", "--", "-v"}, 0},
		{"lint.txt", append(slicesOf(lintFixture), "lint"), exitFailed},
		{"lint.json", append(slicesOf(lintFixture), "lint", "--json"), exitFailed},
		{"lint_untrusted.txt", []string{"--project", "testdata/team", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere", "lint"}, exitOK},
		{"test_pass.txt", append(slicesOf(team), "test", "testdata/policy_pass.json"), exitOK},
		{"test_fail.txt", append(slicesOf(team), "test", "testdata/policy_fail.json"), exitFailed},
		{"test_untrusted.txt", []string{"--project", "testdata/team", "--user-dir", "testdata/user", "--managed-dir", "testdata/managed", "test", "testdata/policy_withheld.json"}, exitFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := cli(t, c.args...)
			if code != c.code || errs != "" {
				t.Fatalf("exit %d, stderr %q; want exit %d and nothing on stderr\n%s", code, errs, c.code, out)
			}
			golden(t, c.name, out)
		})
	}
}

func slicesOf(s []string) []string { return append([]string(nil), s...) }

func TestBadInput(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		want     string
		contains string
	}{
		{"unknown tool", append(slicesOf(team), "explain", "Frob", "{}"), `agentpolicy: unknown tool "Frob": Claude Code's tools are`, ""},
		{"tool in the wrong case", append(slicesOf(team), "explain", "bash", "--", "ls"), `agentpolicy: unknown tool "bash"; did you mean Bash?`, ""},
		{"arguments not an object", append(slicesOf(team), "explain", "Read", `["x"]`), `agentpolicy: Read: arguments are not a JSON object: "[\"x\"]"`, ""},
		{"arguments not JSON", append(slicesOf(team), "explain", "Read", `{file_path:`), `agentpolicy: Read: arguments are not a JSON object`, ""},
		{"JSON and a command", append(slicesOf(team), "explain", "Bash", `{}`, "--", "ls"), "agentpolicy: explain: give the command after --, or the arguments as one JSON object, not both", ""},
		{"nothing after --", append(slicesOf(team), "explain", "Bash", "--"), "agentpolicy: explain: no command after --", ""},
		{"no tool", append(slicesOf(team), "explain"), "agentpolicy: requires at least 1 arg(s), only received 0", ""},
		{"missing test file", append(slicesOf(team), "test", "testdata/no-such.json"), "agentpolicy: open testdata/no-such.json: no such file or directory", ""},
		{"invalid test file", append(slicesOf(team), "test", "testdata/policy_invalid.json"), `agentpolicy: testdata/policy_invalid.json: test 1: want is "maybe"; use allow, ask or deny`, ""},
		{"unknown member in a test file", append(slicesOf(team), "test", "testdata/policy_unknown.json"), `agentpolicy: testdata/policy_unknown.json: json: unknown field "expect"`, ""},
		{"invalid settings", []string{"--project", "testdata/team", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere", "--settings", "testdata/invalid-settings.json", "lint"}, "agentpolicy: /", "invalid-settings.json:2:19: invalid JSON"},
		{"unknown command", []string{"frob"}, `agentpolicy: unknown command "frob" for "agentpolicy"`, ""},
		{"unknown flag", []string{"lint", "--frob"}, "agentpolicy: unknown flag: --frob", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := cli(t, c.args...)
			if code != exitInput {
				t.Errorf("exit %d, want %d", code, exitInput)
			}
			if !strings.HasPrefix(errs, c.want) || !strings.Contains(errs, c.contains) || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q, want one line beginning %q and holding %q", errs, c.want, c.contains)
			}
			if strings.Contains(out+errs, "goroutine") {
				t.Errorf("a stack trace was printed")
			}
		})
	}
}

func TestVersion(t *testing.T) {
	out, errs, code := cli(t, "version")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "agentpolicy ") {
		t.Fatalf("version: exit %d, %q, %q", code, out, errs)
	}
}

func TestHelpHasExamples(t *testing.T) {
	for _, cmd := range []string{"explain", "lint", "test", "corpus", "queue", "version"} {
		out, _, code := cli(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: exit %d, no example:\n%s", cmd, code, out)
		}
	}
}

// The project's own corpus passes under the command, as under go test, and
// a corpus with a wrong expectation fails it with the case named.
func TestCorpusCommand(t *testing.T) {
	out, errs, code := cli(t, "corpus", "../../testdata/policy")
	if code != exitOK || errs != "" || !strings.HasSuffix(out, " passed, 0 failed\n") || strings.Contains(out, "FAIL") {
		t.Errorf("corpus over testdata/policy: exit %d, %q\n%s", code, errs, out)
	}
	out, _, code = cli(t, "corpus", "testdata/corpus_fail")
	want := "FAIL grammar.json: a wrong expectation\n     ParseRules(\"read edit\") gave 2 rules, want 1: [read edit]\n0 passed, 1 failed\n"
	if code != exitFailed || out != want {
		t.Errorf("corpus over a failing case: exit %d\n%s\nwant exit 1 and\n%s", code, out, want)
	}
	if _, errs, code := cli(t, "corpus", "testdata/nowhere"); code != exitInput || !strings.Contains(errs, "no such file or directory") {
		t.Errorf("corpus over a missing directory: exit %d, %q", code, errs)
	}
}
