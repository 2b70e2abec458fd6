package shell

import "testing"

// gitCases hold git as a program runner, each attack beside a harmless
// twin.
var gitCases = []splitCase{
	{"git", "git -c user.name=x commit -m y", []want{same("git -c user.name=x commit -m y")}},
	{"git", "git -c color.diff.meta=blue log", []want{same("git -c color.diff.meta=blue log")}},
	{"git", "git -c core.fsmonitor=./x status", []want{hidden("git -c core.fsmonitor=./x status", "git -c core.fsmonitor=./x status", "git -c core.fsmonitor is not a setting known to run nothing")}},
	{"git", "git -c core.FSMonitor=./x status", []want{hidden("git -c core.FSMonitor=./x status", "git -c core.FSMonitor=./x status", "git -c core.FSMonitor is not a setting known to run nothing")}},
	{"git", "git -c submodule.x.update='!sh' submodule update", []want{hidden("git -c submodule.x.update=!sh submodule update", "git -c submodule.x.update='!sh' submodule update", "git -c submodule.x.update is not a setting known to run nothing")}},
	{"git", "git -c protocol.ext.allow=always fetch", []want{hidden("git -c protocol.ext.allow=always fetch", "git -c protocol.ext.allow=always fetch", "git -c protocol.ext.allow is not a setting known to run nothing")}},
	{"git", "git -c \"$k\"=1 status", []want{hidden("git -c $k=1 status", "git -c \"$k\"=1 status", "git -c $k is not a setting known to run nothing")}},
	{"git", "git --config-env=user.name=NAME commit", []want{same("git --config-env=user.name=NAME commit")}},
	{"git", "git --exec-path", []want{same("git --exec-path")}},
	{"git", "git --exec-path=./bin status", []want{hidden("git --exec-path=./bin status", "git --exec-path=./bin status", "git --exec-path changes which programs git runs")}},
	{"git", "git --frobnicate status", []want{hidden("git --frobnicate status", "git --frobnicate status", "git --frobnicate is not an option the splitter knows")}},
	{"git", "git config core.fsmonitor ./x", []want{hidden("git config core.fsmonitor ./x", "git config core.fsmonitor ./x", "git config core.fsmonitor is not a setting known to run nothing"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git", "git config --add core.hooksPath h", []want{hidden("git config --add core.hooksPath h", "git config --add core.hooksPath h", "git config core.hooksPath is not a setting known to run nothing"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git", "git config set core.pager less", []want{hidden("git config set core.pager less", "git config set core.pager less", "git config core.pager is not a setting known to run nothing"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git", "git config --unset core.hooksPath", []want{hidden("git config --unset core.hooksPath", "git config --unset core.hooksPath", "git config core.hooksPath is not a setting known to run nothing"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git", "git config --edit", []want{hidden("git config --edit", "git config --edit", "git config --edit runs an editor"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git", "git config user.email a@b", []want{same("git config user.email a@b"), {tool: "write", value: ".git/config", text: "config"}}},
	{"git", "git config --global user.name x", []want{same("git config --global user.name x"), {tool: "write", value: "~/.gitconfig", text: "config"}}},
	{"git", "git config -f cfg user.name x", []want{same("git config -f cfg user.name x"), write("cfg")}},
	{"git", "git remote -v", []want{same("git remote -v")}},
	{"git", "git config --get core.fsmonitor", []want{same("git config --get core.fsmonitor")}},
	{"git", "git config core.fsmonitor", []want{same("git config core.fsmonitor")}},
	{"git", "git fetch --upload-pa='sh -c id' origin", []want{hidden("git fetch --upload-pa=sh -c id origin", "git fetch --upload-pa='sh -c id' origin", "git fetch --upload-pack names a program git runs")}},
	{"git", "git push --rec=x origin", []want{hidden("git push --rec=x origin", "git push --rec=x origin", "git push --receive-pack names a program git runs")}},
	{"git", "git archive --exec=x --remote=r HEAD", []want{hidden("git archive --exec=x --remote=r HEAD", "git archive --exec=x --remote=r HEAD", "git archive --exec names a program git runs")}},
	{"git", "git clone -u x repo", []want{hidden("git clone -u x repo", "git clone -u x repo", "git clone -u names a program git runs"), {tool: "write", value: "repo/.git", text: "repo"}}},
	{"git", "git fetch origin main", []want{same("git fetch origin main")}},
	{"git", "git grep --open-files foo", []want{hidden("git grep --open-files foo", "git grep --open-files foo", "git grep --open-files-in-pager names a program git runs")}},
	{"git", "git grep -iOvim foo", []want{hidden("git grep -iOvim foo", "git grep -iOvim foo", "git grep -O runs a pager")}},
	{"git", "git grep -i foo", []want{same("git grep -i foo")}},
	{"git", "git clone fd::3 x", []want{hidden("git clone fd::3 x", "git clone fd::3 x", "a URL of the ext:: or fd:: transport makes git run a command"), {tool: "write", value: "x/.git", text: "x"}}},
	{"git", "git remote add o ext::sh", []want{hidden("git remote add o ext::sh", "git remote add o ext::sh", "a URL of the ext:: or fd:: transport makes git run a command"), {tool: "write", value: ".git/config", text: "remote"}}},
	{"git", "git commit -m 'use ext:: less'", []want{run("git commit -m use ext:: less", "git commit -m 'use ext:: less'")}},
	{"git", "GIT_ALLOW_PROTOCOL=ext git clone x", []want{hidden("git clone x", "GIT_ALLOW_PROTOCOL=ext git clone x", "GIT_ALLOW_PROTOCOL is not a git variable known to run nothing")}},
	{"git", "GIT_AUTHOR_NAME=x git commit", []want{run("git commit", "GIT_AUTHOR_NAME=x git commit")}},
	{"git", "git send-email --smtp-server=./x a.patch", []want{hidden("git send-email --smtp-server=./x a.patch", "git send-email --smtp-server=./x a.patch", "git send-email --smtp-server names a program git runs")}},
	{"git", "git diff --output=.claude/settings.json", []want{same("git diff --output=.claude/settings.json"), {tool: "write", value: ".claude/settings.json", text: "--output=.claude/settings.json"}}},
	{"git", "git log --out out.txt", []want{same("git log --out out.txt"), write("out.txt")}},
	{"git", "git format-patch -o patches HEAD~2", []want{same("git format-patch -o patches HEAD~2"), write("patches")}},
	{"git", "git diff --no-index /dev/null .env", []want{same("git diff --no-index /dev/null .env"), read(".env")}},
	{"git", "git grep --no-index TODO src", []want{same("git grep --no-index TODO src"), read("src")}},
	{"git", "git diff HEAD src", []want{same("git diff HEAD src")}},
	{"git", "git init newrepo", []want{same("git init newrepo"), {tool: "write", value: "newrepo/.git", text: "newrepo"}}},
	{"git", "git init", []want{same("git init"), {tool: "write", value: ".git", text: "init"}}},
	{"git", "git init --bare r.git", []want{same("git init --bare r.git"), {tool: "write", value: "r.git", text: "r.git"}}},
	{"git", "git clone https://x/y.git dir", []want{same("git clone https://x/y.git dir"), {tool: "write", value: "dir/.git", text: "dir"}}},
	{"git", "git format-patch -3", []want{same("git format-patch -3")}},
	{"git", "git rebase --exe 'make test' main", []want{run("git rebase --exe make test main", "git rebase --exe 'make test' main"), same("make test")}},
	{"git", "git rebase -x\"$c\" main", []want{hidden("git rebase -x$c main", "git rebase -x\"$c\" main", "git rebase --exec runs a string made when it runs")}},
}

func TestGit(t *testing.T) {
	checkCases(t, gitCases)
}
