package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The tests of what a user sees run the built binary, as a user runs it.
// It is built once for the package's tests, into a directory TestMain
// removes.

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	// The test binary doubles as the MCP server the agents' end-to-end
	// tests start (mcp_server_test.go).
	if os.Getenv("AGENTPOLICY_TEST_MCP") == "1" {
		serveMCP(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// binary is the built agentpolicy binary.
func binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "agentpolicy-bin-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "agentpolicy")
		cmd := exec.Command("go", "build", "-o", built.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// user is a scratch machine for the binary: a home with no settings, no
// managed settings, and a working directory at the root of a repository.
type user struct {
	t        *testing.T
	home, wd string
	managed  string
	env      []string
}

func newUser(t *testing.T) *user {
	t.Helper()
	root := t.TempDir()
	u := &user{t: t, home: filepath.Join(root, "home"), wd: filepath.Join(root, "work"), managed: filepath.Join(root, "managed")}
	// The working directory is a git root of its own, so no repository
	// above the scratch directory lends it a local settings file.
	for _, d := range []string{u.home, filepath.Join(u.wd, ".git"), u.managed} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	u.env = append(os.Environ(), "HOME="+u.home, "CLAUDE_CONFIG_DIR=", "CLAUDE_PROJECT_DIR=")
	return u
}

// write writes a file under the working directory, or at an absolute
// path, and returns its path.
func (u *user) write(name, content string) string {
	u.t.Helper()
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(u.wd, name)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		u.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		u.t.Fatal(err)
	}
	return path
}

// run runs the binary in the working directory with the managed settings
// pointed at the scratch directory, stdin given.
func (u *user) run(stdin string, args ...string) (stdout, stderr string, code int) {
	u.t.Helper()
	cmd := exec.Command(binary(u.t), append([]string{"--managed-dir", u.managed}, args...)...)
	cmd.Dir, cmd.Env = u.wd, u.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		u.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func (u *user) exists(name string) bool {
	_, err := os.Stat(filepath.Join(u.wd, name))
	return err == nil
}
