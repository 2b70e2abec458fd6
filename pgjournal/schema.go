package pgjournal

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// SchemaVersion is the version of the schema this package reads and
// writes, the number of the last of its migrations.
const SchemaVersion = 1

// Errors of a database whose schema is not the one this package writes,
// matched with errors.Is.
var (
	// ErrNoSchema is a database without the agentpolicy schema: run
	// agentpolicy db migrate, or open it [WithMigrate].
	ErrNoSchema = errors.New("agentpolicy/pgjournal: the database has no agentpolicy schema: run agentpolicy db migrate")
	// ErrNewerSchema is a schema a later version of agentpolicy migrated,
	// which this one must not write to.
	ErrNewerSchema = errors.New("agentpolicy/pgjournal: the database's agentpolicy schema is newer than this agentpolicy: upgrade agentpolicy")
	// ErrOlderSchema is a schema an earlier version migrated: run
	// agentpolicy db migrate.
	ErrOlderSchema = errors.New("agentpolicy/pgjournal: the database's agentpolicy schema is older than this agentpolicy: run agentpolicy db migrate")
)

// migrations are the schema's versions in order: migrations[i] takes the
// schema from version i to i+1. A migration once released is never
// changed; a change to the layout is a new one.
var migrations = []string{
	// 1: the journal, the queue and the grants.
	`CREATE SCHEMA IF NOT EXISTS agentpolicy;
CREATE TABLE agentpolicy.schema_version (
	version     integer PRIMARY KEY,
	migrated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE agentpolicy.verdicts (
	id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	recorded_at timestamptz NOT NULL DEFAULT now(),
	machine     text NOT NULL,
	session     text NOT NULL,
	agent       text NOT NULL,
	call_id     text NOT NULL,
	tool        text NOT NULL,
	action      text NOT NULL CHECK (action IN ('allow', 'block', 'defer')),
	rule        text NOT NULL,
	source      text NOT NULL,
	reason      text NOT NULL,
	args        text NOT NULL,
	args_bytes  integer,
	args_sha256 text,
	record      json NOT NULL,
	digest      text NOT NULL
);
CREATE UNIQUE INDEX verdicts_once ON agentpolicy.verdicts (session, call_id, digest) WHERE call_id <> '';
CREATE TABLE agentpolicy.queue (
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	queued_at    timestamptz NOT NULL DEFAULT now(),
	machine      text NOT NULL,
	session      text NOT NULL,
	agent        text NOT NULL,
	call_id      text NOT NULL,
	tool         text NOT NULL,
	rule         text NOT NULL,
	source       text NOT NULL,
	reason       text NOT NULL,
	args         text NOT NULL,
	args_bytes   integer,
	args_sha256  text,
	record       json NOT NULL,
	project      text NOT NULL,
	username     text NOT NULL,
	team         text NOT NULL,
	suggested    text NOT NULL,
	state        text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'approved', 'denied')),
	answer       text NOT NULL DEFAULT '',
	answered_by  text NOT NULL DEFAULT '',
	answered_at  timestamptz,
	UNIQUE (session, call_id)
);
CREATE INDEX queue_waiting ON agentpolicy.queue (id) WHERE state = 'waiting';
CREATE TABLE agentpolicy.grants (
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	granted_at   timestamptz NOT NULL DEFAULT now(),
	scope        text NOT NULL CHECK (scope IN ('project', 'user', 'team')),
	name         text NOT NULL,
	rule         text NOT NULL,
	once         boolean NOT NULL,
	granted_by   text NOT NULL,
	queue_id     bigint REFERENCES agentpolicy.queue (id),
	used_session text,
	used_call    text,
	used_at      timestamptz
);
CREATE UNIQUE INDEX grants_always ON agentpolicy.grants (scope, name, rule) WHERE NOT once;
CREATE INDEX grants_by_scope ON agentpolicy.grants (scope, name);`,
}

// lockKey is the advisory lock migrations take, so two hosts migrating at
// once apply each migration once.
const lockKey = 0x6167656e74706f6c // "agentpol"

// Migrate brings the database's agentpolicy schema to [SchemaVersion],
// creating it in a database that has none, each migration in a
// transaction of its own under an advisory lock. A schema newer than this
// package's is left alone and reported with [ErrNewerSchema]. It returns
// the version the schema had before.
func migrate(ctx context.Context, c conn) (from int, err error) {
	tx, err := c.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(lockKey)); err != nil {
		return 0, err
	}
	from, err = version(ctx, tx)
	if err != nil && !errors.Is(err, ErrNoSchema) {
		return from, err
	}
	if from > SchemaVersion {
		return from, fmt.Errorf("%w (schema %d, this agentpolicy writes %d)", ErrNewerSchema, from, SchemaVersion)
	}
	for v := from; v < SchemaVersion; v++ {
		if _, err := tx.Exec(ctx, migrations[v]); err != nil {
			return from, fmt.Errorf("agentpolicy/pgjournal: migration %d: %w", v+1, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO agentpolicy.schema_version (version) VALUES ($1)", v+1); err != nil {
			return from, err
		}
	}
	return from, tx.Commit(ctx)
}

// version reads the schema's version, [ErrNoSchema] when there is none.
// It asks whether the table exists first, so that in a transaction a
// database without it is an answer and not an aborted transaction.
func version(ctx context.Context, q conn) (int, error) {
	var v *int32
	var exists bool
	if err := q.QueryRow(ctx, "SELECT to_regclass('agentpolicy.schema_version') IS NOT NULL").Scan(&exists); err != nil {
		return 0, err
	}
	if !exists {
		return 0, ErrNoSchema
	}
	if err := q.QueryRow(ctx, "SELECT max(version) FROM agentpolicy.schema_version").Scan(&v); err != nil {
		return 0, err
	}
	if v == nil {
		return 0, ErrNoSchema
	}
	return int(*v), nil
}

// checkVersion is nil for a schema of this package's version, and says
// what to do about any other.
func checkVersion(ctx context.Context, q conn) error {
	v, err := version(ctx, q)
	switch {
	case err != nil:
		return err
	case v > SchemaVersion:
		return fmt.Errorf("%w (schema %d, this agentpolicy writes %d)", ErrNewerSchema, v, SchemaVersion)
	case v < SchemaVersion:
		return fmt.Errorf("%w (schema %d, this agentpolicy writes %d)", ErrOlderSchema, v, SchemaVersion)
	}
	return nil
}

// conn is what this package asks of a connection: a *pgx.Conn for a
// process that makes one call, a *pgxpool.Pool for a host that serves
// many.
type conn interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}
