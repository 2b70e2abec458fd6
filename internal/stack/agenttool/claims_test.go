package agenttool

import (
	"context"
	"encoding/json"
	"testing"
)

// bareTool implements Tool and nothing else.
type bareTool struct{}

func (bareTool) Name() string                { return "bare" }
func (bareTool) Description() string         { return "" }
func (bareTool) Parameters() json.RawMessage { return json.RawMessage(`{}`) }
func (bareTool) Execute(context.Context, Call) (Result, error) {
	return Text(""), nil
}

func noop(context.Context, Call) (Result, error) { return Result{}, nil }

// TestConfinedBy checks the default (unconfined), the claim WithConfined
// gives, and a tool that makes no claim.
func TestConfinedBy(t *testing.T) {
	sandboxed := func(_ context.Context, args json.RawMessage) (bool, string) {
		if string(args) == `{"net":true}` {
			return false, ""
		}
		return true, "landlock+seccomp"
	}
	tests := []struct {
		name   string
		tool   Tool
		args   string
		want   bool
		wantBy string
	}{
		{"New default", New("t", "", func(context.Context, NoArgs) (string, error) { return "", nil }), `{}`, false, ""},
		{"NewFunc default", NewFunc("t", "", nil, noop), `{}`, false, ""},
		{"WithConfined on New", New("t", "", func(context.Context, NoArgs) (string, error) { return "", nil }, WithConfined(sandboxed)), `{}`, true, "landlock+seccomp"},
		{"WithConfined on NewFunc", NewFunc("t", "", nil, noop, WithConfined(sandboxed)), `{}`, true, "landlock+seccomp"},
		{"WithConfined sees the arguments", NewFunc("t", "", nil, noop, WithConfined(sandboxed)), `{"net":true}`, false, ""},
		{"no claim", bareTool{}, `{}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := tt.tool.(Confined); !ok && tt.name != "no claim" {
				t.Errorf("%T does not implement Confined", tt.tool)
			}
			got, by := ConfinedBy(context.Background(), tt.tool, json.RawMessage(tt.args))
			if got != tt.want || by != tt.wantBy {
				t.Errorf("ConfinedBy = (%v, %q), want (%v, %q)", got, by, tt.want, tt.wantBy)
			}
		})
	}
}

// TestReplayOf checks the default (unknown), the claim WithReplay gives, and
// a tool that makes no claim.
func TestReplayOf(t *testing.T) {
	byArgs := func(_ context.Context, args json.RawMessage) Replay {
		if string(args) == `{"read":true}` {
			return ReplaySafe
		}
		return ReplayKeyed
	}
	tests := []struct {
		name string
		tool Tool
		args string
		want Replay
	}{
		{"New default", New("t", "", func(context.Context, NoArgs) (string, error) { return "", nil }), `{}`, ReplayUnknown},
		{"NewFunc default", NewFunc("t", "", nil, noop), `{}`, ReplayUnknown},
		{"WithReplay on New", New("t", "", func(context.Context, NoArgs) (string, error) { return "", nil }, WithReplay(byArgs)), `{}`, ReplayKeyed},
		{"WithReplay sees the arguments", NewFunc("t", "", nil, noop, WithReplay(byArgs)), `{"read":true}`, ReplaySafe},
		{"both options", NewFunc("t", "", nil, noop, WithConfined(func(context.Context, json.RawMessage) (bool, string) { return true, "c" }), WithReplay(byArgs)), `{}`, ReplayKeyed},
		{"no claim", bareTool{}, `{}`, ReplayUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := tt.tool.(Replayable); !ok && tt.name != "no claim" {
				t.Errorf("%T does not implement Replayable", tt.tool)
			}
			if got := ReplayOf(context.Background(), tt.tool, json.RawMessage(tt.args)); got != tt.want {
				t.Errorf("ReplayOf = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestReplayString checks the words and values of Replay (stack.md §5, §7).
func TestReplayString(t *testing.T) {
	var zero Replay
	tests := []struct {
		r     Replay
		want  string
		value int
	}{
		{zero, "unknown", 0},
		{ReplayUnknown, "unknown", 0},
		{ReplaySafe, "safe", 1},
		{ReplayKeyed, "keyed", 2},
		{Replay(9), "Replay(9)", 9},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want || int(tt.r) != tt.value {
			t.Errorf("Replay(%d).String() = %q, want %q (value %d)", int(tt.r), got, tt.want, tt.value)
		}
	}
}
