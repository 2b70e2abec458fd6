package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sqliteCases are sqlite3 dot-commands, each with the shell command it
// runs (a harmless one, touch ran) and the file it writes or reads, as
// the real sqlite3 runs them.
var sqliteCases = []struct {
	command, runs, writes, reads string
}{
	{".output |touch ran", "touch ran", "", ""},
	{".output '|touch ran'", "touch ran", "", ""},
	{".once |touch ran", "touch ran", "", ""},
	{".once \"|touch ran\"", "touch ran", "", ""},
	{".once --bom |touch ran", "touch ran", "", ""},
	{".on |touch ran", "touch ran", "", ""},
	{".out |touch ran", "touch ran", "", ""},
	{".read '|touch ran'", "touch ran", "", ""},
	{".import '|touch ran' t", "touch ran", "", ""},
	{".import --csv '|touch ran' t", "touch ran", "", ""},
	{".once -x", "xdg-open", "", ""},
	{".once -e", "xdg-open", "", ""},
	{".excel", "xdg-open", "", ""},
	{".output out.txt", "", "out.txt", ""},
	{".once 'out.txt'", "", "out.txt", ""},
	{".read in.sql", "", "", "in.sql"},
	{".import in.csv t", "", "", "in.csv"},
	{".output stdout", "", "", ""},
}

// TestSqlitePipesAsSqlite runs each of sqliteCases in the real sqlite3,
// in a scratch directory where xdg-open is a script that touches ran,
// and holds the splitter's reading of the command to what it did.
func TestSqlitePipesAsSqlite(t *testing.T) {
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Fatalf("this test runs sqlite3 (.ci/run installs it): %v", err)
	}
	for _, c := range sqliteCases {
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin")
		if err := os.Mkdir(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{"bin/xdg-open": "#!/bin/sh\ntouch ran\n", "in.sql": "select 1;\n", "in.csv": "1\n"}
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(sqlite, ":memory:", "create table t(a);", c.command, "select 1;")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + dir}
		out, _ := cmd.CombinedOutput()
		_, statErr := os.Stat(filepath.Join(dir, "ran"))
		if ran := statErr == nil; ran != (c.runs != "") {
			t.Errorf("%s: sqlite3 ran a command: %v, want %v (%s)", c.command, ran, c.runs != "", out)
		}
		if c.writes != "" {
			if _, err := os.Stat(filepath.Join(dir, c.writes)); err != nil {
				t.Errorf("%s: sqlite3 wrote no %s: %v", c.command, c.writes, err)
			}
		}

		r := sqliteShellCommands(c.command)
		if got := strings.Join(r.scripts, "|"); got != c.runs {
			t.Errorf("%s: read as running %q, want %q", c.command, got, c.runs)
		}
		if got := strings.Join(values(r.writes), "|"); got != c.writes {
			t.Errorf("%s: read as writing %q, want %q", c.command, got, c.writes)
		}
		if got := strings.Join(values(r.reads), "|"); got != c.reads {
			t.Errorf("%s: read as reading %q, want %q", c.command, got, c.reads)
		}
	}
}

// TestDatabaseReach reads psql's and mysql's commands, whose shells need
// a server to run them: what they reach is read from their manuals.
func TestDatabaseReach(t *testing.T) {
	for _, c := range []struct {
		read           func(string) reach
		text           string
		scripts, files []string
	}{
		{psqlShellCommands, `\o |gzip > q.gz`, []string{"gzip > q.gz"}, nil},
		{psqlShellCommands, `\o out.txt`, nil, []string{"out.txt"}},
		{psqlShellCommands, `\o`, nil, nil},
		{psqlShellCommands, `select 1 \g | sort`, []string{" sort"}, nil},
		{psqlShellCommands, `select 1 \gx out.txt`, nil, []string{"out.txt"}},
		{psqlShellCommands, `select 1 \gset`, nil, nil},
		{psqlShellCommands, `\w |lpr`, []string{"lpr"}, nil},
		{psqlShellCommands, `\copy t to program 'gzip > t.gz'`, []string{"gzip > t.gz"}, nil},
		{psqlShellCommands, `copy t from program 'cat ''x''' `, []string{"cat 'x'"}, nil},
		{psqlShellCommands, "\\set d `date`", []string{"date"}, nil},
		{psqlShellCommands, "select '`date`'", nil, nil},
		{mysqlShellCommands, "pager less -S", []string{"less -S"}, nil},
		{mysqlShellCommands, `select 1; \P sort`, []string{" sort"}, nil},
		{mysqlShellCommands, "tee out.txt;", nil, []string{"out.txt"}},
		{mysqlShellCommands, `\T out.txt`, nil, []string{"out.txt"}},
		{mysqlShellCommands, "select 'pager'", nil, nil},
	} {
		r := c.read(c.text)
		if !slices.Equal(r.scripts, c.scripts) || !slices.Equal(values(r.writes), c.files) {
			t.Errorf("%q: runs %q, writes %q; want %q, %q", c.text, r.scripts, values(r.writes), c.scripts, c.files)
		}
	}
}
