// Command record runs the conformance cases against the real Claude Code
// and writes what it decided for each to recorded.json.
//
//	go run ./cmd/record                  # every case, into testdata/claudecode/recorded.json
//	go run ./cmd/record -run 'bash-' -o - # the cases whose names match, printed
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
	parallel := flag.Int("parallel", 2, "cases run at a time")
	flag.Parse()
	if err := record(*casesPath, *out, *run, *parallel); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func record(casesPath, out, run string, parallel int) error {
	all, err := cases.Load(casesPath)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(run)
	if err != nil {
		return fmt.Errorf("record: -run: %w", err)
	}
	recorded := map[string]cases.Recorded{}
	if run != "" && out != "-" {
		if old, err := cases.LoadRecorded(out); err == nil {
			recorded = old
		}
	}
	var todo []cases.Case
	for _, c := range all {
		if re.MatchString(c.Name) {
			todo = append(todo, c)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	results, errs := runAll(ctx, todo, max(parallel, 1))
	for i, c := range todo {
		if errs[i] != nil {
			fmt.Fprintln(os.Stderr, errs[i])
			continue
		}
		recorded[c.Name] = results[i]
	}
	fmt.Fprintf(os.Stderr, "record: %d cases in %s, %d failed\n", len(todo), time.Since(start).Round(time.Second), countErrs(errs))
	if err := write(out, prune(recorded, all)); err != nil {
		return err
	}
	if n := countErrs(errs); n > 0 {
		return fmt.Errorf("record: %d cases could not be recorded", n)
	}
	return nil
}

// runAll runs the cases, parallel at a time, each in a scratch tree.
func runAll(ctx context.Context, todo []cases.Case, parallel int) ([]cases.Recorded, []error) {
	results := make([]cases.Recorded, len(todo))
	errs := make([]error, len(todo))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, c := range todo {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			root, err := os.MkdirTemp("", "agentpolicy-cc-")
			if err != nil {
				errs[i] = err
				return
			}
			defer os.RemoveAll(root)
			began := time.Now()
			results[i], errs[i] = cases.Run(ctx, root, c)
			fmt.Fprintf(os.Stderr, "%-60s %-5s %s\n", c.Name, results[i].Decision, time.Since(began).Round(100*time.Millisecond))
		})
	}
	wg.Wait()
	return results, errs
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
	return os.WriteFile(out, data, 0o644)
}

func countErrs(errs []error) int {
	n := 0
	for _, err := range errs {
		if err != nil {
			n++
		}
	}
	return n
}
