package claudecode

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// gitRewriteCase is a git command that rewrites files under src/ beside
// its harmless twin, which leaves them alone, both run after setup in a
// repository whose src/ holds a.go. Unknown marks an attack whose
// directory is known only when it runs, which asks under a deny rule too.
type gitRewriteCase struct {
	setup, attack, twin string
	unknown             bool
}

// Setups the cases share: a.go changed and not committed; a stash of
// that change; a patch and a mailbox of the branch other; src/sub a
// submodule.
const (
	dirty     = "echo dirty > src/a.go"
	stashed   = "echo dirty > src/a.go && git stash -q"
	patched   = "git diff main other > x.patch"
	mailbox   = "git format-patch -q -1 other --stdout > x.mbox"
	submodule = "git submodule add -q ../sub src/sub && git commit -qm sub"
)

// gitRewrites are the cases: every subcommand that rewrites the working
// tree, by the pathspecs it names or whole, and the forms that change
// only the index, the refs or nothing.
var gitRewrites = []gitRewriteCase{
	// checkout: a branch, or paths.
	{dirty, "git checkout .", "git checkout", false},
	{dirty, "git checkout -- src/a.go", "git checkout -- README", false},
	{"", "git checkout HEAD~1 -- src", "git checkout HEAD~1 -- README", false},
	{"", "git checkout other -- src", "git checkout other -- README", false},
	{"", "git checkout other src", "git checkout other README", false},
	{dirty, "git checkout -- '*.go'", "git ls-files -- '*.go'", false},
	{"", "git checkout other", "git checkout -b new", false},
	{"", "git checkout -b new other", "git checkout -B new", false},
	{"", "git checkout --detach other", "git checkout --detach", false},
	{"", "git checkout --orphan new other", "git checkout --orphan new", false},
	{dirty, "git checkout -f", "git checkout -m", false},
	// checkout -f restores every file wherever it goes; switch -f only
	// when it goes to another commit.
	{dirty, "git checkout -b new -f", "git switch -c new -f", false},
	{dirty, "git checkout -f --detach", "git switch --detach -f", false},
	{dirty, "cd src && git checkout -- a.go", "cd src && git diff -- a.go", false},
	{dirty, "git -C src checkout -- a.go", "git -C src status", false},
	{"git config alias.co checkout", "git co other", "git commit --allow-empty -qm x", false},
	// switch.
	{"", "git switch other", "git switch -c new", false},
	{"", "git switch -c new other", "git switch -C new", false},
	{"", "git switch --orphan new", "git switch --detach", false},
	{"", "git switch --detach other", "git branch", false},
	{"git checkout -q other && git checkout -q main", "git switch -", "git branch -v", false},
	{"", "git -C src switch other", "git -C src switch -c new", false},
	// restore: the working tree unless --staged alone.
	{dirty, "git restore .", "git restore --staged .", false},
	{dirty, "git restore src/a.go", "git restore --staged src/a.go", false},
	{"", "git restore -s HEAD~1 src", "git restore -s HEAD~1 -S src", false},
	{"", "git restore -s other -SW src", "git restore --source=other --staged src", false},
	{dirty, "git restore -- 'sr*'", "git ls-files -m -- 'sr*'", false},
	// reset: --hard, --keep and --merge; the others move the index.
	{dirty, "git reset --hard", "git reset", false},
	{"", "git reset --hard HEAD~1", "git reset --soft HEAD~1", false},
	{"", "git reset --keep HEAD~1", "git reset -q HEAD~1", false},
	{"", "git reset --merge HEAD~1", "git reset --mixed HEAD~1", false},
	{"", "git reset --ha other", "git reset -N other", false},
	{"mkdir build", "cd build && git reset --hard HEAD~1", "cd build && git reset HEAD~1", false},
	{"", "git -C src reset --hard HEAD~1", "git -C src reset HEAD~1", false},
	{"", "git --work-tree=. reset --hard HEAD~1", "git --work-tree=. status", false},
	{"", `cd "$d" && git reset --hard HEAD~1`, `cd "$d" && git status`, true},
	// GIT_WORK_TREE moves the tree: README is src/README.
	{"", "export GIT_WORK_TREE=src; git checkout -- README", "export GIT_WORK_TREE=src; git status", true},
	{"", "env GIT_WORK_TREE=src git checkout-index -f README", "env GIT_WORK_TREE=src git status", true},
	// stash.
	{dirty, "git stash", "git stash list", false},
	{dirty, "git stash push", "git stash push -- README", false},
	{dirty, "git stash push -- src", "git stash show", false},
	{dirty, "git stash save -- README", "git stash push -- README", false},
	{"echo new > src/u.go", "git stash -u", "git stash list", false},
	{stashed, "git stash pop", "git stash show -p", false},
	{stashed, "git stash apply", "git stash list", false},
	{stashed, "git stash branch nb", "git stash drop", false},
	// merge, pull, rebase, cherry-pick, revert, am, apply.
	{"", "git merge other", "git merge-base main other", false},
	{"", "git merge --ff-only other", "git merge --quit", false},
	{"", "git pull . other", "git fetch . other", false},
	{"", "git pull --rebase . other", "git fetch -q . other", false},
	{"", "git rebase other", "git rebase --quit", false},
	{"", "git cherry-pick other", "git cherry-pick --quit", false},
	{"", "git cherry-pick -n other", "git cherry-pick --quit", false},
	{"", "git revert --no-edit HEAD", "git revert --quit", false},
	{"", "git revert -n HEAD", "git revert --quit", false},
	{"", "git cherry-pick --ff --allow-empty --keep-redundant-commits other", "git cherry-pick --quit", false},
	{"", "git revert --reference --cleanup=strip --no-edit HEAD", "git revert --quit", false},
	{mailbox, "git am x.mbox", "git am --show-current-patch", false},
	{patched, "git apply x.patch", "git apply --stat x.patch", false},
	{patched, "git apply --index x.patch", "git apply --cached x.patch", false},
	// clean.
	{"echo new > src/u.go", "git clean -fdx", "git clean -n", false},
	{"echo new > src/u.go", "git clean -f", "git clean -nd", false},
	{"echo new > src/u.go && mkdir docs && echo new > docs/u", "git clean -fd src", "git clean -fd docs", false},
	// Plumbing: read-tree -u, checkout-index.
	{"", "git read-tree -u -m other", "git read-tree -m other", false},
	{"", "git read-tree --reset -u HEAD~1", "git read-tree HEAD~1", false},
	{"rm src/a.go", "git checkout-index -a -f", "git checkout-index -a --prefix=out/", false},
	{"rm src/a.go", "git checkout-index -f src/a.go", "git checkout-index -f --prefix=out/ src/a.go", false},
	{"", "git checkout-index -a --prefix=src/", "git checkout-index -a --prefix=out/", false},
	// Working trees, submodules, sparse checkouts.
	{"", "git worktree add src/wt other", "git worktree add wt other", false},
	{"git worktree add -q src/wt other", "git worktree remove src/wt", "git worktree list", false},
	{"git worktree add -q src/wt other", "git worktree move src/wt wt2", "git worktree lock src/wt", false},
	{"git worktree add -q wt other", "git worktree move wt src/wt", "git worktree move wt wt2", false},
	{submodule + " && git -C src/sub checkout -q HEAD~1", "git submodule update", "git submodule status", false},
	{submodule, "git submodule deinit -f src/sub", "git submodule summary", false},
	{"", "git sparse-checkout set docs", "git sparse-checkout list", false},
	// mv and rm: not with --cached or a dry run.
	{"", "git mv src/a.go a.go", "git mv -n src/a.go a.go", false},
	{"", "git mv src lib", "git mv -n src lib", false},
	{"", "git mv README src/", "git mv README docs", false},
	{"", "git rm src/a.go", "git rm --cached src/a.go", false},
	{"", "git rm -r src", "git rm -r -n src", false},
	{"", "git rm -r .", "git rm -r --cached .", false},
	// format-patch writes its patches where it runs.
	{"", "cd src && git format-patch -1", "cd src && git format-patch -1 --stdout", false},
	{"", "git -C src format-patch -1", "git format-patch -1 -o out", false},
	// Through a shell string, a wrapper and xargs.
	{dirty, `bash -c "git reset --hard"`, `bash -c "git reset"`, false},
	{dirty, "timeout 5 git stash", "timeout 5 git stash list", false},
	{dirty, "echo src/a.go | xargs git checkout --", "echo src/a.go | xargs echo", false},
	// bisect checks out the commits it tries.
	{"git checkout -q other", "git bisect start other main~1", "git bisect log", false},
}

// TestGitRewritesWorkingTree holds every git command that rewrites files
// under src/ to the Edit rules for src/**: denied under a deny rule
// (asked where the directory is known only when it runs), asked under an
// ask rule; its twin, which leaves src/ alone, is allowed under both.
func TestGitRewritesWorkingTree(t *testing.T) {
	r := &redTeamEngines{t: t, engines: map[string]struct {
		w   *world
		eng *agentpolicy.Engine
	}{}}
	deny := lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./src/**)"}}
	ask := lists{Allow: []string{"Bash"}, Ask: []string{"Edit(./src/**)"}}
	for _, c := range gitRewrites {
		want := map[string]string{"deny": "deny", "ask": "ask"}
		if c.unknown {
			want["deny"] = "ask"
		}
		for name, rules := range map[string]lists{"deny": deny, "ask": ask} {
			if v := r.decide(ModeDefault, rules, c.attack); outcome(v) != want[name] {
				t.Errorf("%s rule: attack %q: %s (%s), want %s", name, c.attack, outcome(v), v.Reason, want[name])
			}
			if v := r.decide(ModeDefault, rules, c.twin); outcome(v) != "allow" {
				t.Errorf("%s rule: twin %q: %s (%s), want allow", name, c.twin, outcome(v), v.Reason)
			}
		}
	}
	t.Logf("%d git commands that rewrite src/, each beside a twin, under a deny and an ask rule", len(gitRewrites))
}

// TestGitRewritesAreReal runs each case's attack and its twin with the
// real git, each in a fresh copy of a throwaway repository, and checks
// that the attack changes or deletes a file under src/ and the twin does
// not: the table says what git does.
func TestGitRewritesAreReal(t *testing.T) {
	base := t.TempDir()
	env := gitEnv(base)
	runIn(t, base, env, `set -e
git init -q -b main sub
echo s1 > sub/f && git -C sub add f && git -C sub commit -qm s1
echo s2 > sub/f && git -C sub commit -qam s2
git init -q -b main r && cd r
mkdir src && echo v1 > src/a.go && echo keep > README && git add . && git commit -qm one
echo v2 > src/a.go && git commit -qam two
git checkout -qb other && echo other > src/a.go && echo b > src/b.go && git add . && git commit -qm other
git checkout -q main`)
	for i, c := range gitRewrites {
		for _, run := range []struct {
			command string
			changes bool
		}{{c.attack, true}, {c.twin, false}} {
			dir := filepath.Join(t.TempDir(), "case")
			// The copy's files are newer than the index says: refreshed,
			// git takes them for what they are.
			runIn(t, "", env, "cp -a "+base+" "+dir+" && git -C "+dir+"/r update-index -q --refresh")
			repo := filepath.Join(dir, "r")
			if c.setup != "" {
				runIn(t, repo, env, "set -e\n"+c.setup)
			}
			before := snapshot(t, filepath.Join(repo, "src"))
			cmd := exec.Command("bash", "-c", run.command)
			cmd.Dir, cmd.Env = repo, env
			out, _ := cmd.CombinedOutput()
			after := snapshot(t, filepath.Join(repo, "src"))
			if changed := before != after; changed != run.changes {
				t.Errorf("case %d %q: changes src/: %v, want %v\n%s", i, run.command, changed, run.changes, out)
			}
		}
	}
}

// gitEnv is an environment in which git reads no configuration of the
// machine's or the user's and needs no terminal.
func gitEnv(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_EDITOR=true", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0",
		// A submodule cloned from a path on this machine.
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=protocol.file.allow", "GIT_CONFIG_VALUE_0=always",
	}
}

// runIn runs a script with bash in dir and fails the test when it fails.
func runIn(t *testing.T, dir string, env []string, script string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// snapshot is every file under dir with its contents, one a line.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b.WriteString(p + "\t" + string(data) + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
