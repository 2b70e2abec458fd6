package main

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook/resident"
)

// callResident has the resident process of binary answer the call, and
// reports its exit status. It reports false, having read nothing, when no
// resident process listens: it starts one for the calls to come, and the
// caller runs the binary on this one. Once standard input is read, every
// outcome is an answer: the resident process's, or the binary's own when
// the resident process refused or failed.
func callResident(binary string, args []string) (int, bool) {
	identity, err := resident.Identity(binary)
	if err != nil {
		return 0, false
	}
	sock, err := resident.SocketPath(binary)
	if err != nil {
		return 0, false
	}
	conn, err := resident.Dial(sock)
	if err != nil {
		resident.Start(binary)
		return 0, false
	}
	defer conn.Close()
	stdin, err := io.ReadAll(io.LimitReader(os.Stdin, resident.MaxStdin))
	if err != nil {
		return 0, false
	}
	dir, _ := os.Getwd()
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	resp, err := conn.Call(resident.Request{
		Binary: identity, Dir: dir, Umask: uint32(umask), Args: args, Env: os.Environ(), Stdin: stdin,
	})
	if err != nil || resp.Status != resident.Answered {
		return runBinary(binary, args, stdin), true
	}
	os.Stdout.Write(resp.Stdout)
	os.Stderr.Write(resp.Stderr)
	return resp.Code, true
}

// execBinary runs agentpolicy hook with args in this process's place.
func execBinary(binary string, args []string) int {
	err := syscall.Exec(binary, append([]string{binary, "hook"}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "agentpolicy-hook: cannot run %s: %v\n", binary, err)
	return 2
}
