package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The helpers of the resident path's tests and benchmarks
// (hook_serve_test.go, resident_e2e_test.go, hook_agents_bench_test.go).

var residentBuilt struct {
	once sync.Once
	dir  string
	err  error
}

// residentBinary is a built agentpolicy binary with agentpolicy-hook
// built beside it, as the README installs them; its directory is the
// test's to copy, never to change.
func residentBinary(t testing.TB) string {
	t.Helper()
	residentBuilt.once.Do(func() {
		// A directory of its own, so that hook install by the other tests'
		// binary still writes agentpolicy hook.
		bin := binary(t)
		residentBuilt.dir = filepath.Join(filepath.Dir(bin), "resident")
		if residentBuilt.err = os.Mkdir(residentBuilt.dir, 0o755); residentBuilt.err != nil {
			return
		}
		data, err := os.ReadFile(bin)
		if err == nil {
			err = os.WriteFile(filepath.Join(residentBuilt.dir, "agentpolicy"), data, 0o755)
		}
		if residentBuilt.err = err; err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(residentBuilt.dir, "agentpolicy-hook"),
			"github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			residentBuilt.err = errors.New("go build agentpolicy-hook: " + err.Error() + "\n" + string(out))
		}
	})
	if residentBuilt.err != nil {
		t.Fatal(residentBuilt.err)
	}
	return filepath.Join(residentBuilt.dir, "agentpolicy")
}

// residentCopy is a directory of the test's own holding copies of
// agentpolicy and agentpolicy-hook, so the test may replace or break them.
func residentCopy(t *testing.T) (bin, client string) {
	t.Helper()
	src := filepath.Dir(residentBinary(t))
	dir := t.TempDir()
	for _, name := range []string{"agentpolicy", "agentpolicy-hook"} {
		copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
	}
	return filepath.Join(dir, "agentpolicy"), filepath.Join(dir, "agentpolicy-hook")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	tmp := to + ".tmp"
	if err := os.WriteFile(tmp, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, to); err != nil {
		t.Fatal(err)
	}
}

// privateRuntime is an XDG_RUNTIME_DIR of the test's own, where the
// resident process's socket goes; removing it at the test's end ends the
// process.
func privateRuntime(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// waitFor polls until ok holds, failing the test after 10 s.
func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// socketIn reports whether a resident process's socket is in the runtime
// directory.
func socketIn(runtime string) bool {
	matches, _ := filepath.Glob(filepath.Join(runtime, "agentpolicy", "hook-*.sock"))
	return len(matches) == 1
}
