package shell

import (
	"fmt"
	"strings"

	"encoding/json"
	"github.com/ChristopherDavenport/agentpolicy"
	"testing"
)

// readOnlyCases are commands beside a twin: read-only says whether the
// command's subject must carry the read-only member.
var readOnlyCases = []struct {
	command  string
	readOnly bool
}{
	{"ls -la", true},
	{"ls -la --group-directories-first", true},
	{"ls --almost", true}, // an abbreviation of --almost-all
	{"ls --a", false},     // ambiguous: --all, --almost-all, --author
	{"ls --frobnicate", false},
	{"ls $HOME", false},
	{"ls *.go", false},
	{"/tmp/x/ls -la", false},
	{"cat README.md", true},
	{"cat -A README.md", true},
	{"head -n 5 f", true},
	{"head -5 f", true},
	{"tail -f log", true},
	{"grep -rn TODO .", true},
	{"grep -e x -f pats f", true},
	{"wc -l a b", true},
	{"sort -nr f", true},
	{"sort -o out f", false},
	{"sort -no out f", false},
	{"sort --out=out f", false},
	{"sort --compress-program=gzip f", false},
	// uniq's second operand is a file it writes; Claude Code asks for
	// uniq with a file at all, so it is no read-only command here either.
	{"uniq -c f", false},
	{"uniq -c f out", false},
	{"cut -d: -f1 /etc/passwd", true},
	{"tr a-z A-Z", true},
	{"base64 -d f", true},
	{"od -c f", true},
	{"nl f", true},
	{"stat -c %s f", true},
	{"du -sh .", true},
	{"file f", true},
	{"file -C -m magic", false},
	{"diff -u a b", true},
	{"diff -l a b", false},
	{"date +%s", true},
	{"date -s tomorrow", false},
	{"basename a/b", true},
	{"dirname a/b", true},
	{"realpath .", true},
	{"which go", true},
	{"pwd", true},
	{"echo hello", true},
	{"echo $(rm x)", false},
	{"printf '%s\\n' a", true},
	{"printf -v PATH x", false},
	{"true", true},
	{"test -f x", true},
	{"[ -f x ]", true},
	{"rm x", false},
	{"cp a b", false},
	{"timeout 5 ls", true},
	{"find . -name '*.go'", true},
	{"find . -delete", false},
	{"find . -fprint out", false},
	{"sed -n 1p f", true},
	{"sed -i s/a/b/ f", false},
	{"awk '{print $1}' f", true},
	{"awk '{print > \"out\"}' f", false},
	{"rg -n TODO", true},
	{"git status", true},
	{"git status --porcelain", true},
	{"git status -uno", true},          // -u takes its mode joined, as --untracked-files does
	{"git status -uall -M50 -s", true}, // -M is --find-renames
	{"git status -Uno", false},         // -U is no option of status
	{"git log --oneline -5", true},
	{"git log -n 3 --format=%H", true},
	{"git log -n3 --format=%H", true},
	{"git diff --stat HEAD~1", true},
	{"git diff --output=x", false},
	{"git show HEAD:README.md", true},
	{"git branch", true},
	{"git branch -a", true},
	{"git branch new", false},
	{"git branch -D old", false},
	{"git tag -l", true},
	{"git tag v1", false},
	{"git rev-parse --abbrev-ref HEAD", true},
	{"git ls-files -z", true},
	{"git blame -L 1,5 f", true},
	{"git blame -L1,5 f", true},
	{"git remote -v", true},
	{"git remote add o url", false},
	{"git stash list", true},
	{"git stash", false},
	{"git config --get user.name", false},
	{"git config get user.name", true},
	{"git commit -m x", false},
	{"git -c core.pager=x log", false},
	{"git -C sub status", false},
	{"git --git-dir=../x/.git log", false},
	{"git log --frobnicate", false},
	{"rg --pre cat TODO", false},
}

func TestReadOnlyField(t *testing.T) {
	split := Subjects(WithReadOnlyField("read_only"), WithReadTool("read", "path"))
	for _, c := range readOnlyCases {
		subjects, err := split(commandArgs(c.command))
		if err != nil {
			t.Errorf("%q: %v", c.command, err)
			continue
		}
		// The subject of the command that runs last is the one read:
		// the wrapper's own subject comes before the command it runs.
		var got bool
		for _, s := range subjects {
			if s.Tool != "" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(s.Args, &m); err != nil {
				t.Fatalf("%q: args %s: %v", c.command, s.Args, err)
			}
			got = m["read_only"] == true
			if _, ok := m["read_only"]; ok && !got {
				t.Errorf("%q: read_only is %v, want true or absent", c.command, m["read_only"])
			}
		}
		if got != c.readOnly {
			t.Errorf("%q: read-only %v, want %v (%s)", c.command, got, c.readOnly, subjectsText(subjects))
		}
	}
}

func TestReadOnlyFieldShape(t *testing.T) {
	split := Subjects(WithReadOnlyField("read_only"))
	subjects, err := split(commandArgs("ls -la"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(subjects[0].Args), `{"command":"ls -la","read_only":true}`; got != want {
		t.Errorf("args %s, want %s", got, want)
	}
	plain, err := Subjects()(commandArgs("ls -la"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(plain[0].Args), `{"command":"ls -la"}`; got != want {
		t.Errorf("without the option, args %s, want %s", got, want)
	}
}

// subjectsText lists subjects for a failure.
func subjectsText(subjects []agentpolicy.Subject) string {
	var b strings.Builder
	for _, s := range subjects {
		fmt.Fprintf(&b, "\n\t%s %s unseen=%q", s.Tool, s.Args, s.Unseen)
	}
	return b.String()
}
