package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/jackc/pgx/v5"
)

// Queued is a call an unattended run queued for a person, as the queue
// table holds it, with the answer it got.
type Queued struct {
	ID       int64
	QueuedAt time.Time
	// Machine, Session, Agent and CallID say where the call came from.
	Machine, Session, Agent, CallID string
	// Verdict is the deferral that queued the call, read back from its
	// record with [agentpolicy.ParseRecord]: its tool, arguments (secrets
	// redacted, cut to the bound), the rule that asked and its reason.
	Verdict agentpolicy.Verdict
	// Project, User and Team are the scopes of the host that queued it,
	// which an approval's grant can be made for.
	Project, User, Team string
	// Suggested is the rule "always allow" would write for the call, as
	// the host that queued it worked it out: the command exactly for
	// Bash, the host for WebFetch, the bare tool otherwise. A reviewer
	// may approve with another.
	Suggested string
	// State is "waiting", "approved" or "denied"; Answer, AnsweredBy and
	// AnsweredAt say how, by whom and when, once it is not waiting.
	State, Answer, AnsweredBy string
	AnsweredAt                time.Time
}

// Enqueue queues the call v deferred, for a person to answer, with the
// rule "always allow" would write for it, and returns once the row is
// committed. A call queued already, by session and call ID, is not queued
// again: a retried hook queues its call once.
func (d *DB) Enqueue(ctx context.Context, v agentpolicy.Verdict, suggested string) error {
	v = v.CutArgs(d.opts.ArgsBound)
	_, data := v.Record()
	rule, source := ruleOf(v)
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	_, err := d.c.Exec(ctx, `INSERT INTO agentpolicy.queue
	(machine, session, agent, call_id, tool, rule, source, reason, args, args_bytes, args_sha256, record, project, username, team, suggested)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
	ON CONFLICT (session, call_id) DO NOTHING`,
		d.opts.Machine, v.RunID, d.opts.Agent, v.CallID, v.Tool, rule, source, v.Reason, v.Args,
		nullInt(v.ArgsBytes), nullText(v.ArgsSHA256), string(data), d.opts.Project, d.opts.User, d.opts.Team, suggested)
	return d.wrap(err)
}

// Queue is the queue as an [agentpolicy.Journal], for
// [agentpolicy.Unattended]: each deferral it records is queued with no
// suggested rule. A host that knows the rule calls [DB.Enqueue].
func (d *DB) Queue() agentpolicy.Journal {
	return agentpolicy.JournalFunc(func(ctx context.Context, v agentpolicy.Verdict) error {
		return d.Enqueue(ctx, v, "")
	})
}

const queuedColumns = `id, queued_at, machine, session, agent, call_id, record, project, username, team, suggested,
	state, answer, answered_by, coalesce(answered_at, 'epoch')`

// List returns the queued calls in the order queued, only those waiting
// for an answer unless all is set.
func (d *DB) List(ctx context.Context, all bool) ([]Queued, error) {
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	rows, err := d.c.Query(ctx, `SELECT `+queuedColumns+` FROM agentpolicy.queue
	WHERE $1 OR state = 'waiting' ORDER BY id`, all)
	if err != nil {
		return nil, d.wrap(err)
	}
	defer rows.Close()
	var out []Queued
	for rows.Next() {
		q, err := scanQueued(rows)
		if err != nil {
			return nil, d.wrap(err)
		}
		out = append(out, q)
	}
	return out, d.wrap(rows.Err())
}

// ErrNoCall is the error of a queue ID that names no queued call.
var ErrNoCall = errors.New("agentpolicy/pgjournal: no such queued call")

// Show returns the queued call with the ID, or an error wrapping
// [ErrNoCall].
func (d *DB) Show(ctx context.Context, id int64) (Queued, error) {
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	q, err := scanQueued(d.c.QueryRow(ctx, `SELECT `+queuedColumns+` FROM agentpolicy.queue WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Queued{}, fmt.Errorf("%w: %d", ErrNoCall, id)
	}
	return q, d.wrap(err)
}

func scanQueued(row pgx.Row) (Queued, error) {
	var q Queued
	var record string
	err := row.Scan(&q.ID, &q.QueuedAt, &q.Machine, &q.Session, &q.Agent, &q.CallID, &record, &q.Project, &q.User,
		&q.Team, &q.Suggested, &q.State, &q.Answer, &q.AnsweredBy, &q.AnsweredAt)
	if err != nil {
		return q, err
	}
	if q.Verdict, err = agentpolicy.ParseRecord([]byte(record)); err != nil {
		return q, fmt.Errorf("agentpolicy/pgjournal: queued call %d: %w", q.ID, err)
	}
	return q, nil
}

// Scope is who a grant is for: a project (its git remote URL or a
// configured name), a user, or a team.
type Scope struct {
	Kind string // "project", "user" or "team"
	Name string
}

// Approval is a person's approval of a queued call.
type Approval struct {
	// Rule is the allow rule the grant adds, in the grammar's words
	// ("Bash(npm test)"), validated by the caller.
	Rule string
	// Once allows the next call the rule matches, and only that one;
	// otherwise the rule stands until revoked ("always allow").
	Once bool
	// Scope is who the grant is for.
	Scope Scope
	// By names the reviewer.
	By string
}

// ErrAnswered is the error of an answer to a call answered already, by
// another reviewer most often: the first answer stands, and the error
// says what it was.
var ErrAnswered = errors.New("agentpolicy/pgjournal: the call was answered already")

// Approve answers the queued call with the approval and writes its grant,
// in one transaction, and tells the hosts listening ([DB.Watch]) once it
// commits. Of two reviewers answering one call at once, one wins: the
// other's answer changes nothing and returns an error wrapping
// [ErrAnswered] that says how the call was answered.
func (d *DB) Approve(ctx context.Context, id int64, a Approval) error {
	if a.Rule == "" || a.Scope.Name == "" {
		return errors.New("agentpolicy/pgjournal: an approval needs a rule and a scope with a name")
	}
	how := "approved always: " + a.Rule
	if a.Once {
		how = "approved once: " + a.Rule
	}
	return d.answer(ctx, id, "approved", how, a.By, func(tx pgx.Tx) error {
		if !a.Once {
			if _, err := tx.Exec(ctx, `INSERT INTO agentpolicy.grants (scope, name, rule, once, granted_by, queue_id)
			VALUES ($1, $2, $3, false, $4, $5) ON CONFLICT (scope, name, rule) WHERE NOT once DO NOTHING`,
				a.Scope.Kind, a.Scope.Name, a.Rule, a.By, id); err != nil {
				return err
			}
		} else if _, err := tx.Exec(ctx, `INSERT INTO agentpolicy.grants (scope, name, rule, once, granted_by, queue_id)
			VALUES ($1, $2, $3, true, $4, $5)`, a.Scope.Kind, a.Scope.Name, a.Rule, a.By, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `SELECT pg_notify('agentpolicy_grants', $1)`, a.Scope.Kind+":"+a.Scope.Name)
		return err
	})
}

// Deny answers the queued call with a refusal and its reason; the call
// stays refused, and no grant is written. Two answers at once are
// decided as for [DB.Approve].
func (d *DB) Deny(ctx context.Context, id int64, by, reason string) error {
	return d.answer(ctx, id, "denied", "denied: "+reason, by, nil)
}

// answer moves the waiting call to state, with then run in the same
// transaction.
func (d *DB) answer(ctx context.Context, id int64, state, how, by string, then func(pgx.Tx) error) error {
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	tx, err := d.c.Begin(ctx)
	if err != nil {
		return d.wrap(err)
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `UPDATE agentpolicy.queue SET state = $2, answer = $3, answered_by = $4, answered_at = now()
	WHERE id = $1 AND state = 'waiting'`, id, state, how, by)
	if err != nil {
		return d.wrap(err)
	}
	if tag.RowsAffected() == 0 {
		var answer, who string
		err := tx.QueryRow(ctx, `SELECT answer, answered_by FROM agentpolicy.queue WHERE id = $1`, id).Scan(&answer, &who)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: %d", ErrNoCall, id)
		}
		if err != nil {
			return d.wrap(err)
		}
		return fmt.Errorf("%w: call %d was %s, by %s", ErrAnswered, id, answer, who)
	}
	if then != nil {
		if err := then(tx); err != nil {
			return d.wrap(err)
		}
	}
	return d.wrap(tx.Commit(ctx))
}
