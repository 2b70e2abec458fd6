package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// initBudget is the most a package of the project may allocate while the
// binary starts, before it reads its first argument. Every hook call is a
// process, so what a package builds when it loads is paid on every call;
// a table belongs in a function that builds it on its first use.
const initBudget = 64 << 10

// TestStartBuildsNoTables starts the built binary with the runtime's
// trace of package initialization and holds every package of the project
// to initBudget.
func TestStartBuildsNoTables(t *testing.T) {
	bin := buildBinary(t)
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace bytes.Buffer
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s version: %v\n%s", bin, err, trace.Bytes())
	}
	seen := 0
	lines := bufio.NewScanner(&trace)
	for lines.Scan() {
		// init PACKAGE @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(lines.Text())
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		pkg := f[1]
		if !strings.HasPrefix(pkg, "github.com/ChristopherDavenport/agentpolicy") {
			continue
		}
		seen++
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("a trace line with no byte count: %q", lines.Text())
		}
		if n > initBudget {
			t.Errorf("%s allocates %d bytes when the binary starts, want at most %d", pkg, n, initBudget)
		}
	}
	if seen == 0 {
		t.Fatalf("the trace names no package of the project:\n%s", trace.Bytes())
	}
}

// startRatioBound is the most a hook call's median may be over an empty
// static Go program's, the two started in turn. The aim is 2 on a
// quiet machine (BenchmarkAgentHookProcess reports the ratio, x-empty); a
// busy CI machine slows the longer process more, so the test holds it to
// a bound a regression (a table built at every start, a reader loaded for
// an event that does not need it) would still cross.
const startRatioBound = 5

// TestHookStartNearEmpty runs a Codex hook call, denied by a one-rule
// policy, and an empty static Go program in turn, and holds the median of
// the call's wall time to startRatioBound times the empty program's.
// Interleaving the two and comparing medians keeps what the machine's
// load does to both out of the ratio.
func TestHookStartNearEmpty(t *testing.T) {
	bin, empty := buildBinary(t), emptyProgram(t)
	root := t.TempDir()
	policy := filepath.Join(root, "policy.json")
	if err := os.WriteFile(policy, []byte(`{"permissions": {"deny": ["Bash(rm *)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	event := agentEventJSON(agentCodex, root, "Bash", map[string]string{"command": "git status && rm -rf x"}, nil)
	env := append(os.Environ(), "HOME="+root, "CLAUDE_CONFIG_DIR=")
	hook := func() time.Duration {
		cmd := exec.Command(bin, "hook", "--agent", agentCodex, "--policy", policy, "--journal", filepath.Join(root, "verdicts.jsonl"))
		cmd.Dir, cmd.Env, cmd.Stdin = root, env, strings.NewReader(event)
		start := time.Now()
		out, err := cmd.Output()
		took := time.Since(start)
		if err != nil || !bytes.Contains(out, []byte("denied by Bash(rm *)")) {
			t.Fatalf("hook: %v, answered %s", err, out)
		}
		return took
	}
	nothing := func() time.Duration {
		start := time.Now()
		if err := exec.Command(empty).Run(); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	hook() // the first start reads the binary from disk
	const runs = 40
	hooks, empties := make([]time.Duration, runs), make([]time.Duration, runs)
	for i := range runs {
		hooks[i], empties[i] = hook(), nothing()
	}
	slices.Sort(hooks)
	slices.Sort(empties)
	h, e := hooks[runs/2], empties[runs/2]
	ratio := float64(h) / float64(e)
	t.Logf("median of %d: hook %v, empty program %v, ratio %.2f", runs, h, e, ratio)
	if ratio > startRatioBound {
		t.Errorf("a hook call's median %v is %.1f times an empty program's %v, want at most %d", h, ratio, e, startRatioBound)
	}
}
