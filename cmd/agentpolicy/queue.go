package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/spf13/cobra"
)

// queued is one call an unattended run queued for a person, and what a
// person answered, if anything.
type queued struct {
	n int // its number, from 1, in the order queued
	v agentpolicy.Verdict
	// answer is the person's answer recorded in the queue, nil while the
	// call waits.
	answer *agentpolicy.Verdict
}

func newQueue(flags *settingsFlags) *cobra.Command {
	q := &cobra.Command{
		Use:   "queue",
		Short: "Review the calls an unattended run queued for a person",
		Long: `An unattended run (agentpolicy.Unattended) refuses every call its policy asks
about and appends it to a queue file. queue lists those calls, and approves or
rejects one: approve writes "always allow" for it into the project's local
settings, so the next run allows it; reject --deny writes a deny rule there.
Each answer is appended to the queue, so a call is answered once.`,
		Example: `  agentpolicy queue list queue.jsonl
  agentpolicy queue approve --project . queue.jsonl 2
  agentpolicy queue reject --deny --project . queue.jsonl 3`,
	}
	q.AddCommand(newQueueList(), newQueueShow(), newQueueApprove(flags), newQueueDeny(), newQueueReject(flags), newQueueServe(flags))
	return q
}

func newQueueList() *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:     "list QUEUE",
		Short:   "List the calls a queue holds, and how each was answered",
		Example: "  agentpolicy queue list queue.jsonl",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if isDatabaseURL(args[0]) {
				return listDB(cmd.Context(), cmd.OutOrStdout(), args[0], all)
			}
			calls, err := readQueue(args[0])
			if err != nil {
				return err
			}
			writeQueue(cmd.OutOrStdout(), calls)
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "database queue: list the answered calls too")
	return cmd
}

func newQueueApprove(flags *settingsFlags) *cobra.Command {
	var db dbApproval
	cmd := &cobra.Command{
		Use:   "approve QUEUE N",
		Short: `Answer a queued call with "always allow" in the project's local settings`,
		Long: `approve grants the queued call N as a person answering its prompt with "always
allow" would (Engine.GrantOver over the verdict that queued it): the command
exactly for Bash, the host for WebFetch, the bare tool otherwise, written into
the allow list of the project's local settings file. A call an ask rule raised
cannot be approved so: the engine would carve the grant out of that rule, which
a Claude Code settings file cannot say, so narrow the ask rule instead.`,
		Example: "  agentpolicy queue approve --project . queue.jsonl 2",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if isDatabaseURL(args[0]) {
				return db.approve(cmd, args)
			}
			p, c, err := loadQueued(flags, args)
			if err != nil {
				return err
			}
			flags.reportFiles(cmd.ErrOrStderr(), p)
			rule, err := p.approve(cmd.Context(), c)
			if err != nil {
				return err
			}
			if err := answerQueued(args[0], c, agentturn.Allow, "approved: allowed by "+rule.String()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "approved %d: %s added to the allow list of %s\n", c.n, rule, relPath(rule.Source.Path))
			return nil
		},
	}
	db.register(cmd)
	return cmd
}

func newQueueReject(flags *settingsFlags) *cobra.Command {
	var deny bool
	cmd := &cobra.Command{
		Use:   "reject QUEUE N",
		Short: "Answer a queued call with a refusal, and with --deny a deny rule",
		Long: `reject records that a person refused the queued call N. With --deny it also
writes a deny rule for the call (the command exactly for Bash, the host for
WebFetch, the bare tool otherwise) into the deny list of the project's local
settings file, so no later run asks about it again.`,
		Example: "  agentpolicy queue reject --deny --project . queue.jsonl 3",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, c, err := loadQueued(flags, args)
			if err != nil {
				return err
			}
			flags.reportFiles(cmd.ErrOrStderr(), p)
			reason := "rejected"
			if deny {
				rule, err := p.callRule(cmd.Context(), c.v)
				if err != nil {
					return err
				}
				if err := addRule(rule.Source.Path, "deny", rule.String()); err != nil {
					return err
				}
				reason = "rejected: denied by " + rule.String()
				fmt.Fprintf(cmd.OutOrStdout(), "%s added to the deny list of %s\n", rule, relPath(rule.Source.Path))
			}
			if err := answerQueued(args[0], c, agentturn.Block, reason); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "rejected %d\n", c.n)
			return nil
		},
	}
	cmd.Flags().BoolVar(&deny, "deny", false, "also write a deny rule for the call into the local settings")
	return cmd
}

// readQueue reads the queue file: every deferral in it, numbered, with the
// person's answer recorded after it.
func readQueue(path string) ([]queued, error) {
	vs, err := journal.Verdicts(path)
	if err != nil {
		return nil, err
	}
	var calls []queued
	for _, v := range vs {
		if v.Action == agentturn.Defer {
			calls = append(calls, queued{n: len(calls) + 1, v: v})
			continue
		}
		for i := range calls {
			if calls[i].answer == nil && calls[i].v.RunID == v.RunID && calls[i].v.CallID == v.CallID {
				calls[i].answer = &v
				break
			}
		}
	}
	return calls, nil
}

// loadQueued reads the settings and the queue, and returns the call
// numbered by args[1], which must still wait for an answer.
func loadQueued(flags *settingsFlags, args []string) (*loadedPolicy, queued, error) {
	calls, err := readQueue(args[0])
	if err != nil {
		return nil, queued{}, err
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 1 || n > len(calls) {
		return nil, queued{}, fmt.Errorf("%s holds no call %s: give a number from 1 to %d", args[0], args[1], len(calls))
	}
	c := calls[n-1]
	if c.answer != nil {
		return nil, queued{}, fmt.Errorf("call %d was answered already: %s", n, c.answer.Reason)
	}
	p, err := flags.load()
	if err != nil {
		return nil, queued{}, err
	}
	return p, c, nil
}

// callRule is the rule that names the queued call, under the local
// settings' source, as "always allow" would write it.
func (p *loadedPolicy) callRule(ctx context.Context, v agentpolicy.Verdict) (agentpolicy.Rule, error) {
	if err := p.checkTool(v.Tool); err != nil {
		return agentpolicy.Rule{}, err
	}
	if v.ArgsBytes != 0 {
		return agentpolicy.Rule{}, fmt.Errorf("the call's input was cut to its first %d of %d bytes in the queue, so no rule can be worked out from it: write one in the settings by hand", len(v.Args), v.ArgsBytes)
	}
	if p.settings.LocalSource().Path == "" {
		return agentpolicy.Rule{}, fmt.Errorf("no project: give --project, whose local settings the rule goes to")
	}
	args := json.RawMessage(v.Args)
	subjects, err := p.subjects(ctx, v.Tool, args)
	if err != nil {
		return agentpolicy.Rule{}, err
	}
	return p.grantRule(v, args, subjects), nil
}

// approve grants the queued call on an engine of the loaded settings, as
// GrantOver would over the verdict that queued it, and writes the grant
// into the local settings file. A refusal, and a grant that needs a
// carve-out of an ask rule, are errors that say why.
func (p *loadedPolicy) approve(ctx context.Context, c queued) (agentpolicy.Rule, error) {
	rule, err := p.callRule(ctx, c.v)
	if err != nil {
		return agentpolicy.Rule{}, err
	}
	eng, err := p.build(p.matchers)
	if err != nil {
		return agentpolicy.Rule{}, err
	}
	if granted, reason := eng.GrantOver(ctx, c.v, rule); !granted {
		return agentpolicy.Rule{}, fmt.Errorf("call %d cannot be allowed always: %s", c.n, reason)
	}
	if c.v.Rule != nil {
		return agentpolicy.Rule{}, fmt.Errorf("call %d was asked about by %s (%s); allowing it always needs a carve-out of that rule, which a Claude Code settings file cannot hold: narrow the rule there",
			c.n, p.written(*c.v.Rule), describeSource(c.v.Rule.Source))
	}
	return rule, addRule(rule.Source.Path, "allow", rule.String())
}

// answerQueued appends the person's answer to the queue, so the call is
// answered once and the queue is the record of who answered it.
func answerQueued(path string, c queued, action agentturn.ToolAction, reason string) error {
	f, err := journal.Open(path)
	if err != nil {
		return err
	}
	v := agentpolicy.Verdict{RunID: c.v.RunID, Turn: c.v.Turn, CallID: c.v.CallID, Tool: c.v.Tool,
		Action: action, Reason: reason, By: agentpolicy.ByHuman}
	if err := f.Record(context.Background(), v); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeQueue prints the queued calls, a line each.
func writeQueue(w io.Writer, calls []queued) {
	if len(calls) == 0 {
		fmt.Fprintln(w, "the queue is empty")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "N\tRUN\tTOOL\tCALL\tASKED BY\tANSWER")
	for _, c := range calls {
		answer := "waiting"
		if c.answer != nil {
			answer = c.answer.Reason
		}
		asked := "the default"
		if c.v.Rule != nil {
			asked = c.v.Rule.String()
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", c.n, c.v.RunID, c.v.Tool, callText(c.v), asked, answer)
	}
	tw.Flush()
}

// callText is what a queued call asks for: the asked subject of a split
// call, the command of a shell call, or its arguments.
func callText(v agentpolicy.Verdict) string {
	if v.Subject != "" {
		return v.Subject
	}
	if command, ok, err := agentpolicy.Field(json.RawMessage(v.Args), "command"); err == nil && ok {
		return command
	}
	return v.Args
}

// addRule adds rule to the list of the settings file at path, creating the
// file and its directory when they do not exist. The file's other members
// are kept as they are, written back with their keys in order; a rule the
// list holds already is not added again. The file is replaced whole, so a
// reader never sees half of it.
func addRule(path, list, rule string) error {
	doc := map[string]json.RawMessage{}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
			return fmt.Errorf("%s: not a settings file: %v", path, err)
		}
	case !os.IsNotExist(err):
		return err
	}
	perms := map[string]json.RawMessage{}
	if raw, ok := doc["permissions"]; ok {
		if err := json.Unmarshal(raw, &perms); err != nil || perms == nil {
			return fmt.Errorf("%s: permissions is not an object", path)
		}
	}
	var rules []json.RawMessage
	if raw, ok := perms[list]; ok {
		if err := json.Unmarshal(raw, &rules); err != nil {
			return fmt.Errorf("%s: permissions.%s is not a list", path, list)
		}
	}
	entry, err := marshal(rule)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(rules, func(r json.RawMessage) bool { return string(r) == string(entry) }) {
		return nil
	}
	rules = append(rules, entry)
	if perms[list], err = marshal(rules); err != nil {
		return err
	}
	if doc["permissions"], err = marshal(perms); err != nil {
		return err
	}
	out, err := marshal(doc)
	if err != nil {
		return err
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, out, "", "  "); err != nil {
		return err
	}
	return writeFile(path, append(indented.Bytes(), '\n'))
}

// marshal is json.Marshal without the escaping of <, > and &, so a rule
// such as Bash(make && make test) reads in the file as it was written.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeFile replaces the file at path with data through a file beside it,
// keeping the file's mode, 0644 for a new one.
func writeFile(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
