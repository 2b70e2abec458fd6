package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	journalpkg "github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agentpolicy/pgjournal"
	"github.com/ChristopherDavenport/agentpolicy/pgjournal/pgtest"
	"github.com/jackc/pgx/v5"
)

// fleetRig is a built hook, a project with a --policy file, and a
// throwaway PostgreSQL cluster once a test asks for a database.
type fleetRig struct {
	t       *testing.T
	bin     string
	dir     string // the project, also the user and managed directories
	policy  string
	cluster *pgtest.Cluster
	dbs     int
}

func newFleetRig(t *testing.T) *fleetRig {
	t.Helper()
	r := &fleetRig{t: t, bin: buildBinary(t), dir: t.TempDir()}
	r.policy = filepath.Join(r.dir, "team.json")
	if err := os.WriteFile(r.policy, []byte(`{"permissions":{"allow":["Bash(ls:*)"],"deny":["Bash(rm:*)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// db is the URL of a new database, migrated unless bare, on the rig's
// cluster, started at the first.
func (r *fleetRig) db(bare bool) string {
	if r.cluster == nil {
		r.cluster = pgtest.Start(r.t)
	}
	r.dbs++
	url := r.cluster.CreateDB(r.t, fmt.Sprintf("hook%d", r.dbs))
	if !bare {
		if _, err := pgjournal.Migrate(context.Background(), url, pgjournal.Options{}); err != nil {
			r.t.Fatal(err)
		}
	}
	return url
}

// event is a PreToolUse event of a Bash call in the rig's project.
func (r *fleetRig) event(session, callID, command string) []byte {
	// As Claude Code sends it: < and > as they are, not as \u003c.
	ev, _ := marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": session, "tool_use_id": callID,
		"cwd": r.dir, "tool_name": "Bash", "tool_input": map[string]string{"command": command}})
	return ev
}

// hookAnswer is what a hook process answered.
type hookRun struct {
	decision, reason, stderr string
	code                     int
	took                     time.Duration
}

// hook runs the built hook on the event with the flags.
func (r *fleetRig) hook(event []byte, flags ...string) hookRun {
	args := append([]string{"hook", "--user-dir", r.dir, "--managed-dir", r.dir, "--allow", "--policy", r.policy,
		"--project-name", "app", "--team", "core"}, flags...)
	cmd := exec.Command(r.bin, args...)
	cmd.Stdin = bytes.NewReader(event)
	cmd.Env = append(os.Environ(), "AGENTPOLICY_JOURNAL=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	run := hookRun{took: time.Since(start), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
	if err != nil && run.code <= 0 {
		r.t.Fatalf("hook: %v", err)
	}
	var a struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			r.t.Fatalf("hook printed %q: %v", out.String(), err)
		}
	}
	run.decision, run.reason = a.HookSpecificOutput.PermissionDecision, a.HookSpecificOutput.PermissionDecisionReason
	return run
}

// rows counts the rows of a table, or of the query's result.
func rows(t *testing.T, url, query string) int {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// percentile is the p-th percentile of the durations.
func percentile(d []time.Duration, p int) time.Duration {
	slices.Sort(d)
	return d[(len(d)-1)*p/100]
}

// TestHookDBLoad runs 8 hook processes at a time, 100 calls each (500
// with AGENTPOLICY_LOAD_CALLS=500, as the README's figures were
// measured), against one database and against one file journal: every
// decision has exactly one record, and the figures are logged beside
// each other.
func TestHookDBLoad(t *testing.T) {
	r := newFleetRig(t)
	url := r.db(false)
	file := filepath.Join(r.dir, "journal.jsonl")
	const workers = 8
	calls := 100
	if n, err := strconv.Atoi(os.Getenv("AGENTPOLICY_LOAD_CALLS")); err == nil && n > 0 {
		calls = n
	}
	for _, journal := range []string{url, file} {
		var mu sync.Mutex
		var took []time.Duration
		var wg sync.WaitGroup
		start := time.Now()
		for w := range workers {
			wg.Go(func() {
				for i := range calls {
					run := r.hook(r.event(fmt.Sprintf("session-%d", w), fmt.Sprintf("toolu_%d", i), "ls -la"), "--journal", journal)
					if run.decision != "allow" {
						t.Errorf("call %d/%d: %+v; want allow", w, i, run)
						return
					}
					mu.Lock()
					took = append(took, run.took)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		kind := "file"
		if journal == url {
			kind = "postgres"
			if n := rows(t, url, "SELECT count(*) FROM agentpolicy.verdicts"); n != workers*calls {
				t.Errorf("%d records; want %d", n, workers*calls)
			}
			if n := rows(t, url, "SELECT count(DISTINCT (session, call_id)) FROM agentpolicy.verdicts"); n != workers*calls {
				t.Errorf("%d distinct calls recorded; want %d", n, workers*calls)
			}
		} else {
			records, err := journalpkg.ReadFile(file)
			if err != nil || len(records) != workers*calls {
				t.Errorf("the file journal holds %d records, %v; want %d and no error", len(records), err, workers*calls)
			}
		}
		t.Logf("%s journal: %d hook processes, %d at a time: %.0f calls/s, p50 %v, p99 %v", kind, len(took), workers,
			float64(len(took))/elapsed.Seconds(), percentile(took, 50).Round(time.Millisecond/10), percentile(took, 99).Round(time.Millisecond/10))
	}
}

// TestHookDBFaults stops the database while hooks run: every call in the
// gap is denied with a reason naming the database, no call is allowed
// without its record, and calls go on once it is back.
func TestHookDBFaults(t *testing.T) {
	r := newFleetRig(t)
	url := r.db(false)
	name := strings.TrimSuffix(url[strings.Index(url, "@")+1:], "?sslmode=disable")
	type answer struct {
		call string
		run  hookRun
		at   time.Time
	}
	var mu sync.Mutex
	var answers []answer
	done := make(chan struct{})
	var wg sync.WaitGroup
	begin := time.Now()
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				call := fmt.Sprintf("toolu_%d_%d", w, i)
				run := r.hook(r.event("faults", call, "ls"), "--journal", url)
				mu.Lock()
				answers = append(answers, answer{call, run, time.Now()})
				mu.Unlock()
			}
		})
	}
	time.Sleep(time.Second)
	if err := r.cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	time.Sleep(time.Second)
	if err := r.cluster.Start(); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	time.Sleep(time.Second)
	close(done)
	wg.Wait()

	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var allowed, denied, after int
	for _, a := range answers {
		var n int
		if err := c.QueryRow(ctx, "SELECT count(*) FROM agentpolicy.verdicts WHERE session = 'faults' AND call_id = $1", a.call).Scan(&n); err != nil {
			t.Fatal(err)
		}
		switch a.run.decision {
		case "allow":
			allowed++
			if n != 1 {
				t.Errorf("call %s was allowed with %d records; want 1", a.call, n)
			}
			if a.at.After(started) {
				after++
			}
		case "deny":
			denied++
			if !strings.Contains(a.run.reason, "database") || !strings.Contains(a.run.reason, name) {
				t.Errorf("call %s denied with %q; want the reason to name the database %s", a.call, a.run.reason, name)
			}
		default:
			t.Errorf("call %s: %+v; want allow, or deny while the database is down", a.call, a.run)
		}
		if a.run.took > 4*time.Second {
			t.Errorf("call %s took %v; want an answer within the 2 s bound", a.call, a.run.took)
		}
	}
	if denied == 0 || after == 0 {
		t.Errorf("%d calls allowed (%d after the restart), %d denied; want denials in the gap and allows after it", allowed, after, denied)
	}
	t.Logf("database stopped %v after the start for %v: %d calls allowed, each with one record (%d after the restart), %d denied naming the database",
		stopped.Sub(begin).Round(time.Millisecond), started.Sub(stopped).Round(time.Millisecond), allowed, after, denied)
}

// A hook killed after its record committed and before it answered (here
// by a closed standard output, whose write kills it with SIGPIPE) is run
// again by its host: the retry answers and writes no second record.
func TestHookDBRetryAfterKillWritesOneRecord(t *testing.T) {
	r := newFleetRig(t)
	url := r.db(false)
	ev := r.event("retry", "toolu_1", "ls")
	cmd := exec.Command(r.bin, "hook", "--user-dir", r.dir, "--managed-dir", r.dir, "--allow", "--policy", r.policy, "--journal", url)
	cmd.Stdin = bytes.NewReader(ev)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = pw
	pr.Close()
	err = cmd.Run()
	pw.Close()
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Fatalf("the hook with no reader: %v; want it killed as it answered", err)
	}
	if n := rows(t, url, "SELECT count(*) FROM agentpolicy.verdicts"); n != 1 {
		t.Fatalf("%d records after the killed hook; want its 1", n)
	}
	if run := r.hook(ev, "--journal", url); run.decision != "allow" {
		t.Fatalf("the retry: %+v; want allow", run)
	}
	if n := rows(t, url, "SELECT count(*) FROM agentpolicy.verdicts"); n != 1 {
		t.Errorf("%d records after the retry; want 1", n)
	}
}

// A database the hook cannot use for want of the right input, a wrong
// password, no schema, a newer schema, fails the hook with exit 2 and a
// line that says why, and writes nothing; its harmless twin, the right
// database, answers.
func TestHookDBBadInput(t *testing.T) {
	r := newFleetRig(t)
	good := r.db(false)
	bare := r.db(true)
	newer := r.db(false)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "INSERT INTO agentpolicy.schema_version (version) VALUES ($1)", pgjournal.SchemaVersion+1); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	wrong := strings.Replace(good, pgtest.Password, "wrong-password", 1)
	for _, tc := range []struct{ name, url, says string }{
		{"wrong password", wrong, "password authentication failed"},
		{"no schema", bare, "no agentpolicy schema: run agentpolicy db migrate"},
		{"newer schema", newer, "newer than this agentpolicy"},
	} {
		for _, flag := range []string{"--journal", "--unattended"} {
			run := r.hook(r.event("bad", "toolu_1", "ls"), flag, tc.url)
			if run.code != 2 || !strings.Contains(run.stderr, tc.says) || run.decision != "" {
				t.Errorf("%s %s: exit %d, %q, %q; want exit 2 saying %q", tc.name, flag, run.code, run.stderr, run.decision, tc.says)
			}
			if strings.Contains(run.stderr, "wrong-password") {
				t.Errorf("%s: the error shows the password: %s", tc.name, run.stderr)
			}
		}
	}
	if n := rows(t, good, "SELECT count(*) FROM agentpolicy.verdicts"); n != 0 {
		t.Errorf("%d records in the good database; want none", n)
	}
	if n := rows(t, bare, "SELECT count(*) FROM pg_namespace WHERE nspname = 'agentpolicy'"); n != 0 {
		t.Errorf("the hook created the schema in a bare database")
	}
	if n := rows(t, newer, "SELECT count(*) FROM agentpolicy.verdicts"); n != 0 {
		t.Errorf("%d records in the newer schema; want none", n)
	}
	if run := r.hook(r.event("good", "toolu_1", "ls"), "--journal", good); run.code != 0 || run.decision != "allow" {
		t.Errorf("the good database: %+v; want allow", run)
	}
}

// A call the policy asks about is queued by the unattended hook; a
// reviewer approves it once from the command line, and the next such call
// runs, once; approved always, it runs every time; a denied call's twin
// stays queued and denied.
func TestHookDBQueueApproveRunsTheNextCall(t *testing.T) {
	r := newFleetRig(t)
	url := r.db(false)
	queued := func(call, command string) {
		t.Helper()
		run := r.hook(r.event("s", call, command), "--journal", url, "--unattended", url)
		if run.decision != "deny" || !strings.Contains(run.reason, "queued for a person to review") || strings.Contains(run.reason, pgtest.Password) {
			t.Fatalf("%s: %+v; want a queued deny, no password shown", command, run)
		}
	}
	allowed := func(call, command string) {
		t.Helper()
		if run := r.hook(r.event("s", call, command), "--journal", url, "--unattended", url); run.decision != "allow" {
			t.Fatalf("%s: %+v; want allow", command, run)
		}
	}
	queued("toolu_1", "make deploy")
	queued("toolu_2", "npm publish")
	out, stderr, code := cli(t, "queue", "list", url)
	if code != 0 || !strings.Contains(out, "make deploy") || !strings.Contains(out, "npm publish") {
		t.Fatalf("queue list: %d %s %s", code, out, stderr)
	}
	out, stderr, code = cli(t, "queue", "show", url, "1")
	if code != 0 || !strings.Contains(out, "always allow:  Bash(make deploy)") || !strings.Contains(out, "project:       app") {
		t.Fatalf("queue show: %d %s %s", code, out, stderr)
	}
	if out, stderr, code = cli(t, "queue", "approve", "--once", url, "1"); code != 0 {
		t.Fatalf("queue approve --once: %d %s %s", code, out, stderr)
	}
	if _, stderr, code = cli(t, "queue", "deny", "--reason", "no", url, "1"); code != 2 || !strings.Contains(stderr, "answered already") {
		t.Fatalf("a second answer: %d %s; want it told the call was answered", code, stderr)
	}
	allowed("toolu_3", "make deploy")
	allowed("toolu_3", "make deploy") // the retry of the call that used it
	queued("toolu_4", "make deploy")  // once, not twice
	if _, stderr, code = cli(t, "queue", "approve", "--scope", "team", url, "2"); code != 0 {
		t.Fatalf("queue approve: %s", stderr)
	}
	allowed("toolu_5", "npm publish")
	allowed("toolu_6", "npm publish")
	queued("toolu_7", "npm publish --tag beta") // the twin no grant names
	if _, stderr, code = cli(t, "queue", "approve", "--rule", "Bash(!rm)", url, "3"); code != 2 || !strings.Contains(stderr, "carve-out") {
		t.Errorf("approving with a carve-out: %d %s; want it refused", code, stderr)
	}
}

// hook install writes a database URL as it is, not as a path made
// absolute, and the flags that name the grants; a file beside it is
// still made absolute.
func TestHookInstallWritesADatabaseURLAsItIs(t *testing.T) {
	h := hookFlags{journal: "postgres://agentpolicy@db.internal/agentpolicy", unattended: "queue.jsonl",
		fleet: fleetFlags{team: "core team", projectName: "app"}}
	got, err := h.command("agentpolicy hook", settingsFlags{})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("queue.jsonl")
	want := "agentpolicy hook --journal postgres://agentpolicy@db.internal/agentpolicy --unattended " + shellQuote(abs) +
		" --team 'core team' --project-name app"
	if got != want {
		t.Errorf("command =\n%s\nwant\n%s", got, want)
	}
}

// A database that takes the connection and never answers, as one behind
// a dead network path looks, is given up on within the 2 s bound: the
// call is denied with a reason naming it.
func TestHookDBSilentDatabaseIsDeniedWithinTheBound(t *testing.T) {
	r := newFleetRig(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	url := "postgres://agentpolicy:pw@" + ln.Addr().String() + "/fleet?sslmode=disable"
	run := r.hook(r.event("silent", "toolu_1", "ls"), "--journal", url)
	if run.decision != "deny" || !strings.Contains(run.reason, "postgres://"+ln.Addr().String()+"/fleet") || strings.Contains(run.reason, ":pw@") {
		t.Errorf("%+v; want a deny naming the database, without its password", run)
	}
	if run.took < 2*time.Second || run.took > 4*time.Second {
		t.Errorf("the hook answered after %v; want the 2 s bound", run.took)
	}
}
