package shell

import (
	"fmt"
	"strings"
	"testing"
)

// opaqueCases are issue 30's path classes at the split: the words of a
// program the tables do not know are constraints, read and written; a
// path whose head is known only when it runs has its tail held to the
// rules anywhere; /proc paths are read through; git's REV:path after a
// cd is also named at the top.
var opaqueCases = []splitCase{
	{"opaque", "less .env", []want{same("less .env"), {tool: "read", value: ".env", text: "less .env", constrain: true}, {tool: "write", value: ".env", text: "less .env", constrain: true}}},
	{"opaque", "tool --file=.env -x", []want{same("tool --file=.env -x"),
		{tool: "read", value: ".env", text: "tool --file=.env -x", constrain: true}, {tool: "write", value: ".env", text: "tool --file=.env -x", constrain: true}}},
	{"opaque", "curl -F f=@k URL", []want{same("curl -F f=@k URL"),
		{tool: "read", value: "@k", text: "curl -F f=@k URL", constrain: true}, {tool: "write", value: "@k", text: "curl -F f=@k URL", constrain: true},
		{tool: "read", value: "k", text: "curl -F f=@k URL", constrain: true}, {tool: "write", value: "k", text: "curl -F f=@k URL", constrain: true},
		{tool: "read", value: "URL", text: "curl -F f=@k URL", constrain: true}, {tool: "write", value: "URL", text: "curl -F f=@k URL", constrain: true}}},
	// cd is read by the splitter, not guessed at; cat by its table.
	{"opaque", "cd src && cat f", []want{same("cd src"), same("cat f"), {tool: "read", value: "src/f", text: "f"}}},
	{"proc", "cat /proc/self/../self/cwd/k", []want{same("cat /proc/self/../self/cwd/k"), {tool: "read", value: "k", text: "/proc/self/../self/cwd/k"}}},
	{"proc", "cat /proc/self/root$PWD/k", []want{same("cat /proc/self/root$PWD/k"), {tool: "read", value: "k", text: "/proc/self/root$PWD/k"}}},
	{"proc", "cat /proc/$BASHPID/cwd/k", []want{same("cat /proc/$BASHPID/cwd/k"), {tool: "read", value: "k", text: "/proc/$BASHPID/cwd/k"}}},
	{"git", "cd src && git show HEAD:k", []want{same("cd src"), same("git show HEAD:k"), {tool: "read", value: "src/k", text: "HEAD:k"}, {tool: "read", value: "k", text: "HEAD:k", constrain: true}}},
	{"git", "cd src && git show HEAD:./k", []want{same("cd src"), same("git show HEAD:./k"), {tool: "read", value: "src/k", text: "HEAD:./k"}}},
}

func TestOpaqueSplit(t *testing.T) {
	checkCases(t, opaqueCases, WithOpaqueOperands())
}

// TestUnknownTail reads the tail of paths whose head is known only
// when they run, and of paths through another process's directory.
func TestUnknownTail(t *testing.T) {
	for _, c := range []struct {
		w    word
		tail string
		ok   bool
	}{
		{word{value: "~root/.ssh/k", literal: true, tilde: true}, ".ssh/k", true},
		{word{value: "~+1/k", literal: true, tilde: true}, "k", true},
		{word{value: "~/k", literal: true, tilde: true}, "", false},
		{word{value: "~+/k", literal: true, tilde: true}, "", false},
		{word{value: "~root", literal: true, tilde: true}, "", false},
		{word{value: "$X/secrets/k"}, "secrets/k", true},
		{word{value: "${HOME}x/.ssh/k"}, ".ssh/k", true},
		{word{value: "$(dirname $0)/.env"}, ".env", true},
		{word{value: "${a[0]}//k"}, "k", true},
		{word{value: "$$/k"}, "k", true},
		{word{value: "$X"}, "", false},
		{word{value: "a/$X"}, "", false},
		{word{value: "k", literal: true}, "", false},
	} {
		if tail, ok := unknownTail(c.w); tail != c.tail || ok != c.ok {
			t.Errorf("unknownTail(%q) = %q, %v, want %q, %v", c.w.value, tail, ok, c.tail, c.ok)
		}
	}
	for p, want := range map[string]string{
		"/proc/1/cwd/k": "k", "/proc/$$/cwd/a/k": "a/k", "/proc/1/root/etc/k": "etc/k",
		"/proc/1/task/2/cwd/k": "k", "/proc/1/fd/3": "", "/proc/1/cwd": "", "/etc/k": "",
	} {
		if tail, ok := procTail(p); tail != want || ok != (want != "") {
			t.Errorf("procTail(%q) = %q, %v, want %q", p, tail, ok, want)
		}
	}
}

// TestCleanPathThroughProc folds ".." by name before the first link
// under /proc or /dev and keeps it after.
func TestCleanPathThroughProc(t *testing.T) {
	for p, want := range map[string]string{
		"/proc/self/../self/cwd/k":   "/proc/self/cwd/k",
		"/proc/../proc/self/root/k":  "/proc/self/root/k",
		"/proc/1/../self/cwd/k":      "/proc/self/cwd/k",
		"/proc/thread-self/../cwd/k": "/proc/thread-self/../cwd/k",
		"/proc/net/../cwd/k":         "/proc/net/../cwd/k",
		"/dev/fd/../cwd/k":           "/dev/fd/../cwd/k",
		"/proc/self/cwd/../k":        "/proc/self/cwd/../k",
		"/proc/1/task/2/cwd/../k":    "/proc/1/task/2/cwd/../k",
		"/a/../proc//self/./cwd/k":   "/proc/self/cwd/k",
		"/../../proc/self/cwd/../k":  "/proc/self/cwd/../k",
	} {
		if got := cleanPath(p); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestGluedPaths reads the paths an option or a KEY=VALUE word holds.
func TestGluedPaths(t *testing.T) {
	for v, want := range map[string]string{
		"--file=k": "k", "-fk": "k", "@k": "k", "f=@k": "@k k", "KEY=k": "k",
		"-f": "", "k": "", "--": "", "-f=k": "k",
		"a:/b": "a /b", "HEAD:k": "HEAD k", "https://x/k": "", "-v:x": ":x",
	} {
		if got := strings.Join(gluedPaths(v), " "); got != want {
			t.Errorf("gluedPaths(%q) = %q, want %q", v, got, want)
		}
	}
}

// BenchmarkOpaqueSubjects splits an 80-byte compound of programs the
// tables do not know, whose every word is a constraint, under the
// operand and pattern tools Claude Code's splitter uses.
func BenchmarkOpaqueSubjects(b *testing.B) {
	compound := `less README.md && xxd -g1 main.go | head -n 50 && curl -sF f=@a.txt https://x.io`
	if len(compound) != 80 {
		b.Fatalf("the compound command is %d bytes, want 80", len(compound))
	}
	for _, opaque := range []bool{false, true} {
		opts := []Option{WithWriteTool("write", "path"), WithReadTool("read", "path"), WithOperandTools("read", "edit", "path"), WithPatternTool("read", "read.glob")}
		if opaque {
			opts = append(opts, WithOpaqueOperands())
		}
		b.Run(fmt.Sprintf("opaque=%v", opaque), func(b *testing.B) {
			benchSplit(b, Subjects(opts...), compound)
		})
	}
}
