package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildBinary builds the command into a temporary directory and returns
// its path: what Claude Code runs is the built binary, not the test. It
// builds it as the README does, static (CGO_ENABLED=0), which saves a
// hook call the dynamic loader.
func buildBinary(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "agentpolicy")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// ruleFile is a settings file of n rules, spread over the three lists and
// the tools people write rules for, none of which matches the calls the
// benchmark makes, so every rule is read and none decides early.
func ruleFile(tag string, n int) string {
	lists := map[string][]string{}
	for i := range n {
		var rule, list string
		switch i % 5 {
		case 0:
			list, rule = "allow", fmt.Sprintf("Bash(%s-tool-%d *)", tag, i)
		case 1:
			list, rule = "deny", fmt.Sprintf("Bash(%s-danger-%d:*)", tag, i)
		case 2:
			list, rule = "deny", fmt.Sprintf("Read(./%s/secret-%d/**)", tag, i)
		case 3:
			list, rule = "allow", fmt.Sprintf("Edit(./%s/src-%d/**)", tag, i)
		default:
			list, rule = "ask", fmt.Sprintf("WebFetch(domain:%s-%d.example.com)", tag, i)
		}
		lists[list] = append(lists[list], rule)
	}
	data, _ := json.MarshalIndent(map[string]any{"permissions": lists}, "", "  ")
	return string(data)
}

// hookFixture is the settings tree both hook benchmarks decide over: four
// settings files of 200 rules each (managed, user, project, local; the
// project a trusted git repository), a journal, and the event of a compound
// command none of the rules matches, which the hook answers ask.
type hookFixture struct {
	project string
	args    []string
	env     []string
	event   []byte
}

func newHookFixture(b *testing.B) hookFixture {
	root := b.TempDir()
	project, home, managed := filepath.Join(root, "project"), filepath.Join(root, "home"), filepath.Join(root, "managed")
	files := map[string]string{
		filepath.Join(managed, "managed-settings.json"):          ruleFile("managed", 200),
		filepath.Join(home, ".claude", "settings.json"):          ruleFile("user", 200),
		filepath.Join(project, ".claude", "settings.json"):       ruleFile("project", 200),
		filepath.Join(project, ".claude", "settings.local.json"): ruleFile("local", 200),
		filepath.Join(home, ".claude.json"):                      `{"projects": {"` + project + `": {"hasTrustDialogAccepted": true}}}`,
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// A project is a git repository, where the local file sits at its root.
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	event, _ := json.Marshal(map[string]any{
		"session_id": "bench", "transcript_path": filepath.Join(home, "t.jsonl"), "cwd": project, "prompt_id": "p",
		"permission_mode": "default", "effort": map[string]string{"level": "medium"}, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]string{"command": "git status && go test ./... | tee out.txt"},
		"tool_use_id": "toolu_bench",
	})
	return hookFixture{
		project: project,
		args:    []string{"hook", "--managed-dir", managed, "--journal", filepath.Join(root, "verdicts.jsonl")},
		env:     []string{"HOME=" + home, "CLAUDE_CONFIG_DIR="},
		event:   event,
	}
}

// wantAsk fails the benchmark unless out is the hook's ask.
func wantAsk(b *testing.B, out []byte) {
	if !bytes.Contains(out, []byte(`"permissionDecision":"ask"`)) {
		b.Fatalf("the call was not decided as a default ask: %s", out)
	}
}

// BenchmarkHookProcess measures one hook call as Claude Code makes it: a
// process of the built binary started with the fixture's event on standard
// input. It reports the median and the 99th percentile of the calls' wall
// time, so give it enough calls for a percentile: -benchtime=300x. Each
// call is paired with a start of the same binary that does nothing
// (agentpolicy version), whose median is reported as start-ms, and one of
// an empty static Go program, empty-ms: what the machine charges for a
// process at that moment, which on a busy machine is most of the figure.
// x-empty is the ratio of the call's median to the empty program's.
func BenchmarkHookProcess(b *testing.B) {
	bin, empty := buildBinary(b), emptyProgram(b)
	fx := newHookFixture(b)
	env := append(os.Environ(), fx.env...)
	call := func() []byte {
		cmd := exec.Command(bin, fx.args...)
		cmd.Dir, cmd.Env, cmd.Stdin = fx.project, env, bytes.NewReader(fx.event)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("hook: %v", err)
		}
		return out
	}
	wantAsk(b, call())
	times, starts, empties := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		call()
		times = append(times, time.Since(start))
		b.StopTimer()
		start = time.Now()
		if err := exec.Command(bin, "version").Run(); err != nil {
			b.Fatal(err)
		}
		starts = append(starts, time.Since(start))
		start = time.Now()
		if err := exec.Command(empty).Run(); err != nil {
			b.Fatal(err)
		}
		empties = append(empties, time.Since(start))
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(times)
	slices.Sort(starts)
	slices.Sort(empties)
	b.ReportMetric(ms(times[len(times)/2]), "median-ms")
	b.ReportMetric(ms(times[len(times)*99/100]), "p99-ms")
	b.ReportMetric(ms(starts[len(starts)/2]), "start-ms")
	b.ReportMetric(ms(empties[len(empties)/2]), "empty-ms")
	b.ReportMetric(float64(times[len(times)/2])/float64(empties[len(empties)/2]), "x-empty")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkHookInProcess measures the work of one hook call without the
// process around it: reading the event, loading and compiling the four
// settings files, deciding, journaling and answering. Its allocations are
// a call's, since a process starts with none.
func BenchmarkHookInProcess(b *testing.B) {
	fx := newHookFixture(b)
	for _, kv := range fx.env {
		name, value, _ := strings.Cut(kv, "=")
		b.Setenv(name, value)
	}
	b.Chdir(fx.project)
	var out bytes.Buffer
	call := func() {
		out.Reset()
		if code := run(context.Background(), fx.args, bytes.NewReader(fx.event), &out, io.Discard); code != exitOK {
			b.Fatalf("hook exited %d: %s", code, out.Bytes())
		}
	}
	call()
	wantAsk(b, out.Bytes())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		call()
	}
}

// BenchmarkHookResident is BenchmarkHookInProcess as the resident process
// (hook serve) runs a call: the engine built for the first call is reused
// for the next ones, whose files are the same, and everything else is
// read and decided anew.
func BenchmarkHookResident(b *testing.B) {
	residentEngines = &engineCache{}
	defer func() { residentEngines = nil }()
	BenchmarkHookInProcess(b)
}
