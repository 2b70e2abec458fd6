package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/spf13/cobra"
)

// The agents whose tool calls the hook decides. Claude Code's events are
// read by readEvent and answered by writeAnswer (hook.go); Codex CLI's
// and Gemini CLI's by this file, hook_codex.go and hook_gemini.go.
const (
	agentClaude = "claude"
	agentCodex  = "codex"
	agentGemini = "gemini"
)

// agentName is the name an agent goes by in the reasons the hook gives.
var agentName = map[string]string{agentClaude: "Claude Code", agentCodex: "Codex CLI", agentGemini: "Gemini CLI"}

// run is the hook command: it reads the event, finds whose it is (the
// --agent flag, else the event's shape) and answers in that agent's
// contract.
func (h *hookFlags) run(cmd *cobra.Command, flags settingsFlags) error {
	data, readErr := io.ReadAll(io.LimitReader(cmd.InOrStdin(), maxEvent+1))
	agent := h.agent
	if agent == "" {
		agent = detectAgent(data)
	}
	if len(data) > hugeInput {
		// A 20 MB Write is copied a few times over: collect, or the
		// process grows to the memory limit.
		debug.SetGCPercent(100)
	}
	switch agent {
	case agentClaude:
		ev, err := readEvent(io.MultiReader(bytes.NewReader(data), errReader{readErr}))
		if err != nil {
			return err
		}
		if err := h.openDatabases(cmd.Context(), agent, ev.Cwd); err != nil {
			return err
		}
		defer h.db.close()
		return writeAnswer(cmd.OutOrStdout(), h.answer(cmd.Context(), flags, ev))
	case agentCodex, agentGemini:
		// These agents run the call when their hook fails, so a database
		// that refuses the hook is a deny in the agent's format, as every
		// other failure is.
		if err := h.openDatabases(cmd.Context(), agent, eventCwd(data)); err != nil {
			return writeAgentAnswer(cmd.OutOrStdout(), agent, refusal("agentpolicy: the journal or queue cannot be opened, so the call did not run: "+oneLine(err.Error())))
		}
		defer h.db.close()
		return writeAgentAnswer(cmd.OutOrStdout(), agent, h.answerAgent(cmd.Context(), flags, agent, data, readErr))
	}
	return fmt.Errorf("hook: --agent is claude, codex or gemini, not %q", agent)
}

// eventCwd is the cwd member of an event, "" when it has none.
func eventCwd(data []byte) string {
	var ev struct {
		Cwd string `json:"cwd"`
	}
	json.Unmarshal(data, &ev) // a bad event is refused by its reader
	return ev.Cwd
}

// errReader fails every read with err, or reports the end when err is nil.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

// detectAgent names the agent that sent the event: Gemini CLI's events
// are BeforeTool, Codex CLI's PreToolUse events carry a turn_id, which
// Claude Code's do not. Anything else is Claude Code's, whose reader
// refuses what is not one of its events.
func detectAgent(data []byte) string {
	var ev struct {
		HookEventName string `json:"hook_event_name"`
		TurnID        string `json:"turn_id"`
	}
	if json.Unmarshal(data, &ev) != nil {
		return agentClaude
	}
	switch {
	case ev.HookEventName == "BeforeTool":
		return agentGemini
	case ev.HookEventName == "PreToolUse" && ev.TurnID != "":
		return agentCodex
	}
	return agentClaude
}

// agentEvent is what the hook reads of a Codex CLI PreToolUse or a Gemini
// CLI BeforeTool event.
type agentEvent struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	Timestamp     string          `json:"timestamp"`
	MCPContext    json.RawMessage `json:"mcp_context"`
}

// mappedCall is one call of the policy's tools that an agent's call
// stands for: Codex's apply_patch is an Edit of each file it names.
type mappedCall struct {
	tool  string
	input json.RawMessage
}

// agentCall is an agent's call as the policy reads it: the project whose
// settings decide it and the calls it stands for.
type agentCall struct {
	project string
	calls   []mappedCall
}

// readAgentEvent reads one event of the agent: one JSON object of the
// agent's event, naming a tool, a working directory and an object of
// arguments.
func readAgentEvent(agent string, data []byte, readErr error) (agentEvent, error) {
	var ev agentEvent
	switch {
	case readErr != nil:
		return ev, fmt.Errorf("cannot read the event: %w", readErr)
	case len(data) > maxEvent:
		return ev, fmt.Errorf("the event is larger than %d MiB", maxEvent>>20)
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return ev, fmt.Errorf("the event is not one JSON object: %s", compactText(data))
	}
	want := map[string]string{agentCodex: "PreToolUse", agentGemini: "BeforeTool"}[agent]
	var input map[string]json.RawMessage
	switch {
	case ev.HookEventName != want:
		return ev, fmt.Errorf("the event is %q, not %s: install the hook for %s only", ev.HookEventName, want, want)
	case ev.ToolName == "":
		return ev, errors.New("the event names no tool_name")
	case ev.Cwd == "" || !filepath.IsAbs(ev.Cwd):
		return ev, fmt.Errorf("the event's cwd %q is not an absolute path", ev.Cwd)
	case json.Unmarshal(ev.ToolInput, &input) != nil || input == nil:
		return ev, fmt.Errorf("the event's tool_input is not a JSON object: %s", compactText(ev.ToolInput))
	}
	return ev, nil
}

// answerAgent decides a Codex or Gemini CLI event. Neither agent blocks a
// call when its hook fails (an exit 1, output that is not JSON, a
// timeout all let the call run), so every way out of here is an answer:
// input the hook cannot read, a panic, a policy it cannot load and a
// journal it cannot write are each a deny with the reason.
func (h *hookFlags) answerAgent(ctx context.Context, flags settingsFlags, agent string, data []byte, readErr error) (a hookAnswer) {
	defer func() {
		if p := recover(); p != nil {
			a = refusal(fmt.Sprintf("agentpolicy: the hook failed, so the call did not run: %v", p))
		}
	}()
	ev, err := readAgentEvent(agent, data, readErr)
	if err != nil {
		return refusal("agentpolicy: the hook cannot read the event, so the call did not run: " + oneLine(err.Error()))
	}
	return decideAgent(h, ctx, flags, agent, ev)
}

// decideAgent decides a read event; a variable, so a test can make it
// panic.
var decideAgent = (*hookFlags).decideAgentEvent

// decideAgentEvent maps the event's call to the policy's tools, checks
// the whole input for secrets, and decides each call it stands for: the
// answer is the strictest of theirs, each recorded in the journal.
func (h *hookFlags) decideAgentEvent(ctx context.Context, flags settingsFlags, agent string, ev agentEvent) hookAnswer {
	callID := ev.ToolUseID
	if callID == "" {
		// Gemini CLI names no call: its time and tool stand in, so the
		// queue can tell one call's answer from another's.
		callID = ev.Timestamp + " " + ev.ToolName
	}
	base := agentpolicy.Verdict{RunID: ev.SessionID, CallID: callID, Tool: ev.ToolName}
	if found := secretIn(ev.ToolInput); found != "" {
		a := refusal(secretReason(found))
		a.v.RunID, a.v.CallID, a.v.Tool, a.v.Args = base.RunID, base.CallID, base.Tool, redacted(ev.ToolInput)
		return h.recorded(ctx, a)
	}
	var call agentCall
	var err error
	if agent == agentCodex {
		call, err = codexCall(ev)
	} else {
		call, err = geminiCall(ev)
	}
	if err == nil && len(call.calls) == 0 {
		err = errors.New("the call stands for no call the policy can decide, so it did not run")
	}
	if err != nil {
		a := refusal("agentpolicy: " + oneLine(err.Error()))
		a.v.RunID, a.v.CallID, a.v.Tool, a.v.Args = base.RunID, base.CallID, base.Tool, string(ev.ToolInput)
		return h.recorded(ctx, a)
	}
	var worst hookAnswer
	for i, c := range call.calls {
		a := h.decideMapped(ctx, flags, agent, call.project, base, c)
		if i == 0 || strictness(a.v.Action) > strictness(worst.v.Action) {
			worst = a
		}
	}
	worst.allow = h.allow
	return worst
}

// decideMapped decides one call an agent's call stands for and records
// it. An ask is a deny whose reason says how to approve the call, since
// neither agent can ask through a hook; under --unattended the call is
// queued first, as for Claude Code.
func (h *hookFlags) decideMapped(ctx context.Context, flags settingsFlags, agent, project string, base agentpolicy.Verdict, c mappedCall) hookAnswer {
	plain := *h
	plain.unattended = ""
	ev := hookEvent{SessionID: base.RunID, Cwd: project, HookEventName: "PreToolUse", ToolName: c.tool, ToolInput: c.input, ToolUseID: base.CallID}
	a := plain.decide(ctx, flags, ev)
	if a.v.Action == agentturn.Defer && a.v.Rule == nil && slices.Contains(agentUnprompted(agent), c.tool) {
		a.v.Action, a.v.Reason = agentturn.Allow, "no rule names "+c.tool+", which "+agentName[agent]+" runs without asking"
		a.reason = "agentpolicy: " + a.v.Reason
	}
	a.v.RunID, a.v.CallID, a.v.Tool = base.RunID, base.CallID, c.tool
	if a.v.Args == "" {
		a.v.Args = string(c.input)
	}
	if a.v.Action == agentturn.Defer {
		if h.unattended == "" {
			a = h.unasked(agent, project, a)
		} else {
			a = h.queued(ctx, agent, project, ev, a.v)
			a.v.RunID, a.v.CallID, a.v.Tool, a.v.Args = base.RunID, base.CallID, c.tool, string(c.input)
		}
	}
	return h.recorded(ctx, a)
}

// agentUnprompted are the agent's tools that keep its own books and touch
// nothing else, which it runs without asking: the engine's default would
// ask about them as about every tool no rule names, and the hook leaves
// them to the agent instead, as it leaves Claude Code's (unprompted).
func agentUnprompted(agent string) []string {
	switch agent {
	case agentCodex:
		return []string{"get_goal", "create_goal", "update_goal"}
	case agentGemini:
		return []string{"write_todos", "update_topic", "enter_plan_mode"}
	}
	return nil
}

// unasked is the deny an asked call gets when no queue was given.
func (h *hookFlags) unasked(agent, project string, a hookAnswer) hookAnswer {
	reason := fmt.Sprintf("%s; %s cannot ask through a hook, so the call did not run: allow it with a rule in %s, or install the hook with --unattended QUEUE to queue such calls for agentpolicy queue approve",
		a.reason, agentName[agent], filepath.Join(project, ".claude", "settings.local.json"))
	v := a.v
	v.Action, v.Reason = agentturn.Block, reason
	return hookAnswer{v: v, reason: reason}
}

// queued queues an asked call for a person, as h.queue does for Claude
// Code, and denies it with the queue's number for it and the command that
// approves it.
func (h *hookFlags) queued(ctx context.Context, agent, project string, ev hookEvent, v agentpolicy.Verdict) hookAnswer {
	info := callInfo(ev.ToolName, ev.ToolInput)
	info.RunID, info.Call.CallID = ev.SessionID, ev.ToolUseID
	if isDatabaseURL(h.unattended) {
		a := h.enqueueDB(ctx, info, v, "")
		a.reason = fmt.Sprintf("%s; %s cannot ask through a hook: find it with agentpolicy queue list and approve it with agentpolicy queue approve", a.reason, agentName[agent])
		return a
	}
	q, err := journal.Open(h.unattended)
	if err != nil {
		return refusal(unqueuedReason(err))
	}
	defer q.Close()
	r, err := agentpolicy.Unattended(q).Review(ctx, info, v)
	if err != nil {
		return refusal(unqueuedReason(err))
	}
	// The queue's number for the call: the last waiting one of this call.
	calls, err := readQueue(h.unattended)
	if err != nil {
		return refusal(unqueuedReason(err))
	}
	n := 0
	for _, c := range calls {
		if c.answer == nil && c.v.RunID == ev.SessionID && c.v.CallID == ev.ToolUseID && c.v.Tool == ev.ToolName {
			n = c.n
		}
	}
	how := fmt.Sprintf("approve it with agentpolicy queue approve --project %s %s %d", shellQuote(project), shellQuote(h.unattended), n)
	if n == 0 {
		how = "find it with agentpolicy queue list " + shellQuote(h.unattended) + " and approve it with agentpolicy queue approve"
	}
	return refusal(fmt.Sprintf("%s; %s cannot ask through a hook: %s", queuedReason(r.Reason, h.unattended), agentName[agent], how))
}

// recorded appends the answer's verdict to the journal; a verdict the
// journal could not take becomes a deny.
func (h *hookFlags) recorded(ctx context.Context, a hookAnswer) hookAnswer {
	if err := h.record(ctx, a.v); err != nil {
		a.v.Action, a.v.By, a.v.Rule = agentturn.Block, agentpolicy.ByPolicy, nil
		a.v.Reason = unrecordedReason(err)
		a.reason = a.v.Reason
	}
	return a
}

// strictness orders actions: a deny outranks an ask, which outranks an
// allow.
func strictness(a agentturn.ToolAction) int {
	switch a {
	case agentturn.Block:
		return 2
	case agentturn.Defer:
		return 1
	}
	return 0
}

// writeAgentAnswer prints the answer in the agent's contract, always as
// valid JSON: Codex CLI reads Claude Code's hookSpecificOutput, Gemini CLI
// a top-level decision. An allow prints nothing, leaving the call to the
// agent's own rules, unless --allow was given.
func writeAgentAnswer(w io.Writer, agent string, a hookAnswer) error {
	var out any
	switch {
	case a.v.Action != agentturn.Allow:
		if a.reason == "" {
			a.reason = "agentpolicy: the call was not allowed"
		}
		if agent == agentGemini {
			out = map[string]string{"decision": "deny", "reason": a.reason}
		} else {
			out = map[string]map[string]string{"hookSpecificOutput": {
				"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": a.reason,
			}}
		}
	case !a.allow:
		return nil
	case agent == agentGemini:
		out = map[string]string{"decision": "allow"}
	default:
		out = map[string]map[string]string{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
	}
	data, err := marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// resolve is path made absolute against dir, cleaned.
func resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// inDir is command as it runs in dir, for a policy read for project:
// the command itself in the project, else `cd DIR && COMMAND`, which is
// what runs. A directory the project's path reaches through a symbolic
// link is the project.
func inDir(command, dir, project string) string {
	if dir == project {
		return command
	}
	a, errA := os.Stat(dir)
	b, errB := os.Stat(project)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return command
	}
	return "cd " + shellQuote(dir) + " && " + command
}

// sessionDir is the directory the agent's session runs in, which its
// hooks run in too: the project whose settings decide the call.
func sessionDir(fallback string) string {
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return fallback
}

// argsObject is the object of the given members, for a mapped call's
// input.
func argsObject(members map[string]string) json.RawMessage {
	data, _ := marshal(members)
	return data
}
