package shell

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

// TestSplitLinear holds the split of a script to a cost linear in its
// length: a 100 KiB script takes about ten times a 10 KiB one, where a
// reading that walks the whole script for each command takes a hundred.
// Each figure is the least of several runs, which a busy machine disturbs
// least; the bound, 30, leaves room for noise and for what does not
// scale, and is far below a quadratic cost.
func TestSplitLinear(t *testing.T) {
	split := Subjects(WithWriteTool("write", "path"))
	least := func(command string, runs int) time.Duration {
		args := commandArgs(command)
		best := time.Duration(1<<63 - 1)
		for range runs {
			start := time.Now()
			if _, err := split(args); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := least(script(10<<10), 7), least(script(100<<10), 3)
	if ratio := float64(large) / float64(small); ratio > 30 {
		t.Errorf("a 100 KiB script takes %v, %.0f times a 10 KiB one (%v): the split is not linear", large, ratio, small)
	}
}
