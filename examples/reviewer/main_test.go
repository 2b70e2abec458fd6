package main

import (
	"context"
	"strings"
	"testing"
)

// The program's run, offline: the policy allows the status, asks about the
// pushes, and the reviewer approves the feature branch and refuses main.
func TestRunOffline(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out, keywordJudge{}, "judge"); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"allow  by policy  allowed by bash(git status:*)",
		"ask    by policy  approval required by bash(git push:*)",
		"allow  by agent   approved by reviewer: a push of a feature branch",
		"ask    by policy  approval required by bash(git push:*)",
		"block  by agent   denied by reviewer: a force push to main rewrites shared history",
		"the run ended done: Pushed the feature branch; main was left alone.",
	}, "\n") + "\n"
	if out.String() != want {
		t.Fatalf("the program wrote\n%s\nwant\n%s", out.String(), want)
	}
}
