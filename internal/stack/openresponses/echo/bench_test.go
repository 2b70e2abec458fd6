package echo_test

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// BenchmarkCollectEcho measures one echo answer collected from its stream,
// the model call of every end-to-end turn.
func BenchmarkCollectEcho(b *testing.B) {
	req := openresponses.Request{Input: openresponses.Items{openresponses.UserText("git status"), openresponses.AssistantText("ok"), openresponses.UserText("again")}}
	a := &echo.Adapter{}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openresponses.CollectStream(ctx, a, req); err != nil {
			b.Fatal(err)
		}
	}
}
