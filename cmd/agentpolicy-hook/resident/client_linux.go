//go:build linux

package resident

import (
	"bufio"
	"errors"
	"os"
	"syscall"
	"time"
)

// Wait is how long the client waits for an answer before it runs the
// binary itself. A call normally takes a millisecond; the hook's own
// slowest path, a database that does not answer, gives up after 2 s. The
// binary's run must still end within the hook timeouts install writes,
// 10 s for Codex CLI and Gemini CLI, which run the call when they pass.
const Wait = 4 * time.Second

// Conn is a connection to a resident process.
type Conn struct {
	f *os.File
}

// Dial connects to the resident process listening at path, and checks
// that it runs as this user.
func Dial(path string) (*Conn, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if err := SameUser(fd); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	wait := syscall.NsecToTimeval(Wait.Nanoseconds())
	for _, opt := range []int{syscall.SO_RCVTIMEO, syscall.SO_SNDTIMEO} {
		if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &wait); err != nil {
			syscall.Close(fd)
			return nil, err
		}
	}
	return &Conn{f: os.NewFile(uintptr(fd), path)}, nil
}

// Call sends the request and reads the answer. An error means the call's
// outcome is unknown to the client, which then runs it itself.
func (c *Conn) Call(req Request) (Response, error) {
	if _, err := c.f.Write(AppendRequest(make([]byte, 0, len(req.Stdin)+4096), req)); err != nil {
		return Response{}, err
	}
	return ReadResponse(bufio.NewReader(c.f))
}

// Close closes the connection.
func (c *Conn) Close() error { return c.f.Close() }

// ErrOtherUser is a peer on the socket that runs as another user.
var ErrOtherUser = errors.New("resident: the peer runs as another user")

// SameUser checks that the process at the other end of the Unix socket fd
// runs as this process's user.
func SameUser(fd int) error {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return ErrOtherUser
	}
	return nil
}

// Start starts the resident process of the agentpolicy binary at binary,
// agentpolicy hook serve, in a session of its own with no terminal and
// standard streams on /dev/null, so the agent that ran the hook neither
// waits for it nor signals it. The process gives up at once when another
// already listens.
func Start(binary string) error {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer null.Close()
	p, err := os.StartProcess(binary, []string{binary, "hook", "serve"}, &os.ProcAttr{
		Dir:   "/",
		Files: []*os.File{null, null, null},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return err
	}
	return p.Release()
}
