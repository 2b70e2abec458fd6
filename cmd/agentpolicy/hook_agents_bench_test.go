package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// emptyProgram builds a Go program that does nothing, statically linked
// as the hook is: the floor a process start costs on this machine.
func emptyProgram(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module empty\n\ngo 1.26\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	bin := filepath.Join(dir, "empty")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startEvents are the typical events of each agent the start figures are
// measured on: a compound command a one-rule --policy file denies as a
// whole, and a read of a file in the project, which it allows (and each
// agent's hook leaves to the agent). The event's cwd is the project.
func startEvents(project string) []startEvent {
	deny := map[string]string{"command": "git status && rm -rf x"}
	readme := filepath.Join(project, "README.md")
	return []startEvent{
		{agentClaude, "deny", claudeEventJSON(project, "Bash", deny), "denied by Bash(rm *)"},
		{agentClaude, "read", claudeEventJSON(project, "Read", map[string]string{"file_path": readme}), ""},
		{agentCodex, "deny", agentEventJSON(agentCodex, project, "Bash", deny, nil), "denied by Bash(rm *)"},
		{agentCodex, "read", agentEventJSON(agentCodex, project, "Bash", map[string]string{"command": "cat README.md"}, nil), ""},
		{agentGemini, "deny", agentEventJSON(agentGemini, project, "run_shell_command", deny, nil), "denied by Bash(rm *)"},
		{agentGemini, "read", agentEventJSON(agentGemini, project, "read_file", map[string]string{"file_path": "README.md"}, nil), ""},
	}
}

// startEvent is one agent's event and what its answer holds: the deny's
// reason, or "" for a call with no answer.
type startEvent struct {
	agent, name, event, want string
}

// startPolicy is the --policy file of the start figures.
const startPolicy = `{"permissions": {"deny": ["Bash(rm *)"], "allow": ["Read"]}}`

// claudeEventJSON is a Claude Code PreToolUse event of the tool's call.
func claudeEventJSON(cwd, tool string, input any) string {
	data, _ := json.Marshal(map[string]any{
		"session_id": "session-1", "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_1",
	})
	return string(data)
}

// startWorld is a project of the given number of rules, with a README,
// a home of no settings, a runtime directory of its own for a resident
// process, and the hook's command line: the startPolicy file and a
// journal.
type startWorld struct {
	project string
	home    string
	args    []string
	env     []string
}

func newStartWorld(tb testing.TB, rules int) startWorld {
	tb.Helper()
	root := tb.TempDir()
	project, home := filepath.Join(root, "project"), filepath.Join(root, "home")
	for path, content := range map[string]string{
		filepath.Join(project, ".claude", "settings.json"): ruleFile("project", rules),
		filepath.Join(project, "README.md"):                "# project\n",
		filepath.Join(home, ".claude", "settings.json"):    "{}",
		filepath.Join(root, "policy.json"):                 startPolicy,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return startWorld{
		project: project,
		home:    home,
		args:    []string{"hook", "--policy", filepath.Join(root, "policy.json"), "--journal", filepath.Join(root, "verdicts.jsonl")},
		env:     append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "CLAUDE_PROJECT_DIR=", "XDG_RUNTIME_DIR="+privateRuntime(tb)),
	}
}

// call runs the hook on the event, as its agent runs it, and fails unless
// the answer holds what the event wants; it returns the call's wall time.
// bin is agentpolicy, run as agentpolicy hook, or agentpolicy-hook.
func (w startWorld) call(tb testing.TB, bin string, ev startEvent) time.Duration {
	tb.Helper()
	args := w.args
	if filepath.Base(bin) == "agentpolicy-hook" {
		args = args[1:]
	}
	cmd := exec.Command(bin, append(args, "--agent", ev.agent)...)
	cmd.Dir, cmd.Env, cmd.Stdin = w.project, w.env, strings.NewReader(ev.event)
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	switch {
	case err != nil:
		tb.Fatalf("%s %s: %v", ev.agent, ev.name, err)
	case ev.want == "" && strings.Contains(string(out), "deny"):
		tb.Fatalf("%s %s was denied: %s", ev.agent, ev.name, out)
	case !strings.Contains(string(out), ev.want):
		tb.Fatalf("%s %s: answered %q, want %q in it", ev.agent, ev.name, out, ev.want)
	}
	return took
}

// timed is the wall time of a run of the command.
func timed(tb testing.TB, name string, args ...string) time.Duration {
	tb.Helper()
	start := time.Now()
	if err := exec.Command(name, args...).Run(); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return time.Since(start)
}

// BenchmarkAgentHookProcess measures one hook call as each agent makes
// it: a process of the built binary, the event on standard input (see
// startEvents), a --policy file of two rules and a project of none or 200
// rules, journaled. Each call is paired with a start of an empty static
// Go program and one of the same binary doing nothing (agentpolicy
// version); it reports the three medians, the ratio of the call's median
// to the empty program's (x-empty) and the ratio of the least of each
// (x-empty-min), which a busy machine disturbs least.
//
// The last, claude-json, is Codex's deny with a 1.4 MB ~/.claude.json in
// the home (largeClaudeState), which every call reads for the project's
// trust.
func BenchmarkAgentHookProcess(b *testing.B) {
	bin, empty := buildBinary(b), emptyProgram(b)
	client := filepath.Join(filepath.Dir(residentBinary(b)), "agentpolicy-hook")
	for _, rules := range []int{0, 200} {
		w := newStartWorld(b, rules)
		for _, ev := range startEvents(w.project) {
			b.Run(fmt.Sprintf("%s/%s/rules=%d", ev.agent, ev.name, rules), func(b *testing.B) {
				w.measure(b, bin, empty, ev)
			})
			if residentSupported {
				b.Run(fmt.Sprintf("%s/%s/rules=%d/resident", ev.agent, ev.name, rules), func(b *testing.B) {
					w.measureResident(b, client, empty, ev)
				})
			}
		}
	}
	w := newStartWorld(b, 0)
	state := filepath.Join(w.home, ".claude.json")
	if err := os.WriteFile(state, largeClaudeState(w.project), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("codex/deny/claude-json", func(b *testing.B) {
		w.measure(b, bin, empty, startEvents(w.project)[2])
	})
	if residentSupported {
		b.Run("codex/deny/claude-json/resident", func(b *testing.B) {
			w.measureResident(b, client, empty, startEvents(w.project)[2])
		})
	}
}

// measure runs the event b.N times, each followed by the empty program and
// by bin's version, and reports what BenchmarkAgentHookProcess reports.
func (w startWorld) measure(b *testing.B, bin, empty string, ev startEvent) {
	w.call(b, bin, ev)
	version := filepath.Join(filepath.Dir(bin), "agentpolicy")
	times, empties, versions := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		times = append(times, w.call(b, bin, ev))
		b.StopTimer()
		empties = append(empties, timed(b, empty))
		versions = append(versions, timed(b, version, "version"))
		b.StartTimer()
	}
	b.StopTimer()
	for _, d := range [][]time.Duration{times, empties, versions} {
		slices.Sort(d)
	}
	hook, floor := times[len(times)/2], empties[len(empties)/2]
	b.ReportMetric(ms(hook), "median-ms")
	b.ReportMetric(ms(floor), "empty-ms")
	b.ReportMetric(ms(versions[len(versions)/2]), "version-ms")
	b.ReportMetric(float64(hook)/float64(floor), "x-empty")
	b.ReportMetric(float64(times[0])/float64(empties[0]), "x-empty-min")
}

// measureResident is measure for agentpolicy-hook, once its resident
// process listens.
func (w startWorld) measureResident(b *testing.B, client, empty string, ev startEvent) {
	w.call(b, client, ev)
	waitFor(b, "the resident process's socket", func() bool { return socketIn(w.runtime()) })
	w.measure(b, client, empty, ev)
}

// runtime is the world's XDG_RUNTIME_DIR.
func (w startWorld) runtime() string {
	for _, kv := range w.env {
		if dir, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			return dir
		}
	}
	return ""
}

// largeClaudeState is a ~/.claude.json as Claude Code grows it, 1.4 MB:
// 80 projects of 100 history entries each, the project's among them,
// trusted.
func largeClaudeState(project string) []byte {
	projects := map[string]any{}
	for p := range 80 {
		history := make([]any, 100)
		for h := range history {
			history[h] = map[string]any{"display": fmt.Sprintf("fix the failing test in package %d, run go vet ./... and commit with a message that says why (%d)", h, p), "pastedContents": map[string]any{}}
		}
		name := fmt.Sprintf("/home/user/src/project%02d", p)
		if p == 40 {
			name = filepath.ToSlash(project)
		}
		projects[name] = map[string]any{"allowedTools": []any{}, "history": history, "mcpServers": map[string]any{}, "hasTrustDialogAccepted": p%2 == 0, "lastCost": 1.25, "exampleFiles": []any{"a.go", "b.go"}}
	}
	data, _ := json.MarshalIndent(map[string]any{"numStartups": 42, "userID": "abc", "projects": projects}, "", "  ")
	return data
}
