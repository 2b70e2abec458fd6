package codex

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The differential test holds the engine to the real Codex CLI, the
// native binary of the npm package conformance/codex pins (`make
// codex` installs it; the test fails, never skips, without it), run
// offline as `codex execpolicy check --resolve-host-executables -r FILE
// CMD...`. On generated rules files and commands, every decision on a
// single plain command equals Codex's, and no decision on a compound
// command is looser than the strictest Codex gives any of its parts.

// codexBinary is the pinned Codex CLI's native binary.
func codexBinary(t testing.TB) string {
	t.Helper()
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	pattern := filepath.Join("..", "conformance", "codex", "node_modules", "@openai", "codex-"+runtime.GOOS+"-"+arch, "vendor", "*", "bin", "codex")
	found, _ := filepath.Glob(pattern)
	if len(found) != 1 {
		t.Fatalf("the pinned Codex CLI is not installed (%s): run `make codex`", pattern)
	}
	return found[0]
}

// codexCheck is Codex's decision on argv under the rules file: allow,
// ask (prompt), deny (forbidden), or "" when no rule matches.
func codexCheck(t testing.TB, bin, file string, argv []string) string {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(bin, append([]string{"execpolicy", "check", "--resolve-host-executables", "-r", file, "--"}, argv...)...)
	cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("codex execpolicy check %q: %v\n%s", argv, err, out)
	}
	var got struct {
		Decision string `json:"decision"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("codex execpolicy check %q: %v: %s", argv, err, out)
	}
	return map[string]string{"": "", Allow: ListAllow, Prompt: ListAsk, Forbidden: ListDeny}[got.Decision]
}

// strictness orders decisions; no match is asked about, as the engine's
// default for a Codex policy asks.
func strictness(decision string) int {
	return map[string]int{ListAllow: 0, "": 1, ListAsk: 1, ListDeny: 2}[decision]
}

// The vocabulary generated rules and commands are drawn from.
var (
	programs = []string{"git", "npm", "rm", "ls", "make", "echo", "nice"}
	// wrappers are the vocabulary's programs that run another.
	wrappers = []string{"nice", "timeout"}
	words    = []string{"status", "push", "log", "test", "-f", "--force", "x", "build", "origin", "main"}
	// blanks are words a command may hold that hold a blank, which the
	// normalised command shows as two words.
	blanks = []string{"status x", "push origin", "a b", "git status"}
	joins  = []string{" && ", " || ", "; ", " | "}
)

// genRules writes a rules file of a few prefix rules, and returns each
// rule's words (the first alternative of each) for commands near them.
func genRules(r *rand.Rand) (string, [][]string) {
	var b strings.Builder
	var near [][]string
	pick := func(from []string) string { return from[r.IntN(len(from))] }
	for range 1 + r.IntN(5) {
		var pattern, first []string
		word := func(from []string) {
			a, b := pick(from), pick(from)
			first = append(first, a)
			if r.IntN(4) == 0 {
				pattern = append(pattern, fmt.Sprintf("[%q, %q]", a, b))
			} else {
				pattern = append(pattern, fmt.Sprintf("%q", a))
			}
		}
		word(programs)
		for range r.IntN(3) {
			word(words)
		}
		near = append(near, first)
		decision := pick([]string{Allow, Allow, Prompt, Forbidden})
		fmt.Fprintf(&b, "prefix_rule(pattern = [%s], decision = %q, justification = \"generated\")\n", strings.Join(pattern, ", "), decision)
	}
	if r.IntN(3) == 0 {
		b.WriteString("host_executable(name = \"git\", paths = [\"/usr/bin/git\"])\n")
	}
	return b.String(), near
}

// nearArgv is a command near a rule's words: the words and a tail, two
// neighbouring words made one word holding a blank, or a word left out.
func nearArgv(r *rand.Rand, rule []string) []string {
	argv := slices.Clone(rule)
	switch i := r.IntN(len(argv)); {
	case r.IntN(2) == 0 && i+1 < len(argv):
		argv = slices.Replace(argv, i, i+2, argv[i]+" "+argv[i+1])
	case r.IntN(3) == 0 && len(argv) > 1:
		argv = slices.Delete(argv, i, i+1)
	}
	for range r.IntN(3) {
		argv = append(argv, words[r.IntN(len(words))])
	}
	return argv
}

// genArgv is a plain command: a program (by name or, now and then, by
// path) and up to four words.
func genArgv(r *rand.Rand) []string {
	argv := []string{programs[r.IntN(len(programs))]}
	if argv[0] == "git" && r.IntN(4) == 0 {
		argv[0] = "/usr/bin/git"
	}
	for range r.IntN(5) {
		if r.IntN(8) == 0 {
			argv = append(argv, blanks[r.IntN(len(blanks))])
			continue
		}
		argv = append(argv, words[r.IntN(len(words))])
	}
	if r.IntN(20) == 0 {
		argv[0] = blanks[r.IntN(len(blanks))]
	}
	switch r.IntN(10) {
	case 0:
		argv = append([]string{"nice"}, argv...)
	case 1:
		argv = append([]string{"timeout", "5"}, argv...)
	}
	return argv
}

// shellLine writes argv as a shell command line that gives the program
// those words: a word holding a blank in single quotes.
func shellLine(argv []string) string {
	quoted := make([]string, len(argv))
	for i, w := range argv {
		quoted[i] = w
		if strings.ContainsAny(w, " \t\n") {
			quoted[i] = "'" + w + "'"
		}
	}
	return strings.Join(quoted, " ")
}

func TestDifferentialCodex(t *testing.T) {
	bin := codexBinary(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(35, 171))
	plain, stricter, compound := 0, 0, 0
	for i := range 40 {
		src, near := genRules(r)
		file := filepath.Join(dir, fmt.Sprintf("gen%d.rules", i))
		if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		eng := engineOf(t, map[string]string{file: src})
		for j := range 12 {
			argv := genArgv(r)
			if j%2 == 0 {
				argv = nearArgv(r, near[r.IntN(len(near))])
			}
			want := codexCheck(t, bin, file, argv)
			if want == "" {
				want = ListAsk
			}
			v := decide(t, eng, shellLine(argv))
			switch why := agrees(v, want, argv); {
			case why == "":
				plain++
			case strings.HasPrefix(why, "stricter"):
				stricter++
			default:
				t.Errorf("%s\n%s: %s", src, shellLine(argv), why)
			}
		}
		for range 4 {
			parts := [][]string{genArgv(r), genArgv(r)}
			line := shellLine(parts[0]) + joins[r.IntN(len(joins))] + shellLine(parts[1])
			strictest := ""
			for _, p := range parts {
				if d := codexCheck(t, bin, file, p); strictness(d) > strictness(strictest) || strictest == "" {
					strictest = d
				}
			}
			for _, command := range []string{line, "bash -lc " + strconv.Quote(line)} {
				if got := word(decide(t, eng, command)); strictness(got) < strictness(strictest) {
					t.Errorf("%s\n%s: got %s, looser than Codex's %s on a part", src, command, got, strictest)
				}
				compound++
			}
		}
	}
	t.Logf("%d plain commands equal to Codex's decision, %d stricter for a documented reason, %d compound ones no looser", plain, stricter, compound)
	if stricter*4 > plain {
		t.Errorf("%d of %d plain commands decided stricter than Codex: the generator reaches too little", stricter, plain+stricter)
	}
}

// agrees says how the engine's verdict on a plain command differs from
// Codex's decision, "" when it does not. It is stricter, and says so,
// for the documented reasons only: the splitter finds a command no rule
// allows (the command a wrapper runs) or asks about a command whose
// options its tables do not know, no rule deciding; a command named by an
// absolute path is allowed only by a path host_executable declares, where
// Codex resolving host executables takes any path with the program's base
// name when none is declared; and a forbidden or prompt rule for the
// command a wrapper runs applies though the wrapper's own words are
// allowed. Anything else is a divergence.
func agrees(v agentpolicy.Verdict, want string, argv []string) string {
	got := word(v)
	switch {
	case got == want:
		return ""
	case strictness(got) < strictness(want):
		return fmt.Sprintf("got %s, looser than Codex's %s", got, want)
	case got == ListAsk && v.Rule == nil:
		return "stricter: no rule allows a command the splitter finds, or its tables ask: " + v.Reason
	case strings.HasPrefix(argv[0], "/"):
		return "stricter: an absolute path no host_executable declares"
	case slices.Contains(wrappers, argv[0]):
		return "stricter: the command a wrapper runs is decided too"
	}
	return fmt.Sprintf("got %s, Codex %s", got, want)
}

// TestCorpusAgainstCodex checks the corpus's single plain commands with
// the real Codex: the decision the corpus expects is Codex's.
func TestCorpusAgainstCodex(t *testing.T) {
	bin := codexBinary(t)
	files, _ := filepath.Glob("testdata/corpus/*.rules")
	checked := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		eng := engineOf(t, map[string]string{path: string(src)})
		for _, c := range readCases(t, strings.TrimSuffix(path, ".rules")+".cases") {
			if strings.ContainsAny(c.command, "&|;$><'\"") || strings.HasPrefix(c.command, "WebFetch ") {
				continue
			}
			argv := strings.Fields(c.command)
			want := codexCheck(t, bin, path, argv)
			if want == "" {
				want = ListAsk
			}
			v := decide(t, eng, c.command)
			if word(v) != c.want {
				t.Fatalf("%s:%d: %s: the engine says %s, the corpus %s (TestCorpus)", path, c.line, c.command, word(v), c.want)
			}
			if why := agrees(v, want, argv); why != "" && !strings.HasPrefix(why, "stricter") {
				t.Errorf("%s:%d: %s: the corpus says %s: %s", path, c.line, c.command, c.want, why)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d corpus cases checked", checked)
	}
}
