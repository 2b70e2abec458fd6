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
	{"tar", "tar --checkpoint-a=exec=sh -cf /dev/null src", []want{hidden("tar --checkpoint-a=exec=sh -cf /dev/null src", "tar --checkpoint-a=exec=sh -cf /dev/null src", "tar --checkpoint-action may run a program"), read("src")}},
	{"tar", "tar --checkpoint=10 -cf /dev/null src", []want{same("tar --checkpoint=10 -cf /dev/null src"), read("src")}},
	{"tar", "tar --to-c=sh -xf a.tar", []want{hidden("tar --to-c=sh -xf a.tar", "tar --to-c=sh -xf a.tar", "tar --to-command may run a program"), read("a.tar")}},
	{"tar", "tar -I zstd -cf a.tar src", []want{hidden("tar -I zstd -cf a.tar src", "tar -I zstd -cf a.tar src", "tar -I may run a program"), read("src"), write("a.tar")}},
	{"tar", "tar cIf zstd a.tar src", []want{hidden("tar cIf zstd a.tar src", "tar cIf zstd a.tar src", "tar -I may run a program"), read("src"), write("a.tar")}},
	{"tar", "tar -F ./next -cf a.tar src", []want{hidden("tar -F ./next -cf a.tar src", "tar -F ./next -cf a.tar src", "tar -F may run a program"), read("src"), write("a.tar")}},
	{"tar", "tar -cf host:a.tar src", []want{hidden("tar -cf host:a.tar src", "tar -cf host:a.tar src", "tar -f host:a.tar runs a remote shell"), read("src"), write("host:a.tar")}},
	{"tar", "tar --force-local -cf host:a.tar src", []want{same("tar --force-local -cf host:a.tar src"), read("src"), write("host:a.tar")}},
	{"rsync", "rsync -av src/ dst/", []want{same("rsync -av src/ dst/"), read("src/"), write("dst/")}},
	{"rsync", "rsync -ave 'sh -c id' src/ host:dst/", []want{hidden("rsync -ave sh -c id src/ host:dst/", "rsync -ave 'sh -c id' src/ host:dst/", "rsync -e may run a program"), read("src/")}},
	{"rsync", "rsync --rsh=ssh src/ host:dst/", []want{hidden("rsync --rsh=ssh src/ host:dst/", "rsync --rsh=ssh src/ host:dst/", "rsync --rsh may run a program"), read("src/")}},
	{"rsync", "rsync -a host:src/ dst/", []want{same("rsync -a host:src/ dst/"), write("dst/")}},
	{"ssh", "ssh -o ProxyCommand='sh -c id' host", []want{hidden("ssh -o ProxyCommand=sh -c id host", "ssh -o ProxyCommand='sh -c id' host", "ssh -o ProxyCommand is not a setting known to run no local command")}},
	{"ssh", "ssh -oproxycommand=x host", []want{hidden("ssh -oproxycommand=x host", "ssh -oproxycommand=x host", "ssh -o proxycommand is not a setting known to run no local command")}},
	{"ssh", "ssh -o BatchMode=yes host uptime", []want{same("ssh -o BatchMode=yes host uptime")}},
	{"ssh", "ssh -o 'LocalCommand id' -o PermitLocalCommand=yes host", []want{hidden("ssh -o LocalCommand id -o PermitLocalCommand=yes host", "ssh -o 'LocalCommand id' -o PermitLocalCommand=yes host", "ssh -o LocalCommand is not a setting known to run no local command")}},
	{"ssh", "scp -S ./prog a host:b", []want{hidden("scp -S ./prog a host:b", "scp -S ./prog a host:b", "scp -S may run a program")}},
	{"ssh", "scp -P 2222 a host:b", []want{same("scp -P 2222 a host:b")}},
	{"rg", "rg --pre ./x pattern", []want{hidden("rg --pre ./x pattern", "rg --pre ./x pattern", "rg --pre may run a program")}},
	{"rg", "rg -n pattern src", []want{same("rg -n pattern src"), read("src")}},
	{"vim", "vim +'!id' f", []want{hidden("vim +!id f", "vim +'!id' f", "vim +!id runs an editor command"), write("f")}},
	{"vim", "vim f", []want{same("vim f"), write("f")}},
	{"man", "man -P 'sh -c id' ls", []want{hidden("man -P sh -c id ls", "man -P 'sh -c id' ls", "man -P may run a program")}},
	{"man", "man 5 crontab", []want{same("man 5 crontab")}},
	{"sort", "sort -o out f", []want{same("sort -o out f"), read("f"), write("out")}},
	{"copy", "cp .env leak.txt", []want{same("cp .env leak.txt"), read(".env"), write("leak.txt")}},
	{"copy", "cp -t dir a b", []want{same("cp -t dir a b"), read("a"), read("b"), write("dir")}},
	{"copy", "cp -r a b c/", []want{same("cp -r a b c/"), read("a"), read("b"), write("c/")}},
	{"copy", "mv a b", []want{same("mv a b"), write("a"), write("b")}},
	{"copy", "ln -s target link", []want{same("ln -s target link"), read("target"), write("link")}},
	{"copy", "install -m 755 a /usr/local/bin/a", []want{same("install -m 755 a /usr/local/bin/a"), read("a"), write("/usr/local/bin/a")}},
	{"copy", "install --strip-program=./x a b", []want{hidden("install --strip-program=./x a b", "install --strip-program=./x a b", "install --strip-program may run a program"), read("a"), write("b")}},
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
	{"read", "wc --files0-from=list", []want{same("wc --files0-from=list"), {tool: "read", value: "list", text: "--files0-from=list"}}},
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
		`write {"path":"log"}`,
		`read {"path":"in"}`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("subjects %q, want %q", got, want)
	}
}
