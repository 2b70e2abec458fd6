// Command record runs the conformance cases against the real Claude Code
// and writes what it decided for each to recorded.json.
//
//	go run ./cmd/record                  # every case, into testdata/claudecode/recorded.json
//	go run ./cmd/record -run 'bash-' -o - # the cases whose names match, printed
//	go run ./cmd/record -missing          # the cases the recording lacks
//
// At most two cases run at a time by default: each is a Claude Code
// process of its own.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/cases"
	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/claude"
)

func main() {
	dir := cases.Dir(claude.ModuleDir())
	casesPath := flag.String("cases", filepath.Join(dir, "cases.json"), "the cases file")
	out := flag.String("o", filepath.Join(dir, "recorded.json"), `the recording to write ("-" prints it)`)
	run := flag.String("run", "", "record only the cases whose names match this regular expression, keeping the rest of the recording")
	parallel := flag.Int("parallel", 2, "sessions run at a time")
	size := flag.Int("calls", 12, "the most cases one session runs")
	missing := flag.Bool("missing", false, "record only the cases the recording lacks, keeping the rest")
	flag.Parse()
	if err := record(*casesPath, *out, *run, *missing, *parallel, *size); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func record(casesPath, out, run string, missing bool, parallel, size int) error {
	all, err := cases.Load(casesPath)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(run)
	if err != nil {
		return fmt.Errorf("record: -run: %w", err)
	}
	recorded := map[string]cases.Recorded{}
	if (run != "" || missing) && out != "-" {
		if old, err := cases.LoadRecorded(out); err == nil {
			recorded = old
		}
	}
	var todo []cases.Case
	for _, c := range all {
		if _, done := recorded[c.Name]; re.MatchString(c.Name) && !(missing && done) {
			todo = append(todo, c)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	r := &recorder{out: out, all: all, recorded: recorded}
	r.runAll(ctx, cases.Group(todo, max(size, 1)), max(parallel, 1))
	fmt.Fprintf(os.Stderr, "record: %d cases in %s, %d failed\n", len(todo), time.Since(start).Round(time.Second), r.failed)
	if err := r.write(); err != nil {
		return err
	}
	if r.failed > 0 {
		return fmt.Errorf("record: %d cases could not be recorded", r.failed)
	}
	return nil
}

// recorder gathers the answers of the cases run and writes the recording,
// every few cases as well as at the end, so a long run that is stopped
// keeps what it recorded.
type recorder struct {
	out string
	all []cases.Case

	mu       sync.Mutex
	recorded map[string]cases.Recorded
	done     int
	failed   int
}

// runAll runs the sessions in the file's order, parallel at a time, each
// in a scratch tree of its own.
func (r *recorder) runAll(ctx context.Context, runs [][]cases.Case, parallel int) {
	queue := make(chan []cases.Case)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for c := range queue {
				r.run(ctx, c)
			}
		})
	}
	for _, cs := range runs {
		queue <- cs
	}
	close(queue)
	wg.Wait()
}

func (r *recorder) run(ctx context.Context, cs []cases.Case) {
	root, err := os.MkdirTemp("", "agentpolicy-cc-")
	if err != nil {
		r.fail(len(cs), err)
		return
	}
	defer os.RemoveAll(root)
	began := time.Now()
	recs, err := cases.Run(ctx, root, cs)
	if err != nil {
		r.fail(len(cs), err)
		return
	}
	took := time.Since(began).Round(100 * time.Millisecond)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, c := range cs {
		fmt.Fprintf(os.Stderr, "%-70s %-5s %s\n", c.Name, recs[i].Decision, took)
		r.recorded[c.Name] = recs[i]
	}
	if r.done++; r.done%5 == 0 && r.out != "-" {
		if err := r.writeLocked(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
}

func (r *recorder) fail(n int, err error) {
	fmt.Fprintln(os.Stderr, err)
	r.mu.Lock()
	r.failed += n
	r.mu.Unlock()
}

func (r *recorder) write() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writeLocked()
}

func (r *recorder) writeLocked() error {
	return write(r.out, prune(r.recorded, r.all))
}

// prune drops recordings of cases the file no longer holds.
func prune(recorded map[string]cases.Recorded, all []cases.Case) map[string]cases.Recorded {
	keep := make(map[string]cases.Recorded, len(all))
	for _, c := range all {
		if r, ok := recorded[c.Name]; ok {
			keep[c.Name] = r
		}
	}
	return keep
}

func write(out string, recorded map[string]cases.Recorded) error {
	data, err := json.MarshalIndent(recorded, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if out == "-" {
		_, err := os.Stdout.Write(data)
		return err
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
