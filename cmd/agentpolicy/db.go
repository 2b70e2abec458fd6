package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	osuser "os/user"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/pgjournal"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/spf13/cobra"
)

// A fleet's journal, queue and grants in PostgreSQL: --journal and
// --unattended take a postgres:// URL where they take a file, and the
// hook then reads the grants people made from the queue's database.

// isDatabaseURL reports whether a --journal or --unattended value names a
// PostgreSQL database rather than a file.
func isDatabaseURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// fleetFlags are the hook's flags for a database: who it is to the
// grants.
type fleetFlags struct {
	team        string
	projectName string
}

func (f *fleetFlags) register(cmd *cobra.Command) {
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.team, "team", "", "the team whose grants apply, with a postgres:// --journal or --unattended")
	pf.StringVar(&f.projectName, "project-name", "", "the project's name to its grants (default its git remote origin URL)")
}

// words are the flags as hook install writes them into the hook's
// command line.
func (f *fleetFlags) words() []string {
	var words []string
	if f.team != "" {
		words = append(words, "--team", shellQuote(f.team))
	}
	if f.projectName != "" {
		words = append(words, "--project-name", shellQuote(f.projectName))
	}
	return words
}

// fleet is the hook's databases, opened once per call: the journal's and
// the queue's, one when both name the same.
type fleet struct {
	journal, queue *pgjournal.DB
}

// openFleet opens the databases --journal and --unattended name, for the
// event's project, the user the hook runs as and --team. An error that
// wraps [pgjournal.ErrUnreachable] is a database out of reach, which
// denies the call; any other (a wrong password, a database without the
// schema or with a newer one) is bad input, which fails the hook.
func (h *hookFlags) openFleet(ctx context.Context, agent, cwd string) (*fleet, error) {
	if !isDatabaseURL(h.journal) && !isDatabaseURL(h.unattended) {
		return nil, nil
	}
	o := pgjournal.Options{Agent: fleetAgent[agent], Team: h.fleet.team, Project: h.fleet.projectName, User: currentUser()}
	if o.Project == "" {
		o.Project = gitRemote(cwd)
	}
	f := &fleet{}
	var err error
	if isDatabaseURL(h.journal) {
		if f.journal, err = pgjournal.Open(ctx, h.journal, o); err != nil {
			return nil, err
		}
	}
	switch {
	case h.unattended == h.journal:
		f.queue = f.journal
	case isDatabaseURL(h.unattended):
		if f.queue, err = pgjournal.Open(ctx, h.unattended, o); err != nil {
			f.close()
			return nil, err
		}
	}
	return f, nil
}

// fleetAgent is the agent a database record names.
var fleetAgent = map[string]string{agentClaude: "claude-code", agentCodex: "codex", agentGemini: "gemini"}

// openDatabases opens the databases the call's flags name, for the agent
// whose event it answers. An unreachable database is kept in h.dbErr, so
// the call is denied with its name; any other failure (a wrong password, a
// database without the schema) is the hook's error.
func (h *hookFlags) openDatabases(ctx context.Context, agent, cwd string) error {
	if h.journal == "" {
		h.journal = os.Getenv("AGENTPOLICY_JOURNAL")
	}
	if h.db, h.dbErr = h.openFleet(ctx, agent, cwd); h.dbErr != nil && !errors.Is(h.dbErr, pgjournal.ErrUnreachable) {
		return fmt.Errorf("hook: %w", h.dbErr)
	}
	return nil
}

func (f *fleet) close() {
	if f == nil {
		return
	}
	if f.journal != nil {
		f.journal.Close()
	}
	if f.queue != nil && f.queue != f.journal {
		f.queue.Close()
	}
}

// grants is the database the grants are read from: the queue's, whose
// approvals write them, else the journal's.
func (f *fleet) grants() *pgjournal.DB {
	if f == nil {
		return nil
	}
	if f.queue != nil {
		return f.queue
	}
	return f.journal
}

// activate reads the grants of the hook's project, user and team and
// activates them on the engine, as a grant set of [pgjournal.GrantSource]
// and one of [pgjournal.OnceSource].
func (f *fleet) activate(ctx context.Context, eng *agentpolicy.Engine, session, callID string) error {
	db := f.grants()
	if db == nil {
		return nil
	}
	grants, err := db.Grants(ctx, session, callID)
	if err != nil || len(grants) == 0 {
		return err
	}
	always, once, err := pgjournal.RuleSets(grants)
	if err != nil {
		return err
	}
	for _, set := range []agentpolicy.RuleSet{always, once} {
		if len(set.Allow) > 0 {
			eng.GrantSet(ctx, set)
		}
	}
	return nil
}

// claim claims the once grant that allowed v for its call, so no other
// call runs on it; a grant another call claimed first refuses the call.
func (f *fleet) claim(ctx context.Context, v agentpolicy.Verdict, session, callID string) error {
	if f == nil || v.Action != agentturn.Allow || v.Rule == nil || v.Rule.Source.Name != pgjournal.OnceSource.Name {
		return nil
	}
	return f.grants().UseOnce(ctx, v.Rule.String(), session, callID)
}

// queueDB queues an asked call in the --unattended database, with the
// rule "always allow" would write for it, and denies it with the queued
// text, or with the reason it could not be queued.
func (h *hookFlags) queueDB(ctx context.Context, p *loadedPolicy, info agentturn.ToolCallInfo, v agentpolicy.Verdict) hookAnswer {
	if h.db == nil || h.db.queue == nil {
		return refusal(unqueuedReason(h.dbErr))
	}
	suggested := ""
	if subjects, err := p.subjects(ctx, v.Tool, info.Args); err == nil {
		suggested = p.grantRule(v, info.Args, subjects).String()
	}
	return h.enqueueDB(ctx, info, v, suggested)
}

// enqueueDB queues an asked call in the --unattended database with the
// rule suggested for "always allow" ("" for none), and denies it with the
// queued text, or with the reason it could not be queued.
func (h *hookFlags) enqueueDB(ctx context.Context, info agentturn.ToolCallInfo, v agentpolicy.Verdict, suggested string) hookAnswer {
	if h.db == nil || h.db.queue == nil {
		return refusal(unqueuedReason(h.dbErr))
	}
	queue := agentpolicy.JournalFunc(func(ctx context.Context, v agentpolicy.Verdict) error {
		return h.db.queue.Enqueue(ctx, v, suggested)
	})
	r, err := agentpolicy.Unattended(queue).Review(ctx, info, v)
	if err != nil {
		return refusal(unqueuedReason(err))
	}
	return refusal(queuedReason(r.Reason, h.db.queue.Name()))
}

// fleetReason is the deny of a call whose database could not be used.
func fleetReason(err error) string {
	if errors.Is(err, pgjournal.ErrUsed) {
		return "agentpolicy: the one-time approval that allowed the call was used by another call first, so the call did not run"
	}
	return "agentpolicy: the database could not be used, so the call did not run: " + oneLine(err.Error())
}

// currentUser is the name of the user the hook runs as, for user grants.
func currentUser() string {
	if u, err := osuser.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

// gitRemote is the URL of the origin remote of the repository dir lies
// in, "" when there is none: the name project grants are made for.
func gitRemote(dir string) string {
	out, err := exec.Command("git", "-C", dir, "config", "--get", "remote.origin.url").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func newDB() *cobra.Command {
	db := &cobra.Command{
		Use:   "db",
		Short: "Manage the PostgreSQL database a fleet's hooks journal, queue and grant in",
	}
	db.AddCommand(&cobra.Command{
		Use:   "migrate URL",
		Short: "Create or migrate the agentpolicy schema of a PostgreSQL database",
		Long: `migrate creates the agentpolicy schema (the tables verdicts, queue and grants)
in the database, or brings it to the version this agentpolicy writes. It is
safe to run again, and from several machines at once. A schema a newer
agentpolicy migrated is left alone, and is an error.`,
		Example: "  agentpolicy db migrate postgres://agentpolicy@db.internal/agentpolicy",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !isDatabaseURL(args[0]) {
				return fmt.Errorf("not a postgres:// URL: %s", args[0])
			}
			from, err := pgjournal.Migrate(cmd.Context(), args[0], pgjournal.Options{})
			if err != nil {
				return err
			}
			if from == pgjournal.SchemaVersion {
				fmt.Fprintf(cmd.OutOrStdout(), "the schema is at version %d already\n", from)
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "migrated the schema from version %d to %d\n", from, pgjournal.SchemaVersion)
			return nil
		},
	})
	return db
}
