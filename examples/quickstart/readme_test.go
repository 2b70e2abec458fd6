package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeQuickStart holds the README's Quick start to this example:
// its program is main.go, byte for byte, and, with the go.mod the README
// gives a host, it builds outside the repository, against a checkout of
// it at ../agentpolicy.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	program, gomod := quickStartBlocks(t, string(readme))
	main, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if program != string(main) {
		t.Fatalf("the README's Quick start program is not examples/quickstart/main.go; copy main.go into it")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	host := filepath.Join(dir, "host")
	if err := os.Mkdir(host, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(repo, filepath.Join(dir, "agentpolicy")); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum") // the same modules: no checksum database to ask
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"main.go": program, "go.mod": gomod, "go.sum": string(sum)} {
		if err := os.WriteFile(filepath.Join(host, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-buildvcs=false", "-o", os.DevNull, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = host
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in a host module with the README's go.mod: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// quickStartBlocks are the Go program and the go.mod of the README's Quick
// start section: its first ```go block, and the block that begins
// "module ".
func quickStartBlocks(t *testing.T, readme string) (program, gomod string) {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Quick start\n")
	if !ok {
		t.Fatal("the README has no Quick start section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for rest := section; ; {
		_, after, ok := strings.Cut(rest, "```")
		if !ok {
			break
		}
		header, body, _ := strings.Cut(after, "\n")
		block, tail, _ := strings.Cut(body, "```")
		rest = tail
		switch {
		case header == "go" && program == "":
			program = block
		case strings.HasPrefix(block, "module "):
			gomod = block
		}
	}
	if program == "" || gomod == "" {
		t.Fatalf("the Quick start section lacks its program or its go.mod")
	}
	return program, gomod
}
