package shell

import (
	"encoding/json"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// FuzzJSONObject checks that a subject's arguments are one valid JSON
// object that agentpolicy.Field, the reading every matcher shares, reads
// back as the value encoding/json would round-trip: invalid UTF-8 becomes
// U+FFFD, and everything else is kept.
func FuzzJSONObject(f *testing.F) {
	for _, s := range []string{"", "rm -rf /", "a\"b\\c", "<>&", "\x00\x01\x1f\x7f", "\t\n\r", "\u2028\u2029", "\xed\xa0\x80", "\xff", "é😀", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := jsonObject("command", s)
		got, ok, err := agentpolicy.Field(args, "command")
		if err != nil || !ok {
			t.Fatalf("Field(%s): %q, %v, %v", args, got, ok, err)
		}
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%q read back as %q, want %q", s, got, want)
		}
	})
}
