package shell

import (
	"fmt"
	"testing"
)

// readerCases hold readers that write or run a program, each beside a
// harmless twin.
var readerCases = []splitCase{
	{"tar", "tar -czf out.tgz src", []want{same("tar -czf out.tgz src"), read("src"), write("out.tgz")}},
	{"tar", "tar czf out.tgz src", []want{same("tar czf out.tgz src"), read("src"), write("out.tgz")}},
	{"tar", "tar -tzf a.tgz", []want{same("tar -tzf a.tgz"), read("a.tgz")}},
	{"tar", "tar -xzf a.tgz", []want{hidden("tar -xzf a.tgz", "tar -xzf a.tgz", "tar -x writes the files the archive holds, known only when it runs"), read("a.tgz")}},
	{"tar", "tar -xOf a.tar", []want{same("tar -xOf a.tar"), read("a.tar")}},
	{"tar", "tar --checkpoint-a=exec=sh -cf /dev/null src", []want{hidden("tar --checkpoint-a=exec=sh -cf /dev/null src", "tar --checkpoint-a=exec=sh -cf /dev/null src", "tar --checkpoint-action may run a program"), read("src"), hidden("sh", "sh", "sh reads its commands from standard input")}},
	{"tar", "tar --checkpoint=10 -cf /dev/null src", []want{same("tar --checkpoint=10 -cf /dev/null src"), read("src")}},
	{"tar", "tar --to-c=sh -xf a.tar", []want{hidden("tar --to-c=sh -xf a.tar", "tar --to-c=sh -xf a.tar", "tar --to-command may run a program"), read("a.tar"), hidden("sh", "sh", "sh reads its commands from standard input")}},
	{"tar", "tar -I zstd -cf a.tar src", []want{hidden("tar -I zstd -cf a.tar src", "tar -I zstd -cf a.tar src", "tar -I may run a program"), read("src"), write("a.tar"), same("zstd")}},
	{"tar", "tar cIf zstd a.tar src", []want{hidden("tar cIf zstd a.tar src", "tar cIf zstd a.tar src", "tar -I may run a program"), read("src"), write("a.tar"), same("zstd")}},
	{"tar", "tar -F ./next -cf a.tar src", []want{hidden("tar -F ./next -cf a.tar src", "tar -F ./next -cf a.tar src", "tar -F may run a program"), read("src"), write("a.tar"), same("./next"), base("next", "./next")}},
	{"tar", "tar -cf host:a.tar src", []want{hidden("tar -cf host:a.tar src", "tar -cf host:a.tar src", "tar -f host:a.tar runs a remote shell"), read("src"), write("host:a.tar")}},
	{"tar", "tar --force-local -cf host:a.tar src", []want{same("tar --force-local -cf host:a.tar src"), read("src"), write("host:a.tar")}},
	{"tar", "tar -C dir -cf ../out.tar c.txt", []want{same("tar -C dir -cf ../out.tar c.txt"), {tool: "read", value: "dir/c.txt", text: "c.txt"}, write("../out.tar")}},
	{"tar", "tar -cf out.tar a -C dir b", []want{same("tar -cf out.tar a -C dir b"), read("a"), {tool: "read", value: "dir/b", text: "b"}, write("out.tar")}},
	{"dd", "dd if=a.txt of=out bs=1M", []want{same("dd if=a.txt of=out bs=1M"), {tool: "read", value: "a.txt", text: "if=a.txt"}, {tool: "write", value: "out", text: "of=out"}}},
	{"dd", "dd if=/dev/zero count=1", []want{same("dd if=/dev/zero count=1"), {tool: "read", value: "/dev/zero", text: "if=/dev/zero"}}},
	{"dd", "dd if=a of=b frob=1", []want{hidden("dd if=a of=b frob=1", "dd if=a of=b frob=1", "dd frob=1 is not an operand the splitter knows"), {tool: "read", value: "a", text: "if=a"}, {tool: "write", value: "b", text: "of=b"}}},
	{"flock", "flock l git -c core.fsmonitor=x status", []want{base("flock l git -c core.fsmonitor=x status", "flock l git -c core.fsmonitor=x status"), write("l"), hidden("git -c core.fsmonitor=x status", "git -c core.fsmonitor=x status", "git -c core.fsmonitor is not a setting known to run nothing"), same("x")}},
	{"flock", "flock 9 rm x", []want{base("flock 9 rm x", "flock 9 rm x"), write("9"), same("rm x"), write("x")}},
	{"flock", "flock -n 9", []want{same("flock -n 9")}},
	{"flock", "flock -c 'rm x' l", []want{base("flock -c rm x l", "flock -c 'rm x' l"), write("l"), same("rm x"), write("x")}},
	{"sh", "sh -ec 'touch $\"a.txt\"'", []want{base("sh -ec touch $\"a.txt\"", "sh -ec 'touch $\"a.txt\"'"), hidden("sh -ec touch $\"a.txt\"", "sh -ec 'touch $\"a.txt\"'", "sh runs a string the splitter cannot read: sh reads it otherwise than bash"), {value: "touch $a.txt", text: "touch $\"a.txt\"", constrain: true}, {tool: "write", value: "$a.txt", text: "$\"a.txt\"", constrain: true}, {value: "touch a.txt", text: "touch $\"a.txt\"", constrain: true}, {tool: "write", value: "a.txt", text: "$\"a.txt\"", constrain: true}}},
	{"sh", "bash -ec 'touch $\"a.txt\"'", []want{base("bash -ec touch $\"a.txt\"", "bash -ec 'touch $\"a.txt\"'"), run("touch a.txt", "touch $\"a.txt\""), {tool: "write", value: "a.txt", text: "$\"a.txt\""}}},
	{"rsync", "rsync -av src/ dst/", []want{same("rsync -av src/ dst/"), read("src/"), write("dst/")}},
	{"rsync", "rsync -ave 'sh -c id' src/ host:dst/", []want{hidden("rsync -ave sh -c id src/ host:dst/", "rsync -ave 'sh -c id' src/ host:dst/", "rsync -e may run a program"), read("src/"), base("sh -c id", "sh -c id"), same("id")}},
	{"rsync", "rsync --rsh=ssh src/ host:dst/", []want{hidden("rsync --rsh=ssh src/ host:dst/", "rsync --rsh=ssh src/ host:dst/", "rsync --rsh may run a program"), read("src/"), same("ssh")}},
	{"rsync", "rsync -a host:src/ dst/", []want{same("rsync -a host:src/ dst/"), write("dst/")}},
	{"ssh", "ssh -o ProxyCommand='sh -c id' host", []want{hidden("ssh -o ProxyCommand=sh -c id host", "ssh -o ProxyCommand='sh -c id' host", "ssh -o ProxyCommand is not a setting known to run no local command")}},
	{"ssh", "ssh -oproxycommand=x host", []want{hidden("ssh -oproxycommand=x host", "ssh -oproxycommand=x host", "ssh -o proxycommand is not a setting known to run no local command")}},
	{"ssh", "ssh -o BatchMode=yes host uptime", []want{same("ssh -o BatchMode=yes host uptime")}},
	{"ssh", "ssh -o 'LocalCommand id' -o PermitLocalCommand=yes host", []want{hidden("ssh -o LocalCommand id -o PermitLocalCommand=yes host", "ssh -o 'LocalCommand id' -o PermitLocalCommand=yes host", "ssh -o LocalCommand is not a setting known to run no local command")}},
	{"ssh", "scp -S ./prog a host:b", []want{hidden("scp -S ./prog a host:b", "scp -S ./prog a host:b", "scp -S may run a program"), read("a"), same("./prog"), base("prog", "./prog")}},
	{"ssh", "scp -P 2222 a host:b", []want{same("scp -P 2222 a host:b"), read("a")}},
	{"rg", "rg --pre ./x pattern", []want{hidden("rg --pre ./x pattern", "rg --pre ./x pattern", "rg --pre may run a program"), read(".")}},
	{"rg", "rg -n pattern src", []want{same("rg -n pattern src"), read("src")}},
	{"vim", "vim +'!id' f", []want{hidden("vim +!id f", "vim +'!id' f", "vim +!id runs an editor command"), read("f"), write("f")}},
	{"vim", "vim f", []want{same("vim f"), read("f"), write("f")}},
	{"man", "man -P 'sh -c id' ls", []want{hidden("man -P sh -c id ls", "man -P 'sh -c id' ls", "man -P may run a program"), base("sh -c id", "sh -c id"), same("id")}},
	{"man", "man 5 crontab", []want{same("man 5 crontab")}},
	{"find", "find . -name '*.go' -type f", []want{run("find . -name *.go -type f", "find . -name '*.go' -type f"), read(".")}},
	{"find", "find . -name *.go", []want{hidden("find . -name *.go", "find . -name *.go", "the word *.go may be more than one word for find, known only when it runs"), read(".")}},
	{"find", "find src -newer stamp -print0", []want{same("find src -newer stamp -print0"), read("src"), read("stamp")}},
	{"find", "find -L src docs -maxdepth 2", []want{same("find -L src docs -maxdepth 2"), read("src"), read("docs")}},
	{"find", "find . -fprint out", []want{same("find . -fprint out"), read("."), write("out")}},
	{"find", "find . -fprintf out %p", []want{same("find . -fprintf out %p"), read("."), write("out")}},
	{"find", "find . -fls out", []want{same("find . -fls out"), read("."), write("out")}},
	{"find", "find . -delete", []want{hidden("find . -delete", "find . -delete", "find -delete deletes files"), read(".")}},
	{"find", "find . -frobnicate", []want{hidden("find . -frobnicate", "find . -frobnicate", "find -frobnicate is not a primary the splitter knows"), read(".")}},
	{"find", "find . -exec cat {} +", []want{same("find . -exec cat {} +"), read("."), same("cat {}"), {tool: "read", value: "{}", text: "{}", unseen: "the path {} holds {}, which find and xargs replace with the names they read"}}},
	{"sed", "sed -n 1p .env", []want{same("sed -n 1p .env"), read(".env")}},
	{"sed", "sed -i.bak s/x/y/ f", []want{same("sed -i.bak s/x/y/ f"), write("f"), {tool: "write", value: "f.bak", text: "f"}}},
	{"sed", "sed -s -i.orig 1d a.txt", []want{same("sed -s -i.orig 1d a.txt"), write("a.txt"), {tool: "write", value: "a.txt.orig", text: "a.txt"}}},
	{"sed", "sed --in-pl='old/*' 1d a.txt", []want{run("sed --in-pl=old/* 1d a.txt", "sed --in-pl='old/*' 1d a.txt"), write("a.txt"), {tool: "write", value: "old/a.txt", text: "a.txt"}}},
	{"sed", "sed -i'bak_*' 1d a.txt", []want{run("sed -ibak_* 1d a.txt", "sed -i'bak_*' 1d a.txt"), write("a.txt"), {tool: "write", value: "bak_a.txt", text: "a.txt"}}},
	{"sed", "sed -i'bak_*' 1d d/a.txt", []want{run("sed -ibak_* 1d d/a.txt", "sed -i'bak_*' 1d d/a.txt"), write("d/a.txt"), {tool: "write", value: "bak_*", text: "d/a.txt", unseen: "the path bak_* is known only when it runs"}}},
	// -ie is -i with the backup suffix "e": the script is the operand.
	{"sed", "sed -ie s/x/y/ f", []want{same("sed -ie s/x/y/ f"), write("f"), {tool: "write", value: "fe", text: "f"}}},
	{"sed", "sed --in-pl s/x/y/ f", []want{same("sed --in-pl s/x/y/ f"), write("f")}},
	{"sed", "sed -E -e s/x/y/ a b", []want{same("sed -E -e s/x/y/ a b"), read("a"), read("b")}},
	{"sed", "sed --expr='1e id' f", []want{hidden("sed --expr=1e id f", "sed --expr='1e id' f", "sed e runs a command"), read("f")}},
	{"sed", "sed --expr='1p' f", []want{run("sed --expr=1p f", "sed --expr='1p' f"), read("f")}},
	{"sed", "sed --frob p f", []want{hidden("sed --frob p f", "sed --frob p f", "sed --frob is not an option the splitter knows"), read("f")}},
	{"sort", "sort -o out f", []want{same("sort -o out f"), read("f"), write("out")}},
	{"copy", "cp .env leak.txt", []want{same("cp .env leak.txt"), read(".env"), write("leak.txt"), {tool: "write", value: "leak.txt/.env", text: "leak.txt"}}},
	{"copy", "cp -t dir a b", []want{same("cp -t dir a b"), read("a"), read("b"), {tool: "write", value: "dir/a", text: "dir"}, {tool: "write", value: "dir/b", text: "dir"}, write("dir")}},
	{"copy", "cp -r a b c/", []want{same("cp -r a b c/"), read("a"), read("b"), write("c/"), {tool: "write", value: "c/a", text: "c/"}, {tool: "write", value: "c/b", text: "c/"}}},
	{"copy", "ln .git/config", []want{same("ln .git/config"), read(".git/config"), {tool: "write", value: "config", text: ".git/config"}}},
	{"copy", "install -d newdir", []want{same("install -d newdir"), write("newdir")}},
	{"copy", "mv a b", []want{same("mv a b"), write("a"), write("b"), {tool: "write", value: "b/a", text: "b"}}},
	{"copy", "cp -b a.txt b.txt", []want{hidden("cp -b a.txt b.txt", "cp -b a.txt b.txt", "cp -b writes backups named when it runs"), read("a.txt"), write("b.txt"), {tool: "write", value: "b.txt/a.txt", text: "b.txt"}}},
	{"copy", "mv --suf=.old a b", []want{hidden("mv --suf=.old a b", "mv --suf=.old a b", "mv --suffix writes backups named when it runs"), write("a"), write("b"), {tool: "write", value: "b/a", text: "b"}}},
	{"copy", "ln -sfS .x a b", []want{hidden("ln -sfS .x a b", "ln -sfS .x a b", "ln -S writes backups named when it runs"), read("a"), {tool: "read", value: "b/a", text: "a"}, write("b"), {tool: "write", value: "b/a", text: "b"}}},
	{"copy", "install -m 644 a b", []want{same("install -m 644 a b"), read("a"), write("b"), {tool: "write", value: "b/a", text: "b"}}},
	{"tilde", "echo x > \"~/x\"", []want{same("echo x"), {tool: "write", value: "./~/x", text: "\"~/x\""}}},
	{"tilde", "cat \\~/x", []want{run("cat ~/x", "cat \\~/x"), {tool: "read", value: "./~/x", text: "\\~/x"}}},
	{"copy", "ln -s target link", []want{same("ln -s target link"), read("target"), {tool: "read", value: "link/target", text: "target"}, write("link"), {tool: "write", value: "link/target", text: "link"}}},
	{"copy", "install -m 755 a /usr/local/bin/a", []want{same("install -m 755 a /usr/local/bin/a"), read("a"), write("/usr/local/bin/a"), {tool: "write", value: "/usr/local/bin/a/a", text: "/usr/local/bin/a"}}},
	{"copy", "install --strip-program=./x a b", []want{hidden("install --strip-program=./x a b", "install --strip-program=./x a b", "install --strip-program may run a program"), read("a"), write("b"), {tool: "write", value: "b/a", text: "b"}}},
	{"write", "tee -a log out", []want{same("tee -a log out"), write("log"), write("out")}},
	{"write", "truncate -s 0 f", []want{same("truncate -s 0 f"), write("f")}},
	{"write", "touch -r ref f", []want{same("touch -r ref f"), read("ref"), write("f")}},
	{"write", "mkdir -p a/b", []want{same("mkdir -p a/b"), write("a/b")}},
	{"write", "chmod +x run.sh", []want{same("chmod +x run.sh"), write("run.sh")}},
	{"write", "chmod -x run.sh", []want{same("chmod -x run.sh"), write("run.sh")}},
	{"write", "chmod -R 755 dir", []want{same("chmod -R 755 dir"), write("dir")}},
	{"write", "rm -rf build", []want{same("rm -rf build"), write("build")}},
	{"read", "cat .env", []want{same("cat .env"), read(".env")}},
	{"read", "cat - < in", []want{same("cat -"), read("in")}},
	{"read", "grep -rn TODO src", []want{same("grep -rn TODO src"), read("src")}},
	{"read", "grep -f pats src", []want{same("grep -f pats src"), read("src"), read("pats")}},
	{"read", "diff a /dev/null", []want{same("diff a /dev/null"), read("a")}},
	{"read", "uniq in out", []want{same("uniq in out"), read("in"), write("out")}},
	{"read", "head -n 3 a b", []want{same("head -n 3 a b"), read("a"), read("b")}},
	{"read", "wc --files0-from=list", []want{hidden("wc --files0-from=list", "wc --files0-from=list", "wc --files0-from reads the names of the files it reads from list, known only when it runs"), {tool: "read", value: "list", text: "--files0-from=list"}}},
}

// awkCases read awk programs by parsing them: a harmless program with a
// "|" or a regular expression is allowed, what runs a command is not.
var awkCases = []splitCase{
	{"awk", "awk '/filesystem/ {print $1}' f", []want{run("awk /filesystem/ {print $1} f", "awk '/filesystem/ {print $1}' f"), read("f")}},
	{"awk", "awk '{print $1 \"|\" $2}' f", []want{run("awk {print $1 \"|\" $2} f", "awk '{print $1 \"|\" $2}' f"), read("f")}},
	{"awk", "awk '/a|b/' f", []want{run("awk /a|b/ f", "awk '/a|b/' f"), read("f")}},
	{"awk", "awk '{ x = $1 > 3 }' f", []want{run("awk { x = $1 > 3 } f", "awk '{ x = $1 > 3 }' f"), read("f")}},
	{"awk", "awk '{print | \"sh\"}' f", []want{hidden("awk {print | \"sh\"} f", "awk '{print | \"sh\"}' f", "awk's program pipes its output to a command"), read("f")}},
	{"awk", "awk 'BEGIN {\"id\" | getline x}'", []want{hidden("awk BEGIN {\"id\" | getline x}", "awk 'BEGIN {\"id\" | getline x}'", "awk's program runs a command for getline")}},
	{"awk", "awk 'BEGIN {getline x < \"in\"}'", []want{run("awk BEGIN {getline x < \"in\"}", "awk 'BEGIN {getline x < \"in\"}'"), {tool: "read", value: "in", text: "'BEGIN {getline x < \"in\"}'"}}},
	{"awk", "awk 'BEGIN {getline x < f}'", []want{hidden("awk BEGIN {getline x < f}", "awk 'BEGIN {getline x < f}'", "awk's program reads a file named when it runs")}},
	{"awk", "awk 'BEGIN {system(\"id\")}'", []want{hidden("awk BEGIN {system(\"id\")}", "awk 'BEGIN {system(\"id\")}'", "awk's program runs a command with system()")}},
	{"awk", "awk 'BEGIN {sys = 1; print sys}'", []want{run("awk BEGIN {sys = 1; print sys}", "awk 'BEGIN {sys = 1; print sys}'")}},
	{"awk", "awk '{print > \"out\"}' f", []want{run("awk {print > \"out\"} f", "awk '{print > \"out\"}' f"), read("f"), {tool: "write", value: "out", text: "'{print > \"out\"}'"}}},
	{"awk", "awk '{print >> $1}' f", []want{hidden("awk {print >> $1} f", "awk '{print >> $1}' f", "awk's program writes a file named when it runs"), read("f")}},
	{"awk", "awk '{print > \"/dev/stderr\"}' f", []want{run("awk {print > \"/dev/stderr\"} f", "awk '{print > \"/dev/stderr\"}' f"), read("f")}},
	{"awk", "awk 'BEGIN {ARGV[1] = \".env\"} {print}' x", []want{hidden("awk BEGIN {ARGV[1] = \".env\"} {print} x", "awk 'BEGIN {ARGV[1] = \".env\"} {print}' x", "awk's program names ARGV, which changes the files it reads"), read("x")}},
	{"awk", "awk 'BEGIN {print ARGC}'", []want{hidden("awk BEGIN {print ARGC}", "awk 'BEGIN {print ARGC}'", "awk's program names ARGC, which changes the files it reads")}},
	{"awk", "awk 'BEGIN {f = \"system\"; @f(\"id\")}'", []want{hidden("awk BEGIN {f = \"system\"; @f(\"id\")}", "awk 'BEGIN {f = \"system\"; @f(\"id\")}'", "awk's program is not awk the splitter reads: parse error at 1:23: undefined function \"f\"")}},
	{"awk", "awk -v n=1 '{print n}' x=2 f", []want{run("awk -v n=1 {print n} x=2 f", "awk -v n=1 '{print n}' x=2 f"), read("f")}},
	{"awk", "gawk -e 'BEGIN {system(\"id\")}'", []want{hidden("gawk -e BEGIN {system(\"id\")}", "gawk -e 'BEGIN {system(\"id\")}'", "gawk's program runs a command with system()")}},
	{"awk", "gawk --prof=x '{print}' f", []want{hidden("gawk --prof=x {print} f", "gawk --prof=x '{print}' f", "gawk --profile writes a file"), read("f")}},
	{"awk", "awk '@include \"x\"' f", []want{hidden("awk @include \"x\" f", "awk '@include \"x\"' f", "awk's program has @, which gawk reads as a directive or an indirect call"), read("f")}},
}

func TestAwk(t *testing.T) {
	checkCases(t, awkCases)
}

func TestReaders(t *testing.T) {
	checkCases(t, readerCases)
}

func TestOperandTools(t *testing.T) {
	split := Subjects(WithWriteTool("write", "path"), WithReadTool("read", "path"), WithOperandTools("view", "edit", "file"))
	subjects, err := split(commandArgs("cp a b > log < in"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range subjects {
		got = append(got, s.Tool+" "+string(s.Args))
	}
	want := []string{
		` {"command":"cp a b"}`,
		`view {"file":"a"}`,
		`edit {"file":"b"}`,
		`edit {"file":"b/a"}`,
		`write {"path":"log"}`,
		`read {"path":"in"}`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("subjects %q, want %q", got, want)
	}
}
