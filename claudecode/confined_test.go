package claudecode

import "testing"

// TestBashConfinedGlobs decides a glob confined to the working directory,
// given to a read-only command, as it decides a literal path there (issue
// 29, over-strict): allowed with no rule when no deny or ask rule can
// meet it. A glob that may leave the directory, one a write takes, one a
// command may read as its options, and one a command does not read alike
// for every match still asks.
func TestBashConfinedGlobs(t *testing.T) {
	none := lists{}
	rows := []commandRow{
		{none, "ls *.md", "allow"},
		{none, "ls -la *.md", "allow"},
		{none, "cat *.md", "allow"},
		{none, "head -n 5 src/*.go", "allow"},
		{none, "wc -l src/*.go", "allow"},
		{none, "cat */x", "allow"},
		{lists{Deny: []string{"Read(./.env)"}}, "cat *", "deny"},
		{lists{Deny: []string{"Read(./.env)"}}, "ls *.md", "allow"},
		// It may leave the directory.
		{none, "cat ../*", "ask"},
		{none, "cat /etc/*", "ask"},
		{none, "cat ~/*", "ask"},
		{none, "cat .*", "ask"},
		{none, "cat .?/x", "ask"},
		{none, "cd /tmp && cat *", "ask"},
		{none, `cd "$d" && cat *.md`, "ask"},
		{lists{Allow: []string{"Bash(cd:*)"}}, "cd .. && cat *.md", "ask"},
		{lists{Allow: []string{"Bash(cd:*)"}}, "cd src && cat *.md", "allow"},
		// A write, or a command that is not read-only.
		{none, "echo x > *.md", "ask"},
		{none, "cp *.md docs/", "ask"},
		{lists{Allow: []string{"Bash(cp:*)"}}, "cp *.md docs/", "ask"},
		// A match may be an option of a command whose options read files
		// ("wc --files0-from=x.go"), or be read otherwise than the rest
		// ("uniq a.txt b.txt" writes b.txt).
		{none, "wc -l *.go", "ask"},
		{none, "grep x *.md", "ask"},
		{none, "uniq *.txt", "ask"},
		{none, "find *", "ask"},
		// The other over-strict cases of the issue.
		{none, "sort README.md | uniq -c", "allow"},
		{none, "jq . package.json", "allow"},
		{none, "tar -tf release.tar", "allow"},
		{lists{Allow: []string{"Bash(ln:*)"}}, "ln -s ../README.md docs/README.md", "allow"},
		{lists{Allow: []string{"Bash(git clone:*)"}}, "git clone --depth 1 https://github.com/a/b", "allow"},
		{lists{Allow: []string{"Bash(git clone:*)"}}, "git clone https://github.com/a/b vendor/repo", "allow"},
		{lists{Allow: []string{"Bash"}}, "cd src && cat main.go", "allow"},
	}
	decideCommands(t, "Bash", rows)
}
