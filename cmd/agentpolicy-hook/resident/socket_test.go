//go:build linux

package resident

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestDir(t *testing.T) {
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	dir, err := Dir()
	if err != nil || dir != filepath.Join(runtime, "agentpolicy") {
		t.Fatalf("Dir() = %q, %v", dir, err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the socket directory: %v, %v", info.Mode(), err)
	}
	// Made once, it is taken as it is.
	if again, err := Dir(); err != nil || again != dir {
		t.Fatalf("Dir() again = %q, %v", again, err)
	}
	// A directory others can enter, or a link, is refused.
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); !errors.Is(err, ErrUnsafeDir) {
		t.Errorf("a directory the group can read: %v", err)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); !errors.Is(err, ErrUnsafeDir) {
		t.Errorf("a link: %v", err)
	}
	// With no runtime directory, it is the user's own in the temporary one.
	t.Setenv("XDG_RUNTIME_DIR", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if dir, err := Dir(); err != nil || !strings.HasPrefix(dir, filepath.Join(tmp, "agentpolicy-")) {
		t.Errorf("Dir() with no XDG_RUNTIME_DIR = %q, %v", dir, err)
	}
}

func TestSocketPath(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	a, errA := SocketPath("/usr/local/bin/agentpolicy")
	b, errB := SocketPath("/home/u/.local/bin/agentpolicy")
	if errA != nil || errB != nil || a == b || filepath.Dir(a) != filepath.Dir(b) {
		t.Fatalf("two binaries' sockets: %q %v, %q %v", a, errA, b, errB)
	}
	if again, _ := SocketPath("/usr/local/bin/agentpolicy"); again != a {
		t.Errorf("one binary, two sockets: %q, %q", a, again)
	}
	t.Setenv("XDG_RUNTIME_DIR", "/"+strings.Repeat("d", 100))
	if _, err := SocketPath("/usr/local/bin/agentpolicy"); err == nil {
		t.Errorf("a socket path longer than a socket address holds was given")
	}
}

func TestIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentpolicy")
	if err := os.WriteFile(path, []byte("one"), 0o755); err != nil {
		t.Fatal(err)
	}
	first, err := Identity(path)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Identity(path); again != first {
		t.Errorf("one file, two identities: %q, %q", first, again)
	}
	// Replaced as an upgrade replaces it: another file in its place.
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte("two"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if replaced, _ := Identity(path); replaced == first {
		t.Errorf("a replaced binary kept its identity %q", first)
	}
}

func TestSameUser(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	if err := SameUser(fds[0]); err != nil {
		t.Errorf("the peer of a socket pair of this process: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := SameUser(int(r.Fd())); err == nil {
		t.Errorf("a pipe, no socket, passed as a peer of this user's")
	}
}

// A call through a Listener: nothing comes within the tick, then one
// client's request arrives whole and its answer returns to it.
func TestListenerCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hook.sock")
	l, err := Listen(path, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	start := time.Now()
	if _, err := l.Accept(); !errors.Is(err, ErrNoCall) || time.Since(start) < 90*time.Millisecond {
		t.Fatalf("Accept with no call: %v after %v", err, time.Since(start))
	}
	want := Request{Binary: "id", Dir: "/", Args: []string{"--agent", "codex"}, Env: []string{"A=1"}, Stdin: []byte(`{}`)}
	answered := make(chan error, 1)
	go func() {
		conn, err := l.Accept()
		if err != nil {
			answered <- err
			return
		}
		defer conn.Close()
		got, err := conn.ReadRequest()
		if err == nil && !reflect.DeepEqual(got, want) {
			err = fmt.Errorf("the request read was %+v", got)
		}
		if err == nil {
			err = conn.Answer(Response{Status: Answered, Code: 2, Stdout: []byte("out"), Stderr: []byte("err")})
		}
		answered <- err
	}()
	conn, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	resp, err := conn.Call(want)
	if err != nil || resp.Status != Answered || resp.Code != 2 || string(resp.Stdout) != "out" || string(resp.Stderr) != "err" {
		t.Errorf("the answer: %+v, %v", resp, err)
	}
	if err := <-answered; err != nil {
		t.Error(err)
	}
}
