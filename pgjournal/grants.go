package pgjournal

import (
	"context"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/jackc/pgx/v5"
)

// GrantSource is the source the grants of the database are activated
// under, [agentpolicy.Engine.GrantSet]: trusted, ranked as Claude Code's
// local settings (30), where "always allow" writes a rule. So a grant
// answers the default's question and an ask rule of the project's or the
// user's settings, and never one of the command line's or the managed
// settings, and never beats a deny.
var GrantSource = agentpolicy.Source{Name: "grants", Rank: 30, Trusted: true}

// OnceSource is the source of the grants that allow one call
// ([Approval.Once]), ranked as [GrantSource]: a verdict whose rule comes
// from it must be claimed with [DB.UseOnce] before the call runs.
var OnceSource = agentpolicy.Source{Name: "grants:once", Rank: 30, Trusted: true}

// Grant is a grant the database holds.
type Grant struct {
	ID    int64
	Scope Scope
	Rule  string
	Once  bool
	By    string
}

// Grants returns the grants in force for this host's scopes
// ([Options.Project], [Options.User], [Options.Team]) for the call of
// session and callID: every "always" grant, and every "once" grant no
// other call has used, so a retried hook finds the grant its call used.
func (d *DB) Grants(ctx context.Context, session, callID string) ([]Grant, error) {
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	rows, err := d.c.Query(ctx, `SELECT id, scope, name, rule, once, granted_by FROM agentpolicy.grants
	WHERE ((scope = 'project' AND name = $1) OR (scope = 'user' AND name = $2) OR (scope = 'team' AND name = $3))
	AND name <> '' AND (NOT once OR used_at IS NULL OR (used_session = $4 AND used_call = $5)) ORDER BY id`,
		d.opts.Project, d.opts.User, d.opts.Team, session, callID)
	if err != nil {
		return nil, d.wrap(err)
	}
	defer rows.Close()
	var out []Grant
	for rows.Next() {
		var g Grant
		if err := rows.Scan(&g.ID, &g.Scope.Kind, &g.Scope.Name, &g.Rule, &g.Once, &g.By); err != nil {
			return nil, d.wrap(err)
		}
		out = append(out, g)
	}
	return out, d.wrap(rows.Err())
}

// RuleSets returns the grants as the two rule sets an engine activates
// with [agentpolicy.Engine.GrantSet], the always grants under
// [GrantSource] and the once grants under [OnceSource], each rule's note
// naming its grant. A rule that is not one rule of the grammar is an
// error: the grants table holds only what an approval validated.
func RuleSets(grants []Grant) (always, once agentpolicy.RuleSet, err error) {
	always.Source, once.Source = GrantSource, OnceSource
	for _, g := range grants {
		rules, err := agentpolicy.ParseRules(g.Rule)
		if err != nil || len(rules) != 1 {
			return always, once, fmt.Errorf("agentpolicy/pgjournal: grant %d: %q is not one rule", g.ID, g.Rule)
		}
		r := rules[0]
		r.Note = fmt.Sprintf("grant %d, by %s for %s %s", g.ID, g.By, g.Scope.Kind, g.Scope.Name)
		if g.Once {
			once.Allow = append(once.Allow, r)
		} else {
			always.Allow = append(always.Allow, r)
		}
	}
	return always, once, nil
}

// ErrUsed is the error of a once grant another call used first.
var ErrUsed = errors.New("agentpolicy/pgjournal: the one-time approval was used by another call")

// UseOnce claims the once grant with the rule for the call of session
// and callID, before the call runs: a grant another call claimed first is
// an error wrapping [ErrUsed], and a call that claimed it already (a
// retried hook) claims it again.
func (d *DB) UseOnce(ctx context.Context, rule, session, callID string) error {
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	tag, err := d.c.Exec(ctx, `UPDATE agentpolicy.grants SET used_session = $2, used_call = $3, used_at = now()
	WHERE id = (SELECT id FROM agentpolicy.grants
		WHERE once AND rule = $1 AND ((scope = 'project' AND name = $4) OR (scope = 'user' AND name = $5) OR (scope = 'team' AND name = $6))
		AND name <> '' AND (used_at IS NULL OR (used_session = $2 AND used_call = $3))
		ORDER BY used_at IS NULL, id LIMIT 1 FOR UPDATE SKIP LOCKED)`,
		rule, session, callID, d.opts.Project, d.opts.User, d.opts.Team)
	if err != nil {
		return d.wrap(err)
	}
	if tag.RowsAffected() == 0 {
		return ErrUsed
	}
	return nil
}

// AddGrant writes an "always allow" grant of the rule for the scope, as an
// approval does but for no queued call, and tells the hosts listening.
func (d *DB) AddGrant(ctx context.Context, scope Scope, rule, by string) error {
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	tx, err := d.c.Begin(ctx)
	if err != nil {
		return d.wrap(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `INSERT INTO agentpolicy.grants (scope, name, rule, once, granted_by)
	VALUES ($1, $2, $3, false, $4) ON CONFLICT (scope, name, rule) WHERE NOT once DO NOTHING`,
		scope.Kind, scope.Name, rule, by); err != nil {
		return d.wrap(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_notify('agentpolicy_grants', $1)`, scope.Kind+":"+scope.Name); err != nil {
		return d.wrap(err)
	}
	return d.wrap(tx.Commit(ctx))
}

// Watch calls changed each time a grant is written, from its own
// connection to the database at url, listening on the channel
// agentpolicy_grants, until ctx ends or the connection fails, whose error
// it returns: a long-lived host reads [DB.Grants] again in changed, rather
// than poll. It calls changed("") first, once it listens, so a host that
// reads the grants there misses none written before; a host that sees
// Watch return calls it again.
func Watch(ctx context.Context, url string, changed func(scope string)) error {
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, "LISTEN agentpolicy_grants"); err != nil {
		return fmt.Errorf("agentpolicy/pgjournal: listen: %w", err)
	}
	changed("")
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		changed(n.Payload)
	}
}
