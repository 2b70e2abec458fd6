package cases

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/claude"
)

// Group gathers cases that share every setting (settings files, trust,
// mode, files) into runs of at most size cases, in the order given: a run
// is one Claude Code session making the cases' calls in turn, since one
// session costs seconds and one more call in it a fraction of that.
func Group(cs []Case, size int) [][]Case {
	var keys []string
	groups := map[string][]Case{}
	for _, c := range cs {
		k := c.setup()
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], c)
	}
	var runs [][]Case
	for _, k := range keys {
		g := groups[k]
		for len(g) > size {
			runs = append(runs, g[:size])
			g = g[size:]
		}
		runs = append(runs, g)
	}
	return runs
}

// setup is what a session's cases must share, as one string.
func (c Case) setup() string {
	key, _ := json.Marshal([]any{c.Managed, c.User, c.Project, c.Local, c.MCP, c.PowerShell, c.Trust, c.Mode, c.AddDirs, c.Files})
	return string(key)
}

// bypass reports whether the case may put Claude Code in bypassPermissions
// mode: by the flag or by a settings file's defaultMode.
func (c Case) bypass() bool {
	const mode = "bypassPermissions"
	if c.Mode == mode {
		return true
	}
	for _, settings := range []json.RawMessage{c.Managed, c.User, c.Project, c.Local} {
		if strings.Contains(string(settings), `"`+mode+`"`) {
			return true
		}
	}
	return false
}

// Run runs cases that share their setup ([Group]) in one Claude Code
// session, in a scratch tree under root (a fresh directory the caller
// removes), and returns each case's answer with the tree's paths put back
// as placeholders.
//
// A call can leave what it did behind for the next one (a file it
// created); the Bash tool's working directory is not among it, as
// CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR returns it to the project after
// every command.
func Run(ctx context.Context, root string, cs []Case) ([]Recorded, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	t, err := NewTree(root)
	if err != nil {
		return nil, err
	}
	if err := gitInit(ctx, t.Project); err != nil {
		return nil, err
	}
	first := cs[0]
	if err := t.Write(first); err != nil {
		return nil, err
	}
	if first.Trust {
		if err := claude.TrustProject(t.Home, t.Project); err != nil {
			return nil, err
		}
	}
	var calls []claude.ToolCall
	var recorded []int // the index in calls of each case's call
	for _, c := range cs {
		if c.setup() != first.setup() {
			return nil, fmt.Errorf("agentpolicy/conformance/cases: %s and %s do not share their setup", first.Name, c.Name)
		}
		for _, call := range append(c.Before, Call{Tool: c.Tool, Input: c.Input}) {
			input, _ := t.ExpandValue(call.Input).(map[string]any)
			calls = append(calls, claude.ToolCall{Name: call.Tool, Input: input})
		}
		recorded = append(recorded, len(calls)-1)
	}
	s := claude.Session{
		Dir:     t.Project,
		Home:    t.Home,
		Mode:    first.Mode,
		Calls:   calls,
		Env:     []string{"CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR=1"},
		Timeout: time.Duration(60+15*len(calls)) * time.Second,
	}
	if first.PowerShell {
		s.Env = append(s.Env, "CLAUDE_CODE_USE_POWERSHELL_TOOL=1")
	}
	for _, dir := range first.AddDirs {
		s.Args = append(s.Args, "--add-dir", t.Expand(dir))
	}
	if first.Managed != nil {
		s.Env = append(s.Env, "CLAUDE_CODE_MANAGED_SETTINGS_PATH="+t.ManagedDir())
	}
	if os.Getuid() == 0 && first.bypass() {
		// Claude Code refuses bypassPermissions to root, unless told it
		// runs in a sandbox; the cases run in a scratch tree as root on
		// the build machine.
		s.Env = append(s.Env, "IS_SANDBOX=1")
	}
	res, err := s.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/conformance/cases: %s (and %d more): %w", first.Name, len(cs)-1, err)
	}
	out := make([]Recorded, len(cs))
	for i, at := range recorded {
		o := res.Outcomes[at]
		out[i] = Recorded{Decision: o.Decision, Text: t.Placeholders(o.Text)}
	}
	return out, nil
}

// gitInit makes the project a git repository with no commit, as a cloned
// project would be, with git's own configuration kept out.
func gitInit(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "init", "-q", dir)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("agentpolicy/conformance/cases: git init: %v: %s", err, out)
	}
	return nil
}
