package journal

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(fifo)
	if err == nil {
		j.Close()
		t.Fatal("Open of a pipe succeeded")
	}
	if want := "agentpolicy/journal: " + fifo + ": not a regular file"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

// fillEnv names the journal the child process of
// TestAWriteCutShortIsEndedByTheNextRecord fills.
const fillEnv = "AGENTPOLICY_JOURNAL_FILL"

// A write the file size limit cuts short leaves a torn line; the next
// record, once the limit is lifted, ends it first, so the record is whole
// on a line of its own and the torn one is reported, not merged into it.
// The limit is the process's, so the writing runs in a child process.
func TestAWriteCutShortIsEndedByTheNextRecord(t *testing.T) {
	if path := os.Getenv(fillEnv); path != "" {
		fillPastTheLimit(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestAWriteCutShortIsEndedByTheNextRecord$")
	cmd.Env = append(os.Environ(), fillEnv+"="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the writing process failed: %v\n%s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	whole := record(verdict("run_1", 0))
	if len(lines) != 4 || lines[0] != whole || lines[1] != whole || !strings.HasPrefix(whole, lines[2]) || lines[3] != record(verdict("run_1", 1)) {
		t.Fatalf("the file holds %q, want two records, the torn third and the next record whole", lines)
	}
	records, err := ReadFile(path)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "line 3:") || len(records) != 2 {
		t.Errorf("ReadFile: %d records, %v; want 2 and ErrCorrupt naming line 3", len(records), err)
	}
}

// fillPastTheLimit writes two and a half records under a file size limit,
// then lifts it and writes one more.
func fillPastTheLimit(t *testing.T, path string) {
	signal.Ignore(syscall.SIGXFSZ)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	j := openOrFail(t, path)
	size := uint64(len(record(verdict("run_1", 0))) + 1)
	cut := lim
	cut.Cur = 2*size + size/2
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &cut); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := j.Record(context.Background(), verdict("run_1", 0)); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Record(context.Background(), verdict("run_1", 0)); err == nil {
		t.Fatal("a record past the file size limit succeeded")
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	if err := j.Record(context.Background(), verdict("run_1", 1)); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}
