package agentturn_test

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// Checklist item 1: the zero ToolAction is Allow; Block is 1 and Defer 2.
func TestToolActionValues(t *testing.T) {
	var zero agentturn.ToolAction
	var zeroDecision agentturn.ToolDecision
	cases := []struct {
		name string
		got  agentturn.ToolAction
		want int
	}{
		{"zero value", zero, 0},
		{"zero decision", zeroDecision.Action, 0},
		{"Allow", agentturn.Allow, 0},
		{"Block", agentturn.Block, 1},
		{"Defer", agentturn.Defer, 2},
	}
	for _, c := range cases {
		if int(c.got) != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if zero != agentturn.Allow {
		t.Errorf("zero ToolAction is not Allow")
	}
}
