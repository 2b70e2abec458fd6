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

// startRatioBound is the most a hook call may take over an empty static
// Go program, each the least of its runs, the two started in turn. The
// issue's aim is 2; what this binary measures (README, "How long a hook
// call takes") is 3.2 to 4.4 on the project's 2-core build machine under a
// load of 6 to 9, so the bound holds on a busy CI machine and a
// regression of a millisecond (a table built at every start, a reader
// loaded for an event that does not need it) still crosses it.
const startRatioBound = 5

// startRuns is how many calls of each event TestHookStartNearEmpty times.
const startRuns = 25

// TestHookStartNearEmpty runs each agent's typical events (startEvents),
// and an empty static Go program after each call, and holds the least of
// each event's wall times to startRatioBound times the least of the empty
// program's. A busy machine only ever adds to a run's time, so the least
// of several is the figure it disturbs least; the median is logged beside
// it.
func TestHookStartNearEmpty(t *testing.T) {
	bin, empty := buildBinary(t), emptyProgram(t)
	w := newStartWorld(t, 0)
	for _, ev := range startEvents(w.project) {
		w.call(t, bin, ev) // the first start reads the binary from disk
		w.holdStart(t, bin, empty, ev, startRatioBound)
	}
}

// holdStart runs the event startRuns times through bin, an empty program
// after each, and fails the test when the least of the call's times is
// more than bound times the least of the empty program's.
func (w startWorld) holdStart(t *testing.T, bin, empty string, ev startEvent, bound float64) {
	t.Helper()
	hooks, empties := make([]time.Duration, startRuns), make([]time.Duration, startRuns)
	for i := range startRuns {
		hooks[i], empties[i] = w.call(t, bin, ev), timed(t, empty)
	}
	slices.Sort(hooks)
	slices.Sort(empties)
	ratio := float64(hooks[0]) / float64(empties[0])
	t.Logf("%s %s, least of %d: %s %v, empty program %v, ratio %.2f (medians %v, %v, %.2f)", ev.agent, ev.name, startRuns, filepath.Base(bin),
		hooks[0], empties[0], ratio, hooks[startRuns/2], empties[startRuns/2], float64(hooks[startRuns/2])/float64(empties[startRuns/2]))
	if ratio > bound {
		t.Errorf("a %s %s call through %s takes at least %v, %.1f times an empty program's %v, want at most %g",
			ev.agent, ev.name, filepath.Base(bin), hooks[0], ratio, empties[0], bound)
	}
}
