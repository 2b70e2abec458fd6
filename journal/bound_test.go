package journal

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// A 20 MB Write is journaled as its first 64 KiB with the whole's length
// and digest, and a short call beside it whole.
func TestFileKeepsArgsUpToItsBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	huge := `{"file_path":"big.txt","content":"` + strings.Repeat("a", 20<<20) + `"}`
	short := `{"command":"git status"}`
	for _, tc := range []struct {
		opts []Option
		want int // bytes of the huge input kept
	}{
		{nil, agentpolicy.DefaultArgsBound},
		{[]Option{WithArgsBound(1024)}, 1024},
		{[]Option{WithArgsBound(0)}, len(huge)},
	} {
		j := openOrFail(t, path, tc.opts...)
		for _, args := range []string{huge, short} {
			v := agentpolicy.Verdict{RunID: "s", CallID: "c", Tool: "Write", Action: agentturn.Block, Args: args}
			if err := j.Record(context.Background(), v); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		vs, err := Verdicts(path)
		if err != nil {
			t.Fatal(err)
		}
		got, twin := vs[len(vs)-2], vs[len(vs)-1]
		if len(got.Args) != tc.want || !strings.HasPrefix(huge, got.Args) {
			t.Errorf("kept %d bytes of the huge input; want its first %d", len(got.Args), tc.want)
		}
		if cut := tc.want < len(huge); cut != (got.ArgsBytes == len(huge) && len(got.ArgsSHA256) == 64) {
			t.Errorf("cut %v: args_bytes %d, args_sha256 %q", cut, got.ArgsBytes, got.ArgsSHA256)
		}
		if twin.Args != short || twin.ArgsBytes != 0 || twin.ArgsSHA256 != "" {
			t.Errorf("the short input was journaled as %+v; want it whole", twin)
		}
	}
}
