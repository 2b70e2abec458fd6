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
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentpolicy/internal/secret"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
	"github.com/spf13/cobra"
)

// hookFlags are the flags of agentpolicy hook, which hook install writes
// into the hook's command line.
type hookFlags struct {
	allow      bool
	journal    string
	unattended string
	agent      string
	fleet      fleetFlags

	// db is the databases a postgres:// --journal or --unattended names,
	// opened for the call, and dbErr why they could not be.
	db    *fleet
	dbErr error
}

func (h *hookFlags) register(cmd *cobra.Command) {
	pf := cmd.PersistentFlags()
	pf.BoolVar(&h.allow, "allow", false, "answer allow for a call the policy allows, rather than leave it to Claude Code's own rules")
	pf.StringVar(&h.journal, "journal", "", "append every decision to this file, one JSON line each, or to this postgres:// database, before answering (default $AGENTPOLICY_JOURNAL)")
	pf.StringVar(&h.unattended, "unattended", "", "deny every call the policy asks about and queue it in this file or postgres:// database, for agentpolicy queue")
	h.fleet.register(cmd)
	pf.StringVar(&h.agent, "agent", "", "the agent whose events the hook reads: claude, codex or gemini (default: told from the event)")
}

func newHook(flags *settingsFlags) *cobra.Command {
	var h hookFlags
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Decide one Claude Code tool call, as its PreToolUse command hook",
		Long: `hook reads one PreToolUse event from standard input, as Claude Code sends it,
loads the settings Claude Code loads for the session's project (managed, user,
project, local; the project's allow rules only once Claude Code trusts it) and
every --policy file, read as managed settings are, and decides the call with
the engine, the shell splitter and the secrets guard. The session's project
is $CLAUDE_PROJECT_DIR, which Claude Code gives every hook, or else the
directory above the event's cwd that holds .claude/ or is the git root; the
event's cwd, the shell's current directory, is where relative paths start.

A call the policy denies, or whose tool_input holds a secret, is answered
deny; a call it asks about is answered ask (deny under --unattended, which
queues it for agentpolicy queue). A call it allows gets no answer at all, so
Claude Code's own rules and prompts still apply and the hook only ever makes
Claude Code stricter; --allow answers allow instead. Anything that keeps the
hook from deciding, a settings file it cannot read, a --policy rule it cannot
use, a journal it cannot write, a database it cannot reach within 2 s, is
answered deny with the reason.

Input that is not one PreToolUse event exits 2 with one line on standard
error, which Claude Code shows as it blocks the call.

With --agent codex or gemini, or an event of theirs, the hook reads a Codex
CLI PreToolUse or a Gemini CLI BeforeTool event, decides the Claude Code tools
its call stands for, and answers in that agent's format. Those agents run a
call whenever their hook fails, so there every failure is a deny, exit 0, and
an ask is a deny whose reason says how to approve the call.

agentpolicy-hook, built beside this binary, runs each call through one
resident process (agentpolicy hook serve) and answers as agentpolicy hook
does; hook install writes it into the hook's command line when it is there.`,
		Example: `  agentpolicy hook install --policy team-policy.json
  echo '{"hook_event_name":"PreToolUse","cwd":"'$PWD'","tool_name":"Bash","tool_input":{"command":"git push --force"}}' | agentpolicy hook`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// One call is one process: collecting garbage it is about to
			// hand back costs more than it saves, short of a huge event.
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			for _, name := range []string{"project", "verbose"} {
				if cmd.Flags().Changed(name) {
					return fmt.Errorf("hook: --%s is not a flag of the hook: its project is the session's, $CLAUDE_PROJECT_DIR, and it prints only its answer", name)
				}
			}
			if atTerminal(cmd.InOrStdin()) {
				return errors.New("hook: reads one PreToolUse event from standard input, as Claude Code sends it, and answers it; see agentpolicy hook --help")
			}
			return h.run(cmd, *flags)
		},
	}
	h.register(cmd)
	cmd.AddCommand(newHookInstall(&h, flags), newHookUninstall(flags), newHookServe())
	return cmd
}

// atTerminal reports whether r is a terminal, where no event will come.
func atTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// hookEvent is the part of a PreToolUse event the hook reads. Claude Code
// sends more (transcript_path, prompt_id, effort), which is read past.
type hookEvent struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
}

// maxEvent bounds the event read, a Write call's content included.
const maxEvent = 64 << 20

// hugeInput is the size of a tool input past which the hook collects
// garbage as a long-lived process does.
const hugeInput = 1 << 20

// readEvent reads one PreToolUse event: one JSON object and nothing after
// it, naming a tool, a working directory and an object of arguments.
func readEvent(r io.Reader) (hookEvent, error) {
	var ev hookEvent
	data, err := io.ReadAll(io.LimitReader(r, maxEvent+1))
	switch {
	case err != nil:
		return ev, fmt.Errorf("hook: cannot read the event: %w", err)
	case len(data) > maxEvent:
		return ev, fmt.Errorf("hook: the event is larger than %d MiB", maxEvent>>20)
	case len(bytes.TrimSpace(data)) == 0:
		return ev, errors.New("hook: no event on standard input: give one PreToolUse event as a JSON object")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return ev, fmt.Errorf("hook: the event is not one JSON object: %s: %s", jsonProblem(err, len(data)), compactText(data))
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return ev, fmt.Errorf("hook: the event is not a PreToolUse event: %v", err)
	}
	var input map[string]json.RawMessage
	switch {
	case ev.HookEventName != "PreToolUse":
		return ev, fmt.Errorf("hook: the event is %q, not PreToolUse: install the hook for PreToolUse only", ev.HookEventName)
	case ev.ToolName == "":
		return ev, errors.New("hook: the event names no tool_name")
	case ev.Cwd == "":
		return ev, errors.New("hook: the event names no cwd")
	case json.Unmarshal(ev.ToolInput, &input) != nil || input == nil:
		return ev, fmt.Errorf("hook: the event's tool_input is not a JSON object: %s", compactText(ev.ToolInput))
	}
	return ev, nil
}

// jsonProblem is why a text of n bytes is not one JSON object, with the
// offset the parser stopped at: "unexpected end of JSON input at byte 212
// of 212" for an event cut short.
func jsonProblem(err error, n int) string {
	var syntax *json.SyntaxError
	switch {
	case err == nil:
		return "null"
	case errors.As(err, &syntax):
		return fmt.Sprintf("%v at byte %d of %d", err, syntax.Offset, n)
	}
	return err.Error()
}

// hookAnswer is the hook's decision on one call and the reason Claude Code
// shows with it.
type hookAnswer struct {
	v      agentpolicy.Verdict
	reason string
	// allow prints an allow: --allow was given.
	allow bool
}

// answer decides the event's call and records the decision in the journal,
// with the tool's input (redacted when it holds a secret), before it is
// answered: a decision the journal could not take is a deny.
func (h *hookFlags) answer(ctx context.Context, flags settingsFlags, ev hookEvent) hookAnswer {
	a := h.decide(ctx, flags, ev)
	a.allow = h.allow
	a.v.RunID, a.v.CallID, a.v.Tool = ev.SessionID, ev.ToolUseID, ev.ToolName
	if a.v.Args == "" {
		a.v.Args = string(ev.ToolInput)
	}
	if err := h.record(ctx, a.v); err != nil {
		a.v.Action, a.v.By, a.v.Rule = agentturn.Block, agentpolicy.ByPolicy, nil
		a.v.Reason = unrecordedReason(err)
		a.reason = a.v.Reason
	}
	return a
}

// decide is the hook's decision on the call, not yet recorded: a secret
// in its input denies it, then the policy decides, an ask becoming a
// queued deny under --unattended.
func (h *hookFlags) decide(ctx context.Context, flags settingsFlags, ev hookEvent) hookAnswer {
	if h.dbErr != nil {
		return refusal(fleetReason(h.dbErr))
	}
	if found := secretIn(ev.ToolInput); found != "" {
		a := refusal(secretReason(found))
		a.v.Args = redacted(ev.ToolInput)
		return a
	}
	p, err := h.load(flags, ev)
	if err != nil {
		return refusal(unloadedReason(err))
	}
	if err := h.db.activate(ctx, p.engine, ev.SessionID, ev.ToolUseID); err != nil {
		return refusal(fleetReason(err))
	}
	info := callInfo(ev.ToolName, ev.ToolInput)
	info.RunID, info.Call.CallID = ev.SessionID, ev.ToolUseID
	v, err := p.engine.Would(ctx, info)
	if err != nil {
		return refusal(undecidedReason(err))
	}
	if err := h.db.claim(ctx, v, ev.SessionID, ev.ToolUseID); err != nil {
		return refusal(fleetReason(err))
	}
	if v.Action == agentturn.Defer && v.Rule == nil && slices.Contains(unprompted, ev.ToolName) {
		v.Action, v.Reason = agentturn.Allow, unpromptedReason(ev.ToolName)
	}
	if v.Action == agentturn.Defer && h.unattended != "" {
		return h.queue(ctx, p, info, v)
	}
	reason := p.verdictReason(v)
	if v.Action == agentturn.Block && strings.Contains(reason, ranNothing) {
		reason = withoutFiles(reason, p.fileTexts(ev.ToolName, ev.ToolInput))
	}
	return hookAnswer{v: v, reason: reason}
}

// unprompted are the tools Claude Code runs without asking when no rule
// names them (spec §2.2): its bookkeeping tools, and Agent, whose agent's
// own calls come to the hook in their turn. The engine's default asks
// about them, as it asks about every tool no rule names; the hook leaves
// them to Claude Code instead, since that default is no rule anyone wrote,
// and a prompt for every to-do list would make the hook unusable.
var unprompted = []string{
	"Agent", "AskUserQuestion", "EndConversation", "Task", "TaskCreate", "TaskGet", "TaskList",
	"TaskUpdate", "TodoWrite", "ToolSearch",
}

// refusal is a deny no rule made, with its reason.
func refusal(reason string) hookAnswer {
	return hookAnswer{v: agentpolicy.Verdict{Action: agentturn.Block, By: agentpolicy.ByPolicy, Reason: reason}, reason: reason}
}

// load reads the settings Claude Code reads for the event's session, as
// explain reads them for --project: those of the session's project (see
// sessionProject), with relative paths read from the event's cwd, the
// --policy files as managed settings, Claude Code's own record of the
// project's trust, and the session's mode. A file that cannot be read or is not a settings file,
// and a --policy rule that cannot be used, are errors, so the hook fails
// closed on a policy that is not the one meant.
func (h *hookFlags) load(flags settingsFlags, ev hookEvent) (*loadedPolicy, error) {
	project, err := sessionProject(ev.Cwd)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(ev.Cwd)
	if err != nil {
		return nil, err
	}
	flags.project, flags.dir, flags.mode = project, dir, claudecode.Mode(ev.PermissionMode)
	if !flags.trust {
		// An unreadable record is no trust: the project's allow rules wait.
		flags.trust, _ = claudecode.Trusted("", project)
	}
	if h.db == nil {
		// A grant from a database changes the engine; without one, the
		// hook only asks the engine what it would decide.
		flags.engines = residentEngines
	}
	return flags.load()
}

// queue answers an asked call for a run nobody watches: it is appended to
// the --unattended queue and denied with the queued text, or denied with
// the reason it could not be queued.
func (h *hookFlags) queue(ctx context.Context, p *loadedPolicy, info agentturn.ToolCallInfo, v agentpolicy.Verdict) hookAnswer {
	if isDatabaseURL(h.unattended) {
		return h.queueDB(ctx, p, info, v)
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
	return refusal(queuedReason(r.Reason, h.unattended))
}

// record appends the verdict to the --journal file or database, when one
// was given.
func (h *hookFlags) record(ctx context.Context, v agentpolicy.Verdict) error {
	if h.journal == "" {
		return nil
	}
	if isDatabaseURL(h.journal) {
		if h.dbErr != nil {
			return h.dbErr
		}
		return h.db.journal.Record(ctx, v)
	}
	j, err := journal.Open(h.journal)
	if err != nil {
		return err
	}
	if err := j.Record(ctx, v); err != nil {
		j.Close()
		return err
	}
	return j.Close()
}

// secretIn is the secrets guard's reason for the first secret of the
// default kinds in the tool's input, "secret detected: KIND", read as the
// tool will read it, each JSON string decoded; "" when there is none. The
// reason names the kind, never the secret. It reads as guard.Secrets()
// does, through the finder that guard's default guards share, without
// importing guard, whose DefaultSecrets would be compiled at every start.
func secretIn(input json.RawMessage) string {
	if kind := secret.Default().FirstInItems(callItems(input), nil); kind != "" {
		return secret.Detected(kind)
	}
	return ""
}

// redacted is the tool's input with every secret replaced by its kind's
// redaction, as guard.Redact() rewrites it, for the journal, which never
// holds a secret.
func redacted(input json.RawMessage) string {
	items := callItems(input)
	if secret.Default().FirstInItems(items, nil) == "" {
		return string(input)
	}
	return secret.Default().RedactItems(items, new(secret.Tally))[0].(*openresponses.FunctionCall).Arguments
}

// callItems is the input as the arguments of one function call, which is
// how the secrets guards read a tool's input.
func callItems(input json.RawMessage) openresponses.Items {
	return openresponses.Items{&openresponses.FunctionCall{Arguments: string(input)}}
}

// writeAnswer prints the answer Claude Code reads: deny or ask with the
// reason, allow only under --allow, and nothing for a call left to Claude
// Code.
func writeAnswer(w io.Writer, a hookAnswer) error {
	var decision string
	switch {
	case a.v.Action == agentturn.Block:
		decision = "deny"
	case a.v.Action == agentturn.Defer:
		decision = "ask"
	case a.allow:
		decision = "allow"
	default:
		return nil
	}
	out := map[string]map[string]string{"hookSpecificOutput": {
		"hookEventName":            "PreToolUse",
		"permissionDecision":       decision,
		"permissionDecisionReason": a.reason,
	}}
	data, err := marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
