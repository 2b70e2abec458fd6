package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// Hook processes each open the journal, append one record and close it,
// many at once: a record being written when another opens the file must
// not be taken for a torn line and ended with a newline of its own, which
// would leave an empty line that Read reports as corrupt.
func TestOpenBesideConcurrentWritersAddsNoLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	const writers, records = 8, 300
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range records {
				j, err := Open(path)
				if err != nil {
					t.Error(err)
					return
				}
				if err := j.Record(context.Background(), verdict(fmt.Sprintf("run_%d", w), i)); err != nil {
					t.Error(err)
				}
				j.Close()
			}
		})
	}
	wg.Wait()
	recs, err := ReadFile(path)
	if err != nil || len(recs) != writers*records {
		t.Fatalf("ReadFile = %d records, %v; want %d and no error", len(recs), err, writers*records)
	}
}
