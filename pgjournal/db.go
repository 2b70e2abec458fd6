package pgjournal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultTimeout bounds each use of the database, a connection or a
// statement, unless [Options.Timeout] says otherwise: past it the
// database is taken as unreachable, and a hook denies the call.
const DefaultTimeout = 2 * time.Second

// Options say who writes to the database and how long to wait for it.
type Options struct {
	// Machine names the machine the records come from; the host's name
	// when empty.
	Machine string
	// Agent names the agent whose calls are decided, "claude-code" say.
	Agent string
	// Project, User and Team are the grant scopes of this host: the
	// project its calls run in (its git remote URL or a configured
	// name), the user it runs as and the team it belongs to. A queued
	// call carries them, and [DB.Grants] reads the grants of each that
	// is not empty.
	Project, User, Team string
	// ArgsBound is how many bytes of a call's arguments a record keeps,
	// [agentpolicy.DefaultArgsBound] when zero, all of them when
	// negative. See [agentpolicy.Verdict.CutArgs].
	ArgsBound int
	// Timeout bounds each connection and each statement;
	// [DefaultTimeout] when zero.
	Timeout time.Duration
	// Migrate creates or migrates the schema at Open when it is not at
	// [SchemaVersion]; without it Open reports such a schema.
	Migrate bool
	// Pool opens a pool of connections, for a host that serves many
	// calls at once; without it Open makes one connection, as a hook
	// process that decides one call needs.
	Pool bool
}

// DB is the team's database: the journal of every decision, the queue of
// calls waiting for a person, and the grants people made. It is safe for
// concurrent use when opened with [Options.Pool]; a single connection
// serves one statement at a time.
type DB struct {
	c     conn
	close func()
	opts  Options
	// name is the database as errors name it: [DB.Name].
	name string
}

// ErrUnreachable is wrapped by the error of a use of the database that
// could not reach it within the bound: a refused or lost connection, a
// timeout, a server shutting down. Errors that are not are the database's
// answer, a wrong password or a schema this package cannot write, which
// waiting will not change.
var ErrUnreachable = errors.New("agentpolicy/pgjournal: the database cannot be reached")

// Open connects to the database at url, a postgres:// URL or a key=value
// string as libpq reads it, within the options' timeout, and checks its
// schema: a schema not at [SchemaVersion] is an error wrapping
// [ErrNoSchema], [ErrNewerSchema] or [ErrOlderSchema], unless
// [Options.Migrate] asks for it to be migrated. Errors name the database
// by host, port and name, never by its password.
func Open(ctx context.Context, url string, o Options) (*DB, error) {
	d, err := connect(ctx, url, o)
	if err != nil {
		return nil, err
	}
	ctx, cancel := d.bounded(ctx)
	defer cancel()
	if o.Migrate {
		_, err = migrate(ctx, d.c)
	} else {
		err = checkVersion(ctx, d.c)
	}
	if err != nil {
		d.Close()
		return nil, d.wrap(err)
	}
	return d, nil
}

// Migrate opens the database at url and brings its schema to
// [SchemaVersion], returning the version it had before, 0 for none. The
// connection is bounded by the options' timeout; the migration is not.
func Migrate(ctx context.Context, url string, o Options) (from int, err error) {
	o.Pool = false
	d, err := connect(ctx, url, o)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	from, err = migrate(ctx, d.c)
	return from, d.wrap(err)
}

// connect makes the connection, or the pool, within the options' timeout,
// and fills in the options' defaults.
func connect(ctx context.Context, url string, o Options) (*DB, error) {
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	if o.ArgsBound == 0 {
		o.ArgsBound = agentpolicy.DefaultArgsBound
	}
	if o.Machine == "" {
		o.Machine, _ = os.Hostname()
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/pgjournal: not a database URL: %w", err)
	}
	cc := cfg.ConnConfig
	cc.ConnectTimeout = o.Timeout
	d := &DB{opts: o, name: fmt.Sprintf("postgres://%s:%d/%s", cc.Host, cc.Port, cc.Database)}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	if !o.Pool {
		c, err := pgx.ConnectConfig(ctx, cc)
		if err != nil {
			return nil, d.wrap(err)
		}
		d.c, d.close = c, func() { c.Close(context.Background()) }
		return d, nil
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err == nil {
		err = pool.Ping(ctx)
	}
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, d.wrap(err)
	}
	d.c, d.close = pool, pool.Close
	return d, nil
}

// Name is the database as errors name it, "postgres://host:port/database",
// without its user and password.
func (d *DB) Name() string { return d.name }

// Close closes the connection or the pool.
func (d *DB) Close() {
	if d.close != nil {
		d.close()
	}
}

// bounded is ctx bounded by the options' timeout.
func (d *DB) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d.opts.Timeout)
}

// wrap names the database in err, and marks an error of reaching it with
// [ErrUnreachable].
func (d *DB) wrap(err error) error {
	if err == nil {
		return nil
	}
	if unreachable(err) {
		return fmt.Errorf("%w: %s: %w", ErrUnreachable, d.name, err)
	}
	return fmt.Errorf("agentpolicy/pgjournal: %s: %w", d.name, err)
}

// unreachable reports whether err is a failure to reach the database
// rather than its answer: every error but an error the server sent, other
// than one of a connection going away, and the schema's.
func unreachable(err error) bool {
	if errors.Is(err, ErrNoSchema) || errors.Is(err, ErrNewerSchema) || errors.Is(err, ErrOlderSchema) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08 is a connection exception, 57P0x a server going away.
		return pgErr.Code[:2] == "08" || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	}
	return true
}
