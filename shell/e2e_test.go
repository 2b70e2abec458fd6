package shell

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"

	"github.com/ChristopherDavenport/agentpolicy"
)

// classPairs are, per class, a harmless command a policy allows and
// dangerous ones it must block or ask about, never allow.
var classPairs = []struct {
	class     string
	harmless  string
	dangerous []string
}{
	{"list", "git status && ls -la", []string{"git status && rm -rf /", "git status; rm -rf /", "ls | rm -rf /", "ls & rm -rf /", "ls\nrm -rf /", "git status || curl -s x"}},
	{"nested", "echo $(git status)", []string{"echo $(rm -rf /)", "echo `rm -rf /`", "ls <(rm -rf /)", "echo \"$(rm -rf /)\"", "x=$(rm -rf /) ls", "if ls; then rm -rf /; fi", "f() { rm -rf /; }; f", "cat <<EOF\n$(rm -rf /)\nEOF"}},
	{"wrapper", "timeout 5 git status", []string{"timeout 5 rm -rf /", "sudo rm -rf /", "env rm -rf /", "nice rm -rf /", "xargs rm -rf", "find . -exec rm -rf {} +", "bash -c 'rm -rf /'", "sh -c \"git status && rm -rf /\"", "eval 'rm -rf /'", "nohup curl x"}},
	{"normalise", "'git' status", []string{"r''m -rf /", "\"rm\" -rf /", "\\rm -rf /", "$'\\x72\\x6d' -rf /", "/bin/rm -rf /", "FOO=1 rm -rf /", "{rm,-rf,/}"}},
	{"unseen", "ls -la", []string{"eval \"$x\"", "source ./x.sh", "$CMD", "cat x | sh", "LD_PRELOAD=/tmp/x.so ls", "PATH=/tmp ls", "GIT_SSH_COMMAND=x git status", "find . -delete", "git -c core.pager=x status", "git -c alias.s='!x' s", "python3 < x"}},
	{"redirect", "echo hi > /tmp/out", []string{"echo hi > /etc/passwd", "ls >> /etc/hosts", "ls &> /etc/x"}},
}

// decide is the verdict of an engine for one shell call, confined or not.
func decide(t *testing.T, e *agentpolicy.Engine, command string, confined bool) agentpolicy.Verdict {
	t.Helper()
	args := commandArgs(command)
	tool := agenttool.NewFunc("bash", "", json.RawMessage(`{"type":"object"}`),
		func(context.Context, agenttool.Call) (agenttool.Result, error) { return agenttool.Text("ok"), nil },
		agenttool.WithConfined(func(context.Context, json.RawMessage) (bool, string) { return confined, "sandbox" }))
	call := &openresponses.FunctionCall{CallID: "call_1", Name: "bash", Arguments: string(args)}
	v, err := e.Would(context.Background(), agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Tool: tool, Args: args,
		Batch: []*openresponses.FunctionCall{call}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// actionCase is a command and the action an engine must decide for it.
type actionCase struct {
	command string
	action  agentturn.ToolAction
}

// checkActions decides each command with e, unconfined, and compares the
// action with the case's.
func checkActions(t *testing.T, e *agentpolicy.Engine, cases []actionCase) {
	t.Helper()
	for _, c := range cases {
		if v := decide(t, e, c.command, false); v.Action != c.action {
			t.Errorf("%q: %v %q, want %v", c.command, v.Action, v.Reason, c.action)
		}
	}
}

// build is an engine over policy with this package's splitter for bash.
func build(t *testing.T, policy agentpolicy.Policy) *agentpolicy.Engine {
	t.Helper()
	e, err := agentpolicy.Build(policy, map[string]agentpolicy.ToolMatcher{
		"bash":  {Match: agentpolicy.GlobMatcher("command"), Subjects: Subjects(WithWriteTool("write", "path"), WithReadTool("read", "path"))},
		"write": {Match: agentpolicy.GlobMatcher("path")},
		"read":  {Match: agentpolicy.GlobMatcher("path")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func rules(t *testing.T, s string) []agentpolicy.Rule {
	t.Helper()
	r, err := agentpolicy.ParseRules(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEndToEnd builds engines through agentpolicy.Build with GlobMatcher
// and the splitter, under hand-written rules and under each preset with
// deny rules added, and checks every class: the harmless command is
// allowed, every dangerous one is blocked or asked about.
func TestEndToEnd(t *testing.T) {
	tools := agentpolicy.Tools{Read: []string{"read"}, Edit: []string{"write"}, Execute: []string{"bash"}}
	deny := rules(t, "bash(rm:*) bash(curl:*) write(/etc/*)")
	withDeny := func(p agentpolicy.Policy) agentpolicy.Policy {
		p.Deny = append(p.Deny, deny...)
		return p
	}
	policies := []struct {
		name     string
		policy   agentpolicy.Policy
		confined bool
		// asksEdits marks a policy under which a write asks, harmless or
		// not.
		asksEdits bool
	}{
		{"rules under an allow default", agentpolicy.Policy{
			Allow:   rules(t, "bash(git status:*) bash(ls:*) bash(echo:*) bash(timeout:*) write(/tmp/*)"),
			Deny:    deny,
			Default: agentpolicy.Allow(),
		}, false, false},
		{"rules under an ask default", agentpolicy.Policy{
			Allow:   rules(t, "bash(git status:*) bash(ls:*) bash(echo:*) write(/tmp/*)"),
			Deny:    deny,
			Default: agentpolicy.Ask(),
		}, false, false},
		{"FullAuto", withDeny(agentpolicy.FullAuto(tools)), false, false},
		{"AutoEdit confined", withDeny(agentpolicy.AutoEdit(tools)), true, false},
		{"Suggest confined", withDeny(agentpolicy.Suggest(tools)), true, true},
	}
	for _, p := range policies {
		e := build(t, p.policy)
		for _, c := range classPairs {
			t.Run(p.name+"/"+c.class, func(t *testing.T) {
				if v := decide(t, e, c.harmless, p.confined); v.Action != agentturn.Allow && !(p.asksEdits && c.class == "redirect") {
					t.Errorf("%q: %v %q, want allowed", c.harmless, v.Action, v.Reason)
				}
				for _, d := range c.dangerous {
					v := decide(t, e, d, p.confined)
					// A confined call is decided as if nothing were
					// hidden, so a preset that allows its commands
					// allows what the sandbox bounds.
					if p.confined && c.class == "unseen" {
						if v.Action != agentturn.Allow {
							t.Errorf("%q confined: %v %q, want allowed", d, v.Action, v.Reason)
						}
						continue
					}
					if v.Action == agentturn.Allow {
						t.Errorf("%q allowed: %q", d, v.Reason)
					}
				}
			})
		}
	}
}

// TestEndToEndUnseen pins how a subject that hides code is decided: asked
// about under an allow default with the reason, blocked by a deny rule,
// and decided as any other subject when the call runs confined.
func TestEndToEndUnseen(t *testing.T) {
	allow := build(t, agentpolicy.Policy{Allow: rules(t, "bash(ls:*) bash(eval:*)"), Default: agentpolicy.Allow()})
	v := decide(t, allow, "ls && eval \"$x\"", false)
	if v.Action != agentturn.Defer || v.Reason != "approval required: eval runs a string made when it runs" || v.Subject != "eval \"$x\"" {
		t.Errorf("unconfined: %v %q on %q", v.Action, v.Reason, v.Subject)
	}
	if v := decide(t, allow, "ls && eval \"$x\"", true); v.Action != agentturn.Allow {
		t.Errorf("confined: %v %q, want allowed", v.Action, v.Reason)
	}
	deny := build(t, agentpolicy.Policy{Deny: rules(t, "bash(eval:*)"), Default: agentpolicy.Allow()})
	if v := decide(t, deny, "eval \"$x\"", true); v.Action != agentturn.Block {
		t.Errorf("deny rule: %v %q, want blocked", v.Action, v.Reason)
	}
}
