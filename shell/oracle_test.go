package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy"
)

// oracleInput is one command for the oracle and where it came from.
type oracleInput struct {
	source, command string
}

// TestOracle holds the splitter to bash itself: it runs every command that
// the splitter would let run unasked in real bash, in a sandbox where every
// program is a recorder (oracle_sandbox_test.go), and fails on any program
// that ran or file that changed that the subjects do not name
// (oracle_check_test.go). With -short it runs a sample of the generated
// commands. ORACLE_FINDINGS=FILE writes every disagreement to FILE;
// ORACLE_SEED and ORACLE_GENERATED set the generator's seed and how many
// commands it makes, to explore beyond the fixed set.
func TestOracle(t *testing.T) {
	start := time.Now()
	layout := layOracle(t)
	inputs := oracleInputs(t, testing.Short())
	split := Subjects(WithWriteTool("write", "path"), WithReadTool("read", "path"))

	type job struct {
		in       oracleInput
		subjects []agentpolicy.Subject
	}
	var jobs []job
	var found []disagreement
	counts := map[string]int{}
	for _, in := range inputs {
		subjects, panicked, err := splitSafely(split, in.command)
		switch {
		case panicked != nil:
			found = append(found, disagreement{in.source, in.command, &oracleResult{}, nil,
				[]string{fmt.Sprintf("the splitter panicked: %v", panicked)}})
		case err != nil:
			counts["blocked"]++
		case !checkable(subjects):
			counts["asked"]++
		default:
			jobs = append(jobs, job{in, subjects})
		}
	}

	workers := min(runtime.GOMAXPROCS(0), 2)
	queue := make(chan job)
	var mu sync.Mutex
	var failure error
	var cpu time.Duration
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			box, err := startSandbox(layout)
			if err != nil {
				mu.Lock()
				failure = err
				mu.Unlock()
				for range queue {
				}
				return
			}
			defer box.close()
			for j := range queue {
				res, err := box.run(j.in.command)
				mu.Lock()
				if err != nil {
					failure = fmt.Errorf("running %q: %w", j.in.command, err)
					mu.Unlock()
					for range queue {
					}
					return
				}
				counts["ran"]++
				cpu += res.CPU
				if res.TimedOut {
					counts["timed out"]++
				}
				if problems := checkResult(j.in.command, j.subjects, res); len(problems) > 0 {
					found = append(found, disagreement{j.in.source, j.in.command, res, j.subjects, problems})
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	if failure != nil {
		t.Fatalf("the bash oracle's sandbox: %v", failure)
	}

	sort.Slice(found, func(i, j int) bool { return found[i].command < found[j].command })
	bySource := map[string]int{}
	for _, in := range inputs {
		bySource[strings.SplitN(in.source, "/", 2)[0]]++
	}
	t.Logf("bash oracle: %d commands (%v); %d ran in %d sandboxes, %d asked, %d blocked, %d timed out; %d disagreements; "+
		"%s, of which the commands' programs used %s of processor time",
		len(inputs), bySource, counts["ran"], workers, counts["asked"], counts["blocked"], counts["timed out"], len(found),
		time.Since(start).Round(time.Millisecond), cpu.Round(time.Millisecond))
	if path := os.Getenv("ORACLE_FINDINGS"); path != "" {
		var b strings.Builder
		for _, d := range found {
			b.WriteString(d.String())
			b.WriteString("\n")
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	for i, d := range found {
		if i == 40 {
			t.Errorf("… and %d more disagreements (ORACLE_FINDINGS=FILE writes them all)", len(found)-i)
			break
		}
		t.Errorf("bash and the splitter disagree:\n%s", d)
	}
}

// splitSafely splits command, and returns what a panic of the splitter
// carried rather than ending the test.
func splitSafely(split agentpolicy.Subjects, command string) (subjects []agentpolicy.Subject, panicked any, err error) {
	defer func() { panicked = recover() }()
	subjects, err = split(commandArgs(command))
	return subjects, nil, err
}

// oracleGenerated is how many generated commands the oracle runs, in
// full and with -short.
const (
	oracleGenerated      = 2000
	oracleGeneratedShort = 300
)

// oracleInputs are the commands the oracle runs, each once: the class
// tables, the splitter's own tables and fuzz corpus, and the generator's.
func oracleInputs(t *testing.T, short bool) []oracleInput {
	var inputs []oracleInput
	add := func(source, command string) { inputs = append(inputs, oracleInput{source, command}) }
	for _, c := range oracleClasses {
		add("class/"+c.class, c.attack)
		add("class/"+c.class+"/twin", c.twin)
	}
	for _, c := range redTeamBash {
		add("redteam/"+c.class, c.attack)
		add("redteam/"+c.class+"/twin", c.twin)
	}
	for _, c := range redTeamRuns {
		add("redteam/runs", c)
	}
	for _, c := range redTeamState {
		add("redteam/"+c.class, c.attack)
		add("redteam/"+c.class+"/twin", c.twin)
	}
	for _, table := range [][]splitCase{splitCases, cwdCases, gitCases, optionCases, readerCases, awkCases, literalCases, unreadCases, namedCases} {
		for _, c := range table {
			add("table/"+c.class, c.command)
		}
	}
	for _, t := range []struct {
		name  string
		cases []pwnedCase
	}{{"arith", arithCases}, {"dialect", dialectCases}, {"quote", quoteCases}, {"stdin", stdinCases}} {
		for _, c := range t.cases {
			add("table/"+t.name, c.command)
		}
	}
	for _, c := range continuationCases {
		add("table/continuation", c.command)
	}
	for _, c := range readOnlyCases {
		add("table/readonly", c.command)
	}
	for _, c := range pathCases {
		add("table/path", "echo x > "+c.target)
	}
	for _, c := range classPairs {
		add("table/"+c.class, c.harmless)
		for _, d := range c.dangerous {
			add("table/"+c.class, d)
		}
	}
	for _, script := range sedScripts {
		add("table/sed", "sed -n "+shellQuote(script)+" a.txt")
	}
	corpus, err := filepath.Glob("testdata/fuzz/FuzzSubjects/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range corpus {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, arg, _ := strings.Cut(string(data), "\nstring(")
		command, err := strconv.Unquote(strings.TrimSuffix(strings.TrimSpace(arg), ")"))
		if err != nil {
			t.Fatalf("reading the fuzz input %s: %v", path, err)
		}
		add("corpus", command)
	}
	// Each command of the tables again with a backslash-newline somewhere,
	// which bash deletes before it reads anything else.
	seed := uint64(22)
	if v := os.Getenv("ORACLE_SEED"); v != "" {
		seed, err = strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("ORACLE_SEED: %v", err)
		}
	}
	g := newOracleGenerator(seed)
	tables := inputs
	for _, in := range tables {
		add("continued/"+in.source, g.continuations(in.command))
	}
	n := oracleGenerated
	if short {
		n = oracleGeneratedShort
	}
	if v := os.Getenv("ORACLE_GENERATED"); v != "" {
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatalf("ORACLE_GENERATED: %v", err)
		}
	}
	for range n {
		add("generated", g.command())
	}
	for range n / 4 {
		add("options", g.wrapperOptions())
	}

	seen := map[string]bool{}
	unique := inputs[:0]
	for _, in := range inputs {
		if !seen[in.command] {
			seen[in.command] = true
			unique = append(unique, in)
		}
	}
	return unique
}
