package shell

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestPatternSubjects shows the constraints a split adds for what a
// command reads known only as a pattern: a glob, resolved against the
// directory after a cd it follows; a relative path under a directory it
// cannot follow, as any directory then the path; a tree a recursive
// reader reads, with its exclusions, and the globs its include filters
// select; a tree a recursive writer changes.
func TestPatternSubjects(t *testing.T) {
	split := Subjects(WithReadTool("Read", "p"), WithWriteTool("Edit", "p"),
		WithPatternTool("Read", "Read.glob"), WithPatternTool("Edit", "Edit.glob"), WithTreeTool("Read.tree"), WithWriteTreeTool("Edit.tree"))
	rows := []struct {
		command string
		want    []string
	}{
		{"cat .en?", []string{`Read.glob {"p":".en?"}`}},
		{"cd src && cat .en?", []string{`Read.glob {"p":"src/.en?"}`}},
		{"cat '.en?'", nil},
		{"echo x > *.md", []string{`Edit.glob {"p":"*.md"}`}},
		{`cd "$d" && cat ../id_rsa`, []string{`Read.glob {"p":"/**/id_rsa","match":"anywhere"}`}},
		{`cd "$d" && cat 'a*'`, []string{`Read.glob {"p":"/**/a\\*","match":"anywhere"}`}},
		{`cd "$d" && ls`, nil},
		{"grep -r x", []string{`Read.tree {"p":"."}`}},
		{"grep x .", nil},
		{"rg x src --iglob '!.env' -g '!*.pem'", []string{`Read.tree {"p":"src","exclude":"*.pem","iexclude":".env"}`}},
		{"grep -r --exclude=.env --exclude-dir=.env --exclude=a x src", []string{`Read.tree {"p":"src","exclude":".env"}`}},
		{"grep -r --include='*.go' x src", []string{`Read.tree {"p":"src"}`, `Read.glob {"p":"src/**/*.go","match":"files"}`}},
		{"rg -g 'a/*.go' x", []string{`Read.tree {"p":"."}`}},
		{"find -exec cat {} +", []string{`Read.tree {"p":"."}`}},
		{"find a b -newer c -exec cat {} +", []string{`Read.tree {"p":"a"}`, `Read.tree {"p":"b"}`}},
		{"find a -name x", nil},
		{"tar -czf x.tgz a", []string{`Read.tree {"p":"a"}`}},
		{"tar -tf x.tgz", nil},
		{"cp -R a b", []string{`Read.tree {"p":"a"}`}},
		{"ln -rs a b", nil},
		{"zip -r x.zip a", []string{`Read.tree {"p":"a"}`}},
		{"diff -r a b", []string{`Read.tree {"p":"a"}`, `Read.tree {"p":"b"}`}},
		{"diff a b", nil},
		{"grep -d recurse x a", []string{`Read.tree {"p":"a"}`}},
		{"grep --directories=rec x a", []string{`Read.tree {"p":"a"}`}},
		{"grep -d skip x a", nil},
		{"grep -r x ~", []string{`Read.tree {"p":"~"}`}},
		{"grep -r x ~/.ssh", []string{`Read.tree {"p":"~/.ssh"}`}},
		{"grep -r x $HOME", []string{`Read.tree {"p":"~"}`}},
		{"rg --files src", nil},
		{"git grep --untracked x", []string{`Read.tree {"p":"."}`}},
		{"git grep --no-index x src", []string{`Read.tree {"p":"src"}`}},
		{"git grep x", nil},
		{"rsync -a src host:x", []string{`Read.tree {"p":"src"}`}},
		{"scp -r src host:x", []string{`Read.tree {"p":"src"}`}},
		{"scp src host:x", nil},
		{"git diff --no-index a /tmp/b", []string{`Read.tree {"p":"a"}`, `Read.tree {"p":"/tmp/b"}`}},
		{"rm -rf .", []string{`Edit.tree {"p":"."}`}},
		{"rm -r a b", []string{`Edit.tree {"p":"a"}`, `Edit.tree {"p":"b"}`}},
		{"rm --recursive a", []string{`Edit.tree {"p":"a"}`}},
		{"rm -f a", nil},
		{"chmod -R g+w src", []string{`Edit.tree {"p":"src"}`}},
		{"chown -R me: .", []string{`Edit.tree {"p":"."}`}},
		{"chgrp -R staff src", []string{`Edit.tree {"p":"src"}`}},
		{"chmod --recursive g+w src", []string{`Edit.tree {"p":"src"}`}},
		{"chmod g+w src", nil},
		// git rewriting the files its pathspecs name, each a tree, a
		// glob's the directory it begins with, or the working tree whole,
		// at the top it may have.
		// "." may be a branch too; the revision is a path nothing denies.
		{"git checkout .", []string{`Edit.tree {"p":"."}`, `Edit.tree {"p":"."}`}},
		{"git checkout HEAD~1 -- src docs/a.go", []string{`Edit.tree {"p":"HEAD~1"}`, `Edit.tree {"p":"src"}`, `Edit.tree {"p":"docs/a.go"}`}},
		{"git checkout -- 'src/*.go'", []string{`Edit.glob {"p":"src/*.go"}`, `Edit.tree {"p":"src"}`}},
		{"git restore -- '*.go'", []string{`Edit.glob {"p":"*.go"}`, `Edit.tree {"p":"."}`}},
		{"git restore --staged src", nil},
		{"git rm -r --cached src", nil},
		{"git checkout main", []string{`Edit.tree {"p":"main"}`, `Edit.tree {"p":"."}`}},
		{"git checkout -b new", nil},
		{"git switch main", []string{`Edit.tree {"p":"."}`}},
		{"git switch -c new", nil},
		{"git reset --hard", []string{`Edit.tree {"p":"."}`}},
		{"git reset --soft HEAD~1", nil},
		{"cd build && git reset --hard", []string{`Edit.tree {"p":"build"}`, `Edit.tree {"p":"."}`}},
		{"git -C build merge x", []string{`Edit.tree {"p":"build"}`, `Edit.tree {"p":"."}`}},
		{"git -C a --work-tree=b reset --hard", []string{`Edit.tree {"p":"a/b"}`}},
		{"cd a && git --work-tree=/tmp/b reset --hard", []string{`Edit.tree {"p":"/tmp/b"}`}},
		{"git stash pop", []string{`Edit.tree {"p":"."}`}},
		{"git stash save -- README", []string{`Edit.tree {"p":"README"}`, `Edit.tree {"p":"."}`}},
		{"git stash push -- README", []string{`Edit.tree {"p":"README"}`}},
		{"git stash list", nil},
		{"git clean -fdx", []string{`Edit.tree {"p":"."}`}},
		{"git clean -n", nil},
		{"git worktree move wt src/wt", []string{`Edit.tree {"p":"wt"}`, `Edit.tree {"p":"src/wt"}`}},
		{"git checkout-index -a --prefix=sr", []string{`Edit.tree {"p":"."}`}},
		{"git checkout-index -a --prefix=out/", []string{`Edit.tree {"p":"out/"}`}},
		{"git lfs pull", []string{`Edit.tree {"p":"."}`}},
		{"/usr/lib/git-core/git-reset --hard", []string{`Edit.tree {"p":"."}`}},
		{"git-checkout -- src", []string{`Edit.tree {"p":"src"}`}},
		{"git-reset --soft HEAD~1", nil},
		{"cd build && git-reset --hard", []string{`Edit.tree {"p":"build"}`, `Edit.tree {"p":"."}`}},
		{"git commit -am x", nil},
	}
	// A word made when git runs where an option may stand may be the
	// option that makes it rewrite the tree: it asks, and its twin, the
	// word as a value, does not.
	for _, r := range []struct {
		command string
		unseen  bool
	}{
		{`git reset "$opt"`, true},
		{`git restore --staged "$x" src`, true},
		{`git read-tree -m $flag HEAD`, true},
		{`git reset -q "HEAD~$n"`, true},
		{`git reset --soft HEAD~1`, false},
		{`git switch -c "$branch"`, false},
		{`git checkout -b "$branch"`, false},
		// GIT_WORK_TREE and GIT_DIR move what git writes, as
		// --work-tree does; where it writes nothing they do not matter.
		{`export GIT_WORK_TREE=src; git checkout -- README`, true},
		{`GIT_WORK_TREE=/tmp/x git reset --hard`, true},
		{`env GIT_DIR=../o/.git git checkout-index -a`, true},
		{`GIT_WORK_TREE=src git status`, false},
		{`export GIT_AUTHOR_NAME=x; git checkout -- README`, false},
		{`GIT_WORK_TREE=src git-checkout -- README`, true},
	} {
		subs, err := split(json.RawMessage(`{"command":` + quoteJSON(r.command) + `}`))
		if err != nil {
			t.Fatalf("%q: %v", r.command, err)
		}
		why := ""
		for _, s := range subs {
			why = firstOf(why, s.Unseen)
		}
		if unseen := why != ""; unseen != r.unseen {
			t.Errorf("%q: unseen %q, want unseen %v", r.command, why, r.unseen)
		}
	}
	for _, r := range rows {
		subs, err := split(json.RawMessage(`{"command":` + quoteJSON(r.command) + `}`))
		if err != nil {
			t.Fatalf("%q: %v", r.command, err)
		}
		var got []string
		for _, s := range subs {
			if s.Constrain && (s.Tool == "Read.glob" || s.Tool == "Edit.glob" || s.Tool == "Read.tree" || s.Tool == "Edit.tree") {
				got = append(got, s.Tool+" "+string(s.Args))
			}
		}
		if !slices.Equal(got, r.want) {
			t.Errorf("%q: got %q, want %q", r.command, got, r.want)
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
