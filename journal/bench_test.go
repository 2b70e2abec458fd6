package journal

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
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

// BenchmarkReadVerdicts reads back a journal of ten thousand deferrals,
// as a restart restores them, and reports records per second.
func BenchmarkReadVerdicts(b *testing.B) {
	v := agentpolicy.Verdict{RunID: "run_1", Turn: 3, CallID: "call_1", Tool: "bash", Action: agentturn.Defer,
		Rule:   &agentpolicy.Rule{Tool: "bash", Spec: "git push:*", Source: agentpolicy.Source{Name: "project", Hash: "sha256:ab"}},
		Reason: "approval required by bash(git push:*)", By: agentpolicy.ByPolicy, Subject: "git push origin main",
		Args: `{"command":"git push origin main"}`}
	_, line := v.Record()
	const n = 10_000
	var journal bytes.Buffer
	for range n {
		journal.Write(line)
		journal.WriteByte('\n')
	}
	b.SetBytes(int64(journal.Len()))
	b.ReportAllocs()
	for b.Loop() {
		vs, err := ReadVerdicts(bytes.NewReader(journal.Bytes()))
		if err != nil || len(vs) != n {
			b.Fatal(len(vs), err)
		}
	}
	b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "records/s")
}
