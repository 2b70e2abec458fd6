package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/spf13/cobra"
)

// explanation is what explain says about one call.
type explanation struct {
	v agentpolicy.Verdict
	// subjects are the subjects of a split call, each with the verdict the
	// policy gives it on its own; none for a call that is one subject.
	subjects []subjectVerdict
	withheld []agentpolicy.Rule
	// grant is whether "always allow" could answer an asked call; nil for
	// a call that was not asked about.
	grant *grantAnswer
}

// files are the texts of the subjects that are files a command reads or
// writes, decided under a file tool: no command of their own.
func (x explanation) files() []string {
	var out []string
	for _, s := range x.subjects {
		if s.Tool != x.v.Tool {
			out = append(out, s.Text)
		}
	}
	return out
}

// subjectVerdict is one subject of a split call and its verdict.
type subjectVerdict struct {
	agentpolicy.Subject
	V agentpolicy.Verdict
}

// grantAnswer is GrantOver's answer, on an engine of its own, to "always
// allow" for an asked call.
type grantAnswer struct {
	Rule    string `json:"rule"`
	Granted bool   `json:"granted"`
	Reason  string `json:"reason"`
}

func newExplain(flags *settingsFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain TOOL [ARGS_JSON | -- COMMAND...]",
		Short: "Show what the policy decides for one call, and which rule decides it",
		Long: `explain decides one call with the loaded settings and prints the verdict (its
action, the rule that fired as its file writes it, the file, the reason the
model would read), each subject of a split command with its own verdict, the
allow rules withheld from an untrusted project, and, for a call the policy
asks about, whether "always allow" could be granted for it in the local
settings.

The arguments are a JSON object, or, after --, the words of a shell command,
which become {"command": "..."}: no JSON quoting is needed.`,
		Example: `  agentpolicy explain --project . Bash -- git status '&&' rm -rf /
  agentpolicy explain --project . Read '{"file_path": ".env"}'
  agentpolicy explain --json --project . WebFetch '{"url": "https://example.com/x"}'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tool, raw, command, err := explainArgs(cmd, args)
			if err != nil {
				return err
			}
			p, err := flags.load()
			if err != nil {
				return err
			}
			x, err := p.explain(cmd.Context(), tool, raw, command)
			if err != nil {
				return err
			}
			flags.reportFiles(cmd.ErrOrStderr(), p)
			if asJSON {
				return p.writeExplainJSON(cmd.OutOrStdout(), x)
			}
			p.writeExplain(cmd.OutOrStdout(), x)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict's record (RFC 0001 §8, rfc/0001-agent-policy.md) with the subjects, as JSON")
	return cmd
}

// explainArgs splits the positional arguments into the tool and either its
// JSON arguments or, after "--", the words of a command.
func explainArgs(cmd *cobra.Command, args []string) (tool string, raw json.RawMessage, command *string, err error) {
	tool = args[0]
	dash := cmd.ArgsLenAtDash()
	switch {
	case dash == 0:
		return "", nil, nil, fmt.Errorf("explain: the tool name comes before --")
	case dash > 0:
		if dash != 1 {
			return "", nil, nil, fmt.Errorf("explain: give the command after --, or the arguments as one JSON object, not both")
		}
		words := strings.Join(args[1:], " ")
		if strings.TrimSpace(words) == "" {
			return "", nil, nil, fmt.Errorf("explain: no command after --")
		}
		return tool, nil, &words, nil
	case len(args) > 2:
		return "", nil, nil, fmt.Errorf("explain: the arguments are one JSON object; put a command after --")
	case len(args) == 2:
		return tool, json.RawMessage(args[1]), nil, nil
	}
	return tool, nil, nil, nil
}

// explain decides one call as the engine would, each subject of a split
// call on its own, and for an asked call whether it could be granted.
func (p *loadedPolicy) explain(ctx context.Context, tool string, raw json.RawMessage, command *string) (explanation, error) {
	if err := p.checkTool(tool); err != nil {
		return explanation{}, err
	}
	p, err := p.forTool(tool)
	if err != nil {
		return explanation{}, err
	}
	args, err := callArgs(tool, raw, command)
	if err != nil {
		return explanation{}, err
	}
	v, err := p.engine.Would(ctx, callInfo(tool, args))
	if err != nil {
		return explanation{}, err
	}
	if raw == nil && command == nil && p.decider(v).Check == checkUnreadable {
		// No arguments were given: say what the tool needs, rather than
		// explain the deny of a call nobody would make.
		return explanation{}, fmt.Errorf("explain: %s needs its arguments, as a JSON object or after --: %s", tool, userTool(v.Reason))
	}
	x := explanation{v: v, withheld: p.engine.Withheld()}
	if x.subjects, err = p.subjects(ctx, tool, args); err != nil {
		return explanation{}, err
	}
	if v.Action == agentturn.Defer && !v.Held {
		x.grant = p.alwaysAllow(ctx, v, args, x.subjects)
	}
	return x, nil
}

// forTool is the loaded policy for a call of the tool: for an MCP tool,
// the policy with the allow rules over a whole server or a glob of its
// tools ("mcp__github", "mcp__github__get_*") expanded over the tool's
// name, as Claude Code applies them to every tool of the server.
func (p *loadedPolicy) forTool(tool string) (*loadedPolicy, error) {
	if !strings.HasPrefix(tool, "mcp__") {
		return p, nil
	}
	policy, err := p.settings.Policy(tool)
	if err != nil {
		return nil, err
	}
	q := *p
	q.policy = policy
	if q.engine, err = q.build(q.matchers); err != nil {
		return nil, err
	}
	return &q, nil
}

// bareTools are Claude Code tools that take no specifier (spec §2.2), so
// they have no matcher but are still tools a call may name.
var bareTools = []string{
	"AskUserQuestion", "EndConversation", "EnterWorktree", "ExitPlanMode", "LSP",
	"Monitor", "PowerShell", "Task", "TaskStop", "TodoWrite", "ToolSearch", "Workflow",
}

// checkTool refuses a tool name Claude Code has no tool for, naming the
// one probably meant when only the case differs.
func (p *loadedPolicy) checkTool(tool string) error {
	if strings.HasPrefix(tool, "mcp__") && len(tool) > len("mcp__") {
		return nil
	}
	known := p.toolNames()
	if slices.Contains(known, tool) {
		return nil
	}
	if k, ok := nearest(tool, known); ok {
		return fmt.Errorf("unknown tool %q; did you mean %s?", tool, k)
	}
	return fmt.Errorf("unknown tool %q: Claude Code's tools are %s, and MCP tools are mcp__<server>__<tool>",
		tool, strings.Join(known, ", "))
}

// toolNames are Claude Code's tools, sorted: those with a matcher, but
// for claudecode's pseudo-tools ("Edit.operand"), and those that take no
// specifier.
func (p *loadedPolicy) toolNames() []string {
	names := slices.DeleteFunc(slices.Collect(maps.Keys(p.matchers)), func(name string) bool { return strings.Contains(name, ".") })
	return slices.Sorted(slices.Values(slices.Concat(names, bareTools)))
}

// subjects decides every subject the tool's splitter finds in the call on
// its own: an engine whose splitter hands back that one subject decides
// the call, so each subject is decided exactly as the fold decides it,
// under its own tool's rules and with its marks. A tool that does not
// split, and a call the splitter refuses, whose verdict already says why,
// have none; constraint subjects are left out, since they are never
// decided on their own.
func (p *loadedPolicy) subjects(ctx context.Context, tool string, args json.RawMessage) ([]subjectVerdict, error) {
	split := p.matchers[tool].Subjects
	if split == nil {
		return nil, nil
	}
	subs, err := split(args)
	if err != nil || len(subs) < 2 {
		return nil, nil
	}
	var current agentpolicy.Subject
	one := maps.Clone(p.matchers)
	one[tool] = agentpolicy.ToolMatcher{Match: p.matchers[tool].Match, Subjects: func(json.RawMessage) ([]agentpolicy.Subject, error) {
		return []agentpolicy.Subject{current}, nil
	}}
	eng, err := p.build(one)
	if err != nil {
		return nil, err
	}
	var out []subjectVerdict
	for _, s := range subs {
		if s.Constrain {
			continue
		}
		current = s
		v, err := eng.Would(ctx, callInfo(tool, args))
		if err != nil {
			return nil, err
		}
		s.Tool = cmp.Or(s.Tool, tool)
		out = append(out, subjectVerdict{Subject: s, V: v})
	}
	return out, nil
}

// alwaysAllow asks GrantOver, on an engine of its own, whether the asked
// call could be answered with "always allow" in the local settings, as a
// front would offer it.
func (p *loadedPolicy) alwaysAllow(ctx context.Context, v agentpolicy.Verdict, args json.RawMessage, subjects []subjectVerdict) *grantAnswer {
	rule := p.grantRule(v, args, subjects)
	eng, err := p.build(p.matchers)
	if err != nil {
		return &grantAnswer{Rule: userTool(rule.String()), Reason: err.Error()}
	}
	granted, reason := eng.GrantOver(ctx, v, rule)
	if v.Rule != nil {
		reason = strings.Replace(reason, v.Rule.String(), p.ruleName(*v.Rule), 1)
	}
	return &grantAnswer{Rule: userTool(rule.String()), Granted: granted, Reason: userTool(reason)}
}

// grantRule is the rule "always allow" would save for the asked call, or
// for the subject of it that asked, under the local settings' source: the
// command exactly for Bash, the host for WebFetch, and the bare tool
// otherwise.
func (p *loadedPolicy) grantRule(v agentpolicy.Verdict, args json.RawMessage, subjects []subjectVerdict) agentpolicy.Rule {
	r := agentpolicy.Rule{Tool: v.Tool, Source: p.settings.LocalSource()}
	for _, s := range subjects {
		if s.V.Action == agentturn.Defer && s.Text == v.Subject {
			r.Tool, args = s.Tool, s.Args
			break
		}
	}
	switch r.Tool {
	case "Bash":
		if command, ok, err := agentpolicy.Field(args, "command"); err == nil && ok {
			r.Spec = command
		}
	case "WebFetch":
		if host, ok := hostOf(args); ok {
			r.Spec = "domain:" + host
		}
	case operandTool, redirectTool:
		// A file a command writes is granted as Edit of that file, written
		// as Claude Code writes a path (//abs, ./rel): a bare Edit rule
		// does not reach it.
		if path, ok, err := agentpolicy.Field(args, "file_path"); err == nil && ok {
			if filepath.IsAbs(path) {
				r.Spec = "/" + filepath.Clean(path)
			} else {
				r.Spec = "./" + filepath.Clean(path)
			}
		}
	}
	return r
}

// writeExplain prints the explanation for a person.
func (p *loadedPolicy) writeExplain(w io.Writer, x explanation) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "decision:\t%s\n", actionWord(x.v.Action))
	switch d := p.decider(x.v); {
	case d.Rule != "":
		fmt.Fprintf(tw, "rule:\t%s\n", d.Rule)
		fmt.Fprintf(tw, "from:\t%s\n", describeSource(x.v.Rule.Source))
	case d.Check == checkDefault:
		fmt.Fprintf(tw, "check:\t%s (no rule names the call)\n", d.Check)
	default:
		fmt.Fprintf(tw, "check:\t%s (built in)\n", d.Check)
	}
	fmt.Fprintf(tw, "reason:\t%s\n", withoutFiles(p.userReason(x.v), x.files()))
	if x.v.Confined != "" {
		fmt.Fprintf(tw, "confined:\t%s\n", x.v.Confined)
	}
	tw.Flush()
	if len(x.subjects) > 0 {
		fmt.Fprintln(w, "\nsubjects:")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, s := range x.subjects {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", actionWord(s.V.Action), subjectLabel(s, x.v.Tool), p.userReason(s.V))
		}
		tw.Flush()
	}
	if len(x.withheld) > 0 {
		fmt.Fprintln(w, "\nwithheld until the project is trusted (--trust):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		seen := map[string]bool{}
		for _, r := range x.withheld {
			line := fmt.Sprintf("  allow %s\t%s\n", p.written(r), describeSource(r.Source))
			if !seen[line] {
				seen[line] = true
				fmt.Fprint(tw, line)
			}
		}
		tw.Flush()
	}
	if g := x.grant; g != nil {
		if g.Granted {
			fmt.Fprintf(w, "\nalways allow: can be granted as %s in the local settings\n", g.Rule)
		} else {
			fmt.Fprintf(w, "\nalways allow: cannot be granted as %s: %s\n", g.Rule, g.Reason)
		}
	}
}

// subjectLabel names a subject: its text, and the tool when it is decided
// under another tool's rules, as a redirect target is.
func subjectLabel(s subjectVerdict, called string) string {
	if s.Tool != called {
		return userTool(s.Tool) + ": " + s.Text
	}
	return s.Text
}

// writeExplainJSON prints the verdict's record, the subjects' records, the
// withheld rules, the grant answer and the files read, as one JSON object.
// Each record keeps the engine's action word (allow, defer, block), as the
// journal writes it, and adds the decision in the settings files' words
// (allow, ask, deny) and what decided it; its rule and reason cite the
// rule as its file writes it, as the text output does.
func (p *loadedPolicy) writeExplainJSON(w io.Writer, x explanation) error {
	verdict, err := p.userRecord(x.v, x.files())
	if err != nil {
		return err
	}
	out := struct {
		Verdict     json.RawMessage   `json:"verdict"`
		Subjects    []json.RawMessage `json:"subjects,omitempty"`
		Withheld    []string          `json:"withheld,omitempty"`
		AlwaysAllow *grantAnswer      `json:"always_allow,omitempty"`
		Files       []fileRead        `json:"files"`
	}{Verdict: verdict, AlwaysAllow: x.grant, Files: p.filesRead()}
	for _, s := range x.subjects {
		rec, err := p.userRecord(s.V, nil)
		if err != nil {
			return err
		}
		out.Subjects = append(out.Subjects, rec)
	}
	seen := map[string]bool{}
	for _, r := range x.withheld {
		if text := p.written(r); !seen[text] {
			seen[text] = true
			out.Withheld = append(out.Withheld, text)
		}
	}
	if out.Files == nil {
		out.Files = []fileRead{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// userRecord is the verdict's record (RFC 0001 §8) with the rule and the
// reason in the user's words, the decision in the settings files' words
// and what decided it, as "decision" and "decided_by", its members in the
// record's order.
func (p *loadedPolicy) userRecord(v agentpolicy.Verdict, files []string) (json.RawMessage, error) {
	_, record := v.Record()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(record, &fields); err != nil {
		return nil, err
	}
	d := p.decider(v)
	set := func(key string, value any) {
		data, _ := json.Marshal(value)
		fields[key] = data
	}
	if d.Rule != "" {
		set("rule", d.Rule)
	} else {
		delete(fields, "rule")
	}
	set("tool", userTool(v.Tool))
	set("reason", withoutFiles(p.userReason(v), files))
	set("decision", actionWord(v.Action))
	set("decided_by", d)
	order := []string{"tool", "action", "decision", "rule", "source", "source_hash", "reason", "by", "decided_by", "subject"}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, k := range order {
		value, ok := fields[k]
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(k)
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// hostOf is the host a WebFetch call's url names, as claudecode reads it.
func hostOf(args json.RawMessage) (string, bool) {
	url, ok, err := agentpolicy.Field(args, "url")
	if err != nil || !ok {
		return "", false
	}
	host, err := claudecode.URLHost(url)
	return host, err == nil
}
