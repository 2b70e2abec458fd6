package openresponses

import (
	"encoding/json"
	"testing"
)

// BenchmarkItemsClone measures the copy a guard makes of the transcript
// before rewriting it.
func BenchmarkItemsClone(b *testing.B) {
	items := fullItems()
	b.ReportAllocs()
	for b.Loop() {
		_ = items.Clone()
	}
}

// BenchmarkItemsMarshal measures encoding a transcript, which a size guard
// does to measure it.
func BenchmarkItemsMarshal(b *testing.B) {
	items := fullItems()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(items); err != nil {
			b.Fatal(err)
		}
	}
}
