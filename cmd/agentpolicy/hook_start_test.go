package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
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
