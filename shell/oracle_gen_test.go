package shell

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// oracleGenerator makes commands from the parts bash reads differently
// when combined: words and the ways to quote them, continuations,
// expansions, wrappers and their options, redirects, cd, here-documents
// and substitutions. It is seeded, so every run makes the same commands.
type oracleGenerator struct {
	r *rand.Rand
	// plain is set for a command of literal words only, which the
	// splitter can read in full and so lets run: the ones the oracle
	// checks most closely.
	plain bool
}

// newOracleGenerator is a generator from a fixed seed.
func newOracleGenerator(seed uint64) *oracleGenerator {
	return &oracleGenerator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// pick is one of the choices.
func (g *oracleGenerator) pick(choices ...string) string {
	return choices[g.r.IntN(len(choices))]
}

// chance is true with probability 1/n.
func (g *oracleGenerator) chance(n int) bool { return g.r.IntN(n) == 0 }

// Parts of the generated commands. Every program is a recorder in the
// sandbox, or one of the real ones, which touch only the sandbox's files.
var (
	genFiles = []string{"a.txt", "b.txt", "pwned", ".env", ".claude/settings.local.json", ".git/config",
		"dir/c.txt", "dir", "empty", "./missing", "~/.bashrc", "/tmp/t", "new.txt", "dir/../a.txt", "list"}
	genOptions = []string{"-f", "-r", "-n", "-a", "-i", "-o", "-t", "-s", "-v", "--", "-rf", "-n1", "--help",
		"--force", "--in-place", "--output=pwned", "-opwned", "--target-directory=dir", "-e", "-c"}
	genExpansions = []string{"$HOME", "${HOME}", "$PWD", "${x:-a.txt}", "${x:=pwned}", "$(echo a.txt)", "`echo b.txt`",
		"$((1+2))", "~", "~/x", "*.txt", ".en?", "[ab].txt", "$1", "$@", "\"$x\"", "${#x}", "$'\\x61.txt'", "$\"a.txt\"",
		"{a,b}.txt", "{1..2}", "${x//a/b}", "$[1+1]", "$PWD/pwned", "${PWD}/new.txt", "~/pwned", "\"$HOME\"/pwned",
		"~+/pwned", "$OLDPWD/pwned", "~-/pwned"}
	// genState are commands that change the shell's state, harmless and
	// not: each later word is read under it.
	genState = []string{"set -e", "set -x", "set -euo pipefail", "set +o errexit", "set -k", "set -a", "set -o keyword",
		"set +B", "set -T", "shopt -s nullglob", "shopt -s dotglob", "shopt -s expand_aliases", "shopt -s lastpipe",
		"shopt -s cdable_vars", "HOME=/w/dir", "PATH=.:$PATH", "GIT_DIR=x", "x=1", "export -n PATH", "unset PATH",
		"declare -n r=HOME", "((HOME=1))", "trap 'touch pwned' DEBUG", "trap 'echo ok' EXIT", "CDPATH=/w/dir",
		"declare CD''PATH=/w/dir", "local x=1", "printf -vHOME %s /w/dir", "read HOME <<< /w/dir"}
	genRedirects = []string{">", ">>", "2>", "&>", "&>>", ">|", "<", "<>", "1>", "3>", ">&"}
)

// genPrograms are the programs the generated commands run: every command
// the table holds, so an entry added to it is generated at once, in the
// order of their names, so that a seed makes the same commands; and two
// it does not hold by name, python3, found by its family, and npm, a
// program no table reads.
var genPrograms = sync.OnceValue(func() []string {
	names := []string{"python3", "npm"}
	for name := range programs() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
})

// command is one generated command.
func (g *oracleGenerator) command() string {
	g.plain = g.chance(2)
	c := g.list(0)
	if g.chance(5) {
		c += "\n" + g.hereDocument()
	}
	if g.chance(4) {
		c = g.continuations(c)
	}
	return c
}

// hereDocument is a command reading a here-document, whose body is a
// command the program may run and the shell may expand.
func (g *oracleGenerator) hereDocument() string {
	program := g.pick("cat", "sh", "bash", "tee pwned", "xargs", "sort -o pwned")
	delimiter := g.pick("EOF", "'EOF'", "\"EOF\"", "E\\OF")
	op := g.pick("<<", "<<-")
	body := g.list(2)
	if op == "<<-" {
		body = "\t" + strings.ReplaceAll(body, "\n", "\n\t")
	}
	return program + " " + op + delimiter + g.pick("", " && "+g.simple(2)) + "\n" + body + "\nEOF"
}

// list joins a few pipelines by list operators.
func (g *oracleGenerator) list(depth int) string {
	parts := []string{g.pipeline(depth)}
	for g.chance(2) && len(parts) < 4 {
		parts = append(parts, g.pick(" && ", " || ", "; ", "\n", " & ", " | "), g.pipeline(depth))
	}
	return strings.Join(parts, "")
}

// pipeline is a simple or compound command.
func (g *oracleGenerator) pipeline(depth int) string {
	if depth > 2 {
		return g.simple(depth)
	}
	switch g.r.IntN(16) {
	case 0:
		return "{ " + g.list(depth+1) + "; }"
	case 1:
		return "( " + g.list(depth+1) + " )"
	case 2:
		return "if " + g.simple(depth) + "; then " + g.list(depth+1) + "; fi"
	case 3:
		return "for f in " + g.word() + " " + g.word() + "; do " + g.list(depth+1) + "; done"
	case 4:
		dir := g.pick("dir", "empty", "..", "-", "/tmp", "dir/..", "./dir", "'dir'", "d\\ir", "{dir,}", "{,dir}", "")
		if !g.plain && g.chance(2) {
			dir = g.pick("~", "\"$HOME\"", "$x", "$(echo dir)", "d*", "~/", "$PWD/dir", "${PWD}", "$OLDPWD", "~-", "~+/dir", "+1", "-n dir")
		}
		cd := g.pick("cd", "cd", "pushd", "builtin cd", "command cd", "command -p cd", g.spell("cd"))
		return cd + " " + dir + g.pick(" && ", "; ", "\n") + g.list(depth+1)
	case 9:
		return g.pick(genState...) + g.pick("; ", "\n") + g.list(depth+1)
	case 5:
		return g.wrapper(depth)
	case 6:
		return "f() { " + g.list(depth+1) + "; }; f"
	case 7, 8:
		return g.simple(depth) + " <<< " + g.quote(g.list(depth+1))
	default:
		return g.simple(depth)
	}
}

// wrapper is a command run by a wrapper or as a string.
func (g *oracleGenerator) wrapper(depth int) string {
	inner := g.simple(depth + 1)
	switch g.r.IntN(13) {
	case 0:
		return "sudo " + g.pick("", "-u root ", "-E ", "-n ") + inner
	case 1:
		return "env " + g.pick("", "-i ", "A=1 ", "-u A ", "-iu A ", "-C dir ", "-- ", "-S ") + inner
	case 2:
		return "timeout " + g.pick("5 ", "-k 1 5 ", "-s KILL 5 ", "--kill=1 5 ", "-v 5 ") + inner
	case 3:
		return "nice " + g.pick("", "-n 5 ", "-5 ", "--adj=3 ") + inner
	case 4:
		return g.pick("echo a.txt", "cat list", "printf 'a.txt\\n'") + " | xargs " + g.pick("", "-0 ", "-n1 ", "-I{} ", "-r ", "--del , ", "-a list ") + inner
	case 5:
		return g.pick("sh", "bash", "dash") + g.pick(" -c ", " -ec ", " -c -- ") + g.quote(g.list(depth+1))
	case 6:
		return "eval " + g.pick(g.quote(g.list(depth+1)), inner)
	case 7:
		return g.pick("command ", "builtin ", "exec ", "nohup ", "setsid ", "time ") + inner
	case 8:
		return "find . -maxdepth 1 -name " + g.quote(g.pick("*.txt", "a.txt", "x")) + " " + g.pick("-exec ", "-execdir ", "-ok ") + inner + " " + g.pick("{} \\;", "\\;", "{} +")
	case 9:
		return "trap " + g.quote(g.list(depth+1)) + " EXIT"
	case 10:
		return "flock a.txt " + inner
	case 11:
		// Under keyword mode a NAME=VALUE argument is environment.
		return g.pick("set -k; ", "set -o keyword; ", "set -ek; ") + inner + " " +
			g.pick("LANG=C", "x=1", "A='a b'", "BASH_ENV=p.sh", "PAGER='touch pwned'", "a[0]=1", "x+=1") +
			g.pick("; set +k", "; set +o keyword", "")
	default:
		return "x=$(" + g.list(depth+1) + "); " + inner
	}
}

// simple is a program with a few words and redirects.
func (g *oracleGenerator) simple(depth int) string {
	var words []string
	if g.chance(6) {
		words = append(words, g.pick("x=1", "x=a.txt", "A='a b'", "x=$(echo y)", "LANG=C"))
	}
	words = append(words, g.spell(g.pick(genPrograms()...)))
	for n := g.r.IntN(4); n > 0; n-- {
		words = append(words, g.word())
	}
	for g.chance(3) && len(words) < 8 {
		words = append(words, g.redirect(depth))
	}
	return strings.Join(words, " ")
}

// redirect is a redirect to a file, a descriptor or a process.
func (g *oracleGenerator) redirect(depth int) string {
	op := g.pick(genRedirects...)
	switch {
	case op == ">&":
		return op + g.pick("2", "1", "-", "pwned")
	case g.chance(6) && depth < 2:
		return op + " >(" + g.simple(depth+1) + ")"
	default:
		return op + " " + g.pick(g.word(), g.pick(genFiles...))
	}
}

// word is an argument: a file, an option, an expansion or a substitution,
// spelt in one of the ways the shell reads alike.
func (g *oracleGenerator) word() string {
	if g.plain {
		return g.spell(g.pick(g.pick(genFiles...), g.pick(genOptions...)))
	}
	switch g.r.IntN(10) {
	case 0, 1, 2:
		return g.spell(g.pick(genFiles...))
	case 3, 4:
		return g.spell(g.pick(genOptions...))
	case 5, 6:
		return g.pick(genExpansions...)
	case 7:
		return "$(" + g.simple(3) + ")"
	case 8:
		if g.chance(2) {
			return "<(" + g.simple(3) + ")"
		}
		return "`" + g.simple(3) + "`"
	default:
		return g.quote(g.pick("touch pwned", "a b", "$(touch pwned)", "rm -f ./missing", "*", "~", "'", "\\"))
	}
}

// spell writes a literal word in one of the ways bash reads as the same
// word.
func (g *oracleGenerator) spell(w string) string {
	if strings.ContainsAny(w, "~*?$") || len(w) < 2 {
		return w
	}
	i := 1 + g.r.IntN(len(w)-1)
	switch g.r.IntN(8) {
	case 0:
		return "'" + w + "'"
	case 1:
		return "\"" + w + "\""
	case 2:
		return w[:i] + "''" + w[i:]
	case 3:
		return `\` + w
	case 4:
		return w[:i] + `\` + w[i:]
	case 5:
		return "$'" + w + "'"
	default:
		return w
	}
}

// quote quotes a string as one word, in single or double quotes.
func (g *oracleGenerator) quote(s string) string {
	if g.chance(2) || strings.Contains(s, "\"") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s) + `"`
}

// continuations puts a backslash-newline at a few random places, inside
// words, quotes and operators alike.
func (g *oracleGenerator) continuations(c string) string {
	for n := 1 + g.r.IntN(2); n > 0 && len(c) > 1; n-- {
		i := 1 + g.r.IntN(len(c)-1)
		c = c[:i] + "\\\n" + c[i:]
	}
	return c
}

// genOption is one option of a real wrapper: its short and long names
// (either may be empty) and the value it takes, if any; optional says the
// value may only be attached (-eX, --eof=X).
type genOption struct {
	short, long, value string
	optional           bool
}

// genWrappers are the options of the wrappers that run for real in the
// sandbox, as their manuals list them, and what follows them before the
// command: the tools read them with getopt_long, which takes clusters,
// attached values and any unambiguous abbreviation of a long name.
var genWrappers = map[string]struct {
	options []genOption
	operand string
}{
	"env": {[]genOption{{"i", "ignore-environment", "", false}, {"0", "null", "", false}, {"u", "unset", "X", false},
		{"C", "chdir", "dir", false}, {"v", "debug", "", false}, {"", "default-signal", "TERM", true},
		{"", "ignore-signal", "TERM", true}, {"", "block-signal", "TERM", true}, {"", "list-signal-handling", "", false}}, "A=1"},
	"timeout": {[]genOption{{"k", "kill-after", "1", false}, {"s", "signal", "TERM", false}, {"v", "verbose", "", false},
		{"", "foreground", "", false}, {"", "preserve-status", "", false}}, "5"},
	"nice": {[]genOption{{"n", "adjustment", "1", false}}, ""},
	"xargs": {[]genOption{{"0", "null", "", false}, {"d", "delimiter", ",", false}, {"E", "", "Z", false}, {"e", "eof", "Z", true},
		{"I", "", "R", false}, {"i", "replace", "R", true}, {"L", "max-lines", "1", false}, {"l", "", "1", true},
		{"n", "max-args", "1", false}, {"P", "max-procs", "1", false}, {"r", "no-run-if-empty", "", false},
		{"s", "max-chars", "1000", false}, {"t", "verbose", "", false}, {"x", "exit", "", false}, {"a", "arg-file", "list", false},
		{"", "process-slot-var", "V", false}}, ""},
	"setsid": {[]genOption{{"c", "ctty", "", false}, {"f", "fork", "", false}, {"w", "wait", "", false}}, ""},
	"flock": {[]genOption{{"s", "shared", "", false}, {"x", "exclusive", "", false}, {"n", "nonblock", "", false},
		{"w", "timeout", "1", false}, {"E", "conflict-exit-code", "1", false}, {"o", "close", "", false}}, "a.txt"},
	// Readers that write: their operand is a file, not a command.
	"sort": {[]genOption{{"o", "output", "pwned", false}, {"r", "reverse", "", false}, {"n", "numeric-sort", "", false},
		{"u", "unique", "", false}, {"k", "key", "1", false}, {"t", "field-separator", ",", false}, {"m", "merge", "", false},
		{"c", "check", "", false}, {"s", "stable", "", false}, {"T", "temporary-directory", "dir", false}}, "a.txt"},
	"sed": {[]genOption{{"n", "quiet", "", false}, {"i", "in-place", ".bak", true}, {"E", "regexp-extended", "", false},
		{"s", "separate", "", false}, {"e", "expression", "1d", false}, {"z", "null-data", "", false},
		{"l", "line-length", "5", false}, {"u", "unbuffered", "", false}, {"", "posix", "", false},
		{"", "follow-symlinks", "", false}, {"", "debug", "", false}, {"", "sandbox", "", false}}, "p"},
	"tee": {[]genOption{{"a", "append", "", false}, {"i", "ignore-interrupts", "", false}, {"p", "", "", false},
		{"", "output-error", "warn", true}}, ""},
	"touch": {[]genOption{{"a", "", "", false}, {"c", "no-create", "", false}, {"m", "", "", false},
		{"r", "reference", "a.txt", false}, {"d", "date", "2000-01-01", false}, {"h", "no-dereference", "", false}}, ""},
	"cp": {[]genOption{{"t", "target-directory", "dir", false}, {"T", "no-target-directory", "", false}, {"n", "no-clobber", "", false},
		{"r", "recursive", "", false}, {"f", "force", "", false}, {"s", "symbolic-link", "", false}, {"l", "link", "", false},
		{"b", "", "", false}, {"S", "suffix", ".old", false}, {"u", "update", "", false}, {"v", "verbose", "", false}}, "a.txt"},
}

// genFileCommands are the wrappers above that take files, not a command:
// the files follow their options.
var genFileCommands = map[string][]string{
	"sort": {"a.txt", "b.txt .env", "-- a.txt"}, "sed": {"a.txt", ".env a.txt", "-- b.txt"},
	"tee": {"pwned", ".env", "-- out.txt", ""}, "touch": {"pwned", "a.txt", ".claude/settings.local.json"},
	"cp": {"b.txt", "new.txt", ".env", "dir"},
}

// wrapperOptions is a real wrapper or writer with options spelt as
// getopt_long reads them, before the wrapper's operand and a command, or
// the writer's files.
func (g *oracleGenerator) wrapperOptions() string {
	names := []string{"env", "timeout", "nice", "xargs", "setsid", "flock", "sort", "sed", "tee", "touch", "cp"}
	name := g.pick(names...)
	w := genWrappers[name]
	words := []string{name}
	for n := g.r.IntN(4); n > 0; n-- {
		o := w.options[g.r.IntN(len(w.options))]
		words = append(words, g.spellOption(o, words)...)
	}
	if w.operand != "" {
		words = append(words, w.operand)
	}
	if files, ok := genFileCommands[name]; ok {
		words = append(words, g.pick(files...))
		if name == "tee" {
			return "echo x | " + strings.Join(words, " ")
		}
		return strings.Join(words, " ")
	}
	words = append(words, g.pick("rm -f ./missing", "touch pwned", "ls", "-- rm -f ./missing", "R"))
	return strings.Join(words, " ")
}

// spellOption writes o in one of the ways getopt_long reads it: a short
// name alone, with its value attached or apart, or clustered onto the
// flag before it; a long name whole or abbreviated, its value after = or
// apart.
func (g *oracleGenerator) spellOption(o genOption, before []string) []string {
	if o.long == "" || o.short != "" && g.chance(2) {
		switch {
		case o.value == "":
			if last := before[len(before)-1]; len(before) > 1 && g.chance(2) && len(last) == 2 && last[0] == '-' && last[1] != '-' {
				before[len(before)-1] += o.short // cluster onto the flag before
				return nil
			}
			return []string{"-" + o.short}
		case o.optional || g.chance(2):
			return []string{"-" + o.short + o.value}
		default:
			return []string{"-" + o.short, o.value}
		}
	}
	long := o.long
	if g.chance(2) {
		long = long[:3+g.r.IntN(len(long)-2)] // any abbreviation, unambiguous or not
	}
	switch {
	case o.value == "":
		return []string{"--" + long}
	case o.optional || g.chance(2):
		return []string{"--" + long + "=" + o.value}
	default:
		return []string{"--" + long, o.value}
	}
}
