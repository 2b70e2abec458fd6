package shell

import (
	"os/exec"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestWordsAgainstBash reads literal commands with the splitter and with
// bash itself, and checks that both find the same words: quote removal,
// backslashes, ANSI-C strings and brace expansion as the shell does them.
// Globbing is off in bash, since a pattern is left as written here.
func TestWordsAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("this test reads commands with bash: %v", err)
	}
	for _, command := range []string{
		`r''m -rf /`, `"rm" x`, `\rm y`, `r\m z`, "r\\\nm x", `$'\x72\x6d' z`, `$'\162\155' -rf`,
		`$'\u0072m' x`, `$'r\cm' x`, `$"rm" x`, `"r"'m' x`, `"\$HOME" x`, `"a\b" x`, `'a\b' x`,
		`{rm,-rf,/}`, `git push {--force,origin}`, `echo {1..3}`, `echo '{a,b}'`, `rm ''`,
		`{,rm} x`, `echo a{,}b {,}`, `echo ''{,}`, `$'rm\0 -rf' /`, `$'rm\x00x'y /`,
		`echo {a..c}{1,2}`, `echo {1..10..3}`, `echo x{a,b\,c}y`, `echo {a,{b,c}}`,
		`echo "{a,b}"c`, `echo {a}`, `echo {}`, `echo a\ b`, `echo $'\e[1m'`, `echo $'\''`,
		`echo $'\x4a\x4B'`, `echo $'\101\1012'`, `echo $'\U0001F600'`, `echo "a\"b" 'c"d'`,
		`echo a\*b`, `echo {-1..1}`, `echo {a,b}{,}`, `echo {z..x}`, `echo a{b,c}d{e,f}g`,
		`echo {a,b`, `echo {a..}`, `echo $'\u00e9'`, `echo {a,b}\ c`, `echo a{'b,c'}d`, `echo a{b\,c}d`,
		`echo $'\a\b\f\v\E\?\"\t\n\r'`, `echo $'a\qb'`, `echo $'\xg'`, `echo $'\u'`, `echo $'\c'`,
		`echo $'\cA\c['`, `echo $'\777'`, `echo $'\xFF'`, `echo $'\uD800'`, `echo $'\U110000'`,
		`echo $'\U7FFFFFFF\U200000\U3FFFFFF\U4000000'`, `echo $'a\UFFFFFFFF|\U80000000|'`, `echo $'\u7f\u80\u7ff\u800\uffff\U10000'`,
		`echo {01..03}`, `echo {a..e..2}`, `echo {1..3}{a,b}`, `echo "{"a,b}`, `{,}rm x`, `echo {"",a}`,
		commitForm, "git commit -m \"$(cat <<'EOF'\nfix: $(rm x) `y` \\\n\n\tbody \"q\"\n\n\nEOF\n)\"",
		"echo \"a$(cat <<\\E\nb\nE\n)c\"",
	} {
		t.Run(command, func(t *testing.T) {
			want, err := exec.Command(bash, "-c", "set -f; set -- "+command+"; printf '%s\\x00' \"$@\"").Output()
			if err != nil {
				t.Fatalf("bash: %v", err)
			}
			f, err := parse(command)
			if err != nil {
				t.Fatal(err)
			}
			s := splitter{config: &config{field: "command"}, src: command}
			words, unseen := s.expandWords(f.Stmts[0].Cmd.(*syntax.CallExpr).Args)
			if unseen != "" {
				t.Fatalf("unseen: %s", unseen)
			}
			var got strings.Builder
			for _, w := range words {
				got.WriteString(w.value)
				got.WriteByte(0)
			}
			if got.String() != string(want) {
				t.Errorf("words %q, bash %q", got.String(), want)
			}
		})
	}
}
