package cases

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/claude"
)

// Run runs one case against the real Claude Code in a scratch tree under
// root (a fresh directory the caller removes) and returns its answer with
// the tree's paths put back as placeholders.
func Run(ctx context.Context, root string, c Case) (Recorded, error) {
	t, err := NewTree(root)
	if err != nil {
		return Recorded{}, err
	}
	if err := gitInit(ctx, t.Project); err != nil {
		return Recorded{}, err
	}
	if err := t.Write(c); err != nil {
		return Recorded{}, err
	}
	if c.Trust {
		if err := claude.TrustProject(t.Home, t.Project); err != nil {
			return Recorded{}, err
		}
	}
	var calls []claude.ToolCall
	for _, call := range append(c.Before, Call{Tool: c.Tool, Input: c.Input}) {
		input, _ := t.ExpandValue(call.Input).(map[string]any)
		calls = append(calls, claude.ToolCall{Name: call.Tool, Input: input})
	}
	s := claude.Session{
		Dir:     t.Project,
		Home:    t.Home,
		Mode:    c.Mode,
		Calls:   calls,
		Timeout: 90 * time.Second,
	}
	if c.Managed != nil {
		s.Env = append(s.Env, "CLAUDE_CODE_MANAGED_SETTINGS_PATH="+t.ManagedDir())
	}
	res, err := s.Run(ctx)
	if err != nil {
		return Recorded{}, fmt.Errorf("agentpolicy/conformance/cases: %s: %w", c.Name, err)
	}
	o := res.Outcomes[len(res.Outcomes)-1]
	return Recorded{Decision: o.Decision, Text: t.Placeholders(o.Text)}, nil
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
