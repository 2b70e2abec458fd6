package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/pgjournal"
	"github.com/spf13/cobra"
)

// The queue in a database: agentpolicy queue list|show|approve|deny
// postgres://… answer the calls every machine's hooks queued there, and an
// approval is a grant every hook reads at its next call.

// openQueueDB opens the queue's database for a reviewer.
func openQueueDB(ctx context.Context, url string) (*pgjournal.DB, error) {
	return pgjournal.Open(ctx, url, pgjournal.Options{})
}

// listDB prints the calls of a database queue, the waiting ones unless
// all is set.
func listDB(ctx context.Context, w io.Writer, url string, all bool) error {
	db, err := openQueueDB(ctx, url)
	if err != nil {
		return err
	}
	defer db.Close()
	calls, err := db.List(ctx, all)
	if err != nil {
		return err
	}
	if len(calls) == 0 {
		fmt.Fprintln(w, "no call waits for an answer")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tMACHINE\tSESSION\tTOOL\tCALL\tASKED BY\tSTATE")
	for _, q := range calls {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", q.ID, q.Machine, q.Session, q.Verdict.Tool,
			oneLine(callText(q.Verdict)), askedBy(q.Verdict), q.State)
	}
	return tw.Flush()
}

// askedBy names the rule that asked about a call, or the default.
func askedBy(v agentpolicy.Verdict) string {
	if v.Rule != nil {
		return v.Rule.String()
	}
	return "the default"
}

func newQueueShow() *cobra.Command {
	return &cobra.Command{
		Use:     "show QUEUE ID",
		Short:   "Show one call a database queue holds, whole",
		Example: "  agentpolicy queue show postgres://agentpolicy@db.internal/agentpolicy 12",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, id, err := queuedID(cmd.Context(), args)
			if err != nil {
				return err
			}
			defer db.Close()
			q, err := db.Show(cmd.Context(), id)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "call:\t%d, %s\n", q.ID, q.State)
			fmt.Fprintf(tw, "queued:\t%s by %s on %s, session %s, call %s\n", q.QueuedAt.UTC().Format("2006-01-02 15:04:05Z"), q.Agent, q.Machine, q.Session, q.CallID)
			fmt.Fprintf(tw, "tool:\t%s\n", q.Verdict.Tool)
			fmt.Fprintf(tw, "input:\t%s\n", oneLine(q.Verdict.Args))
			if q.Verdict.ArgsBytes != 0 {
				fmt.Fprintf(tw, "\t(the first %d of %d bytes, sha256 %s)\n", len(q.Verdict.Args), q.Verdict.ArgsBytes, q.Verdict.ArgsSHA256)
			}
			fmt.Fprintf(tw, "asked by:\t%s\n", askedBy(q.Verdict))
			fmt.Fprintf(tw, "reason:\t%s\n", q.Verdict.Reason)
			fmt.Fprintf(tw, "project:\t%s\n", q.Project)
			fmt.Fprintf(tw, "always allow:\t%s\n", q.Suggested)
			if q.State != "waiting" {
				fmt.Fprintf(tw, "answer:\t%s, by %s\n", q.Answer, q.AnsweredBy)
			}
			return tw.Flush()
		},
	}
}

// queuedID opens the database of args[0] and reads the ID args[1].
func queuedID(ctx context.Context, args []string) (*pgjournal.DB, int64, error) {
	if !isDatabaseURL(args[0]) {
		return nil, 0, fmt.Errorf("%s is not a postgres:// URL: a file queue's calls are listed with queue list and answered with approve or reject", args[0])
	}
	id, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil || id < 1 {
		return nil, 0, fmt.Errorf("%q is not a queued call's ID: give the number queue list shows", args[1])
	}
	db, err := openQueueDB(ctx, args[0])
	return db, id, err
}

// dbApproval is the flags of queue approve for a database queue.
type dbApproval struct {
	once  bool
	rule  string
	scope string
	by    string
}

func (a *dbApproval) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&a.once, "once", false, "database queue: allow the next call the rule matches, once, rather than always")
	f.StringVar(&a.rule, "rule", "", "database queue: the allow rule to grant (default the call's own, as always allow writes it)")
	f.StringVar(&a.scope, "scope", "project", "database queue: who the grant is for: project, user, team, or KIND:NAME")
	f.StringVar(&a.by, "by", "", "database queue: the reviewer's name (default the user running the command)")
}

// approve answers a call of a database queue with a grant.
func (a *dbApproval) approve(cmd *cobra.Command, args []string) error {
	ctx := cmd.Context()
	db, id, err := queuedID(ctx, args)
	if err != nil {
		return err
	}
	defer db.Close()
	q, err := db.Show(ctx, id)
	if err != nil {
		return err
	}
	approval, err := a.approval(q)
	if err != nil {
		return err
	}
	if err := db.Approve(ctx, id, approval); err != nil {
		return err
	}
	how := "always"
	if approval.Once {
		how = "once"
	}
	fmt.Fprintf(cmd.OutOrStdout(), "approved %d %s: %s granted to %s %s\n", id, how, approval.Rule, approval.Scope.Kind, approval.Scope.Name)
	return nil
}

// approval is the grant the flags make for the queued call: its rule,
// checked to be one allow rule of the grammar, and its scope, named from
// the call's host unless the flag names it.
func (a *dbApproval) approval(q pgjournal.Queued) (pgjournal.Approval, error) {
	rule := a.rule
	if rule == "" {
		rule = q.Suggested
	}
	if rule == "" {
		return pgjournal.Approval{}, fmt.Errorf("call %d has no rule to grant: give one with --rule", q.ID)
	}
	checked, err := grantableRule(rule)
	if err != nil {
		return pgjournal.Approval{}, err
	}
	scope, err := grantScope(a.scope, q)
	if err != nil {
		return pgjournal.Approval{}, err
	}
	return pgjournal.Approval{Rule: checked, Once: a.once, Scope: scope, By: reviewer(a.by)}, nil
}

// grantableRule is the rule as the grants table keeps it, the grammar's
// form, when text is one allow rule that is no carve-out.
func grantableRule(text string) (string, error) {
	rules, err := agentpolicy.ParseRules(text)
	if err != nil || len(rules) != 1 {
		return "", fmt.Errorf("%q is not one rule", text)
	}
	if _, carve := rules[0].CarveOut(); carve {
		return "", fmt.Errorf("%q is a carve-out, which cannot be granted", text)
	}
	return rules[0].String(), nil
}

// grantScope reads --scope: a kind, named from the call's host, or
// KIND:NAME.
func grantScope(flag string, q pgjournal.Queued) (pgjournal.Scope, error) {
	kind, name, named := strings.Cut(flag, ":")
	if !named {
		name = map[string]string{"project": q.Project, "user": q.User, "team": q.Team}[kind]
	}
	switch {
	case kind != "project" && kind != "user" && kind != "team":
		return pgjournal.Scope{}, fmt.Errorf("--scope %q: give project, user or team, or KIND:NAME", flag)
	case name == "":
		return pgjournal.Scope{}, fmt.Errorf("call %d's host has no %s name: give --scope %s:NAME", q.ID, kind, kind)
	}
	return pgjournal.Scope{Kind: kind, Name: name}, nil
}

// reviewer is the --by name, else the user running the command.
func reviewer(by string) string {
	if by != "" {
		return by
	}
	return currentUser()
}

func newQueueDeny() *cobra.Command {
	var reason, by string
	cmd := &cobra.Command{
		Use:     "deny QUEUE ID",
		Short:   "Answer a call of a database queue with a refusal and its reason",
		Example: `  agentpolicy queue deny --reason "not on a Friday" postgres://agentpolicy@db.internal/agentpolicy 12`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, id, err := queuedID(cmd.Context(), args)
			if err != nil {
				return err
			}
			defer db.Close()
			if err := db.Deny(cmd.Context(), id, reviewer(by), reason); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "denied %d\n", id)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "denied by a reviewer", "why the call was refused")
	cmd.Flags().StringVar(&by, "by", "", "the reviewer's name (default the user running the command)")
	return cmd
}
