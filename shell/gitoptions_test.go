package shell

import (
	"strings"
	"testing"
)

// gitOptionCases hold the options git's subcommands read from their own
// tables (issue 29: one option reader): each attack beside a harmless
// twin, each checked against git 2.39.
var gitOptionCases = []splitCase{
	// -O names the order file the diff family reads, joined, in a
	// cluster or in the next word.
	{"git -O", "git log -O.env", []want{same("git log -O.env"), {tool: "read", value: ".env", text: "-O.env"}}},
	{"git -O", "git log -Oorder.txt", []want{same("git log -Oorder.txt"), {tool: "read", value: "order.txt", text: "-Oorder.txt"}}},
	{"git -O", "git diff -RO .env HEAD", []want{same("git diff -RO .env HEAD"), read(".env"), read("HEAD")}},
	{"git -O", "git diff-tree -pO.env HEAD", []want{same("git diff-tree -pO.env HEAD"), {tool: "read", value: ".env", text: "-pO.env"}, read("HEAD")}},
	{"git -O", "git diff-tree -p HEAD", []want{same("git diff-tree -p HEAD"), read("HEAD")}},
	// rebase's -x in a cluster is its command, decided as shell code;
	// after "--" it is an upstream's name, and runs nothing.
	{"git rebase", "git rebase -ix 'rm -rf d' main", []want{run("git rebase -ix rm -rf d main", "git rebase -ix 'rm -rf d' main"), top("rebase"), same("rm -rf d"), write("d")}},
	{"git rebase", "git rebase -i main", []want{same("git rebase -i main"), top("rebase")}},
	{"git rebase", "git rebase -- --exec=rm", []want{same("git rebase -- --exec=rm"), top("rebase")}},
	// ls-remote reads --exec, which its help hides, as --upload-pack.
	{"git ls-remote", "git ls-remote --exec=./x origin", []want{hidden("git ls-remote --exec=./x origin", "git ls-remote --exec=./x origin", "git ls-remote --exec names a program git runs")}},
	{"git ls-remote", "git ls-remote --heads origin", []want{same("git ls-remote --heads origin")}},
	// An option no subcommand of git has runs nothing: git status
	// refuses --exec.
	{"git status", "git status --exec=./x", []want{same("git status --exec=./x")}},
	// A URL of the ext:: transport after "--" is the repository git
	// reads.
	{"git clone", "git clone -- 'ext::sh -c x'", []want{hidden("git clone -- ext::sh -c x", "git clone -- 'ext::sh -c x'", "a URL of the ext:: or fd:: transport makes git run a command"), {tool: "write", value: "sh -c x", text: "'ext::sh -c x'"}}},
	// clone's options that take a value take it, files among them.
	{"git clone", "git clone --reference .env https://h/r", []want{same("git clone --reference .env https://h/r"), read(".env"), {tool: "write", value: "r", text: "https://h/r"}}},
	{"git clone", "git clone --filter .env https://h/r", []want{same("git clone --filter .env https://h/r"), {tool: "write", value: "r", text: "https://h/r"}}},
	{"git clone", "git clone --separate-git-dir=.git/x https://h/r d", []want{same("git clone --separate-git-dir=.git/x https://h/r d"), {tool: "write", value: ".git/x", text: "--separate-git-dir=.git/x"}, write("d")}},
	{"git clone", "git clone -c user.name=x https://h/r d", []want{same("git clone -c user.name=x https://h/r d"), write("d")}},
	{"git clone", "git clone -ccore.sshCommand=x https://h/r d", []want{hidden("git clone -ccore.sshCommand=x https://h/r d", "git clone -ccore.sshCommand=x https://h/r d", "git clone -c core.sshCommand is not a setting known to run nothing"), write("d")}},
	// An option clone's table does not know asks, every other word a
	// subject.
	{"git clone", "git clone --frob .env", []want{hidden("git clone --frob .env", "git clone --frob .env", "git clone --frob is not an option the splitter knows"), read(".env"), write(".env"), write(".env")}},
	// git config's options come from its table: --file in any
	// abbreviation names the file it reads.
	{"git config", "git config --fil .env user.name", []want{same("git config --fil .env user.name"), read(".env")}},
	{"git config", "git config user.name", []want{same("git config user.name")}},
	{"git config", "git config -O", []want{hidden("git config -O", "git config -O", "git config -O is not an option the splitter knows"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git config", "git config -l", []want{same("git config -l")}},
	// init, apply, am and bundle create read their own tables: a
	// value is no directory or file, an abbreviation is what git reads.
	{"git init", "git init -b main d", []want{same("git init -b main d"), {tool: "write", value: "d/.git", text: "d"}}},
	{"git init", "git init --separate-git-dir .claude/g d", []want{same("git init --separate-git-dir .claude/g d"), write(".claude/g"), {tool: "write", value: "d/.git", text: "d"}}},
	{"git init", "git init d", []want{same("git init d"), {tool: "write", value: "d/.git", text: "d"}}},
	{"git bundle", "git bundle create --version 3 .claude/b HEAD", []want{same("git bundle create --version 3 .claude/b HEAD"), write(".claude/b")}},
	{"git bundle", "git bundle create b.bundle HEAD", []want{same("git bundle create b.bundle HEAD"), write("b.bundle")}},
	{"git apply", "git apply --summ p.diff", []want{same("git apply --summ p.diff"), read("p.diff")}},
	{"git apply", "git apply -p --stat p.diff", []want{hidden("git apply -p --stat p.diff", "git apply -p --stat p.diff", "git apply writes the files its patch names, known only when it runs"), read("p.diff"), top("apply")}},
	{"git apply", "git apply --stat .env", []want{same("git apply --stat .env"), read(".env")}},
	// grep reads --untracked and --no-index in any abbreviation: the
	// files outside the index, every one under the directory.
	{"git grep", "git grep --untr SECRET", []want{same("git grep --untr SECRET"), {tool: "read", value: ".", text: "."}}},
	{"git grep", "git grep SECRET", []want{same("git grep SECRET")}},
}

func TestGitOptions(t *testing.T) {
	checkCases(t, gitOptionCases)
}

// TestGitListingReadOnly holds branch, tag and remote to their tables: a
// listing option's value is no name to create (git branch --sort
// refname lists), and a name after "--" creates one.
func TestGitListingReadOnly(t *testing.T) {
	for _, c := range []struct {
		command  string
		readOnly bool
	}{
		{"branch --sort refname", true},
		{"branch --sort=refname", true},
		{"branch -- x", false},
		{"branch x", false},
		{"tag --li v*", true},
		{"tag --points-at HEAD", true},
		{"tag -- v1", false},
		{"remote -v", true},
		{"remote -- x", false},
	} {
		var args []word
		for _, f := range strings.Fields(c.command) {
			args = append(args, word{value: f, literal: true})
		}
		if got := gitEffects(args).readOnly; got != c.readOnly {
			t.Errorf("git %s: read-only %v, want %v", c.command, got, c.readOnly)
		}
	}
}
