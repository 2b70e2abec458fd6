package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// BenchmarkAgentHookProcess measures one hook call as Codex CLI and
// Gemini CLI make it: a process of the built binary, the event on
// standard input, deciding `git status && rm -rf x` against a --policy
// file of one rule and a project of none or 200 rules, journaled, answered deny. Each call is
// paired with a start of an empty static Go program and one of the same
// binary doing nothing (agentpolicy version); it reports the three
// medians and the ratio of the call's to the empty program's.
func BenchmarkAgentHookProcess(b *testing.B) {
	bin, empty := buildBinary(b), emptyProgram(b)
	for _, c := range []struct {
		agent string
		rules int
	}{{agentCodex, 0}, {agentCodex, 200}, {agentGemini, 0}, {agentGemini, 200}} {
		agent := c.agent
		b.Run(fmt.Sprintf("%s/rules=%d", agent, c.rules), func(b *testing.B) {
			root := b.TempDir()
			project, home := filepath.Join(root, "project"), filepath.Join(root, "home")
			for path, content := range map[string]string{
				filepath.Join(project, ".claude", "settings.json"): ruleFile("project", c.rules),
				filepath.Join(root, "policy.json"):                 `{"permissions": {"deny": ["Bash(rm *)"]}}`,
			} {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			tool := map[string]string{agentCodex: "Bash", agentGemini: "run_shell_command"}[agent]
			event := agentEventJSON(agent, project, tool, map[string]string{"command": "git status && rm -rf x"}, nil)
			args := []string{"hook", "--agent", agent, "--policy", filepath.Join(root, "policy.json"), "--journal", filepath.Join(root, "verdicts.jsonl")}
			env := append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=")
			call := func() []byte {
				cmd := exec.Command(bin, args...)
				cmd.Dir, cmd.Env, cmd.Stdin = project, env, bytes.NewReader([]byte(event))
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("hook: %v", err)
				}
				return out
			}
			if out := call(); !bytes.Contains(out, []byte("denied by Bash(rm *)")) {
				b.Fatalf("the call was not denied: %s", out)
			}
			times, starts, versions := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				call()
				times = append(times, time.Since(start))
				b.StopTimer()
				start = time.Now()
				if err := exec.Command(empty).Run(); err != nil {
					b.Fatal(err)
				}
				starts = append(starts, time.Since(start))
				start = time.Now()
				if err := exec.Command(bin, "version").Run(); err != nil {
					b.Fatal(err)
				}
				versions = append(versions, time.Since(start))
				b.StartTimer()
			}
			b.StopTimer()
			slices.Sort(times)
			slices.Sort(starts)
			slices.Sort(versions)
			hook, floor := times[len(times)/2], starts[len(starts)/2]
			b.ReportMetric(ms(hook), "median-ms")
			b.ReportMetric(ms(floor), "empty-ms")
			b.ReportMetric(ms(versions[len(versions)/2]), "version-ms")
			b.ReportMetric(float64(hook)/float64(floor), "x-empty")
		})
	}
}
