// Command agentpolicy-hook is the command an agent's hook runs: it hands
// the call to a resident agentpolicy process, which decides it with the
// same code as agentpolicy hook, and prints the answer; it starts that
// process when none is running, and runs agentpolicy hook itself
// whenever the resident process cannot answer. A hook call then costs
// the start of this small program rather than of the whole command.
//
//	agentpolicy-hook --policy team-policy.json --agent codex < event.json
//
// is agentpolicy hook --policy team-policy.json --agent codex, answered
// the same way. The agentpolicy binary it runs is the one beside it.
// AGENTPOLICY_RESIDENT=off makes every call run agentpolicy hook itself.
//
// When it cannot run agentpolicy hook at all (no binary beside it, one
// that cannot start, or one killed before it answered) it exits 2 with
// the reason on standard error, which Claude Code, Codex CLI and Gemini
// CLI all read as a block.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	binary, err := agentpolicy()
	if err != nil {
		fmt.Fprintf(os.Stderr, "agentpolicy-hook: %v\n", err)
		os.Exit(2)
	}
	args := os.Args[1:]
	if os.Getenv("AGENTPOLICY_RESIDENT") != "off" && !isTerminal(os.Stdin) {
		if code, ok := callResident(binary, args); ok {
			os.Exit(code)
		}
	}
	os.Exit(execBinary(binary, args))
}

// agentpolicy is the path of the agentpolicy binary beside this one (with
// this one's extension, .exe on Windows).
func agentpolicy() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	// The resident process names its socket after its binary's real path.
	binary, err := filepath.EvalSymlinks(filepath.Join(filepath.Dir(self), "agentpolicy"+filepath.Ext(self)))
	if err != nil {
		return "", fmt.Errorf("no agentpolicy binary beside this one: %w", err)
	}
	return binary, nil
}

// runBinary runs agentpolicy hook with args, its standard input stdin, or
// this process's when stdin is nil, and returns its exit status.
func runBinary(binary string, args []string, stdin []byte) int {
	in, w := os.Stdin, (*os.File)(nil)
	if stdin != nil {
		r, pw, err := os.Pipe()
		if err != nil {
			fmt.Fprintf(os.Stderr, "agentpolicy-hook: %v\n", err)
			return 2
		}
		in, w = r, pw
		defer r.Close()
	}
	p, err := os.StartProcess(binary, append([]string{binary, "hook"}, args...), &os.ProcAttr{
		Files: []*os.File{in, os.Stdout, os.Stderr},
	})
	if err != nil {
		if w != nil {
			w.Close()
		}
		fmt.Fprintf(os.Stderr, "agentpolicy-hook: cannot run %s: %v\n", binary, err)
		return 2
	}
	if w != nil {
		w.Write(stdin) // a hook that stops reading early closes the pipe; its answer stands
		w.Close()
	}
	state, err := p.Wait()
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "agentpolicy-hook: %v\n", err)
		return 2
	case !state.Exited():
		// Killed: exit 2 with a reason, which every agent reads as a
		// block, where another status lets Codex CLI and Gemini CLI run
		// the call.
		fmt.Fprintf(os.Stderr, "agentpolicy-hook: agentpolicy hook ended without deciding: %v\n", state)
		return 2
	}
	return state.ExitCode()
}

// isTerminal reports whether f is a terminal, where no event will come:
// agentpolicy hook says so itself.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
