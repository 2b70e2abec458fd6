package agentpolicy

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ChristopherDavenport/agentturn"
)

func TestCutArgsKeepsAHeadWithTheWholesLengthAndDigest(t *testing.T) {
	whole := `{"content":"` + strings.Repeat("x", 100) + `"}`
	sum := sha256.Sum256([]byte(whole))
	v := Verdict{Tool: "Write", Action: agentturn.Defer, Args: whole}.CutArgs(16)
	if v.Args != whole[:16] || v.ArgsBytes != len(whole) || v.ArgsSHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("cut = %q, %d, %s; want the first 16 bytes, %d and the whole's digest", v.Args, v.ArgsBytes, v.ArgsSHA256, len(whole))
	}
	_, data := v.Record()
	back, err := ParseRecord(data)
	if err != nil || back != v {
		t.Fatalf("ParseRecord(%s) = %+v, %v; want the cut verdict back", data, back, err)
	}
	if again := v.CutArgs(8); again != v {
		t.Errorf("a cut verdict cut again = %+v; want it as it was, with the whole's length", again)
	}
}

// The harmless twin: input within the bound, at it, or with no bound, is
// kept whole and records no length or digest.
func TestCutArgsLeavesInputWithinTheBoundWhole(t *testing.T) {
	whole := `{"command":"git status"}`
	for _, bound := range []int{len(whole), len(whole) + 1, 0, -1} {
		v := Verdict{Tool: "Bash", Args: whole}
		if got := v.CutArgs(bound); got != v {
			t.Errorf("CutArgs(%d) = %+v; want the verdict unchanged", bound, got)
		}
		if _, data := v.CutArgs(bound).Record(); strings.Contains(string(data), "args_bytes") {
			t.Errorf("CutArgs(%d) records %s; want no args_bytes", bound, data)
		}
	}
}

func TestCutArgsCutsAtTheStartOfACharacter(t *testing.T) {
	whole := `{"text":"` + strings.Repeat("é", 20) + `"}` // é is two bytes
	for bound := 9; bound < 20; bound++ {
		v := Verdict{Args: whole}.CutArgs(bound)
		if len(v.Args) > bound || !utf8.ValidString(v.Args) || !strings.HasPrefix(whole, v.Args) || bound-len(v.Args) > 1 {
			t.Errorf("CutArgs(%d) kept %q; want the longest valid head of at most %d bytes", bound, v.Args, bound)
		}
	}
}
