package shell

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// sedScripts are scripts for the scanner: --sandbox refuses those with
// the e, r, R, w and W commands and the e and w flags of s.
var sedScripts = []string{
	"0r .env", "$R .env", "1r /etc/hostname", "/x/r .env", "s/a/b/w .env", "2,3W .env", "1!R .env",
	"1e echo X", "s/a/b/e", "s/[/]/x/p;1e echo", "$a text; 1e echo X", "s/a/b/w /tmp/out",
	"y/ab/cd/", "1!G;h;$!d", "s/a/b/x", "/a/{/b/d}", "/a/,/b/{s/x/y/g;p}", "0,/re/d",
	"1~2d", "2,+3p", "\\%a%e date", "s|a|b|ge", "s/a/\\/e/g", "1i\\\nhello\n$e date",
	":a;N;$!ba;s/\\n/ /g", "s/x/y/;W /tmp/out", "/x/ e date", "l 5;q", "s/[]/]/x/e",
	"s/a/b/2g;=", "/[/]/p", "$!{h;d}", "# e date\np", "b end;e date", "s/a/b/M;s/c/d/I",
	"1,3!e date", "# x\\\n1e date", "s/a/b/;\n\n  p", "/x/Iw /tmp/out", "y/a\\/b/c\\/d/", "s/a\\|b/c/e",
}

// TestSedScriptAgainstSandbox checks the scanner against GNU sed itself:
// sed --sandbox refuses a script with a command that runs or writes, and
// the scanner must never call such a script harmless.
func TestSedScriptAgainstSandbox(t *testing.T) {
	sed, err := exec.LookPath("sed")
	if err != nil {
		t.Fatalf("this test reads scripts with sed: %v", err)
	}
	for _, script := range sedScripts {
		t.Run(script, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command(sed, "--sandbox", "-n", script)
			cmd.Stdin, cmd.Stderr = strings.NewReader("a\n"), &stderr
			refused := cmd.Run() != nil && strings.Contains(stderr.String(), "sandbox")
			why, reads, writes := sedScript(script)
			if refused && why == "" && len(reads)+len(writes) == 0 {
				t.Errorf("sed --sandbox refuses it (%s), the scanner finds nothing", strings.TrimSpace(stderr.String()))
			}
			if !refused && (strings.Contains(why, "runs a command") || len(reads)+len(writes) > 0) {
				t.Errorf("the scanner says %q, reads %q, writes %q; sed --sandbox runs it", why, reads, writes)
			}
		})
	}
}

// FuzzSedScript holds the scanner to the same oracle over any script.
func FuzzSedScript(f *testing.F) {
	for _, s := range sedScripts {
		f.Add(s)
	}
	sed, err := exec.LookPath("sed")
	if err != nil {
		f.Fatalf("this test reads scripts with sed: %v", err)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if strings.IndexByte(script, 0) >= 0 {
			return // no argument holds a NUL
		}
		var stderr bytes.Buffer
		cmd := exec.Command(sed, "--sandbox", "-n", script)
		cmd.Stdin, cmd.Stderr = strings.NewReader("a\n"), &stderr
		refused := cmd.Run() != nil && strings.Contains(stderr.String(), "sandbox")
		if why, reads, writes := sedScript(script); refused && why == "" && len(reads)+len(writes) == 0 {
			t.Fatalf("sed --sandbox refuses %q (%s), the scanner finds nothing", script, stderr.String())
		}
	})
}
