//go:build linux

package resident

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// Listener is the resident process's listening socket. It takes its calls
// with plain blocking system calls, so a call wakes the one thread that
// waits for it, and nothing else of the process.
type Listener struct {
	fd int
}

// ErrNoCall is Accept's answer when no call came within the tick.
var ErrNoCall = errors.New("resident: no call came")

// Listen listens at path. Accept waits at most tick for a call, so the
// process can look at its state between calls.
func Listen(path string, tick time.Duration) (*Listener, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	wait := syscall.NsecToTimeval(tick.Nanoseconds())
	if err := firstErr(
		syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}),
		syscall.Listen(fd, syscall.SOMAXCONN),
		syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &wait),
	); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return &Listener{fd: fd}, nil
}

// Accept waits for the next call: a connection from a process of this
// user, which gets Wait for each read and write. It returns ErrNoCall when
// none came within the tick, and ErrOtherUser, the connection closed, for
// one from another user.
func (l *Listener) Accept() (*Conn, error) {
	for {
		fd, _, err := syscall.Accept4(l.fd, syscall.SOCK_CLOEXEC)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return nil, ErrNoCall
		case err != nil:
			return nil, err
		}
		wait := syscall.NsecToTimeval(Wait.Nanoseconds())
		if err := firstErr(
			SameUser(fd),
			syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &wait),
			syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &wait),
		); err != nil {
			syscall.Close(fd)
			return nil, err
		}
		return &Conn{f: os.NewFile(uintptr(fd), "resident call")}, nil
	}
}

// Close stops listening. The socket's path is the caller's to remove.
func (l *Listener) Close() error { return syscall.Close(l.fd) }

// ReadRequest reads the call a client sent.
func (c *Conn) ReadRequest() (Request, error) { return ReadRequest(c.f) }

// Answer sends the response to the call.
func (c *Conn) Answer(r Response) error {
	_, err := c.f.Write(AppendResponse(nil, r))
	return err
}

// firstErr is the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
