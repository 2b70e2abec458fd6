package shell

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"

	"github.com/ChristopherDavenport/agentpolicy"
)

// pathCases are redirect targets, each attack beside a harmless twin: a
// target bash resolves to another file than the one written must be
// unseen, and a plain one must not; a tilde, $PWD and $HOME are resolved
// to the file bash writes ("~/x" is in the home directory).
var pathCases = []struct {
	target string
	unseen bool
}{
	{".claud?/settings.local.json", true}, {".claude/settings.local.json", false},
	{".en?", true}, {".env", false},
	{"sec*/x", true}, {"secret/x", false},
	{"secre[t]/x", true}, {"'secre[t]'/x", false},
	{"[x]", true}, {"x[", false}, {"x[t", false}, {"x]t", false},
	{"@(.env)", true}, {"'@(.env)'", false},
	{".cl{a..a}ude/settings.local.json", true}, {"'.cl{a..a}ude'", false},
	{"~/x", false}, {"'~/x'", false},
	{"~+/x", false}, {"\\~+/x", false},
	{"~-/x", true}, {"\"~-\"/x", false},
	{"~nobody/x", true}, {"r~/x", false},
	{"a=~/x", true}, {"a=\\~/x", false},
	{"$PWD/x", false}, {"'$PWD'/x", false},
	{"${PWD}/x", false}, {"\\${PWD}/x", false},
	{"$(echo .env)", true}, {"'$(echo .env)'", false},
	{"`echo .env`", true}, {"\\`echo.env\\`", false},
	{"$((1))", true}, {"1", false},
	{"\"$HOME\"/x", false}, {"\"HOME\"/x", false},
	{"$'.en\\x76'", false}, {"\".e\"nv", false},
}

// TestPathUnseen checks each redirect target's reason, and holds the
// table to bash: in a directory with the files the attacks aim at, bash
// writes the file the target names as written exactly when the splitter
// says the target is known.
func TestPathUnseen(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("this test runs bash: %v", err)
	}
	split := Subjects(WithWriteTool("write", "path"))
	for _, c := range pathCases {
		t.Run(c.target, func(t *testing.T) {
			subjects, err := split(commandArgs("echo x > " + c.target))
			if err != nil {
				t.Fatal(err)
			}
			if len(subjects) < 2 || subjects[1].Tool != "write" {
				t.Fatalf("subjects %v, want the command and a write", subjects)
			}
			target := subjectWant(t, subjects[1])
			if got := target.unseen != ""; got != c.unseen {
				t.Fatalf("unseen %q, want unseen %v", target.unseen, c.unseen)
			}
			// The home directory the test gives bash is home.
			value := target.value
			if rest, ok := strings.CutPrefix(value, "~/"); ok {
				value = "home/" + rest
			}
			written := bashWrites(t, bash, "shopt -s extglob\necho x > "+c.target, filepath.Dir(value))
			if literal := slices.Equal(written, []string{path.Clean(value)}); literal == c.unseen {
				t.Errorf("bash wrote %q for the target read as %q", written, target.value)
			}
		})
	}
}

// bashWrites runs command in bash in a scratch directory, with HOME,
// PWD and OLDPWD in it, holding .claude/settings.local.json, .env and
// secret/x, and the directory parent, and returns the files that changed,
// relative to the directory.
func bashWrites(t *testing.T, bash, command, parent string) []string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{".claude/settings.local.json", ".env", "secret/x", "home/x", "old/x", "x", filepath.Join(parent, ".keep")} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bash, "-c", "cd old && cd .. && "+command)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + filepath.Join(dir, "home"), "PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("bash: %v: %s", err, out)
	}
	var written []string
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > 0 {
			rel, _ := filepath.Rel(dir, path)
			written = append(written, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return written
}

// TestPathUnseenWords checks the reason for each kind of run-time path.
func TestPathUnseenWords(t *testing.T) {
	for _, c := range []struct{ target, why string }{
		{"$f", "the path $f is known only when it runs"},
		{"~/x", "the path ~/x has a tilde the shell expands when it runs"},
		{"*.go", "the path *.go is a pattern the shell matches against files when it runs"},
		{"a{b,c}", "the path a{b,c} has braces the shell expands"},
		{"a{b}", ""},
		{"{}", ""},
		{"'*.go'", ""},
		{"x/y.txt", ""},
	} {
		f, err := parse("echo > " + c.target)
		if err != nil {
			t.Fatal(err)
		}
		s := splitter{config: &config{field: "command"}, src: "echo > " + c.target}
		w := s.wordOf(f.Stmts[0].Redirs[0].Word)
		if got := pathUnseen(w); got != c.why {
			t.Errorf("%s: %q, want %q", c.target, got, c.why)
		}
	}
}

// TestEndToEndPathUnseen checks that an allow rule for every write does
// not allow a redirect to a glob that names the agent's own settings,
// while a deny rule for the settings still blocks the literal path.
func TestEndToEndPathUnseen(t *testing.T) {
	e := build(t, agentpolicy.Policy{
		Allow:   rules(t, "bash(echo:*) write(*)"),
		Deny:    rules(t, "write(.claude/settings.local.json)"),
		Default: agentpolicy.Allow(),
	})
	checkActions(t, e, []actionCase{
		{"echo x > out.txt", agentturn.Allow},
		{"echo x > .claud?/settings.local.json", agentturn.Defer},
		{"echo x > .cl{a..a}ude/settings.local.json", agentturn.Defer},
		{"echo x > .claude/settings.local.json", agentturn.Block},
	})
}
