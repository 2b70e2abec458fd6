package claudecode

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
)

// trustCases are .claude.json texts, plain and odd. fast is whether
// scanTrust must read the text itself; want, where given, is each
// project's flag as encoding/json reads it.
var trustCases = []struct {
	name string
	text string
	fast bool
	want map[string]bool
}{
	{"plain", `{"projects": {"/a": {"hasTrustDialogAccepted": true}, "/b": {"hasTrustDialogAccepted": false}, "/c": {}}}`,
		true, map[string]bool{"/a": true, "/b": false, "/c": false}},
	{"other members and values", `{"n": -0.5e+10, "m": [1E5, 0, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"], "projects": {"/a": {"history": [{"display": "hasTrustDialogAccepted"}], "hasTrustDialogAccepted": true, "x": {"hasTrustDialogAccepted": false}}}, "z": {}}`,
		true, map[string]bool{"/a": true}},
	{"whitespace everywhere", " \t\r\n{ \"projects\" :\n{ \"/a\" : { \"hasTrustDialogAccepted\" : true } } } \n",
		true, map[string]bool{"/a": true}},
	{"no projects", `{"numStartups": 3}`, true, map[string]bool{}},
	{"a later entry of a project replaces an earlier one", `{"projects": {"/a": {"hasTrustDialogAccepted": true}, "/a": {"lastCost": 1}}}`,
		true, map[string]bool{"/a": false}},
	{"a null entry replaces an earlier one", `{"projects": {"/a": {"hasTrustDialogAccepted": true}, "/a": null}}`,
		true, map[string]bool{"/a": false}},
	{"a later flag wins within an entry", `{"projects": {"/a": {"hasTrustDialogAccepted": true, "hasTrustDialogAccepted": false}}}`,
		true, map[string]bool{"/a": false}},
	{"a null flag leaves the flag as it was", `{"projects": {"/a": {"hasTrustDialogAccepted": true, "hasTrustDialogAccepted": null}}}`,
		true, map[string]bool{"/a": true}},
	{"a second projects object adds to the first", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}, "projects": {"/b": {}}}`,
		true, map[string]bool{"/a": true, "/b": false}},
	{"null projects empties them", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}, "projects": null, "projects": {"/b": {}}}`,
		true, map[string]bool{"/b": false}},
	{"an escaped project name", `{"projects": {"/\u0061\/b": {"hasTrustDialogAccepted": true}}}`,
		true, map[string]bool{"/a/b": true}},
	{"a project name of bytes that are not UTF-8", "{\"projects\": {\"/a\xff\": {\"hasTrustDialogAccepted\": true}}}",
		true, map[string]bool{"/a\uFFFD": true}},
	{"a project name in UTF-8", `{"projects": {"/é": {"hasTrustDialogAccepted": true}}}`,
		true, map[string]bool{"/é": true}},
	{"a member that folds to projects", `{"Projects": {"/a": {"hasTrustDialogAccepted": true}}}`,
		false, map[string]bool{"/a": true}},
	{"a member that folds to projects by Unicode", `{"projectſ": {"/a": {"hasTrustDialogAccepted": true}}}`,
		false, map[string]bool{"/a": true}},
	{"an escaped projects", `{"proj\u0065cts": {"/a": {"hasTrustDialogAccepted": true}}}`,
		false, map[string]bool{"/a": true}},
	{"a flag that folds", `{"projects": {"/a": {"HASTRUSTDIALOGACCEPTED": true}}}`,
		false, map[string]bool{"/a": true}},
	{"a flag that folds by Unicode", `{"projects": {"/a": {"haſTrustDialogAccepted": true}}}`,
		false, map[string]bool{"/a": true}},
	{"a document of null", `null`, false, map[string]bool{}},
	{"nesting deeper than the scan reads", `{"x": ` + strings.Repeat("[", scanDepth+1) + strings.Repeat("]", scanDepth+1) + `, "projects": {"/a": {"hasTrustDialogAccepted": true}}}`,
		false, map[string]bool{"/a": true}},
	{"nesting as deep as the scan reads", `{"x": ` + strings.Repeat("[", scanDepth-1) + strings.Repeat("]", scanDepth-1) + `, "projects": {"/a": {"hasTrustDialogAccepted": true}}}`,
		true, map[string]bool{"/a": true}},
	// Not of the shape: encoding/json's type errors.
	{"a flag as a string", `{"projects": {"/a": {"hasTrustDialogAccepted": "true"}}}`, false, nil},
	{"a flag as a number", `{"projects": {"/a": {"hasTrustDialogAccepted": 1}}}`, false, nil},
	{"an entry as an array", `{"projects": {"/a": []}}`, false, nil},
	{"an entry as true", `{"projects": {"/a": true}}`, false, nil},
	{"projects as an array", `{"projects": []}`, false, nil},
	{"a document of an array", `[]`, false, nil},
	// Not JSON.
	{"empty", ``, false, nil},
	{"a byte order mark", "\ufeff{}", false, nil},
	{"cut short", `{"projects": `, false, nil},
	{"a trailing comma", `{"a": 1,}`, false, nil},
	{"a trailing comma in an array", `{"a": [1,]}`, false, nil},
	{"a leading zero", `{"a": 01}`, false, nil},
	{"a bare point", `{"a": 1.}`, false, nil},
	{"a bare minus", `{"a": -}`, false, nil},
	{"a bare exponent", `{"a": 1e}`, false, nil},
	{"a plus sign", `{"a": +1}`, false, nil},
	{"an unclosed string", `{"a": "x}`, false, nil},
	{"a control character in a string", "{\"a\": \"x\ty\"}", false, nil},
	{"an unknown escape", `{"a": "\x"}`, false, nil},
	{"a short unicode escape", `{"a": "\u12g4"}`, false, nil},
	{"a misspelt literal", `{"a": tru}`, false, nil},
	{"a literal run on", `{"a": truex}`, false, nil},
	{"a text after the document", `{} x`, false, nil},
	{"two documents", `{}{}`, false, nil},
	{"a key that is not a string", `{a: 1}`, false, nil},
	{"a missing colon", `{"a" 1}`, false, nil},
	{"a missing comma", `{"a": 1 "b": 2}`, false, nil},
	{"a broken flag", `{"projects": {"/a": {"hasTrustDialogAccepted": tru}}}`, false, nil},
	{"a broken entry", `{"projects": {"/a": nul}}`, false, nil},
}

// scanTrust reads what encoding/json reads, and takes a text it is not sure
// of to encoding/json.
func TestScanTrust(t *testing.T) {
	for _, c := range trustCases {
		got, fast := scanTrust([]byte(c.text))
		if fast != c.fast {
			t.Errorf("%s: scanTrust read it: %v, want %v", c.name, fast, c.fast)
		}
		decoded, err := decodeTrust([]byte(c.text))
		if c.want == nil {
			if err == nil {
				t.Errorf("%s: decodeTrust = %v, want an error", c.name, decoded)
			}
			continue
		}
		if err != nil || !maps.Equal(decoded, c.want) {
			t.Errorf("%s: decodeTrust = %v, %v; want %v", c.name, decoded, err, c.want)
		}
		if fast && !maps.Equal(got, c.want) {
			t.Errorf("%s: scanTrust = %v, want %v", c.name, got, c.want)
		}
		if got, err := trustRecord([]byte(c.text)); err != nil || !maps.Equal(got, c.want) {
			t.Errorf("%s: trustRecord = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// Whatever scanTrust reads, it reads as encoding/json does.
func FuzzScanTrust(f *testing.F) {
	for _, c := range trustCases {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, fast := scanTrust([]byte(text))
		if !fast {
			return
		}
		want, err := decodeTrust([]byte(text))
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("scanTrust(%q) = %v; encoding/json reads %v, %v", text, got, want, err)
		}
	})
}

// largeClaudeJSON is a .claude.json of projects with long histories, as
// Claude Code grows it, indented as it writes it: 60 projects of 100
// entries, 1.2 MB.
func largeClaudeJSON() []byte {
	var b strings.Builder
	b.WriteString(`{"numStartups": 42, "userID": "abc", "projects": {`)
	for p := range 60 {
		if p > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"/home/u/src/project%02d": {"allowedTools": [], "history": [`, p)
		for h := range 100 {
			if h > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"display": "please fix the failing test in package number %d, run go vet ./... and commit with a message that explains why (%d) \u00e9", "pastedContents": {}}`, h, p)
		}
		fmt.Fprintf(&b, `], "mcpServers": {}, "hasTrustDialogAccepted": %v, "lastCost": 1.234, "exampleFiles": ["a.go", "b.go"]}`, p%2 == 0)
	}
	b.WriteString(`}}`)
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(b.String()), "", "  "); err != nil {
		panic(err)
	}
	return indented.Bytes()
}

func TestScanTrustLarge(t *testing.T) {
	data := largeClaudeJSON()
	got, fast := scanTrust(data)
	want, err := decodeTrust(data)
	if !fast || err != nil || len(want) != 60 || !maps.Equal(got, want) {
		t.Fatalf("scanTrust read it: %v; got %d projects, encoding/json %d (%v)", fast, len(got), len(want), err)
	}
	if !got["/home/u/src/project00"] || got["/home/u/src/project01"] {
		t.Errorf("project00 trusted %v, project01 %v; want true, false", got["/home/u/src/project00"], got["/home/u/src/project01"])
	}
}

// BenchmarkTrustRecord reads a large .claude.json by scanTrust and by
// encoding/json alone.
func BenchmarkTrustRecord(b *testing.B) {
	data := largeClaudeJSON()
	for _, r := range []struct {
		name string
		read func([]byte) (map[string]bool, error)
	}{{"scan", trustRecord}, {"encoding-json", decodeTrust}} {
		b.Run(r.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.read(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// plainWord finds a string's special byte at any place of a word, and
// nothing else.
func TestPlainWord(t *testing.T) {
	for b := range 256 {
		for at := range 8 {
			word := []byte("aaaaaaaa")
			word[at] = byte(b)
			if got := plainWord(binary.LittleEndian.Uint64(word)); got == stringByte[b] {
				t.Errorf("plainWord(%q) = %v", word, got)
			}
		}
	}
}
