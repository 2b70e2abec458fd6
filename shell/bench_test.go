package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// BenchmarkSubjects splits an 80-byte compound command, a 10 KiB script,
// and scripts of 1, 10 and 100 KiB to show the cost is linear.
func BenchmarkSubjects(b *testing.B) {
	split := Subjects(WithWriteTool("write", "path"))
	compound := `git add -A && git commit -m "wip: split command" && git push origin main --quiet`
	if len(compound) != 80 {
		b.Fatalf("the compound command is %d bytes, want 80", len(compound))
	}
	b.Run(fmt.Sprintf("compound-%dB", len(compound)), func(b *testing.B) {
		benchSplit(b, split, compound)
	})
	for _, kib := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("script-%dKiB", kib), func(b *testing.B) {
			benchSplit(b, split, script(kib<<10))
		})
	}
}

func benchSplit(b *testing.B, split agentpolicy.Subjects, command string) {
	args := commandArgs(command)
	b.SetBytes(int64(len(command)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := split(args); err != nil {
			b.Fatal(err)
		}
	}
}

// script is a script of about n bytes of the commands an agent runs.
func script(n int) string {
	lines := []string{
		`if [ -f go.mod ]; then go test ./... 2>&1 | tee test.log; fi`,
		`for f in $(git diff --name-only); do gofmt -l "$f"; done`,
		`find . -name '*.tmp' -exec rm {} + && echo "cleaned $(date)"`,
		`sudo -u build make -j4 > build.log`,
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return b.String()
}
