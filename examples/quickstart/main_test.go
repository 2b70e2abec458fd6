package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestOutput runs the example and checks what it shows: the compound
// command is blocked as a whole on its denied part, with the parts that
// did not run named, and the other decisions are as the comments say.
func TestOutput(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	read := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		read <- string(b)
	}()
	main()
	w.Close()
	os.Stdout = stdout
	out := <-read
	for _, want := range []string{
		`turn 1  allow  "git status"`,
		`turn 2  block  "rm -rf build"           denied by bash(rm:*) [repo]`,
		`turn 3  block  "curl -s example.com"    denied by bash(curl:*) on "curl -s example.com"; nothing in this command ran, including "ls -la" and "sh" [repo]`,
		`turn 4  ask    "git push origin main"   approval required by bash(git push:*) [user]`,
		`the run ended input_required; call_4 waits for an answer`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output has no %q:\n%s", want, out)
		}
	}
}
