package journal

import (
	"context"
	"path/filepath"
	"testing"
)

// benchmarkRecord appends one verdict per iteration, from every
// goroutine b.RunParallel starts, and reports records per second.
func benchmarkRecord(b *testing.B, opts ...Option) {
	j := openOrFail(b, filepath.Join(b.TempDir(), "verdicts.jsonl"), opts...)
	defer j.Close()
	v := verdict("run_1", 1)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := j.Record(ctx, v); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkRecord(b *testing.B)     { benchmarkRecord(b) }
func BenchmarkRecordSync(b *testing.B) { benchmarkRecord(b, WithSync()) }
