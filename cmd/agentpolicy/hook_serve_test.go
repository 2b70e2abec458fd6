//go:build linux

package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook/resident"
)

// The resident path: agentpolicy-hook hands each call to agentpolicy hook
// serve, which must answer exactly as agentpolicy hook would in the
// call's own process, and step aside whenever it cannot.

// outcome is what a hook process printed and its exit status.
type outcome struct {
	stdout, stderr string
	code           int
}

// runHook runs name with args in dir and env, the event on standard input.
func runHook(t *testing.T, dir string, env []string, event, name string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = dir, env, strings.NewReader(event), &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", name, err)
	}
	return outcome{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// residentEvents are the calls the resident process is held to: each
// agent's deny and allowed read, an ask, a secret, and input each agent's
// reader refuses.
func residentEvents(project string) map[string]string {
	events := map[string]string{}
	for _, ev := range startEvents(project) {
		events[ev.agent+" "+ev.name] = ev.event
	}
	ask := map[string]string{"command": "curl https://example.com"}
	secret := map[string]string{"command": "echo AKIAIOSFODNN7EXAMPLE"}
	for _, agent := range []string{agentCodex, agentGemini} {
		tool := map[string]string{agentCodex: "Bash", agentGemini: "run_shell_command"}[agent]
		events[agent+" ask"] = agentEventJSON(agent, project, tool, ask, nil)
		events[agent+" secret"] = agentEventJSON(agent, project, tool, secret, nil)
		events[agent+" not json"] = `{"hook_event_name": "PreToolUse", "cwd": `
	}
	events["claude ask"] = claudeEventJSON(project, "Bash", ask)
	events["claude secret"] = claudeEventJSON(project, "Bash", secret)
	events["claude not json"] = `{"hook_event_name": "PreToolUse", "cwd": `
	events["claude empty"] = ""
	return events
}

// agentOf is the --agent flag of a residentEvents name.
func agentOf(name string) string {
	agent, _, _ := strings.Cut(name, " ")
	return agent
}

// TestResidentAnswersAsTheBinary holds agentpolicy-hook's answers to
// agentpolicy hook's, byte for byte with the exit status, on every kind of
// call: first with no resident process (the client starts one and runs
// the binary), then through the resident process alone, once the binary
// can no longer be run at all.
func TestResidentAnswersAsTheBinary(t *testing.T) {
	w := newStartWorld(t, 20)
	bin, client := residentCopy(t)
	runtime := privateRuntime(t)
	env := append(w.env, "XDG_RUNTIME_DIR="+runtime)
	events := residentEvents(w.project)
	want := map[string]outcome{}
	for name, event := range events {
		want[name] = runHook(t, w.project, env, event, bin, append(w.args, "--agent", agentOf(name))...)
	}
	if want["codex deny"].stdout == "" || want["claude not json"].code != exitInput {
		t.Fatalf("the binary's own answers are not the expected kinds: %+v", want)
	}
	clientArgs := func(name string) []string { return append(w.args[1:], "--agent", agentOf(name)) }
	for name, event := range events {
		if got := runHook(t, w.project, env, event, client, clientArgs(name)...); got != want[name] {
			t.Errorf("%s, before the resident process: %+v, want %+v", name, got, want[name])
		}
	}
	waitFor(t, "the resident process's socket", func() bool { return socketIn(runtime) })
	// A call the resident process answers needs no binary to run.
	if err := os.Chmod(bin, 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		for name, event := range events {
			if got := runHook(t, w.project, env, event, client, clientArgs(name)...); got != want[name] {
				t.Errorf("%s, through the resident process: %+v, want %+v", name, got, want[name])
			}
		}
	}
	// Help is answered too, and a word naming a command under hook is the
	// binary's own to run, which it no longer can.
	if got := runHook(t, w.project, env, "", client, "--help"); got.code != 0 || !strings.Contains(got.stdout, "agentpolicy hook [flags]") {
		t.Errorf("--help through the resident process: %+v", got)
	}
	if got := runHook(t, w.project, env, "", client, "install", "--agent", "codex"); got.code != 2 || !strings.Contains(got.stderr, "permission denied") {
		t.Errorf("install through agentpolicy-hook was not left to the binary: %+v", got)
	}
	// Every call was journaled, by the binary or the resident process.
	journal, err := os.ReadFile(w.args[len(w.args)-1])
	if err != nil {
		t.Fatal(err)
	}
	decided := 0
	for name := range events {
		if !strings.Contains(name, "not json") && name != "claude empty" {
			decided++
		}
	}
	if lines := bytes.Count(journal, []byte("\n")); lines != 4*decided {
		t.Errorf("the journal holds %d lines, want %d: %d calls of %d events, four times over", lines, 4*decided, 4, decided)
	}
}

// TestResidentTakesEachCallsProcess runs calls whose answers depend on
// the caller's working directory (a relative --policy) and environment
// ($AGENTPOLICY_JOURNAL), one after another through one resident process:
// each is answered, and journaled, as in its own process.
func TestResidentTakesEachCallsProcess(t *testing.T) {
	w := newStartWorld(t, 0)
	bin, client := residentCopy(t)
	runtime := privateRuntime(t)
	strict, lax := t.TempDir(), t.TempDir()
	for dir, rules := range map[string]string{
		strict: `{"permissions": {"deny": ["Bash(cat *)"]}}`,
		lax:    `{"permissions": {"allow": ["Bash(cat *)"]}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, "policy.json"), []byte(rules), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	journal := filepath.Join(t.TempDir(), "journal.jsonl")
	event := agentEventJSON(agentCodex, w.project, "Bash", map[string]string{"command": "cat README.md"}, nil)
	calls := []struct {
		dir     string
		journal bool
	}{{strict, false}, {lax, true}, {strict, true}, {lax, false}, {lax, false}, {strict, false}}
	args := []string{"--policy", "policy.json", "--agent", agentCodex}
	journaled := 0
	for i, c := range append(calls, calls...) {
		env := append(w.env, "XDG_RUNTIME_DIR="+runtime)
		if c.journal {
			env = append(env, "AGENTPOLICY_JOURNAL="+journal)
			journaled += 2
		}
		want := runHook(t, c.dir, env, event, bin, append([]string{"hook"}, args...)...)
		got := runHook(t, c.dir, env, event, client, args...)
		if got != want {
			t.Errorf("call %d in %s: %+v, want %+v", i, c.dir, got, want)
		}
		if denied := strings.Contains(want.stdout, "denied by Bash(cat *)"); denied != (c.dir == strict) {
			t.Errorf("call %d in %s was answered %q", i, c.dir, want.stdout)
		}
		data, _ := os.ReadFile(journal)
		if lines := bytes.Count(data, []byte("\n")); lines != journaled {
			t.Errorf("after call %d the journal holds %d lines, want %d", i, lines, journaled)
		}
		if i == 0 {
			waitFor(t, "the resident process's socket", func() bool { return socketIn(runtime) })
		}
	}
}

// TestResidentStepsAside: a resident process started from a binary since
// replaced refuses the call and exits, and the client runs the new binary;
// a socket directory other users could reach is not used; a resident
// process exits when its socket is removed, when idle, and at once when
// another listens.
func TestResidentStepsAside(t *testing.T) {
	w := newStartWorld(t, 0)
	event := agentEventJSON(agentCodex, w.project, "Bash", map[string]string{"command": "git status && rm -rf x"}, nil)
	args := append(w.args[1:], "--agent", agentCodex)

	t.Run("replaced binary", func(t *testing.T) {
		bin, client := residentCopy(t)
		runtime := privateRuntime(t)
		env := append(w.env, "XDG_RUNTIME_DIR="+runtime)
		serve := startServe(t, bin, env)
		waitFor(t, "the resident process's socket", func() bool { return socketIn(runtime) })
		copyFile(t, filepath.Join(filepath.Dir(residentBinary(t)), "agentpolicy"), bin) // a new file, as an upgrade writes it
		if got := runHook(t, w.project, env, event, client, args...); !strings.Contains(got.stdout, "denied by Bash(rm *)") {
			t.Errorf("after the binary was replaced: %+v", got)
		}
		waitExit(t, serve, "the resident process of the replaced binary")
		if socketIn(runtime) {
			t.Errorf("the resident process of the replaced binary left its socket behind")
		}
	})

	t.Run("unsafe directory", func(t *testing.T) {
		_, client := residentCopy(t)
		runtime := privateRuntime(t)
		if err := os.Mkdir(filepath.Join(runtime, "agentpolicy"), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(runtime, "agentpolicy"), 0o777); err != nil {
			t.Fatal(err)
		}
		env := append(w.env, "XDG_RUNTIME_DIR="+runtime)
		for range 3 {
			if got := runHook(t, w.project, env, event, client, args...); !strings.Contains(got.stdout, "denied by Bash(rm *)") {
				t.Errorf("with an open socket directory: %+v", got)
			}
		}
		time.Sleep(200 * time.Millisecond)
		if socketIn(runtime) {
			t.Errorf("a resident process listens in a directory every user can write")
		}
	})

	t.Run("silent process", func(t *testing.T) {
		bin, client := residentCopy(t)
		runtime := privateRuntime(t)
		t.Setenv("XDG_RUNTIME_DIR", runtime)
		sock, err := resident.SocketPath(bin)
		if err != nil {
			t.Fatal(err)
		}
		// A process that takes calls and never answers them.
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				conn, err := l.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
			}
		}()
		start := time.Now()
		got := runHook(t, w.project, append(w.env, "XDG_RUNTIME_DIR="+runtime), event, client, args...)
		if !strings.Contains(got.stdout, "denied by Bash(rm *)") {
			t.Errorf("with a resident process that never answers: %+v", got)
		}
		if took := time.Since(start); took < resident.Wait || took > resident.Wait+5*time.Second {
			t.Errorf("the client gave up on the silent process after %v, want %v", took, resident.Wait)
		}
	})

	t.Run("no binary", func(t *testing.T) {
		// Without agentpolicy beside it the client cannot decide: it exits
		// 2 with the reason on standard error, which every agent reads as
		// a block (spec/agents.md), never 0 or 1, which Codex CLI and
		// Gemini CLI read as leave to run the call.
		_, client := residentCopy(t)
		if err := os.Remove(filepath.Join(filepath.Dir(client), "agentpolicy")); err != nil {
			t.Fatal(err)
		}
		got := runHook(t, w.project, append(w.env, "XDG_RUNTIME_DIR="+privateRuntime(t)), event, client, args...)
		if got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, "no agentpolicy binary beside this one") {
			t.Errorf("with no agentpolicy binary: %+v", got)
		}
	})

	t.Run("socket removed", func(t *testing.T) {
		bin, _ := residentCopy(t)
		runtime := privateRuntime(t)
		serve := startServe(t, bin, append(w.env, "XDG_RUNTIME_DIR="+runtime))
		waitFor(t, "the resident process's socket", func() bool { return socketIn(runtime) })
		if err := os.RemoveAll(filepath.Join(runtime, "agentpolicy")); err != nil {
			t.Fatal(err)
		}
		waitExit(t, serve, "the resident process whose socket was removed")
	})

	t.Run("idle and second", func(t *testing.T) {
		bin, _ := residentCopy(t)
		runtime := privateRuntime(t)
		env := append(w.env, "XDG_RUNTIME_DIR="+runtime)
		serve := startServe(t, bin, env, "--idle", "2s")
		waitFor(t, "the resident process's socket", func() bool { return socketIn(runtime) })
		second := exec.Command(bin, "hook", "serve")
		second.Env = env
		if out, err := second.CombinedOutput(); err != nil {
			t.Errorf("a second resident process: %v %s", err, out)
		}
		if !socketIn(runtime) {
			t.Errorf("the second resident process took the first one's socket away")
		}
		waitExit(t, serve, "the idle resident process")
		if socketIn(runtime) {
			t.Errorf("the idle resident process left its socket behind")
		}
	})
}

// startServe starts agentpolicy hook serve and ends it with the test.
func startServe(t *testing.T, bin string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"hook", "serve"}, args...)...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	serving[cmd] = done
	return cmd
}

// serving are the resident processes a test started, and when each ended.
var serving = map[*exec.Cmd]chan struct{}{}

// waitExit fails the test unless the resident process exits within 10 s.
func waitExit(t *testing.T, cmd *exec.Cmd, what string) {
	t.Helper()
	select {
	case <-serving[cmd]:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not exit", what)
	}
}

// residentRatioBound holds agentpolicy-hook's call, once the resident
// process listens, to this many times an empty static Go program, each the
// least of its runs. The aim is 2, which the README's figures
// meet; a client that fell back to running the binary on every call would
// be 3.2 or more, as agentpolicy hook is (TestHookStartNearEmpty).
const residentRatioBound = 3

// TestResidentStartNearEmpty is TestHookStartNearEmpty for agentpolicy-hook.
func TestResidentStartNearEmpty(t *testing.T) {
	client, empty := filepath.Join(filepath.Dir(residentBinary(t)), "agentpolicy-hook"), emptyProgram(t)
	w := newStartWorld(t, 0)
	for _, ev := range startEvents(w.project) {
		w.call(t, client, ev)
		waitFor(t, "the resident process's socket", func() bool { return socketIn(w.runtime()) })
		w.holdStart(t, client, empty, ev, residentRatioBound)
	}
}

// hook install by a binary with no agentpolicy-hook beside it writes
// agentpolicy hook and says how to have a resident process answer;
// with agentpolicy-hook beside it, it writes that and says nothing more.
func TestInstallNotesResident(t *testing.T) {
	project := t.TempDir()
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"permissions": {"deny": ["Bash(rm *)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bin      string
		resident bool
	}{{binary(t), false}, {residentBinary(t), true}} {
		for _, agent := range []string{agentClaude, agentGemini} {
			args := []string{"hook", "install", "--scope", "project", "--project", project, "--policy", policy}
			if agent != agentClaude {
				args = append(args, "--agent", agent)
			}
			cmd := exec.Command(c.bin, args...)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "CLAUDE_CONFIG_DIR=")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s install: %v\n%s", agent, err, stderr.String())
			}
			client := filepath.Join(filepath.Dir(c.bin), "agentpolicy-hook")
			if got := strings.Contains(stdout.String(), client+" --policy"); got != c.resident {
				t.Errorf("%s install with agentpolicy-hook beside it %v wrote %q", agent, c.resident, stdout.String())
			}
			if noted := strings.Contains(stderr.String(), "build agentpolicy-hook as "+client); noted == c.resident {
				t.Errorf("%s install with agentpolicy-hook beside it %v said %q", agent, c.resident, stderr.String())
			}
		}
	}
}
