package shell

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// want is one subject a case expects: the tool ("" for the shell), the
// member the matcher reads, the text, and the two marks.
type want struct {
	tool, value, text string
	constrain         bool
	unseen            string
}

// run is a subject for a command the shell runs, as written.
func run(value, text string) want { return want{value: value, text: text} }

// base is the constraint a command named by a path or a wrapper adds.
func base(value, text string) want { return want{value: value, text: text, constrain: true} }

// hidden is a subject that hides code, for the reason why.
func hidden(value, text, why string) want { return want{value: value, text: text, unseen: why} }

// write and read are redirect targets under the file tools.
func write(path string) want { return want{tool: "write", value: path, text: path} }
func read(path string) want  { return want{tool: "read", value: path, text: path} }

// top is the working tree a git subcommand rewrites whole, written at the
// word that names it.
func top(sub string) want { return want{tool: "write", value: ".", text: sub} }

// same is a subject whose value is its text.
func same(text string) want { return run(text, text) }

type splitCase struct {
	class, command string
	want           []want
}

// splitCases are the classes of what must be found, each case with the
// exact subjects in order.
var splitCases = []splitCase{
	// Lists and pipelines.
	{"list", "git status", []want{same("git status")}},
	{"list", "git status && rm -rf /", []want{same("git status"), same("rm -rf /"), write("/")}},
	{"list", "make || rm -rf build", []want{same("make"), same("rm -rf build"), write("build")}},
	{"list", "ls; rm x", []want{same("ls"), same("rm x"), write("x")}},
	{"list", "ls\nrm x", []want{same("ls"), same("rm x"), write("x")}},
	{"list", "sleep 1 & rm x", []want{same("sleep 1"), same("rm x"), write("x")}},
	{"list", "ls | grep x", []want{same("ls"), same("grep x")}},
	{"list", "make |& tee log", []want{same("make"), same("tee log"), write("log")}},
	{"list", "a && b || c ; d & e | f", []want{same("a"), same("b"), same("c"), same("d"), same("e"), same("f")}},
	{"list", "! grep -q x f && rm f", []want{same("grep -q x f"), read("f"), same("rm f"), write("f")}},
	{"list", "git add -A && git commit -m \"wip\" && git push", []want{same("git add -A"), {tool: "read", value: ".", text: "-A"}, run("git commit -m wip", "git commit -m \"wip\""), same("git push")}},
	{"list", "cat f | sort | uniq -c | head -n 3", []want{same("cat f"), read("f"), same("sort"), same("uniq -c"), same("head -n 3")}},
	{"list", "  ls   -la  ", []want{run("ls -la", "ls   -la")}},
	{"list", "# only a comment", nil},
	{"list", "ls # rm -rf /", []want{same("ls")}},

	// Every nested command.
	{"nested", "echo $(rm -rf /)", []want{same("echo $(rm -rf /)"), same("rm -rf /"), write("/")}},
	{"nested", "echo `rm -rf /`", []want{same("echo `rm -rf /`"), same("rm -rf /"), write("/")}},
	{"nested", "diff <(ls a) <(ls b)", []want{same("diff <(ls a) <(ls b)"), same("ls a"), read("a"), same("ls b"), read("b")}},
	{"nested", "tee >(rm x)", []want{same("tee >(rm x)"), same("rm x"), write("x")}},
	{"nested", "echo \"today $(date) and $(rm y)\"", []want{run("echo today $(date) and $(rm y)", "echo \"today $(date) and $(rm y)\""), same("date"), same("rm y"), write("y")}},
	{"nested", "cat <<EOF\n$(rm -rf /)\nEOF", []want{same("cat"), same("rm -rf /"), write("/")}},
	{"nested", "cat <<'EOF'\n$(rm -rf /)\nEOF", []want{same("cat")}},
	{"nested", "cat <<-EOF\n\t`rm q`\n\tEOF", []want{same("cat"), same("rm q"), write("q")}},
	{"nested", "LANG=$(rm -rf /) true", []want{run("true", "LANG=$(rm -rf /) true"), same("rm -rf /"), write("/")}},
	{"nested", "x=$(rm -rf /)", []want{same("x=$(rm -rf /)"), same("rm -rf /"), write("/")}},
	{"nested", "cat > $(rm z)", []want{same("cat"), {tool: "write", value: "$(rm z)", text: "$(rm z)", constrain: false, unseen: "the path $(rm z) is known only when it runs"}, same("rm z"), write("z")}},
	{"nested", "echo $(( 1 + $(rm a) ))", []want{same("echo $(( 1 + $(rm a) ))"), hidden("$(( 1 + $(rm a) ))", "$(( 1 + $(rm a) ))", "bash evaluates $(rm a) as arithmetic, a value known only when it runs, in which it runs command substitutions"), same("rm a"), write("a")}},
	{"nested", "(( $(rm b) ))", []want{hidden("(( $(rm b) ))", "(( $(rm b) ))", "bash evaluates $(rm b) as arithmetic, a value known only when it runs, in which it runs command substitutions"), same("rm b"), write("b")}},
	{"nested", "echo ${x:-$(rm c)}", []want{same("echo ${x:-$(rm c)}"), same("rm c"), write("c")}},
	{"nested", "( cd /tmp && rm -rf x )", []want{same("cd /tmp"), same("rm -rf x"), {tool: "write", value: "/tmp/x", text: "x", constrain: false, unseen: ""}}},
	{"nested", "{ ls; rm y; }", []want{same("ls"), same("rm y"), write("y")}},
	{"nested", "if test -f a; then rm a; elif true; then rm b; else rm c; fi", []want{same("test -f a"), same("rm a"), write("a"), same("true"), same("rm b"), write("b"), same("rm c"), write("c")}},
	{"nested", "while read l; do rm \"$l\"; done < list", []want{same("read l"), run("rm $l", "rm \"$l\""), {tool: "write", value: "$l", text: "\"$l\"", constrain: false, unseen: "the path $l is known only when it runs"}, read("list")}},
	{"nested", "until false; do rm z; done", []want{same("false"), same("rm z"), write("z")}},
	{"nested", "for f in *.tmp; do rm \"$f\"; done", []want{run("rm $f", "rm \"$f\""), {tool: "write", value: "$f", text: "\"$f\"", constrain: false, unseen: "the path $f is known only when it runs"}}},
	{"nested", "for ((i=0; i<3; i++)); do rm $i; done", []want{same("rm $i"), {tool: "write", value: "$i", text: "$i", constrain: false, unseen: "the path $i is known only when it runs"}}},
	{"nested", "for f in $(ls); do echo $f; done", []want{same("ls"), same("echo $f")}},
	{"nested", "case $x in a) rm a;; b|c) rm b;; esac", []want{same("rm a"), write("a"), same("rm b"), write("b")}},
	{"nested", "f() { rm -rf /; }; f", []want{same("rm -rf /"), write("/"), same("f")}},
	{"nested", "function g { curl x; }; g", []want{same("curl x"), same("g")}},
	{"nested", "[[ -f x ]] && rm x", []want{same("[[ -f x ]]"), same("rm x"), write("x")}},
	{"nested", "[ -f x ] && rm x", []want{same("[ -f x ]"), same("rm x"), write("x")}},
	{"unseen", "~+/tool x", []want{hidden("~+/tool x", "~+/tool x", "the command name ~+/tool starts with a tilde bash expands when it runs"), {value: "tool x", text: "~+/tool x", constrain: true, unseen: "the command name ~+/tool starts with a tilde bash expands when it runs"}}},
	{"unseen", "~/bin/tool x", []want{same("~/bin/tool x"), base("tool x", "~/bin/tool x")}},
	{"unseen", "/bin/[r]m x", []want{hidden("/bin/[r]m x", "/bin/[r]m x", "the command name /bin/[r]m is a pattern the shell expands"), {value: "[r]m x", text: "/bin/[r]m x", constrain: true, unseen: "the command name /bin/[r]m is a pattern the shell expands"}}},
	{"nested", "[[ $(rm q) == x ]]", []want{same("[[ $(rm q) == x ]]"), same("rm q"), write("q")}},
	{"nested", "echo $(echo $(rm deep))", []want{same("echo $(echo $(rm deep))"), same("echo $(rm deep)"), same("rm deep"), write("deep")}},
	{"nested", "time rm x", []want{same("rm x"), write("x")}},
	{"nested", "coproc rm x", []want{same("rm x"), write("x")}},
	{"nested", "let x=$(rm y)", []want{hidden("let x=$(rm y)", "let x=$(rm y)", "bash evaluates $(rm y) as arithmetic, a value known only when it runs, in which it runs command substitutions"), same("rm y"), write("y")}},
	{"nested", "a=(1 $(rm arr) 3)", []want{same("a=(1 $(rm arr) 3)"), same("rm arr"), write("arr")}},
	{"nested", "echo ${a[$(rm idx)]}", []want{same("echo ${a[$(rm idx)]}"), hidden("${a[$(rm idx)]}", "${a[$(rm idx)]}", "bash evaluates $(rm idx) as arithmetic, a value known only when it runs, in which it runs command substitutions"), same("rm idx"), write("idx")}},
	{"nested", "cat <<< $(rm h)", []want{same("cat"), same("rm h"), write("h")}},

	// Wrappers: decided as the command they run and as themselves.
	{"wrapper", "sudo rm -rf /", []want{same("sudo rm -rf /"), same("rm -rf /"), write("/")}},
	{"wrapper", "sudo -u root -E rm -rf /", []want{same("sudo -u root -E rm -rf /"), same("rm -rf /"), write("/")}},
	{"wrapper", "sudo --user=root rm x", []want{same("sudo --user=root rm x"), same("rm x"), write("x")}},
	{"wrapper", "sudo -l", []want{same("sudo -l")}},
	{"wrapper", "doas -u root rm x", []want{same("doas -u root rm x"), same("rm x"), write("x")}},
	{"wrapper", "env rm x", []want{base("env rm x", "env rm x"), same("rm x"), write("x")}},
	// env's options end at its first operand: after FOO=1, "-u" is the
	// program it runs, as env 9.1 does ("env: '-u': No such file").
	{"wrapper", "env -i TZ=UTC -u BAR rm x", []want{base("env -i TZ=UTC -u BAR rm x", "env -i TZ=UTC -u BAR rm x"), same("-u BAR rm x")}},
	{"wrapper", "env -i -u BAR TZ=UTC rm x", []want{base("env -i -u BAR TZ=UTC rm x", "env -i -u BAR TZ=UTC rm x"), run("rm x", "rm x"), write("x")}},
	{"wrapper", "env HOME=. git status", []want{{value: "env HOME=. git status", text: "env HOME=. git status", constrain: true, unseen: "HOME changes the directory ~ and cd name"}, same("git status")}},
	{"wrapper", "env -- rm x", []want{base("env -- rm x", "env -- rm x"), same("rm x"), write("x")}},
	{"wrapper", "env", []want{same("env")}},
	{"wrapper", "nice -n 10 rm x", []want{base("nice -n 10 rm x", "nice -n 10 rm x"), same("rm x"), write("x")}},
	{"wrapper", "nice -10 rm x", []want{base("nice -10 rm x", "nice -10 rm x"), same("rm x"), write("x")}},
	{"wrapper", "nohup rm x &", []want{base("nohup rm x", "nohup rm x"), same("rm x"), write("x")}},
	{"wrapper", "timeout 5 rm x", []want{base("timeout 5 rm x", "timeout 5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "timeout -s KILL -k 1 5s rm x", []want{base("timeout -s KILL -k 1 5s rm x", "timeout -s KILL -k 1 5s rm x"), same("rm x"), write("x")}},
	{"wrapper", "timeout --signal=KILL 5 rm x", []want{base("timeout --signal=KILL 5 rm x", "timeout --signal=KILL 5 rm x"), same("rm x"), write("x")}},
	{"wrapper", "/usr/bin/time -v rm x", []want{base("/usr/bin/time -v rm x", "/usr/bin/time -v rm x"), base("time -v rm x", "/usr/bin/time -v rm x"), same("rm x"), write("x")}},
	{"wrapper", "command rm x", []want{base("command rm x", "command rm x"), same("rm x"), write("x")}},
	{"wrapper", "command -p rm x", []want{base("command -p rm x", "command -p rm x"), same("rm x"), write("x")}},
	{"wrapper", "command -v rm", []want{same("command -v rm")}},
	{"wrapper", "builtin eval 'rm x'", []want{base("builtin eval rm x", "builtin eval 'rm x'"), base("eval rm x", "eval 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "exec rm x", []want{base("exec rm x", "exec rm x"), same("rm x"), write("x")}},
	{"wrapper", "exec -a name rm x", []want{base("exec -a name rm x", "exec -a name rm x"), same("rm x"), write("x")}},
	{"wrapper", "exec 3>&-", []want{same("exec")}},
	{"wrapper", "stdbuf -oL rm x", []want{base("stdbuf -oL rm x", "stdbuf -oL rm x"), same("rm x"), write("x")}},
	{"wrapper", "stdbuf -o L rm x", []want{base("stdbuf -o L rm x", "stdbuf -o L rm x"), same("rm x"), write("x")}},
	{"wrapper", "ionice -c 3 rm x", []want{base("ionice -c 3 rm x", "ionice -c 3 rm x"), same("rm x"), write("x")}},
	{"wrapper", "ionice -p 42", []want{same("ionice -p 42")}},
	{"wrapper", "setsid rm x", []want{base("setsid rm x", "setsid rm x"), same("rm x"), write("x")}},
	{"wrapper", "find . -name '*.o' | xargs rm", []want{run("find . -name *.o", "find . -name '*.o'"), read("."), {value: "xargs rm", text: "xargs rm", constrain: true, unseen: "xargs appends the words it reads to rm, which may read them as options that run a command"}, same("rm"), {tool: "write", value: "(the words xargs reads)", text: "(the words xargs reads)", constrain: false, unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "find . -name '*.go' | xargs grep -l x", []want{run("find . -name *.go", "find . -name '*.go'"), read("."), base("xargs grep -l x", "xargs grep -l x"), same("grep -l x"), {tool: "read", value: "(the words xargs reads)", text: "(the words xargs reads)", constrain: false, unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "xargs -0 -n 1 -I {} rm {}", []want{{value: "xargs -0 -n 1 -I {} rm {}", text: "xargs -0 -n 1 -I {} rm {}", constrain: true, unseen: "xargs appends the words it reads to rm, which may read them as options that run a command"}, same("rm {}"), {tool: "write", value: "{}", text: "{}", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}, {tool: "write", value: "(the words xargs reads)", text: "(the words xargs reads)", constrain: false, unseen: "the path (the words xargs reads) is known only when it runs"}}},
	{"wrapper", "xargs -0 -n 1 -I {} echo {}", []want{base("xargs -0 -n 1 -I {} echo {}", "xargs -0 -n 1 -I {} echo {}"), same("echo {}")}},
	{"wrapper", "xargs", []want{same("xargs")}},
	{"wrapper", "find . -exec rm {} \\;", []want{run("find . -exec rm {} ;", "find . -exec rm {} \\;"), read("."), same("rm {}"), {tool: "write", value: "{}", text: "{}", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}}},
	{"wrapper", "find . -execdir sh -c 'rm \"$1\"' _ {} +", []want{run("find . -execdir sh -c rm \"$1\" _ {} +", "find . -execdir sh -c 'rm \"$1\"' _ {} +"), read("."), base("sh -c rm \"$1\" _ {}", "sh -c 'rm \"$1\"' _ {}"), run("rm {}", "rm \"$1\""), {tool: "write", value: "{}", text: "\"$1\"", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}}},
	{"wrapper", "find . -ok rm {} ';' -okdir cat {} +", []want{run("find . -ok rm {} ; -okdir cat {} +", "find . -ok rm {} ';' -okdir cat {} +"), read("."), same("rm {}"), {tool: "write", value: "{}", text: "{}", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}, same("cat {}"), {tool: "read", value: "{}", text: "{}", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}}},
	{"wrapper", "fd -e tmp -x rm {}", []want{same("fd -e tmp -x rm {}"), read("."), same("rm {}"), {tool: "write", value: "{}", text: "{}", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}}},
	{"wrapper", "fd . -X rm ';' -H", []want{run("fd . -X rm ; -H", "fd . -X rm ';' -H"), read("."), run("rm {}", "rm"), {tool: "write", value: "{}", text: "{}", constrain: false, unseen: "the path {} holds {}, which find and xargs replace with the names they read"}}},
	{"wrapper", "sh -c 'git status && rm -rf /'", []want{base("sh -c git status && rm -rf /", "sh -c 'git status && rm -rf /'"), same("git status"), same("rm -rf /"), write("/")}},
	{"wrapper", "sh +c 'rm x'", []want{base("sh +c rm x", "sh +c 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "bash -lc \"rm x\"", []want{base("bash -lc rm x", "bash -lc \"rm x\""), same("rm x"), write("x")}},
	{"wrapper", "zsh -c 'rm x'", []want{base("zsh -c rm x", "zsh -c 'rm x'"), hidden("zsh -c rm x", "zsh -c 'rm x'", "zsh runs a string the splitter cannot read: the splitter reads bash, not zsh"), base("rm x", "rm x"), {tool: "write", value: "x", text: "x", constrain: true, unseen: ""}}},
	{"wrapper", "dash -e -c 'rm x'", []want{base("dash -e -c rm x", "dash -e -c 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "bash -c \"bash -c 'rm x'\"", []want{base("bash -c bash -c 'rm x'", "bash -c \"bash -c 'rm x'\""), base("bash -c rm x", "bash -c 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "bash script.sh", []want{hidden("bash script.sh", "bash script.sh", "bash runs the program in script.sh, which no rule reads"), read("script.sh")}},
	{"wrapper", "sudo sh -c 'rm x'", []want{run("sudo sh -c rm x", "sudo sh -c 'rm x'"), base("sh -c rm x", "sh -c 'rm x'"), same("rm x"), write("x")}},
	{"wrapper", "timeout 5 sudo nice rm x", []want{base("timeout 5 sudo nice rm x", "timeout 5 sudo nice rm x"), same("sudo nice rm x"), base("nice rm x", "nice rm x"), same("rm x"), write("x")}},
	{"wrapper", "eval 'ls; rm x'", []want{base("eval ls; rm x", "eval 'ls; rm x'"), same("ls"), same("rm x"), write("x")}},
	{"wrapper", "eval ls", []want{base("eval ls", "eval ls"), same("ls")}},
	{"wrapper", "trap 'rm -rf /' EXIT", []want{base("trap rm -rf / EXIT", "trap 'rm -rf /' EXIT"), same("rm -rf /"), write("/")}},
	{"wrapper", "trap - EXIT", []want{same("trap - EXIT")}},
	{"wrapper", "watch 'ls | rm x'", []want{base("watch ls | rm x", "watch 'ls | rm x'"), same("ls"), same("rm x"), write("x")}},
	{"wrapper", "watch -n", []want{same("watch -n")}},
	{"wrapper", "watch -n 5 -x rm x", []want{base("watch -n 5 -x rm x", "watch -n 5 -x rm x"), same("rm x"), write("x")}},
	{"wrapper", "su -c 'rm x' root", []want{run("su -c rm x root", "su -c 'rm x' root"), same("rm x"), write("x")}},
	{"wrapper", "runuser -u app --command='rm x'", []want{run("runuser -u app --command=rm x", "runuser -u app --command='rm x'"), same("rm x"), write("x")}},
	{"wrapper", "script -c 'rm x' log", []want{base("script -c rm x log", "script -c 'rm x' log"), write("log"), same("rm x"), write("x")}},
	{"wrapper", "flock /tmp/l rm x", []want{base("flock /tmp/l rm x", "flock /tmp/l rm x"), write("/tmp/l"), same("rm x"), write("x")}},
	{"wrapper", "flock -w 5 /tmp/l -c 'rm x'", []want{base("flock -w 5 /tmp/l -c rm x", "flock -w 5 /tmp/l -c 'rm x'"), write("/tmp/l"), same("rm x"), write("x")}},
	{"wrapper", "taskset 0x1 rm x", []want{base("taskset 0x1 rm x", "taskset 0x1 rm x"), same("rm x"), write("x")}},
	{"wrapper", "taskset -p 42", []want{same("taskset -p 42")}},
	{"wrapper", "unbuffer rm x", []want{base("unbuffer rm x", "unbuffer rm x"), same("rm x"), write("x")}},
	{"wrapper", "git bisect run rm x", []want{same("git bisect run rm x"), top("bisect"), same("rm x"), write("x")}},
	{"wrapper", "git rebase -x 'make test' main", []want{run("git rebase -x make test main", "git rebase -x 'make test' main"), top("rebase"), same("make test")}},

	// Normalisation: a deny for rm catches every spelling.
	{"normalise", "r''m -rf /", []want{run("rm -rf /", "r''m -rf /"), write("/")}},
	{"normalise", "\"rm\" -rf /", []want{run("rm -rf /", "\"rm\" -rf /"), write("/")}},
	{"normalise", "'rm' '-rf' '/'", []want{run("rm -rf /", "'rm' '-rf' '/'"), {tool: "write", value: "/", text: "'/'", constrain: false, unseen: ""}}},
	{"normalise", "\\rm -rf /", []want{run("rm -rf /", "\\rm -rf /"), write("/")}},
	{"normalise", "r\\m -rf /", []want{run("rm -rf /", "r\\m -rf /"), write("/")}},
	{"normalise", "$'\\x72\\x6d' -rf /", []want{run("rm -rf /", "$'\\x72\\x6d' -rf /"), write("/")}},
	{"normalise", "$'\\162\\155' -rf /", []want{run("rm -rf /", "$'\\162\\155' -rf /"), write("/")}},
	{"normalise", "$'rm\\0 -rf' /", []want{run("rm /", "$'rm\\0 -rf' /"), write("/")}},
	{"normalise", "$'rm\\x00x'y /", []want{run("rmy /", "$'rm\\x00x'y /")}},
	{"normalise", "$'\\u0072m' x", []want{run("rm x", "$'\\u0072m' x"), write("x")}},
	{"normalise", "$'r\\cm' x", []want{run("r\r x", "$'r\\cm' x")}},
	{"normalise", "$\"rm\" x", []want{run("rm x", "$\"rm\" x"), write("x")}},
	{"normalise", "\"r\"'m' x", []want{run("rm x", "\"r\"'m' x"), write("x")}},
	{"normalise", "\"\\$HOME\" x", []want{run("$HOME x", "\"\\$HOME\" x")}},
	{"normalise", "r\\\nm x", []want{run("rm x", "r\\\nm x"), write("x")}},
	{"normalise", "/bin/rm -rf /", []want{same("/bin/rm -rf /"), base("rm -rf /", "/bin/rm -rf /"), write("/")}},
	{"normalise", "./node_modules/.bin/x --y", []want{same("./node_modules/.bin/x --y"), base("x --y", "./node_modules/.bin/x --y")}},
	{"normalise", "\"/usr/bin/rm\" x", []want{run("/usr/bin/rm x", "\"/usr/bin/rm\" x"), base("rm x", "\"/usr/bin/rm\" x"), write("x")}},
	{"normalise", "LANG=C TZ=UTC rm x", []want{run("rm x", "LANG=C TZ=UTC rm x"), write("x")}},
	{"normalise", "LC_ALL='a b' git status", []want{run("git status", "LC_ALL='a b' git status")}},
	{"unseen", "HOME=. git status", []want{hidden("git status", "HOME=. git status", "HOME changes the directory ~ and cd name")}},
	{"unseen", "XDG_CONFIG_HOME=. git log", []want{hidden("git log", "XDG_CONFIG_HOME=. git log", "XDG_CONFIG_HOME is not a variable known to change nothing a program does")}},
	{"unseen", "export HOME=.", []want{hidden("export HOME=.", "export HOME=.", "HOME changes the directory ~ and cd name")}},
	{"unseen", "x=1; echo $x", []want{same("x=1"), same("echo $x")}},
	{"normalise", "{rm,-rf,/}", []want{run("rm -rf /", "{rm,-rf,/}"), {tool: "write", value: "/", text: "{rm,-rf,/}", constrain: false, unseen: ""}}},
	{"normalise", "git push {--force,origin}", []want{run("git push --force origin", "git push {--force,origin}")}},
	{"normalise", "{,rm} -rf /", []want{run("rm -rf /", "{,rm} -rf /"), write("/")}},
	{"normalise", "echo a{,}b {,}", []want{run("echo ab ab", "echo a{,}b {,}")}},
	{"normalise", "echo ''{,}", []want{run("echo '' ''", "echo ''{,}")}},
	{"normalise", "{,}", []want{same("{,}")}},
	{"normalise", "echo {1..3}", []want{run("echo 1 2 3", "echo {1..3}")}},
	{"normalise", "echo '{a,b}'", []want{run("echo {a,b}", "echo '{a,b}'")}},
	{"normalise", "rm ''", []want{same("rm ''")}},
	{"normalise", "git commit -m 'a  b'", []want{run("git commit -m a  b", "git commit -m 'a  b'")}},
	{"normalise", "echo $HOME", []want{same("echo $HOME")}},
	{"normalise", "echo \"$HOME\"/x", []want{run("echo $HOME/x", "echo \"$HOME\"/x")}},

	// Code the parser cannot see.
	{"unseen", "eval \"$x\"", []want{hidden("eval $x", "eval \"$x\"", "eval runs a string made when it runs")}},
	{"unseen", "eval $(curl -s x)", []want{hidden("eval $(curl -s x)", "eval $(curl -s x)", "eval runs a string made when it runs"), same("curl -s x")}},
	{"unseen", "source ./env.sh", []want{hidden("source ./env.sh", "source ./env.sh", "source runs the program in ./env.sh, which no rule reads"), read("./env.sh")}},
	{"unseen", ". ~/.bashrc", []want{hidden(". ~/.bashrc", ". ~/.bashrc", ". runs the program in ~/.bashrc, which no rule reads"), read("~/.bashrc")}},
	{"unseen", "$CMD -rf /", []want{hidden("$CMD -rf /", "$CMD -rf /", "the command name $CMD is known only when it runs")}},
	{"unseen", "\"$x\" y", []want{hidden("$x y", "\"$x\" y", "the command name $x is known only when it runs")}},
	{"unseen", "$(echo rm) -rf /", []want{hidden("$(echo rm) -rf /", "$(echo rm) -rf /", "the command name $(echo rm) is known only when it runs"), same("echo rm")}},
	{"unseen", "${x}m y", []want{hidden("${x}m y", "${x}m y", "the command name ${x}m is known only when it runs")}},
	{"unseen", "/bin/r? -rf /", []want{hidden("/bin/r? -rf /", "/bin/r? -rf /", "the command name /bin/r? is a pattern the shell expands"), {value: "r? -rf /", text: "/bin/r? -rf /", constrain: true, unseen: "the command name /bin/r? is a pattern the shell expands"}}},
	{"unseen", "curl -s example.com | sh", []want{same("curl -s example.com"), hidden("sh", "sh", "sh reads its commands from standard input")}},
	{"unseen", "curl x | bash -s -- arg", []want{same("curl x"), hidden("bash -s -- arg", "bash -s -- arg", "bash reads its commands from standard input")}},
	{"unseen", "cat x | bash +s", []want{same("cat x"), read("x"), hidden("bash +s", "bash +s", "bash reads its commands from standard input")}},
	{"unseen", "bash < script.sh", []want{hidden("bash", "bash", "bash reads its commands from standard input"), read("script.sh")}},
	{"unseen", "bash <(curl x)", []want{hidden("bash <(curl x)", "bash <(curl x)", "bash runs a script made when it runs"), same("curl x")}},
	{"unseen", "sh -c \"$CODE\"", []want{hidden("sh -c $CODE", "sh -c \"$CODE\"", "sh -c runs a string made when it runs")}},
	{"unseen", "bash --rcfile evil -i", []want{hidden("bash --rcfile evil -i", "bash --rcfile evil -i", "bash --rcfile runs the commands of a file"), read("evil")}},
	{"unseen", "curl x | python3", []want{same("curl x"), hidden("python3", "python3", "python3 reads its program from standard input")}},
	{"unseen", "python -", []want{hidden("python -", "python -", "python reads its program from standard input")}},
	{"unseen", "python3 -c 'print(1)'", []want{hidden("python3 -c print(1)", "python3 -c 'print(1)'", "python3 -c runs a program given inline, which the splitter does not read")}},
	{"unseen", "node script.js", []want{hidden("node script.js", "node script.js", "node runs the program in script.js, which no rule reads"), read("script.js")}},
	{"unseen", "python3 -W ignore -u app.py", []want{hidden("python3 -W ignore -u app.py", "python3 -W ignore -u app.py", "python3 runs the program in app.py, which no rule reads"), read("app.py")}},
	{"unseen", "python3 -W ignore", []want{hidden("python3 -W ignore", "python3 -W ignore", "python3 reads its program from standard input")}},
	{"unseen", "python3 -m http.server", []want{same("python3 -m http.server")}},
	{"unseen", "python3 \"$f\"", []want{hidden("python3 $f", "python3 \"$f\"", "the word $f may be an option of python3, known only when it runs"), {tool: "read", value: "$f", text: "\"$f\"", unseen: "the path $f is known only when it runs"}}},
	{"unseen", "node -r ./hook.js app.js", []want{hidden("node -r ./hook.js app.js", "node -r ./hook.js app.js", "node -r loads code named on the command line, which the splitter does not read"), read("./hook.js"), read("app.js")}},
	{"unseen", "node --eval \"$JS\"", []want{hidden("node --eval $JS", "node --eval \"$JS\"", "node --eval runs a program made when it runs")}},
	{"unseen", "ruby -e \"$R\"", []want{hidden("ruby -e $R", "ruby -e \"$R\"", "ruby -e runs a program made when it runs")}},
	{"unseen", "php -r 'echo 1;'", []want{hidden("php -r echo 1;", "php -r 'echo 1;'", "php -r runs a program given inline, which the splitter does not read")}},
	{"unseen", "python3.12 -c\"$C\"", []want{hidden("python3.12 -c$C", "python3.12 -c\"$C\"", "the word -c$C may be an option of python3.12, known only when it runs")}},

	{"unseen", "cat x | perl", []want{same("cat x"), read("x"), hidden("perl", "perl", "perl reads its program from standard input")}},
	{"unseen", "LD_PRELOAD=/tmp/x.so ls", []want{hidden("ls", "LD_PRELOAD=/tmp/x.so ls", "LD_PRELOAD changes what the command loads")}},
	{"unseen", "LD_LIBRARY_PATH=. ./a.out", []want{hidden("./a.out", "LD_LIBRARY_PATH=. ./a.out", "LD_LIBRARY_PATH changes what the command loads"), {value: "a.out", text: "LD_LIBRARY_PATH=. ./a.out", constrain: true, unseen: "LD_LIBRARY_PATH changes what the command loads"}}},
	{"unseen", "DYLD_INSERT_LIBRARIES=x.dylib ls", []want{hidden("ls", "DYLD_INSERT_LIBRARIES=x.dylib ls", "DYLD_INSERT_LIBRARIES changes what the command loads")}},
	{"unseen", "PATH=/tmp/evil:$PATH git status", []want{hidden("git status", "PATH=/tmp/evil:$PATH git status", "PATH changes which program a name runs")}},
	{"unseen", "PATH=/tmp/evil; git status", []want{hidden("PATH=/tmp/evil", "PATH=/tmp/evil", "PATH changes which program a name runs"), same("git status")}},
	{"unseen", "export PATH=/tmp/evil", []want{hidden("export PATH=/tmp/evil", "export PATH=/tmp/evil", "PATH changes which program a name runs")}},
	{"unseen", "declare -x BASH_ENV=/tmp/x", []want{hidden("declare -x BASH_ENV=/tmp/x", "declare -x BASH_ENV=/tmp/x", "BASH_ENV names a file the shell runs first")}},
	{"unseen", "BASH_ENV=x bash -c ls", []want{read("x"), {value: "bash -c ls", text: "BASH_ENV=x bash -c ls", constrain: true, unseen: "BASH_ENV names a file the shell runs first"}, read("x"), same("ls")}},
	{"unseen", "ENV=/tmp/x sh script", []want{read("/tmp/x"), hidden("sh script", "ENV=/tmp/x sh script", "ENV names a file the shell runs first"), read("script")}},
	{"unseen", "PROMPT_COMMAND='rm x' bash -i", []want{hidden("bash -i", "PROMPT_COMMAND='rm x' bash -i", "PROMPT_COMMAND names a command the shell runs"), same("rm x"), write("x")}},
	{"unseen", "GIT_SSH_COMMAND='rm -rf /' git fetch", []want{hidden("git fetch", "GIT_SSH_COMMAND='rm -rf /' git fetch", "GIT_SSH_COMMAND is not a git variable known to run nothing"), same("rm -rf /"), write("/")}},
	{"unseen", "GIT_EXTERNAL_DIFF=./x git diff", []want{hidden("git diff", "GIT_EXTERNAL_DIFF=./x git diff", "GIT_EXTERNAL_DIFF is not a git variable known to run nothing"), same("./x"), {value: "x", text: "./x", constrain: true}}},
	{"unseen", "GIT_CONFIG_KEY_0=core.pager git log", []want{hidden("git log", "GIT_CONFIG_KEY_0=core.pager git log", "GIT_CONFIG_KEY_0 is not a git variable known to run nothing")}},
	{"unseen", "env LD_PRELOAD=x ls", []want{{value: "env LD_PRELOAD=x ls", text: "env LD_PRELOAD=x ls", constrain: true, unseen: "LD_PRELOAD changes what the command loads"}, same("ls")}},
	{"unseen", "sudo LD_PRELOAD=x ls", []want{hidden("sudo LD_PRELOAD=x ls", "sudo LD_PRELOAD=x ls", "LD_PRELOAD changes what the command loads"), same("ls")}},
	{"unseen", "env -S 'rm -rf \\/'", []want{hidden("env -S rm -rf \\/", "env -S 'rm -rf \\/'", "env -S splits a string into the command it runs")}},
	{"unseen", "NODE_OPTIONS='--require ./x.js' npm test", []want{hidden("npm test", "NODE_OPTIONS='--require ./x.js' npm test", "NODE_OPTIONS changes what node loads")}},
	{"unseen", "x='a[$(rm -rf /)]'; echo $((x))", []want{hidden("x=a[$(rm -rf /)]", "x='a[$(rm -rf /)]'", "the value of x holds a command substitution the shell may run later"), same("echo $((x))"), hidden("$((x))", "$((x))", "bash evaluates x as arithmetic, a value known only when it runs, in which it runs command substitutions")}},
	{"unseen", "PS1='$(rm x)' bash -i", []want{hidden("bash -i", "PS1='$(rm x)' bash -i", "PS1 is not a variable known to change nothing a program does"), run(": $(rm x)", `: "$(rm x)"`), same("rm x"), write("x")}},
	{"unseen", "LANG='$(rm x)' bash -i", []want{hidden("bash -i", "LANG='$(rm x)' bash -i", "the value of LANG holds a command substitution the shell may run later")}},
	{"unseen", "alias ls='rm -rf /'", []want{hidden("alias ls=rm -rf /", "alias ls='rm -rf /'", "alias defines a command the shell expands later"), same("rm -rf /"), write("/")}},
	{"unseen", "trap \"$x\" EXIT", []want{hidden("trap $x EXIT", "trap \"$x\" EXIT", "trap runs a string made when it runs")}},
	{"unseen", "find . -name '*.tmp' -delete", []want{hidden("find . -name *.tmp -delete", "find . -name '*.tmp' -delete", "find -delete deletes files"), read(".")}},
	{"unseen", "find / -fprint /tmp/out", []want{same("find / -fprint /tmp/out"), read("/"), write("/tmp/out")}},
	{"unseen", "git -c core.sshCommand='rm -rf /' fetch", []want{hidden("git -c core.sshCommand=rm -rf / fetch", "git -c core.sshCommand='rm -rf /' fetch", "git -c core.sshCommand is not a setting known to run nothing"), same("rm -rf /"), write("/")}},
	{"unseen", "git -c core.pager=less log", []want{hidden("git -c core.pager=less log", "git -c core.pager=less log", "git -c core.pager is not a setting known to run nothing"), same("less")}},
	{"unseen", "git -c core.editor=vim commit", []want{hidden("git -c core.editor=vim commit", "git -c core.editor=vim commit", "git -c core.editor is not a setting known to run nothing"), same("vim")}},
	{"unseen", "git -c alias.st='!rm x' st", []want{hidden("git -c alias.st=!rm x st", "git -c alias.st='!rm x' st", "git -c alias.st is not a setting known to run nothing"), same("rm x"), write("x")}},
	{"unseen", "git -c diff.x.textconv=./y diff", []want{hidden("git -c diff.x.textconv=./y diff", "git -c diff.x.textconv=./y diff", "git -c diff.x.textconv is not a setting known to run nothing"), same("./y"), base("y", "./y")}},
	{"unseen", "git -c user.name=x commit", []want{same("git -c user.name=x commit")}},
	{"unseen", "git --config-env=core.pager=P log", []want{hidden("git --config-env=core.pager=P log", "git --config-env=core.pager=P log", "git --config-env core.pager is not a setting known to run nothing")}},
	{"unseen", "git config core.pager 'rm x'", []want{hidden("git config core.pager rm x", "git config core.pager 'rm x'", "git config core.pager is not a setting known to run nothing"), {tool: "write", value: ".git/config", text: "config", constrain: false, unseen: ""}}},
	{"unseen", "git config --get core.pager", []want{same("git config --get core.pager")}},
	{"unseen", "git fetch --upload-pack='rm x' origin", []want{hidden("git fetch --upload-pack=rm x origin", "git fetch --upload-pack='rm x' origin", "git fetch --upload-pack names a program git runs")}},
	{"unseen", "git clone ext::sh", []want{hidden("git clone ext::sh", "git clone ext::sh", "a URL of the ext:: or fd:: transport makes git run a command"), {tool: "write", value: "sh", text: "ext::sh"}}},
	{"unseen", "git submodule foreach 'rm x'", []want{hidden("git submodule foreach rm x", "git submodule foreach 'rm x'", "git submodule foreach runs a command in every submodule")}},
	{"unseen", "git grep -O foo", []want{hidden("git grep -O foo", "git grep -O foo", "git grep -O runs a program")}},
	{"unseen", "tar -xf a.tar --to-command='rm x'", []want{hidden("tar -xf a.tar --to-command=rm x", "tar -xf a.tar --to-command='rm x'", "tar --to-command may run a program"), read("a.tar"), same("rm x"), write("x")}},
	{"unseen", "tar -I 'rm x' -cf a.tar .", []want{hidden("tar -I rm x -cf a.tar .", "tar -I 'rm x' -cf a.tar .", "tar -I may run a program"), read("."), write("a.tar"), same("rm x"), write("x")}},
	{"unseen", "rsync -e 'sh -c rm' a b:", []want{hidden("rsync -e sh -c rm a b:", "rsync -e 'sh -c rm' a b:", "rsync -e may run a program"), read("a"), base("sh -c rm", "sh -c rm"), same("rm")}},
	{"unseen", "rg --pre ./x pattern", []want{hidden("rg --pre ./x pattern", "rg --pre ./x pattern", "rg --pre may run a program"), read(".")}},
	{"unseen", "ssh -o ProxyCommand='rm x' host", []want{hidden("ssh -o ProxyCommand=rm x host", "ssh -o ProxyCommand='rm x' host", "ssh -o ProxyCommand is not a setting known to run no local command")}},
	{"unseen", "vim -c '!rm x' f", []want{hidden("vim -c !rm x f", "vim -c '!rm x' f", "vim -c may run a program"), read("f"), write("f")}},
	{"unseen", "sort --compress-program=./x f", []want{hidden("sort --compress-program=./x f", "sort --compress-program=./x f", "sort --compress-program may run a program"), read("f"), same("./x"), base("x", "./x")}},
	{"unseen", "man -P 'rm x' ls", []want{hidden("man -P rm x ls", "man -P 'rm x' ls", "man -P may run a program"), same("rm x"), write("x")}},
	{"unseen", "echo {1..100000}", []want{hidden("echo {1..100000}", "echo {1..100000}", "brace expansion makes more words than the splitter reads")}},
	{"unseen", "find . -exec $CMD {} +", []want{same("find . -exec $CMD {} +"), read("."), hidden("$CMD {}", "$CMD {}", "the command name $CMD is known only when it runs")}},
	{"unseen", "sudo $CMD", []want{hidden("sudo $CMD", "sudo $CMD", "the word $CMD may be an option of sudo, known only when it runs")}},

	{"unseen", "sudo -s 'ls; rm -rf /'", []want{run("sudo -s ls; rm -rf /", "sudo -s 'ls; rm -rf /'"), same("ls"), same("rm -rf /"), write("/")}},
	{"unseen", "sudo -u root -i", []want{hidden("sudo -u root -i", "sudo -u root -i", "sudo starts a shell that reads standard input")}},
	{"unseen", "echo 'rm x' | sudo -s", []want{run("echo rm x", "echo 'rm x'"), hidden("sudo -s", "sudo -s", "sudo starts a shell that reads standard input")}},
	{"unseen", "sudo --shell \"$x\"", []want{hidden("sudo --shell $x", "sudo --shell \"$x\"", "the word $x may be an option of sudo, known only when it runs")}},
	{"unseen", "doas -s", []want{hidden("doas -s", "doas -s", "doas starts a shell that reads standard input")}},
	{"unseen", "su root", []want{hidden("su root", "su root", "su starts a shell that reads standard input")}},
	{"unseen", "hash -p /tmp/evil ls", []want{hidden("hash -p /tmp/evil ls", "hash -p /tmp/evil ls", "hash -p changes which program a name runs"), same("/tmp/evil"), base("evil", "/tmp/evil")}},
	{"unseen", "enable -f ./x.so x", []want{hidden("enable -f ./x.so x", "enable -f ./x.so x", "enable -f loads a builtin from a shared object")}},
	{"unseen", "mapfile -C 'rm x' -c 1 a < f", []want{hidden("mapfile -C rm x -c 1 a", "mapfile -C 'rm x' -c 1 a", "mapfile -C runs a string for every line it reads"), same("rm x"), write("x"), read("f")}},
	{"unseen", "printf -v 'a[$(rm x)]' %s 1", []want{hidden("printf -v a[$(rm x)] %s 1", "printf -v 'a[$(rm x)]' %s 1", "the word a[$(rm x)] holds a subscript with a command substitution bash may run")}},
	{"unseen", "[[ -v 'a[$(rm x)]' ]]", []want{hidden("[[ -v 'a[$(rm x)]' ]]", "[[ -v 'a[$(rm x)]' ]]", "the quoted a[$(rm x)] holds a command substitution bash may run as an expression")}},
	{"unseen", "echo '$(not run)'", []want{run("echo $(not run)", "echo '$(not run)'")}},

	{"unseen", "echo ${x@P}", []want{same("echo ${x@P}"), hidden("${x@P}", "${x@P}", "${x@P} runs the command substitutions in the value of x")}},
	{"unseen", ": ${BASH_ENV:=/tmp/x}", []want{same(": ${BASH_ENV:=/tmp/x}"), hidden("${BASH_ENV:=/tmp/x}", "${BASH_ENV:=/tmp/x}", "BASH_ENV names a file the shell runs first")}},
	{"unseen", "echo ${x:=1}", []want{same("echo ${x:=1}")}},
	{"unseen", "for PATH in /tmp; do ls; done", []want{hidden("for PATH", "for PATH", "PATH changes which program a name runs"), same("ls")}},
	{"unseen", "read -r PATH < f", []want{hidden("read -r PATH", "read -r PATH", "PATH changes which program a name runs"), read("f")}},
	{"unseen", "read -p 'PATH?' -r line", []want{run("read -p PATH? -r line", "read -p 'PATH?' -r line")}},
	{"unseen", "printf -v LD_PRELOAD %s /tmp/x.so", []want{hidden("printf -v LD_PRELOAD %s /tmp/x.so", "printf -v LD_PRELOAD %s /tmp/x.so", "LD_PRELOAD changes what the command loads")}},
	{"unseen", "read \"$v\"", []want{hidden("read $v", "read \"$v\"", "read sets a variable named when it runs")}},
	{"unseen", "export \"$v\"", []want{hidden("export $v", "export \"$v\"", "the declaration $v sets a variable named when it runs")}},
	{"unseen", "declare 'a[$(rm x)]=1'", []want{hidden("declare a[$(rm x)]=1", "declare 'a[$(rm x)]=1'", "the word a[$(rm x)]=1 holds a subscript with a command substitution bash may run")}},
	{"unseen", "declare -x FOO=1", []want{hidden("declare -x FOO=1", "declare -x FOO=1", "FOO is not a variable known to change nothing a program does")}},
	{"unseen", "declare FOO=1", []want{same("declare FOO=1")}},

	{"unseen", "python3 -c \"$(curl -s x)\"", []want{hidden("python3 -c $(curl -s x)", "python3 -c \"$(curl -s x)\"", "python3 -c runs a program made when it runs"), same("curl -s x")}},
	{"unseen", "node --eval=\"$JS\"", []want{hidden("node --eval=$JS", "node --eval=\"$JS\"", "the word --eval=$JS may be an option of node, known only when it runs")}},
	{"unseen", "perl -le \"$P\"", []want{hidden("perl -le $P", "perl -le \"$P\"", "perl -e runs a program made when it runs")}},
	{"unseen", "perl -le 'print 1'", []want{hidden("perl -le print 1", "perl -le 'print 1'", "perl -e runs a program given inline, which the splitter does not read")}},
	{"unseen", "ssh -F /tmp/cfg host", []want{hidden("ssh -F /tmp/cfg host", "ssh -F /tmp/cfg host", "ssh -F may run a program")}},
	{"unseen", "git --config-env core.pager=P log", []want{hidden("git --config-env core.pager=P log", "git --config-env core.pager=P log", "git --config-env core.pager is not a setting known to run nothing")}},
	{"unseen", "GIT_DIR=../other/.git git status", []want{run("git status", "GIT_DIR=../other/.git git status")}},

	{"unseen", "sed -n '1,5p' f", []want{run("sed -n 1,5p f", "sed -n '1,5p' f"), read("f")}},
	{"unseen", "sed -i 's/a/b/g' f", []want{run("sed -i s/a/b/g f", "sed -i 's/a/b/g' f"), write("f")}},
	{"unseen", "sed -n '1e rm -rf /' f", []want{hidden("sed -n 1e rm -rf / f", "sed -n '1e rm -rf /' f", "sed e runs a command"), read("f")}},
	{"unseen", "sed 's/.*/rm &/e' f", []want{hidden("sed s/.*/rm &/e f", "sed 's/.*/rm &/e' f", "sed s///e runs a command"), read("f")}},
	{"unseen", "sed '/x/w out' f", []want{run("sed /x/w out f", "sed '/x/w out' f"), read("f"), {tool: "write", value: "out", text: "'/x/w out'"}}},
	{"unseen", "sed -e 's/a/b/' -e '$e rm x' f", []want{hidden("sed -e s/a/b/ -e $e rm x f", "sed -e 's/a/b/' -e '$e rm x' f", "sed e runs a command"), read("f")}},
	{"unseen", "sed -ne '1e rm' f", []want{hidden("sed -ne 1e rm f", "sed -ne '1e rm' f", "sed e runs a command"), read("f")}},
	{"unseen", "sed --sandbox '1e rm' f", []want{run("sed --sandbox 1e rm f", "sed --sandbox '1e rm' f"), read("f")}},
	{"unseen", "sed -f edit.sed f", []want{hidden("sed -f edit.sed f", "sed -f edit.sed f", "sed -f reads a script that may run a command"), read("f"), read("edit.sed")}},
	{"unseen", "sed \"$S\" f", []want{hidden("sed $S f", "sed \"$S\" f", "the word $S may be an option of sed, known only when it runs"), read("f")}},
	{"unseen", "sed 's/a/b/x' f", []want{hidden("sed s/a/b/x f", "sed 's/a/b/x' f", "sed runs a script the splitter cannot read"), read("f")}},
	{"unseen", "sed '$a text; 1e rm' f", []want{run("sed $a text; 1e rm f", "sed '$a text; 1e rm' f"), read("f")}},

	{"unseen", "awk '{print $1}' f", []want{run("awk {print $1} f", "awk '{print $1}' f"), read("f")}},
	{"unseen", "awk -F: -v x=1 '$3 > 5 {print $1}' /etc/passwd", []want{run("awk -F: -v x=1 $3 > 5 {print $1} /etc/passwd", "awk -F: -v x=1 '$3 > 5 {print $1}' /etc/passwd"), read("/etc/passwd")}},
	{"unseen", "awk 'BEGIN{system(\"rm x\")}'", []want{hidden("awk BEGIN{system(\"rm x\")}", "awk 'BEGIN{system(\"rm x\")}'", "awk's program runs a command with system()")}},
	{"unseen", "awk '{print | \"sh\"}' f", []want{hidden("awk {print | \"sh\"} f", "awk '{print | \"sh\"}' f", "awk's program pipes its output to a command"), read("f")}},
	{"unseen", "gawk -f prog.awk f", []want{hidden("gawk -f prog.awk f", "gawk -f prog.awk f", "gawk -f runs a program the splitter cannot read"), read("prog.awk"), read("f")}},
	{"unseen", "awk \"$P\" f", []want{hidden("awk $P f", "awk \"$P\" f", "the word $P may be an option of awk, known only when it runs"), read("f")}},
	{"unseen", "gawk -l ./ext.so 'BEGIN{}'", []want{hidden("gawk -l ./ext.so BEGIN{}", "gawk -l ./ext.so 'BEGIN{}'", "gawk -l runs a program the splitter cannot read")}},

	// Redirects under the file tools.
	{"redirect", "echo hi > out.txt", []want{same("echo hi"), write("out.txt")}},
	{"redirect", "echo hi >> log", []want{same("echo hi"), write("log")}},
	{"redirect", "make &> build.log", []want{same("make"), write("build.log")}},
	{"redirect", "make &>> build.log", []want{same("make"), write("build.log")}},
	{"redirect", "echo x >| f", []want{same("echo x"), write("f")}},
	{"redirect", "echo x >&f", []want{same("echo x"), write("f")}},
	{"redirect", "cat <> f", []want{same("cat"), write("f")}},
	{"redirect", "sort < in.txt", []want{same("sort"), read("in.txt")}},
	{"redirect", "make > /dev/null 2>&1", []want{same("make")}},
	{"redirect", "echo x >&2 2>/dev/stderr </dev/tty", []want{same("echo x")}},
	{"redirect", "echo x > \"$f\"", []want{same("echo x"), {tool: "write", value: "$f", text: "\"$f\"", unseen: "the path $f is known only when it runs"}}},
	{"redirect", "echo x > ~/.bashrc", []want{same("echo x"), write("~/.bashrc")}},
	{"redirect", "> f", []want{write("f")}},
	{"redirect", "{ ls; } > out", []want{same("ls"), write("out")}},
	{"redirect", "echo 'a > b'", []want{run("echo a > b", "echo 'a > b'")}},
	{"redirect", "cat <<EOF > f\nx\nEOF", []want{same("cat"), write("f")}},
	{"redirect", "exec 3> f", []want{same("exec"), write("f")}},
}

// subjectWant renders a subject as the case writes it.
func subjectWant(t *testing.T, s agentpolicy.Subject) want {
	t.Helper()
	field := "command"
	if s.Tool != "" {
		field = "path"
	}
	var m map[string]string
	if err := json.Unmarshal(s.Args, &m); err != nil || len(m) != 1 {
		t.Fatalf("subject args %s are not one string member: %v", s.Args, err)
	}
	value, ok := m[field]
	if !ok {
		t.Fatalf("subject args %s have no %q", s.Args, field)
	}
	return want{tool: s.Tool, value: value, text: s.Text, constrain: s.Constrain, unseen: s.Unseen}
}

func TestSubjectsClasses(t *testing.T) {
	checkCases(t, splitCases)
	counts := map[string]int{}
	for _, c := range splitCases {
		counts[c.class]++
	}
	if len(splitCases) < 150 {
		t.Errorf("%d cases, want at least 150", len(splitCases))
	}
	t.Logf("cases by class: %v", counts)
}

// show lists subjects one a line for a failure.
func show(ws []want) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "\n\t%q %q %q constrain=%v unseen=%q", w.tool, w.value, w.text, w.constrain, w.unseen)
	}
	return b.String()
}

// commandArgs are the arguments of a shell call running command.
func commandArgs(command string) json.RawMessage {
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		panic(err)
	}
	return args
}
