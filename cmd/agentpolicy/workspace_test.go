package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// workspace is what a session test of a real agent CLI works in: a
// scratch home, the directory the agent runs in, the built agentpolicy
// binary, and the environment the agent and the binary run with.
type workspace struct {
	t         *testing.T
	bin       string
	home, dir string
	env       []string
}

// file is name inside the workspace.
func (w *workspace) file(name string) string { return filepath.Join(w.dir, name) }

// write writes a file of the workspace and returns its path.
func (w *workspace) write(name, content string) string {
	w.t.Helper()
	path := w.file(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return path
}

// exists reports whether the workspace holds the file.
func (w *workspace) exists(name string) bool {
	_, err := os.Stat(w.file(name))
	return err == nil
}

// agentpolicy runs the built binary in the workspace, with the scratch
// home, and returns its output; a failure fails the test.
func (w *workspace) agentpolicy(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.bin, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("agentpolicy %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// results are what the agent sent back to its model stand-in as each
// scripted call's result (result gives the k-th); a call with none fails
// the test, with the agent's output.
func (w *workspace) results(agent string, calls []scriptedCall, result func(k int) (string, bool), out []byte) []string {
	w.t.Helper()
	results := make([]string, len(calls))
	for k := range calls {
		r, ok := result(k)
		if !ok {
			w.t.Fatalf("%s sent back no result of call %d; its output:\n%s", agent, k+1, out)
		}
		w.t.Logf("%s: %s: %q", agent, calls[k].describe(), r)
		results[k] = r
	}
	return results
}

// npmCLI is an agent CLI the tests run: node_modules/.bin/NAME of
// conformance/NAME, where `make NAME` (npm ci) installs the version its
// lockfile pins. A missing one fails the test, never skips it.
func npmCLI(t *testing.T, name, title string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "conformance", name)
	bin := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is not installed at %s: run `make %s` (npm ci in %s)", title, bin, name, dir)
	}
	return bin
}
