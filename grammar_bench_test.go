package agentpolicy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func BenchmarkParseRules(b *testing.B) {
	line := "read write edit bash(git status:*) bash(git log * main) bash(npm test:*) " +
		"Edit(./Finance (2024)/**) read(!.env.example) mcp__* bash(git push:*)"
	for b.Loop() {
		if _, err := ParseRules(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGlobMatcher(b *testing.B) {
	glob, prefix := GlobMatcher("command"), PrefixMatcher("command")
	typical := commandArgs("git log --oneline --graph main")
	b.Run("glob/star", func(b *testing.B) {
		for b.Loop() {
			glob("git log * main", typical)
		}
	})
	b.Run("glob/boundary", func(b *testing.B) {
		for b.Loop() {
			glob("git log:*", typical)
		}
	})
	b.Run("glob/exact", func(b *testing.B) {
		for b.Loop() {
			glob("git status", typical)
		}
	})
	b.Run("prefix", func(b *testing.B) {
		for b.Loop() {
			prefix("git log:*", typical)
		}
	})
	b.Run("tool", func(b *testing.B) {
		r := Rule{Tool: "mcp__*__delete_*"}
		for b.Loop() {
			r.MatchesTool("mcp__github__delete_repository")
		}
	})
	// Ten stars, the last literal nowhere in the value: a backtracking
	// matcher tries every placement of the stars, while this one scans the
	// value once, so the cost doubles with the value and no more.
	pattern := "*" + strings.Repeat("a*", 8) + "aaaaaaab*"
	if n := strings.Count(pattern, "*"); n != 10 {
		b.Fatalf("the pattern has %d stars", n)
	}
	for _, kib := range []int{64, 128} {
		args := commandArgs(strings.Repeat("a", kib<<10))
		b.Run(fmt.Sprintf("10 stars/%dKiB", kib), func(b *testing.B) {
			b.SetBytes(int64(len(args)))
			for b.Loop() {
				if glob(pattern, json.RawMessage(args)) {
					b.Fatal("the pattern matched")
				}
			}
		})
	}
}
