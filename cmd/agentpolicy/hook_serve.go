//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook/resident"
	"github.com/spf13/cobra"
)

// residentSupported: agentpolicy-hook can hand calls to hook serve here,
// so hook install writes agentpolicy-hook when it sits beside the binary.
const residentSupported = true

// newHookServe is agentpolicy hook serve, the resident process that
// agentpolicy-hook hands its calls to.
func newHookServe() *cobra.Command {
	var idle time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer agentpolicy-hook's calls from one resident process",
		Long: `serve is the resident process of agentpolicy-hook, the small command an
agent's hook runs. agentpolicy-hook starts it when none is running and hands
it each call: its arguments, environment, working directory, umask and
standard input. serve runs agentpolicy hook on them, one call at a time, as
the call's own process would, and sends back what it printed and its exit
status; the settings, policy files and trust record are read anew for every
call, so a change to any of them holds from the next call.

It listens on a Unix socket of this binary's in $XDG_RUNTIME_DIR/agentpolicy,
else in $TMPDIR/agentpolicy-UID, a directory only its user can enter, and
answers only its own user. It refuses a call meant for another build of
agentpolicy (the binary was rebuilt or replaced) and then exits, and
agentpolicy-hook runs the binary itself. It exits when no call has come for
--idle, or when its socket is removed. A second serve for the same binary
exits at once.`,
		Example: "  agentpolicy hook serve --idle 1h",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if idle <= 0 {
				return errors.New("hook serve: --idle must be positive")
			}
			return serveHook(cmd.Context(), idle)
		},
	}
	cmd.Flags().DurationVar(&idle, "idle", 15*time.Minute, "exit after this long with no call")
	return cmd
}

// residentServer is the state of one resident process.
type residentServer struct {
	// identity is the resident.Identity of this binary when it started.
	identity string
	// socket is the listening socket's path and file, whose removal
	// ends the process.
	socket string
	sockID os.FileInfo
	idle   time.Duration
	last   time.Time
	// stop is set once a call was refused for a stale binary.
	stop bool
	// commands are the names of the commands under hook (install,
	// serve, help …): a call with one of them as a word is refused.
	commands map[string]bool
}

// serveHook listens for agentpolicy-hook's calls until the process has
// been idle for idle, its socket is gone, or a call shows the binary was
// replaced. It returns nil, having done nothing, when another resident
// process of this binary listens already.
func serveHook(ctx context.Context, idle time.Duration) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("hook serve: cannot find this binary's path: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return fmt.Errorf("hook serve: %w", err)
	}
	residentEngines = &engineCache{}
	s := &residentServer{idle: idle, last: time.Now(), commands: map[string]bool{}}
	for _, c := range newRoot([]string{"hook"}).Commands()[0].Commands() {
		s.commands[c.Name()] = true
		for _, alias := range c.Aliases {
			s.commands[alias] = true
		}
	}
	s.commands["help"] = true
	if s.identity, err = resident.Identity(exe); err != nil {
		return fmt.Errorf("hook serve: %w", err)
	}
	if s.socket, err = resident.SocketPath(exe); err != nil {
		return fmt.Errorf("hook serve: %w", err)
	}
	lock, err := os.OpenFile(s.socket+".lock", os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("hook serve: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil // another resident process of this binary listens
		}
		return fmt.Errorf("hook serve: %w", err)
	}
	// Holding the lock, any socket here is a dead process's.
	os.Remove(s.socket)
	l, err := resident.Listen(s.socket, time.Second)
	if err != nil {
		return fmt.Errorf("hook serve: %w", err)
	}
	defer l.Close()
	if s.sockID, err = os.Lstat(s.socket); err != nil {
		return fmt.Errorf("hook serve: %w", err)
	}
	defer func() {
		// The socket is removed only while it is still this process's:
		// what else is at its path is left alone.
		if info, err := os.Lstat(s.socket); err == nil && os.SameFile(info, s.sockID) {
			os.Remove(s.socket)
		}
	}()
	for !s.stop && s.wanted() {
		conn, err := l.Accept()
		switch {
		case errors.Is(err, resident.ErrNoCall), errors.Is(err, resident.ErrOtherUser):
			continue
		case err != nil:
			return fmt.Errorf("hook serve: %w", err)
		}
		s.handle(ctx, conn)
		s.last = time.Now()
	}
	return nil
}

// wanted reports whether the process should go on listening: a call came
// within its idle time and its socket is still the one it made.
func (s *residentServer) wanted() bool {
	info, err := os.Lstat(s.socket)
	return err == nil && os.SameFile(info, s.sockID) && time.Since(s.last) < s.idle
}

// handle answers one connection's call.
func (s *residentServer) handle(ctx context.Context, conn *resident.Conn) {
	defer conn.Close()
	if req, err := conn.ReadRequest(); err == nil {
		conn.Answer(s.answer(ctx, req))
	}
}

// answer runs the request's call as the client's own process would have.
func (s *residentServer) answer(ctx context.Context, req resident.Request) (resp resident.Response) {
	if req.Binary != s.identity {
		s.stop = true
		return refused("the agentpolicy binary was replaced since this process started")
	}
	if s.namesCommand(req.Args) {
		return refused("not a hook call: a word of it may name a command under hook")
	}
	if err := enter(req); err != nil {
		return refused(err.Error())
	}
	defer func() {
		// A panic is the binary's to show as it would: the client runs it.
		if p := recover(); p != nil {
			resp = refused(fmt.Sprint("the call panicked: ", p))
		}
	}()
	var stdout, stderr bytes.Buffer
	code := run(ctx, append([]string{"hook"}, req.Args...), bytes.NewReader(req.Stdin), &stdout, &stderr)
	return resident.Response{Status: resident.Answered, Code: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
}

// enter makes this process's environment, working directory and umask
// the client's, for the one call it runs at a time.
func enter(req resident.Request) error {
	if req.Dir == "" {
		return errors.New("the client has no working directory")
	}
	if err := os.Chdir(req.Dir); err != nil {
		return err
	}
	os.Clearenv()
	for _, kv := range req.Env {
		if name, value, ok := strings.Cut(kv, "="); ok && name != "" {
			os.Setenv(name, value)
		}
	}
	syscall.Umask(int(req.Umask))
	return nil
}

// namesCommand reports whether a word of args, not a flag, is the name of
// a command under hook, which cobra would run instead of the hook: such a
// call is left to the binary, even where the word is a flag's value.
func (s *residentServer) namesCommand(args []string) bool {
	for _, a := range args {
		if s.commands[a] {
			return true
		}
	}
	return false
}

func refused(reason string) resident.Response {
	return resident.Response{Status: resident.Refused, Reason: reason}
}
