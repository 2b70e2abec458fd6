package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/pgjournal/pgtest"
	"github.com/ChristopherDavenport/agentturn"
)

var cluster *pgtest.Cluster

func TestMain(m *testing.M) {
	c, err := pgtest.StartMain()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cluster = c
	code := m.Run()
	c.Remove()
	os.Exit(code)
}

var dbs atomic.Int32

// freshURL is the URL of a new, empty database.
func freshURL(t *testing.T) string {
	return cluster.CreateDB(t, fmt.Sprintf("t%d", dbs.Add(1)))
}

// openFresh is a new database, migrated, opened with o.
func openFresh(t *testing.T, o Options) *DB {
	t.Helper()
	o.Migrate = true
	d, err := Open(context.Background(), freshURL(t), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

func count(t *testing.T, d *DB, table string) int {
	t.Helper()
	var n int
	if err := d.c.QueryRow(context.Background(), "SELECT count(*) FROM agentpolicy."+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func deferral(session, call, command string) agentpolicy.Verdict {
	return agentpolicy.Verdict{RunID: session, CallID: call, Tool: "Bash", Action: agentturn.Defer,
		Reason: "approval required: no rule allows Bash", By: agentpolicy.ByPolicy,
		Args: fmt.Sprintf(`{"command":%q}`, command)}
}

func TestMigrateCreatesTheSchemaOnceAndOpenChecksIt(t *testing.T) {
	ctx := context.Background()
	url := freshURL(t)
	if _, err := Open(ctx, url, Options{}); !errors.Is(err, ErrNoSchema) {
		t.Fatalf("Open of an empty database = %v; want ErrNoSchema", err)
	}
	if from, err := Migrate(ctx, url, Options{}); err != nil || from != 0 {
		t.Fatalf("Migrate = %d, %v; want from 0", from, err)
	}
	if from, err := Migrate(ctx, url, Options{}); err != nil || from != SchemaVersion {
		t.Fatalf("Migrate again = %d, %v; want from %d, nothing to do", from, err, SchemaVersion)
	}
	d, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatalf("Open of a migrated database: %v", err)
	}
	defer d.Close()
	if _, err := d.c.Exec(ctx, "INSERT INTO agentpolicy.schema_version (version) VALUES ($1)", SchemaVersion+1); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {Migrate: true}} {
		_, err := Open(ctx, url, o)
		if !errors.Is(err, ErrNewerSchema) || errors.Is(err, ErrUnreachable) {
			t.Errorf("Open(Migrate %v) of a newer schema = %v; want ErrNewerSchema", o.Migrate, err)
		}
	}
	if _, err := Migrate(ctx, url, Options{}); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Migrate of a newer schema = %v; want ErrNewerSchema", err)
	}
}

func TestOpenWithAWrongPasswordSaysSoAndNotUnreachable(t *testing.T) {
	url := cluster.URLAs(pgtest.User, "not-the-password", "postgres")
	_, err := Open(context.Background(), url, Options{})
	if err == nil || errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "password authentication failed") {
		t.Fatalf("Open with a wrong password = %v; want the server's refusal", err)
	}
	if strings.Contains(err.Error(), "not-the-password") {
		t.Errorf("the error shows the password: %v", err)
	}
}

func TestOpenOfADatabaseNobodyListensForIsUnreachableWithinTheBound(t *testing.T) {
	start := time.Now()
	_, err := Open(context.Background(), "postgres://u:p@127.0.0.1:1/db?sslmode=disable", Options{Timeout: 500 * time.Millisecond})
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "postgres://127.0.0.1:1/db") {
		t.Fatalf("Open = %v; want ErrUnreachable naming the database", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Open took %v; want it within the bound", took)
	}
}

func TestRecordIsIdempotentPerSessionCallAndContent(t *testing.T) {
	ctx := context.Background()
	d := openFresh(t, Options{Machine: "m1", Agent: "claude-code"})
	v := deferral("s1", "toolu_1", "git push")
	for range 3 {
		if err := d.Record(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, d, "verdicts"); n != 1 {
		t.Fatalf("three records of one verdict wrote %d rows; want 1", n)
	}
	// The harmless twins: another verdict on the call, the same verdict
	// in another session, and two verdicts with no call ID are rows of
	// their own.
	released := v
	released.Action, released.Reason = agentturn.Allow, "approved"
	other := v
	other.RunID = "s2"
	grant := agentpolicy.Verdict{Tool: "Bash", Action: agentturn.Allow, Reason: "granted Bash(ls)"}
	for _, w := range []agentpolicy.Verdict{released, other, grant, grant} {
		if err := d.Record(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, d, "verdicts"); n != 5 {
		t.Fatalf("%d rows; want 5", n)
	}
	var machine, agent, session, action string
	if err := d.c.QueryRow(ctx, "SELECT machine, agent, session, action FROM agentpolicy.verdicts ORDER BY id LIMIT 1").
		Scan(&machine, &agent, &session, &action); err != nil {
		t.Fatal(err)
	}
	if machine != "m1" || agent != "claude-code" || session != "s1" || action != "defer" {
		t.Errorf("row = %s %s %s %s; want m1 claude-code s1 defer", machine, agent, session, action)
	}
}

func TestRecordKeepsArgsUpToTheBound(t *testing.T) {
	ctx := context.Background()
	d := openFresh(t, Options{ArgsBound: 100})
	v := deferral("s", "c", strings.Repeat("x", 1000))
	if err := d.Record(ctx, v); err != nil {
		t.Fatal(err)
	}
	var args string
	var n int
	var sum string
	if err := d.c.QueryRow(ctx, "SELECT args, args_bytes, args_sha256 FROM agentpolicy.verdicts").Scan(&args, &n, &sum); err != nil {
		t.Fatal(err)
	}
	if want := v.CutArgs(100); args != want.Args || n != len(v.Args) || sum != want.ArgsSHA256 {
		t.Errorf("row keeps %d bytes, %d, %s; want %d bytes, %d, %s", len(args), n, sum, len(want.Args), len(v.Args), want.ArgsSHA256)
	}
}

func TestConcurrentApprovalsOneWinsTheOtherIsTold(t *testing.T) {
	ctx := context.Background()
	d := openFresh(t, Options{Project: "git@example.com:team/app.git", Pool: true})
	for range 2 {
		if err := d.Enqueue(ctx, deferral("s", "c1", "npm publish"), "Bash(npm publish)"); err != nil {
			t.Fatal(err)
		}
	}
	calls, err := d.List(ctx, false)
	if err != nil || len(calls) != 1 {
		t.Fatalf("List = %v, %v; want the call queued once", calls, err)
	}
	q := calls[0]
	if q.Suggested != "Bash(npm publish)" || q.Project != "git@example.com:team/app.git" || q.Verdict.Tool != "Bash" {
		t.Fatalf("queued = %+v", q)
	}
	scope := Scope{Kind: "project", Name: q.Project}
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			if i%2 == 0 {
				errs[i] = d.Approve(ctx, q.ID, Approval{Rule: q.Suggested, Scope: scope, By: fmt.Sprintf("reviewer%d", i)})
			} else {
				errs[i] = d.Deny(ctx, q.ID, fmt.Sprintf("reviewer%d", i), "not on a Friday")
			}
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrAnswered) || !strings.Contains(err.Error(), "by reviewer"):
			t.Errorf("reviewer %d: %v; want ErrAnswered naming who answered", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d answers won; want 1", won)
	}
	q, err = d.Show(ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	grants, _ := d.Grants(ctx, "s", "c9")
	if approved := q.State == "approved"; approved != (len(grants) == 1) || q.State == "waiting" {
		t.Errorf("state %s with %d grants; want one grant exactly when approved", q.State, len(grants))
	}
	if _, err := d.Show(ctx, 999); !errors.Is(err, ErrNoCall) {
		t.Errorf("Show(999) = %v; want ErrNoCall", err)
	}
}

func TestOnceGrantAllowsOneCallAndItsRetry(t *testing.T) {
	ctx := context.Background()
	d := openFresh(t, Options{User: "ana"})
	if err := d.Enqueue(ctx, deferral("s", "c1", "make deploy"), "Bash(make deploy)"); err != nil {
		t.Fatal(err)
	}
	if err := d.Approve(ctx, 1, Approval{Rule: "Bash(make deploy)", Once: true, Scope: Scope{"user", "ana"}, By: "bo"}); err != nil {
		t.Fatal(err)
	}
	grants, err := d.Grants(ctx, "s", "c9")
	if err != nil || len(grants) != 1 || !grants[0].Once {
		t.Fatalf("Grants = %+v, %v; want the once grant", grants, err)
	}
	always, once, err := RuleSets(grants)
	if err != nil || len(always.Allow) != 0 || len(once.Allow) != 1 || once.Allow[0].String() != "Bash(make deploy)" {
		t.Fatalf("RuleSets = %+v, %+v, %v", always, once, err)
	}
	if err := d.UseOnce(ctx, "Bash(make deploy)", "s", "c2"); err != nil {
		t.Fatalf("the first use: %v", err)
	}
	if err := d.UseOnce(ctx, "Bash(make deploy)", "s", "c2"); err != nil {
		t.Errorf("the retry of the call that used it: %v", err)
	}
	if err := d.UseOnce(ctx, "Bash(make deploy)", "s", "c3"); !errors.Is(err, ErrUsed) {
		t.Errorf("another call: %v; want ErrUsed", err)
	}
	if grants, _ := d.Grants(ctx, "s", "c9"); len(grants) != 0 {
		t.Errorf("Grants after the use = %+v; want none", grants)
	}
	if grants, _ := d.Grants(ctx, "s", "c2"); len(grants) != 1 {
		t.Errorf("Grants for the call that used it = %+v; want it, for the call's retry", grants)
	}
	// Another user's host reads none of ana's grants.
	d.opts.User = "bo"
	if err := d.AddGrant(ctx, Scope{"user", "ana"}, "Bash(ls)", "ana"); err != nil {
		t.Fatal(err)
	}
	if grants, _ := d.Grants(ctx, "s", "c9"); len(grants) != 0 {
		t.Errorf("bo's grants = %+v; want none of ana's", grants)
	}
}

func TestWatchHearsAnApprovalWithoutPolling(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := freshURL(t)
	d, err := Open(ctx, url, Options{Migrate: true, Team: "core"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	heard := make(chan string, 4)
	go Watch(ctx, url, func(scope string) { heard <- scope })
	if got := <-heard; got != "" {
		t.Fatalf("first notice %q; want the one Watch gives once it listens", got)
	}
	if err := d.AddGrant(ctx, Scope{"team", "core"}, "Bash(make test)", "ana"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-heard:
		if got != "team:core" {
			t.Errorf("heard %q; want team:core", got)
		}
	case <-ctx.Done():
		t.Fatal("no notice of the grant")
	}
}
