package shell

import (
	"fmt"
	"strings"
	"testing"
)

// checkCases splits each case's command under the read and write tools
// and compares the subjects with the case's, in order.
func checkCases(t *testing.T, cases []splitCase, opts ...Option) {
	t.Helper()
	split := Subjects(append([]Option{WithWriteTool("write", "path"), WithReadTool("read", "path")}, opts...)...)
	for _, c := range cases {
		t.Run(c.class+"/"+c.command, func(t *testing.T) {
			subjects, err := split(commandArgs(c.command))
			if c.want == nil {
				if err == nil {
					t.Fatalf("split succeeded with %v, want an error", subjects)
				}
				return
			}
			if err != nil {
				t.Fatalf("split: %v", err)
			}
			got := make([]want, len(subjects))
			for i, s := range subjects {
				got[i] = subjectWant(t, s)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("subjects:\n got %s\nwant %s", show(got), show(c.want))
			}
		})
	}
}

// optionCases hold options read as getopt_long reads them: each attack
// beside a harmless twin. The abbreviations and clusters were checked
// with GNU coreutils 9.1 and tar 1.34 in a scratch directory.
var optionCases = []splitCase{
	// A short option that takes an argument ends its cluster: -no FILE
	// is -n and -o FILE.
	{"cluster", "sort -no out f", []want{same("sort -no out f"), read("f"), write("out")}},
	{"cluster", "sort -n f", []want{same("sort -n f"), read("f")}},
	{"cluster", "sort -oout f", []want{same("sort -oout f"), read("f"), {tool: "write", value: "out", text: "-oout"}}},
	// GNU tools read options among their operands.
	{"cluster", "sort f -o out", []want{same("sort f -o out"), read("f"), write("out")}},
	{"cluster", "sort -- f -o", []want{same("sort -- f -o"), read("f"), read("-o")}},
	// Any unambiguous abbreviation of a long option is the option.
	{"abbreviation", "sort --out=out f", []want{same("sort --out=out f"), read("f"), {tool: "write", value: "out", text: "--out=out"}}},
	{"abbreviation", "sort --o out f", []want{same("sort --o out f"), read("f"), write("out")}},
	{"abbreviation", "sort --outp out f", []want{same("sort --outp out f"), read("f"), write("out")}},
	{"abbreviation", "sort --compress=gzip f", []want{hidden("sort --compress=gzip f", "sort --compress=gzip f", "sort --compress-program may run a program"), read("f"), same("gzip")}},
	{"abbreviation", "sort --check f", []want{same("sort --check f"), read("f")}},
	// An ambiguous abbreviation or an unknown option is opaque.
	{"abbreviation", "ls --a", []want{hidden("ls --a", "ls --a", "ls --a is an ambiguous abbreviation")}},
	{"abbreviation", "ls --al", []want{hidden("ls --al", "ls --al", "ls --al is an ambiguous abbreviation")}},
	{"abbreviation", "ls --alm", []want{same("ls --alm")}},
	{"unknown", "sort --frobnicate f", []want{hidden("sort --frobnicate f", "sort --frobnicate f", "sort --frobnicate is not an option the splitter knows"), read("f")}},
	{"unknown", "sort -Q f", []want{hidden("sort -Q f", "sort -Q f", "sort -Q is not an option the splitter knows"), read("f")}},
	{"unknown", "sort --debug f", []want{same("sort --debug f"), read("f")}},
	{"unknown", "sort --reverse=yes f", []want{hidden("sort --reverse=yes f", "sort --reverse=yes f", "sort --reverse takes no value"), read("f")}},
	// A word made when the command runs may be any option.
	{"runtime", "sort $opts f", []want{hidden("sort $opts f", "sort $opts f", "the word $opts may be an option of sort, known only when it runs"), {tool: "read", value: "$opts", text: "$opts", unseen: "the path $opts is known only when it runs"}, read("f")}},
	{"runtime", "sort -- $f", []want{same("sort -- $f"), {tool: "read", value: "$f", text: "$f", unseen: "the path $f is known only when it runs"}}},
	{"runtime", "sort *", []want{hidden("sort *", "sort *", "the word * may be an option of sort, known only when it runs"), {tool: "read", value: "*", text: "*", unseen: "the path * is a pattern the shell matches against files when it runs"}}},
	{"runtime", "cat *.go", []want{same("cat *.go"), {tool: "read", value: "*.go", text: "*.go", unseen: "the path *.go is a pattern the shell matches against files when it runs"}}},

	// Wrappers: their options end at the first operand, cluster, and
	// abbreviate.
	{"wrapper", "env -iu HOME rm x", []want{base("env -iu HOME rm x", "env -iu HOME rm x"), same("rm x"), write("x")}},
	{"wrapper", "env -i -u HOME rm x", []want{base("env -i -u HOME rm x", "env -i -u HOME rm x"), same("rm x"), write("x")}},
	{"wrapper", "env -iC /tmp rm x", []want{hidden("env -iC /tmp rm x", "env -iC /tmp rm x", "env -C runs the command in another directory")}},
	{"wrapper", "env --chd=/tmp rm x", []want{hidden("env --chd=/tmp rm x", "env --chd=/tmp rm x", "env --chdir runs the command in another directory")}},
	{"wrapper", "env -iS 'rm x'", []want{base("env -iS rm x", "env -iS 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "env --sp='rm ${X}'", []want{hidden("env --sp=rm ${X}", "env --sp='rm ${X}'", "env --split-string splits a string into the command it runs")}},
	{"wrapper", "env --ig rm x", []want{hidden("env --ig rm x", "env --ig rm x", "env --ig is an ambiguous abbreviation")}},
	{"wrapper", "env --ignore-e rm x", []want{base("env --ignore-e rm x", "env --ignore-e rm x"), same("rm x"), write("x")}},
	{"wrapper", "env --list-signal-handling LANG=C rm x", []want{base("env --list-signal-handling LANG=C rm x", "env --list-signal-handling LANG=C rm x"), same("rm x"), write("x")}},
	{"wrapper", "env --block-s=TERM rm x", []want{base("env --block-s=TERM rm x", "env --block-s=TERM rm x"), same("rm x"), write("x")}},
	{"wrapper", "env --help rm x", []want{same("env --help rm x")}},
	{"wrapper", "env --frob rm x", []want{hidden("env --frob rm x", "env --frob rm x", "env --frob is not an option the splitter knows")}},
	{"wrapper", "nice --adj=5 rm x", []want{base("nice --adj=5 rm x", "nice --adj=5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "nice --adj 5 rm x", []want{base("nice --adj 5 rm x", "nice --adj 5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "timeout --k=1 5 rm x", []want{base("timeout --k=1 5 rm x", "timeout --k=1 5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "timeout --kill 1 5 rm x", []want{base("timeout --kill 1 5 rm x", "timeout --kill 1 5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "timeout -vk1 5 rm x", []want{base("timeout -vk1 5 rm x", "timeout -vk1 5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "sudo -k rm x", []want{same("sudo -k rm x"), same("rm x"), write("x")}},
	{"wrapper", "sudo -e /etc/hosts", []want{hidden("sudo -e /etc/hosts", "sudo -e /etc/hosts", "sudo -e edits files")}},
	{"wrapper", "sudo -nu root rm x", []want{same("sudo -nu root rm x"), same("rm x"), write("x")}},
	{"wrapper", "sudo --us=root rm x", []want{same("sudo --us=root rm x"), same("rm x"), write("x")}},
	{"wrapper", "/usr/bin/time -o log rm x", []want{base("/usr/bin/time -o log rm x", "/usr/bin/time -o log rm x"), base("time -o log rm x", "/usr/bin/time -o log rm x"), write("log"), same("rm x"), write("x")}},
	{"wrapper", "xargs -a list rm", []want{{value: "xargs -a list rm", text: "xargs -a list rm", constrain: true, unseen: "xargs appends the words it reads to rm, which may read them as options that run a command"}, read("list"), same("rm"), {tool: "write", value: "(the words xargs reads)", text: "(the words xargs reads)", unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "xargs --show-limits touch", []want{{value: "xargs --show-limits touch", text: "xargs --show-limits touch", constrain: true, unseen: "xargs appends the words it reads to touch, which may read them as options that run a command"}, same("touch"), {tool: "write", value: "(the words xargs reads)", text: "(the words xargs reads)", unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "xargs -0r rm", []want{{value: "xargs -0r rm", text: "xargs -0r rm", constrain: true, unseen: "xargs appends the words it reads to rm, which may read them as options that run a command"}, same("rm"), {tool: "write", value: "(the words xargs reads)", text: "(the words xargs reads)", unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "git ls-files | xargs cat", []want{same("git ls-files"), base("xargs cat", "xargs cat"), same("cat"), {tool: "read", value: "(the words xargs reads)", text: "(the words xargs reads)", unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "ls | xargs sort", []want{same("ls"), {value: "xargs sort", text: "xargs sort", constrain: true, unseen: "xargs appends the words it reads to sort, which may read them as options that run a command"}, hidden("sort", "sort", "the word (the words xargs reads) may be an option of sort, known only when it runs"), {tool: "read", value: "(the words xargs reads)", text: "(the words xargs reads)", unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "echo ok | xargs env echo", []want{same("echo ok"), {value: "xargs env echo", text: "xargs env echo", constrain: true}, {value: "env echo ok", text: "env echo", constrain: true}, {value: "echo ok", text: "echo"}}},
	// With -x, xargs may stop short of a command: the words it reads,
	// as far as they are known, hold the command to the deny rules.
	{"wrapper", "echo ok | xargs -x env echo", []want{same("echo ok"), {value: "xargs -x env echo", text: "xargs -x env echo", constrain: true, unseen: "xargs appends the words it reads to env, which may read them as options that run a command"}, base("env echo", "env echo"), same("echo"), {value: "env echo ok", text: "env echo", constrain: true}, {value: "echo ok", text: "echo"}}},
	{"wrapper", "echo x | xargs xargs rm -f ./missing", []want{same("echo x"), {value: "xargs xargs rm -f ./missing", text: "xargs xargs rm -f ./missing", constrain: true}, {value: "xargs rm -f ./missing x", text: "xargs rm -f ./missing", constrain: true, unseen: "xargs appends the words it reads to rm, which may read them as options that run a command"}, {value: "rm -f ./missing x", text: "rm -f ./missing"}, write("./missing"), write("x"), {tool: "write", value: "(the words xargs reads)", text: "(the words xargs reads)", unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "ls | xargs echo", []want{same("ls"), base("xargs echo", "xargs echo"), same("echo")}},
	{"wrapper", "su root -c 'rm x'", []want{run("su root -c rm x", "su root -c 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "su - root -c id", []want{same("su - root -c id"), same("id")}},
	{"wrapper", "su -s ./sh root", []want{hidden("su -s ./sh root", "su -s ./sh root", "su -s names the shell it runs")}},
	{"wrapper", "su root ./script.sh", []want{hidden("su root ./script.sh", "su root ./script.sh", "su passes words after the user to a shell")}},
	{"wrapper", "runuser -u app -- rm x", []want{same("runuser -u app -- rm x"), same("rm x"), write("x")}},
	{"wrapper", "script -qc ls /dev/null", []want{base("script -qc ls /dev/null", "script -qc ls /dev/null"), same("ls")}},
	{"wrapper", "script -T t -c ls", []want{base("script -T t -c ls", "script -T t -c ls"), write("t"), same("ls")}},
	{"wrapper", "watch -d ls", []want{base("watch -d ls", "watch -d ls"), same("ls")}},
	{"wrapper", "watch --int=5 -x rm x", []want{base("watch --int=5 -x rm x", "watch --int=5 -x rm x"), same("rm x"), write("x")}},
	{"wrapper", "watch --frob ls", []want{hidden("watch --frob ls", "watch --frob ls", "watch --frob is not an option the splitter knows")}},
	{"wrapper", "stdbuf --frob rm x", []want{hidden("stdbuf --frob rm x", "stdbuf --frob rm x", "stdbuf --frob is not an option the splitter knows")}},
}

func TestOptions(t *testing.T) {
	checkCases(t, optionCases)
}

// TestParseFlags holds the reader to getopt_long's rules directly.
func TestParseFlags(t *testing.T) {
	table := flagSet(byEffect{inert: "a b c: d:: long-one long-two: longer", writesArg: "o: output:"})
	lit := func(vs ...string) []word {
		ws := make([]word, len(vs))
		for i, v := range vs {
			ws[i] = word{value: v, literal: true}
		}
		return ws
	}
	cases := []struct {
		args     []string
		permute  bool
		options  string // name=value of each option given
		operands string
		opaque   bool
	}{
		{[]string{"-ab", "x"}, true, "[a= b=]", "[x]", false},
		{[]string{"-acx", "y"}, true, "[a= c=x]", "[y]", false},
		{[]string{"-ac", "x", "y"}, true, "[a= c=x]", "[y]", false},
		{[]string{"-d", "x"}, true, "[d=]", "[x]", false},
		{[]string{"-dx"}, true, "[d=x]", "[]", false},
		{[]string{"x", "-a"}, true, "[a=]", "[x]", false},
		{[]string{"x", "-a"}, false, "[]", "[x -a]", false},
		{[]string{"--", "-a"}, true, "[]", "[-a]", false},
		{[]string{"-", "-a"}, true, "[a=]", "[-]", false},
		{[]string{"--long-o"}, true, "[long-one=]", "[]", false},
		{[]string{"--long-t", "v"}, true, "[long-two=v]", "[]", false},
		{[]string{"--long-t=v", "w"}, true, "[long-two=v]", "[w]", false},
		{[]string{"--long"}, true, "[]", "[]", true}, // long-one, long-two, longer
		{[]string{"--longe"}, true, "[longer=]", "[]", false},
		{[]string{"--out", "f"}, true, "[output=f]", "[]", false},
		{[]string{"-z"}, true, "[]", "[]", true},
		{[]string{"--zz"}, true, "[]", "[]", true},
		{[]string{"--longer=x"}, true, "[]", "[]", true},
	}
	for _, c := range cases {
		p := table.parseFlags("cmd", lit(c.args...), c.permute)
		var opts []string
		for _, g := range p.options {
			opts = append(opts, g.name+"="+g.value.value)
		}
		if got := fmt.Sprint(opts); got != c.options && !(c.options == "[]" && len(opts) == 0) {
			t.Errorf("%q: options %s, want %s", c.args, got, c.options)
		}
		if got := fmt.Sprint(values(p.operands)); got != c.operands {
			t.Errorf("%q: operands %s, want %s", c.args, got, c.operands)
		}
		if (p.opaque != "") != c.opaque {
			t.Errorf("%q: opaque %q, want opaque %v", c.args, p.opaque, c.opaque)
		}
	}
}

// TestNoTableNamesAnOptionTwice: an option listed twice is an ambiguous
// abbreviation of itself to the reader, so "rg --max-columns-pre" would ask
// where rg reads one option.
func TestNoTableNamesAnOptionTwice(t *testing.T) {
	tables := map[string]*optionTable{
		"awk": awkOptions, "git": gitGlobals, "rsync": rsyncOptions, "rg": rgOptions, "man": manOptions, "zip": zipOptions,
		"vi": vimOptions, "sed": sedOptions, "tar": tarOptions, "env": envOptions, "flock": flockOptions, "watch": watchOptions,
	}
	for name, p := range programs() {
		tables[name] = p.flags
	}
	for name, table := range sshOptions {
		tables["ssh "+name] = table
	}
	for name, table := range commandOptions {
		tables["command "+name] = table
	}
	for name, table := range tables {
		if table == nil {
			continue
		}
		seen := map[string]bool{}
		for i, list := range table.lists {
			if table.gnu && effect(i) == inert {
				list += gnu
			}
			for _, spec := range strings.Fields(list) {
				option := strings.TrimRight(spec, ":#")
				if seen[option] {
					t.Errorf("%s lists %s twice", name, option)
				}
				seen[option] = true
			}
		}
	}
}
