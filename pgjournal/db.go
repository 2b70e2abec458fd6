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
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	if o.ArgsBound == 0 {
		o.ArgsBound = agentpolicy.DefaultArgsBound
	}
	if o.Machine == "" {
		o.Machine, _ = os.Hostname()
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/pgjournal: not a database URL: %w", err)
	}
	d := &DB{opts: o, name: fmt.Sprintf("postgres://%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)}
	cfg.ConnectTimeout = o.Timeout
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	if o.Pool {
		pcfg, err := pgxpool.ParseConfig(url)
		if err != nil {
			return nil, fmt.Errorf("agentpolicy/pgjournal: not a database URL: %w", err)
		}
		pcfg.ConnConfig.ConnectTimeout = o.Timeout
		pool, err := pgxpool.NewWithConfig(ctx, pcfg)
		if err != nil {
			return nil, d.wrap(err)
		}
		if err := pool.Ping(ctx); err != nil {
			pool.Close()
			return nil, d.wrap(err)
		}
		d.c, d.close = pool, pool.Close
	} else {
		c, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return nil, d.wrap(err)
		}
		d.c, d.close = c, func() { c.Close(context.Background()) }
	}
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
// [SchemaVersion], returning the version it had before, 0 for none.
func Migrate(ctx context.Context, url string, o Options) (from int, err error) {
	o.Migrate = false
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return 0, fmt.Errorf("agentpolicy/pgjournal: not a database URL: %w", err)
	}
	d := &DB{opts: o, name: fmt.Sprintf("postgres://%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)}
	cfg.ConnectTimeout = o.Timeout
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return 0, d.wrap(err)
	}
	defer c.Close(context.Background())
	from, err = migrate(ctx, c)
	return from, d.wrap(err)
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
