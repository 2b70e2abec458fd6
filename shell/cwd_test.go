package shell

import "testing"

// cwdCases hold where a path really points, each beside a twin. The
// attacks are the oracle's: bash wrote dir/c.txt where the subject said
// c.txt.
var cwdCases = []splitCase{
	{"cd", "cd dir && echo x > c.txt", []want{same("cd dir"), same("echo x"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "echo x > c.txt", []want{same("echo x"), write("c.txt")}},
	{"cd", "cd dir; touch c.txt", []want{same("cd dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}, write("c.txt")}},
	{"cd", "(cd dir && touch c.txt); touch d.txt", []want{same("cd dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}, same("touch d.txt"), write("d.txt")}},
	{"cd", "pushd dir && echo x > c.txt", []want{same("pushd dir"), same("echo x"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "cd -P dir && touch c.txt", []want{same("cd -P dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "cd -- dir && touch c.txt", []want{same("cd -- dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "cd empty && echo x > ../a.txt", []want{same("cd empty"), same("echo x"), {tool: "write", value: "a.txt", text: "../a.txt"}}},
	{"cd", "cd /tmp && ls > list", []want{same("cd /tmp"), same("ls"), {tool: "write", value: "/tmp/list", text: "list"}}},
	{"cd", "cd a && cd b && cat f", []want{same("cd a"), same("cd b"), same("cat f"), {tool: "read", value: "a/b/f", text: "f"}}},
	{"cd", "cd dir || cat f", []want{same("cd dir"), same("cat f"), read("f")}},
	{"cd", "cd dir && cat /etc/hosts", []want{same("cd dir"), same("cat /etc/hosts"), read("/etc/hosts")}},
	{"cd", "cd dir && sh -c 'cat f'", []want{same("cd dir"), base("sh -c cat f", "sh -c 'cat f'"), same("cat f"), {tool: "read", value: "dir/f", text: "f"}}},
	{"cd", "cd dir && timeout 5 cat f", []want{same("cd dir"), base("timeout 5 cat f", "timeout 5 cat f"), same("cat f"), {tool: "read", value: "dir/f", text: "f"}}},
	{"cd", "cd dir && echo $(cat f)", []want{same("cd dir"), same("echo $(cat f)"), same("cat f"), {tool: "read", value: "dir/f", text: "f"}}},
	// A cd the splitter cannot follow makes every later relative path
	// unknown.
	{"cd", "cd dir && cd - && echo x > a.txt", []want{same("cd dir"), same("cd -"), same("echo x"), write("a.txt")}},
	{"cd", "cd - && echo x > a.txt", []want{same("cd -"), same("echo x"), {tool: "write", value: "a.txt", text: "a.txt", unseen: "the directory after cd - is known only when it runs"}}},
	{"cd", "cd ~ && echo x > .bashrc", []want{same("cd ~"), same("echo x"), {tool: "write", value: "~/.bashrc", text: ".bashrc"}}},
	{"cd", "cd \"$d\" && cat f", []want{run("cd $d", "cd \"$d\""), same("cat f"), {tool: "read", value: "f", text: "f", unseen: "the directory after cd \"$d\" is known only when it runs"}}},
	{"cd", "cd \"$d\" && cat /etc/hosts", []want{run("cd $d", "cd \"$d\""), same("cat /etc/hosts"), read("/etc/hosts")}},
	{"cd", "cd && cat f", []want{same("cd"), same("cat f"), {tool: "read", value: "~/f", text: "f"}}},
	{"cd", "CDPATH=/w; cd dir && touch c.txt", []want{hidden("CDPATH=/w", "CDPATH=/w", "CDPATH changes where cd looks for a directory"), same("cd dir"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after cd dir depends on CDPATH"}, {tool: "write", value: "dir/c.txt", text: "c.txt", constrain: true}}},
	{"cd", "echo | cd dir; touch c.txt", []want{same("echo"), same("cd dir"), same("touch c.txt"), write("c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	// After a cd the splitter cannot follow, the path in each directory
	// a cd of the call named is a constraint a deny rule reads.
	{"cd", "pushd dir && pushd /tmp && popd && touch c.txt", []want{same("pushd dir"), same("pushd /tmp"), same("popd"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after popd is known only when it runs"}, {tool: "write", value: "dir/c.txt", text: "c.txt", constrain: true}, {tool: "write", value: "/tmp/c.txt", text: "c.txt", constrain: true}}},
	{"cd", "for d in dir; do cd $d; done; touch c.txt", []want{same("cd $d"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the command changes directory in a loop, a condition or a function"}}},
	{"cd", "f() { cd dir; }; f; touch c.txt", []want{same("cd dir"), same("f"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the command changes directory in a loop, a condition or a function"}}},
	{"cd", "\"cd\" dir && touch c.txt", []want{run("cd dir", "\"cd\" dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "builtin cd dir && touch c.txt", []want{base("builtin cd dir", "builtin cd dir"), same("cd dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "eval 'cd dir' && touch c.txt", []want{base("eval cd dir", "eval 'cd dir'"), same("cd dir"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after eval is known only when it runs"}}},
	{"cd", "for d in a; do touch c.txt; done", []want{same("touch c.txt"), write("c.txt")}},
	{"cd", "for d in a; do $'cd' dir; done; touch c.txt", []want{run("cd dir", "$'cd' dir"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the command changes directory in a loop, a condition or a function"}}},
	{"cd", "eval $'c\\x64 dir' && touch c.txt", []want{base("eval cd dir", "eval $'c\\x64 dir'"), same("cd dir"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after eval is known only when it runs"}}},
	{"cd", "c''d dir && touch c.txt", []want{run("cd dir", "c''d dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "\\cd dir && touch c.txt", []want{run("cd dir", "\\cd dir"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "cd {dir,} && touch c.txt", []want{run("cd dir", "cd {dir,}"), same("touch c.txt"), {tool: "write", value: "dir/c.txt", text: "c.txt"}}},
	{"cd", "cd {dir,empty} && touch c.txt", []want{run("cd dir empty", "cd {dir,empty}"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after cd is known only when it runs"}}},
	{"cd", "pushd -n dir && touch c.txt", []want{same("pushd -n dir"), same("touch c.txt"), write("c.txt")}},
	{"cd", "pushd +1 && touch c.txt", []want{same("pushd +1"), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after pushd +1 is known only when it runs"}}},
	{"cd", "cd dir && echo x > $OLDPWD/a.txt", []want{same("cd dir"), same("echo x"), {tool: "write", value: "a.txt", text: "$OLDPWD/a.txt"}}},
	{"cd", "echo x > $OLDPWD/a.txt", []want{same("echo x"), {tool: "write", value: "$OLDPWD/a.txt", text: "$OLDPWD/a.txt", unseen: "the path $OLDPWD/a.txt is known only when it runs"}}},
	{"cd", "cd dir && echo x > ${PWD}/a.txt", []want{same("cd dir"), same("echo x"), {tool: "write", value: "dir/a.txt", text: "${PWD}/a.txt"}}},
	{"cd", "cd ~/x/../.. && touch c.txt", []want{same("cd ~/x/../.."), same("touch c.txt"), {tool: "write", value: "c.txt", text: "c.txt", unseen: "the directory after cd ~/x/../.. lies outside the home directory, whose place the splitter does not know"}}},
	// A path through a link made earlier in the call may name any file.
	{"link", "ln -s .claude/settings.local.json x && echo '{}' > x", []want{same("ln -s .claude/settings.local.json x"), read(".claude/settings.local.json"), {tool: "read", value: "x/.claude/settings.local.json", text: ".claude/settings.local.json"}, write("x"), {tool: "write", value: "x/settings.local.json", text: "x"}, run("echo {}", "echo '{}'"), {tool: "write", value: "x", text: "x", unseen: "the path x is a link an earlier command made, which may point anywhere"}, {tool: "write", value: ".claude/settings.local.json", text: "x", constrain: true}}},
	{"link", "cp -s .env x && cat x", []want{same("cp -s .env x"), read(".env"), write("x"), {tool: "write", value: "x/.env", text: "x"}, same("cat x"), {tool: "read", value: "x", text: "x", unseen: "the path x is a link an earlier command made, which may point anywhere"}}},
	{"link", "cp .env x && cat x", []want{same("cp .env x"), read(".env"), write("x"), {tool: "write", value: "x/.env", text: "x"}, same("cat x"), read("x")}},
	{"link", "cd d && ln -s /etc/passwd p && cat p", []want{same("cd d"), same("ln -s /etc/passwd p"), read("/etc/passwd"), {tool: "write", value: "d/p", text: "p"}, {tool: "write", value: "d/p/passwd", text: "p"}, same("cat p"), {tool: "read", value: "d/p", text: "p", unseen: "the path d/p is a link an earlier command made, which may point anywhere"}, {tool: "read", value: "/etc/passwd", text: "p", constrain: true}}},
	// /proc and /dev/fd are read through to what they name.
	{"proc", "echo x > /proc/self/cwd/a.txt", []want{same("echo x"), {tool: "write", value: "a.txt", text: "/proc/self/cwd/a.txt"}}},
	{"proc", "cd dir && echo x > /proc/self/cwd/a.txt", []want{same("cd dir"), same("echo x"), {tool: "write", value: "dir/a.txt", text: "/proc/self/cwd/a.txt"}}},
	{"proc", "echo x > /proc/self/root/w/a.txt", []want{same("echo x"), {tool: "write", value: "/w/a.txt", text: "/proc/self/root/w/a.txt"}}},
	{"proc", "cat /proc/1/root/etc/shadow", []want{same("cat /proc/1/root/etc/shadow"), {tool: "read", value: "/proc/1/root/etc/shadow", text: "/proc/1/root/etc/shadow", unseen: "the path /proc/1/root/etc/shadow names a file through a process, known only when it runs"}}},
	{"proc", "cat /proc/self/fd/3", []want{same("cat /proc/self/fd/3"), {tool: "read", value: "/proc/self/fd/3", text: "/proc/self/fd/3", unseen: "the path /proc/self/fd/3 names a file through a process, known only when it runs"}}},
	{"proc", "cat /dev/fd/5", []want{same("cat /dev/fd/5"), {tool: "read", value: "/dev/fd/5", text: "/dev/fd/5", unseen: "the path /dev/fd/5 names a descriptor, known only when it runs"}}},
	{"proc", "echo x > /dev/fd/2", []want{same("echo x")}},
	{"proc", "cat /proc/cpuinfo", []want{same("cat /proc/cpuinfo"), read("/proc/cpuinfo")}},
}

func TestWhere(t *testing.T) {
	checkCases(t, cwdCases)
}

// TestMayChangeDir checks the gate before the directory walk: every
// spelling of cd, pushd and popd passes it, and text naming none does not.
func TestMayChangeDir(t *testing.T) {
	for src, want := range map[string]bool{
		"cd x": true, "c''d x": true, `"c"d x`: true, `\cd x`: true, "pu'sh'd x": true, `p\opd`: true, "$'\\x63d'": true,
		"c\\\nd": true, "git add -A": false, "echo odd": false, "ls -d dir": false, `echo "d"`: false,
	} {
		if got := mayChangeDir(src); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}
