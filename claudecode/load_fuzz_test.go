package claudecode

import (
	"encoding/json"
	"testing"
)

// FuzzStringOf checks that an item of a list decodes into the string, or
// fails to, as encoding/json decodes it.
func FuzzStringOf(f *testing.F) {
	for _, seed := range []string{`"Bash(ls)"`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", `1`, `null`, `"a" `, ` "a"`, `["a"]`, `""`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, item []byte) {
		if !json.Valid(item) {
			return
		}
		var want string
		err := json.Unmarshal(item, &want)
		if got, ok := stringOf(item); ok != (err == nil) || got != want {
			t.Fatalf("stringOf(%q) = %q, %v; encoding/json gives %q, %v", item, got, ok, want, err)
		}
	})
}
