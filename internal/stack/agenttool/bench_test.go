package agenttool

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkNewExecute measures one call of a typed tool: the required check,
// decoding and the output conversion.
func BenchmarkNewExecute(b *testing.B) {
	tool := New("edit", "", func(_ context.Context, a editArgs) (string, error) { return a.Path, nil })
	call := Call{ID: "call_1", Args: json.RawMessage(`{"path":"a.go","text":"package a"}`)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tool.Execute(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
}
