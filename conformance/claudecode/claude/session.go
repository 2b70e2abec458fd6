// Package claude runs the real Claude Code headless against a loopback
// stand-in for the Anthropic Messages API, so a test or a recorder learns
// what Claude Code decides for a tool call: it ran the call (allow), asked
// for approval, which -p refuses (ask), or denied it.
//
// Claude Code really runs what it allows: a caller scripts only calls that
// are harmless when they run, inside a scratch project and HOME.
package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ToolCall is one tool_use block the stand-in model sends.
type ToolCall struct {
	Name  string
	Input map[string]any
}

// Session is one headless `claude -p` run in Dir with a scratch HOME: the
// stand-in answers each request with the next scripted ToolCall (one
// tool_use per turn), then with final text.
type Session struct {
	Dir, Home string        // project directory (claude's cwd) and scratch HOME
	Mode      string        // --permission-mode ("" = none)
	Calls     []ToolCall    // the calls the model makes, in order
	Env       []string      // extra environment (KEY=VALUE)
	Args      []string      // extra command-line arguments
	Timeout   time.Duration // 0 = 60s
}

// The decisions an [Outcome] records.
const (
	Allow = "allow" // the tool ran
	Ask   = "ask"   // Claude Code asked for approval, which -p refuses
	Deny  = "deny"  // a rule, a mode or a hook denied the call
	// Unavailable is a call to a tool the session does not offer (an MCP
	// server not connected, a tool this build leaves out): Claude Code
	// refused it before any permission was decided.
	Unavailable = "unavailable"
)

// Outcome is what became of one scripted call, read from the tool_result
// Claude Code sent back and from permission_denials in its JSON output.
type Outcome struct {
	Call     ToolCall
	Decision string // "allow" (the tool ran), "ask" (needs approval; refused in -p), "deny", "unavailable"
	Text     string // the tool_result text the model read
}

// Result is what one [Session.Run] saw.
type Result struct {
	Outcomes []Outcome
	Output   json.RawMessage // Claude Code's --output-format json result
	Stderr   string
}

// prompt is the session's prompt; the stand-in tells the session's own
// conversation from any other request by it.
const prompt = "agentpolicy conformance: make the scripted tool calls"

// Run runs the session to its end and reads the outcome of each call. A
// call Claude Code never answered (it stopped first, or the model's turn
// never came) is an error.
func (s Session) Run(ctx context.Context) (Result, error) {
	bin, err := Binary()
	if err != nil {
		return Result{}, err
	}
	if s.Dir == "" || s.Home == "" {
		return Result{}, errors.New("agentpolicy/conformance/claude: a session needs Dir and Home")
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	api, err := startStandIn(s.Calls, prompt)
	if err != nil {
		return Result{}, err
	}
	defer api.close()

	args := []string{"-p", prompt, "--output-format", "json"}
	if s.Mode != "" {
		args = append(args, "--permission-mode", s.Mode)
	}
	tmp := filepath.Join(s.Home, ".tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return Result{}, fmt.Errorf("agentpolicy/conformance/claude: %w", err)
	}
	cmd := exec.CommandContext(ctx, bin, append(args, s.Args...)...)
	cmd.Dir = s.Dir
	cmd.Env = append(environment(s.Home, tmp, api.url()), s.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()

	res := Result{Output: json.RawMessage(bytes.TrimSpace(stdout.Bytes())), Stderr: stderr.String()}
	denied, err := denials(res.Output)
	if err != nil {
		return res, fmt.Errorf("agentpolicy/conformance/claude: claude -p (%v): %w; stderr: %s", runErr, err, res.Stderr)
	}
	for i, call := range s.Calls {
		r, ok := api.result(i)
		if !ok {
			return res, fmt.Errorf("agentpolicy/conformance/claude: no tool_result for call %d (%s) (claude: %v; requests: %v); stderr: %s",
				i, call.Name, runErr, api.paths(), res.Stderr)
		}
		res.Outcomes = append(res.Outcomes, Outcome{Call: call, Decision: decision(r, denied[callID(i)]), Text: r.Text})
	}
	return res, nil
}

// environment is the whole environment Claude Code runs with: nothing of
// the caller's but PATH, so no setting, key or configuration directory of
// the machine reaches the session, and a temporary directory in the
// scratch HOME, so what Claude Code keeps there (a subagent's transcript)
// goes when the session's files go.
func environment(home, tmp, url string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"ANTHROPIC_BASE_URL=" + url,
		"ANTHROPIC_API_KEY=sk-ant-agentpolicy-conformance",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	}
}

// denials reads the tool_use ids of permission_denials in Claude Code's
// JSON output.
func denials(output json.RawMessage) (map[string]bool, error) {
	var out struct {
		PermissionDenials []struct {
			ToolUseID string `json:"tool_use_id"`
		} `json:"permission_denials"`
	}
	if err := json.Unmarshal(output, &out); err != nil {
		return nil, fmt.Errorf("output is not JSON (%q)", truncate(string(output), 200))
	}
	ids := map[string]bool{}
	for _, d := range out.PermissionDenials {
		ids[d.ToolUseID] = true
	}
	return ids, nil
}

// decision reads one call's decision. A call Claude Code refused is in
// permission_denials: denied when its text is a denial's, asked otherwise.
// A call not there ran, unless its text says the tool does not exist or a
// rule denied it inside the tool (the Agent tool checks its
// Agent(type) rules itself and reports them as a tool error).
func decision(r toolResult, refused bool) string {
	switch {
	case strings.Contains(r.Text, unavailableText):
		return Unavailable
	case refused && isDenyText(r.Text):
		return Deny
	case refused:
		return Ask
	case r.IsError && strings.Contains(r.Text, "has been denied by permission rule"):
		return Deny
	}
	return Allow
}

// unavailableText begins the tool_result of a call to a tool the session
// does not have.
const unavailableText = "<tool_use_error>Error: No such tool available:"

// denyTexts are the texts of Claude Code's denials: a deny rule's or
// dontAsk's "Permission to use X has been denied", a file tool's "File is
// in a directory that is denied by your permission settings", WebFetch's
// "WebFetch denied access to domain:…", the Skill tool's "Skill execution
// blocked by permission rules", and a PreToolUse hook's block
// ("PreToolUse:Bash hook error: <reason>").
var denyTexts = []string{"has been denied", "denied by your permission settings", " denied access to ", "blocked by permission rules", "PreToolUse:"}

// isDenyText reports whether a refused call's text is a denial's.
func isDenyText(text string) bool {
	for _, t := range denyTexts {
		if strings.Contains(text, t) {
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
