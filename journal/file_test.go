package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// verdict is a verdict of call n of run, with a rule and a subject whose
// text needs escaping, so a record's line holds quotes, "&&" and a
// newline that must not split it.
func verdict(run string, n int) agentpolicy.Verdict {
	rules, _ := agentpolicy.ParseRules("bash(git add:*)")
	return agentpolicy.Verdict{
		RunID: run, Turn: 1, CallID: fmt.Sprintf("call_%d", n), Tool: "bash",
		Action: agentturn.Allow, Rule: &rules[0], Reason: "allowed by bash(git add:*)", By: agentpolicy.ByPolicy,
		Subject: "git add \"a b\" && echo 'x\ny'",
	}
}

// record is the line the journal must hold for v, without its newline.
func record(v agentpolicy.Verdict) string {
	_, data := v.Record()
	return string(data)
}

func openOrFail(t testing.TB, path string, opts ...Option) *File {
	t.Helper()
	j, err := Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestFileRecordsOneLinePerVerdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{{"without sync", nil}, {"with sync", []Option{WithSync()}}} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "verdicts.jsonl")
			j := openOrFail(t, path, tc.opts...)
			want := ""
			for n := range 3 {
				v := verdict("run_1", n)
				if err := j.Record(context.Background(), v); err != nil {
					t.Fatal(err)
				}
				want += record(v) + "\n"
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != want {
				t.Errorf("the file holds\n%s\nwant\n%s", data, want)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if perm := info.Mode().Perm(); perm != 0o600 {
				t.Errorf("the journal was created %v, want -rw------- since it names what the agents ran", perm)
			}
		})
	}
}

func TestOpenAppendsToAJournalThatExists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	for n := range 2 {
		j := openOrFail(t, path)
		if err := j.Record(context.Background(), verdict("run_1", n)); err != nil {
			t.Fatal(err)
		}
		j.Close()
	}
	records, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || string(records[0]) != record(verdict("run_1", 0)) || string(records[1]) != record(verdict("run_1", 1)) {
		t.Errorf("records = %s, want both verdicts in order", records)
	}
}

func TestOpenNamesWhyThePathCannotBeOpened(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path string
		is         error
		says       string
	}{
		{"a folder that does not exist", filepath.Join(dir, "missing", "verdicts.jsonl"), fs.ErrNotExist,
			"agentpolicy/journal: cannot open the journal: open " + filepath.Join(dir, "missing", "verdicts.jsonl") + ": no such file or directory"},
		{"a folder", dir, nil, "agentpolicy/journal: cannot open the journal: open " + dir + ": is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Open(tc.path)
			if err == nil {
				j.Close()
				t.Fatalf("Open(%s) succeeded", tc.path)
			}
			if err.Error() != tc.says {
				t.Errorf("error = %q, want %q", err, tc.says)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
		})
	}
}

func TestRecordAfterCloseFails(t *testing.T) {
	j := openOrFail(t, filepath.Join(t.TempDir(), "verdicts.jsonl"))
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Record(context.Background(), verdict("run_1", 0)); !errors.Is(err, ErrClosed) {
		t.Errorf("Record after Close: %v, want ErrClosed", err)
	}
	if err := j.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("Close twice: %v, want ErrClosed", err)
	}
	var none *File
	if err := none.Record(context.Background(), verdict("run_1", 0)); !errors.Is(err, ErrClosed) {
		t.Errorf("Record on a nil *File: %v, want ErrClosed", err)
	}
}

// Eight writers, over two files open on one path as two processes would
// hold them, lose no line and duplicate none, and every line is whole.
func TestConcurrentWritersLoseAndDuplicateNothing(t *testing.T) {
	const writers, each = 8, 500
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	files := []*File{openOrFail(t, path), openOrFail(t, path)}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			j := files[w%len(files)]
			for n := range each {
				if err := j.Record(context.Background(), verdict(fmt.Sprintf("run_%d", w), n)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, j := range files {
		j.Close()
	}
	records, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range records {
		seen[string(r)]++
	}
	for w := range writers {
		for n := range each {
			if c := seen[record(verdict(fmt.Sprintf("run_%d", w), n))]; c != 1 {
				t.Fatalf("writer %d's record %d is in the journal %d times, want once", w, n, c)
			}
		}
	}
	if len(records) != writers*each {
		t.Errorf("the journal holds %d records, want %d", len(records), writers*each)
	}
}

func TestOpenSealsATornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	whole := record(verdict("run_1", 0))
	torn := whole[:len(whole)/2]
	if err := os.WriteFile(path, []byte(whole+"\n"+torn), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); !errors.Is(err, ErrTorn) {
		t.Fatalf("ReadFile before Open: %v, want ErrTorn", err)
	}
	j := openOrFail(t, path)
	next := verdict("run_1", 1)
	if err := j.Record(context.Background(), next); err != nil {
		t.Fatal(err)
	}
	j.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := whole + "\n" + torn + "\n" + record(next) + "\n"; string(data) != want {
		t.Errorf("the file holds\n%s\nwant the torn line ended and the new record on a line of its own:\n%s", data, want)
	}
	records, err := ReadFile(path)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "line 2:") {
		t.Errorf("ReadFile after Open: %v, want ErrCorrupt naming line 2", err)
	}
	if len(records) != 1 || string(records[0]) != whole {
		t.Errorf("records before the torn line = %s, want the whole one", records)
	}
}

func TestReadReportsWhatIsNotAWholeRecord(t *testing.T) {
	a, b := record(verdict("run_1", 0)), record(verdict("run_1", 1))
	for _, tc := range []struct {
		name    string
		text    string
		records int
		is      error
		says    string
	}{
		{"empty", "", 0, nil, ""},
		{"whole", a + "\n" + b + "\n", 2, nil, ""},
		{"a torn last line", a + "\n" + b[:20], 1, ErrTorn,
			"agentpolicy/journal: torn last line: line 2 ends without a newline after 20 bytes"},
		{"a whole object that lost its newline", a + "\n" + b, 1, ErrTorn,
			fmt.Sprintf("agentpolicy/journal: torn last line: line 2 ends without a newline after %d bytes", len(b))},
		{"a torn line in the middle", a + "\n" + b[:20] + "\n" + a + "\n", 1, ErrCorrupt,
			fmt.Sprintf("agentpolicy/journal: line is not a record: line 2: %q", b[:20])},
		{"an empty line", a + "\n\n" + b + "\n", 1, ErrCorrupt,
			`agentpolicy/journal: line is not a record: line 2: ""`},
		{"JSON that is not an object", "[1]\n", 0, ErrCorrupt,
			`agentpolicy/journal: line is not a record: line 1: "[1]"`},
		{"two objects on a line", a + b + "\n", 0, ErrCorrupt, ""},
		{"a long line is quoted short", strings.Repeat("x", 100) + "\n", 0, ErrCorrupt,
			fmt.Sprintf("agentpolicy/journal: line is not a record: line 1: %q", strings.Repeat("x", 40))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			records, err := Read(strings.NewReader(tc.text))
			if len(records) != tc.records {
				t.Errorf("%d records, want %d", len(records), tc.records)
			}
			if tc.is == nil && err != nil || tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error = %v, want %v", err, tc.is)
			}
			if tc.says != "" && err.Error() != tc.says {
				t.Errorf("error = %q, want %q", err, tc.says)
			}
			for i, r := range records {
				if !json.Valid(r) || !bytes.Equal(r, []byte([]string{a, b}[i])) {
					t.Errorf("record %d = %s", i, r)
				}
			}
		})
	}
}

func TestReadFileOfAMissingJournal(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "missing.jsonl"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "agentpolicy/journal: cannot read the journal: ") {
		t.Errorf("error = %v, want one that says the journal cannot be read and wraps fs.ErrNotExist", err)
	}
}
