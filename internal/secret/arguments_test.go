package secret

import (
	"encoding/json"
	"strings"
	"testing"

	or "github.com/ChristopherDavenport/openresponses"
)

func TestDecodedReadsAsEncodingJSON(t *testing.T) {
	for _, token := range []string{
		`""`, `"plain"`, `"\u0041\u004b"`, `"\"\\\/\b\f\n\r\t"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`,
		`"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ud83dx"`, `"\ud83d\ud83d\ude00"`,
		"\"a\xffb\\u0041\"", "\"\xed\xa0\x80\\n\"", `"\u00e9t\u00E9"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(token), &want); err != nil {
			t.Fatalf("%s: %v", token, err)
		}
		if got := string([]rune(decoded(token))); got != want {
			t.Errorf("decoded(%s) = %q, encoding/json reads %q", token, got, want)
		}
	}
}

func TestDecodedKeepsWhatEncodingJSONRefuses(t *testing.T) {
	for token, want := range map[string]string{
		`"\x41"`:   `\x41`,
		`"\u12"`:   `\u12`,
		`"\u12G4"`: `\u12G4`,
		`"end\"`:   `end\`,
	} {
		if got := decoded(token); got != want {
			t.Errorf("decoded(%s) = %q, want %q", token, got, want)
		}
	}
}

// FuzzDecoded checks the guards' reading of a JSON string against
// encoding/json's: for any token encoding/json decodes, the strings found
// in it are that one token, and decoded reads what encoding/json does.
func FuzzDecoded(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u0041"`, `"\ud83d\ude00"`, `"\ud83d"`, "\"\xff\"", `"\\\""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, token string) {
		var want string
		if json.Unmarshal([]byte(token), &want) != nil || !strings.HasPrefix(token, `"`) || !strings.HasSuffix(token, `"`) {
			return
		}
		var found []string
		eachString(token, func(start, end int) bool {
			found = append(found, token[start:end])
			return true
		})
		if len(found) != 1 || found[0] != token {
			t.Fatalf("strings of %q found as %q", token, found)
		}
		// Invalid UTF-8 is read as it lies, which the regexp package
		// reads as encoding/json decodes it: each bad byte as U+FFFD.
		if got := string([]rune(decoded(token))); got != want {
			t.Fatalf("decoded(%q) = %q, encoding/json reads %q", token, got, want)
		}
	})
}

// FuzzRedactArguments checks the redaction of any arguments by the
// default kinds: valid JSON stays valid, and nothing in the result, raw or
// decoded, holds a secret.
func FuzzRedactArguments(f *testing.F) {
	for _, s := range []string{`{"command":"AKIA\u0041BCDEFGHIJKLMNOP"}`, `{"a":["x",{"b":"ghp_` + strings.Repeat("a", 36) + `"}]}`, `{"n":1}`, `not json AKIAABCDEFGHIJKLMNOP`} {
		f.Add(s)
	}
	finder := Default()
	f.Fuzz(func(t *testing.T, args string) {
		items := or.Items{&or.FunctionCall{CallID: "call_1", Name: "bash", Arguments: args}}
		if finder.FirstInItems(items, nil) == "" {
			for _, text := range append([]string{args}, stringsOf(args)...) {
				if kind, _, ok := secretIn(text); ok {
					t.Fatalf("arguments %q passed holding %s in %q", args, kind, text)
				}
			}
			return
		}
		redacted := finder.RedactItems(items, new(Tally))[0].(*or.FunctionCall).Arguments
		for _, text := range append([]string{redacted}, stringsOf(redacted)...) {
			if kind, _, ok := secretIn(text); ok {
				t.Fatalf("%q redacted to %q still holds %s in %q", args, redacted, kind, text)
			}
		}
		if json.Valid([]byte(args)) && !json.Valid([]byte(redacted)) && !secretOutsideStrings(args) {
			t.Fatalf("valid arguments %q redacted to invalid %q", args, redacted)
		}
	})
}

// stringsOf is every string eachDecoded reads in args.
func stringsOf(args string) []string {
	var out []string
	eachDecoded(args, false, func(text string) bool {
		out = append(out, text)
		return true
	})
	return out
}

// secretOutsideStrings reports whether a secret in args lies, raw, outside
// its strings, the one case a redaction leaves the JSON broken.
func secretOutsideStrings(args string) bool {
	var blanked strings.Builder
	last := 0
	eachString(args, func(start, end int) bool {
		blanked.WriteString(args[last:start])
		blanked.WriteString(strings.Repeat(" ", end-start))
		last = end
		return true
	})
	blanked.WriteString(args[last:])
	outside := false
	Default().m.each(args, func(sp span) bool {
		outside = strings.TrimSpace(blanked.String()[sp.start:sp.end]) != ""
		return !outside
	})
	return outside
}
