package agentpolicy

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestField(t *testing.T) {
	tests := []struct {
		name string
		// field is the name read, "command" when empty.
		field string
		args  string
		value string
		ok    bool
		// problem is the text after "agentpolicy: ambiguous arguments: ",
		// empty when Field must not fail.
		problem string
	}{
		{name: "the field", args: `{"command":"ls"}`, value: "ls", ok: true},
		{name: "among others", args: `{"cwd":"/","command":"ls -la","env":{"A":[1,2,{"b":null}]}}`, value: "ls -la", ok: true},
		{name: "whitespace around", args: " \n{ \"command\" : \"ls\" }\t", value: "ls", ok: true},
		{name: "empty string", args: `{"command":""}`, value: "", ok: true},
		{name: "escapes decoded", args: `{"command":"git \"st\u0061tus\"\n"}`, value: "git \"status\"\n", ok: true},
		{name: "every escape", args: `{"command":"\b\f\n\r\t\/\\\"\u00e9\u0000\uD83D\uDE00x"}`, value: "\b\f\n\r\t/\\\"é\x00😀x", ok: true},
		{name: "surrogate pair", args: `{"command":"\ud83d\ude00"}`, value: "😀", ok: true},
		{name: "multibyte UTF-8", args: `{"command":"café ſ K"}`, value: "café ſ K", ok: true},
		{name: "escaped key is the key", args: `{"comman\u0064":"ls"}`, value: "ls", ok: true},
		{name: "absent", args: `{"cmd":"ls"}`},
		{name: "empty object", args: `{}`},
		{name: "nested object has the key", args: `{"args":{"command":"rm -rf /"}}`},
		{name: "nested object repeats the key", args: `{"command":"ls","args":{"command":"rm","Command":"rm"}}`, value: "ls", ok: true},
		{name: "nested array holds the key", args: `{"x":[{"command":"rm"}],"command":"ls"}`, value: "ls", ok: true},
		{name: "other keys may not fold to it", args: `{"comma":"x","commands":"y","command":"ls"}`, value: "ls", ok: true},

		{name: "twice", args: `{"command":"git status","command":"rm -rf /"}`, problem: `"command" appears twice`},
		{name: "twice, same value", args: `{"command":"ls","command":"ls"}`, problem: `"command" appears twice`},
		{name: "twice via an escaped key", args: `{"command":"ls","comman\u0064":"rm"}`, problem: `"command" appears twice`},
		{name: "twice, escaped first", args: `{"\u0063ommand":"rm","command":"ls"}`, problem: `"command" appears twice`},
		{name: "in other case alone", args: `{"Command":"rm -rf /"}`, problem: `"command" also as "Command"`},
		{name: "in other case after", args: `{"command":"git status","Command":"rm -rf /"}`, problem: `"command" also as "Command"`},
		{name: "in other case before", args: `{"COMMAND":"rm -rf /","command":"git status"}`, problem: `"command" also as "COMMAND"`},
		{name: "long s", field: "status", args: `{"status":"ok","ſtatus":"rm -rf /"}`, problem: `"status" also as "ſtatus"`},
		{name: "long s escaped", field: "status", args: `{"\u017ftatus":"rm -rf /"}`, problem: `"status" also as "ſtatus"`},
		{name: "long s only reads as s", field: "status", args: `{"status":"ok","ſtatuses":"x","sstatus":"y"}`, value: "ok", ok: true},
		{name: "Kelvin sign", field: "kind", args: `{"kind":"ok","\u212aind":"rm"}`, problem: "\"kind\" also as \"\u212aind\""},
		{name: "Kelvin sign in the key read", field: "\u212aind", args: `{"kind":"rm"}`, problem: "\"\u212aind\" also as \"kind\""},
		{name: "escaped fold", args: `{"command":"ls","\u0043ommand":"rm"}`, problem: `"command" also as "Command"`},
		{name: "number", args: `{"command":1}`, problem: `"command" is not a string`},
		{name: "null", args: `{"command":null}`, problem: `"command" is not a string`},
		{name: "array", args: `{"command":["rm","-rf","/"]}`, problem: `"command" is not a string`},
		{name: "object", args: `{"command":{"a":"ls"}}`, problem: `"command" is not a string`},
		{name: "bool", args: `{"command":true}`, problem: `"command" is not a string`},

		{name: "array args", args: `[{"command":"ls"}]`, problem: "not a JSON object"},
		{name: "string args", args: `"ls"`, problem: "not a JSON object"},
		{name: "null args", args: `null`, problem: "not a JSON object"},
		{name: "empty args", args: ``, problem: "invalid JSON: unexpected end"},
		{name: "whitespace args", args: `  `, problem: "invalid JSON: unexpected end"},
		{name: "two documents", args: `{"command":"ls"}{"command":"rm"}`, problem: "not one JSON object"},
		{name: "trailing text", args: `{"command":"ls"} x`, problem: "not one JSON object"},
		{name: "not JSON", args: `command=ls`, problem: "invalid JSON at byte 0"},
		{name: "trailing comma", args: `{"command":"ls",}`, problem: "invalid JSON at byte 16"},
		{name: "truncated", args: `{"command":"ls"`, problem: "invalid JSON: unexpected end"},
		{name: "bad later member", args: `{"command":"ls","x":tru}`, problem: "invalid JSON at byte 20"},
		{name: "single quotes", args: `{'command':'ls'}`, problem: "invalid JSON at byte 1"},
		{name: "control character", args: "{\"command\":\"l\ns\"}", problem: "invalid JSON at byte 13"},
		{name: "bad escape", args: `{"command":"l\qs"}`, problem: "invalid JSON at byte 14"},
		{name: "invalid UTF-8 in the value", args: "{\"command\":\"ls\xff\"}", problem: "invalid UTF-8 at byte 14"},
		{name: "invalid UTF-8 in a key", args: "{\"comm\xe0nd\":\"ls\",\"command\":\"ls\"}", problem: "invalid UTF-8 at byte 6"},
		{name: "invalid UTF-8 nested", args: "{\"command\":\"ls\",\"x\":[\"\xc0\xaf\"]}", problem: "invalid UTF-8 at byte 22"},
		{name: "UTF-8 encoded surrogate", args: "{\"command\":\"\xed\xa0\x80\"}", problem: "invalid UTF-8 at byte 12"},
		{name: "lone high surrogate", args: `{"command":"rm \ud800"}`, problem: "unpaired surrogate escape at byte 15"},
		{name: "lone low surrogate", args: `{"command":"\udc00"}`, problem: "unpaired surrogate escape at byte 12"},
		{name: "high surrogate then a letter", args: `{"command":"\ud800x"}`, problem: "unpaired surrogate escape at byte 12"},
		{name: "two high surrogates", args: `{"command":"\ud800\ud800"}`, problem: "unpaired surrogate escape at byte 12"},
		{name: "unpaired surrogate in a key", args: `{"command":"ls","\udc00":1}`, problem: "unpaired surrogate escape at byte 17"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.field
			if name == "" {
				name = "command"
			}
			value, ok, err := Field(json.RawMessage(tt.args), name)
			if tt.problem != "" {
				if err == nil {
					t.Fatalf("Field(%q) = %q, %v, want an error", tt.args, value, ok)
				}
				if !errors.Is(err, ErrAmbiguousArgs) {
					t.Errorf("error %v does not wrap ErrAmbiguousArgs", err)
				}
				if want := "agentpolicy: ambiguous arguments: " + tt.problem; err.Error() != want {
					t.Errorf("error = %q, want %q", err, want)
				}
				if value != "" || ok {
					t.Errorf("Field returned %q, %v beside its error", value, ok)
				}
				return
			}
			if err != nil || value != tt.value || ok != tt.ok {
				t.Fatalf("Field(%q) = %q, %v, %v; want %q, %v, nil", tt.args, value, ok, err, tt.value, tt.ok)
			}
		})
	}
}

// TestFieldReadsAsEncodingJSON holds every value Field returns to what
// encoding/json decodes into a struct with the one field, and every
// absence to a field encoding/json leaves unset: the reading a Go tool
// written the ordinary way makes.
func TestFieldReadsAsEncodingJSON(t *testing.T) {
	for _, args := range []string{
		`{"command":"ls"}`,
		`{"COMMAND":"ls"}`,
		`{"coMMand":"ls"}`,
		`{"ſ":"x","s":"y"}`,
		`{"\u017f":"x"}`,
		`{"K":"x"}`,
		`{"command":"a\u0000b"}`,
		`{"command":"\u2028"}`,
	} {
		checkAgainstEncodingJSON(t, []byte(args))
	}
}

// checkAgainstEncodingJSON fails when Field reads args without error and
// encoding/json reads the same fields differently.
func checkAgainstEncodingJSON(t *testing.T, args []byte) {
	t.Helper()
	for _, name := range []string{"command", "s", "k"} {
		value, ok, err := Field(args, name)
		if err != nil {
			continue
		}
		got, set, decodeErr := decodeOne(args, name)
		if decodeErr != nil {
			t.Fatalf("Field(%q, %q) = %q, %v, but encoding/json fails: %v", args, name, value, ok, decodeErr)
		}
		if ok != set || value != got {
			t.Fatalf("Field(%q, %q) = %q, %v; encoding/json reads %q, %v", args, name, value, ok, got, set)
		}
	}
}

// decodeOne decodes args with encoding/json into a struct whose one field
// is tagged name, reporting whether any key set it.
func decodeOne(args []byte, name string) (string, bool, error) {
	var err error
	var got *string
	switch name {
	case "command":
		var v struct {
			F *string `json:"command"`
		}
		err, got = json.Unmarshal(args, &v), v.F
	case "s":
		var v struct {
			F *string `json:"s"`
		}
		err, got = json.Unmarshal(args, &v), v.F
	case "k":
		var v struct {
			F *string `json:"k"`
		}
		err, got = json.Unmarshal(args, &v), v.F
	}
	if err != nil || got == nil {
		return "", false, err
	}
	return *got, true, nil
}

func TestCheckArgs(t *testing.T) {
	many := func(extra string) string {
		var b strings.Builder
		b.WriteString(`{`)
		for i := range 20 {
			b.WriteString(`"k`)
			b.WriteByte(byte('a' + i))
			b.WriteString(`":1,`)
		}
		b.WriteString(extra)
		b.WriteString(`}`)
		return b.String()
	}
	tests := []struct {
		name, args, problem string
	}{
		{"one object", `{"command":"ls","timeout":5,"env":{"A":"1","a":"2"}}`, ""},
		{"empty object", `{}`, ""},
		{"many keys", many(`"command":"ls"`), ""},
		{"duplicate", `{"a":1,"b":2,"a":3}`, `"a" appears twice`},
		{"escaped duplicate", `{"a":1,"\u0061":2}`, `"a" appears twice`},
		{"folded", `{"path":"x","PATH":"y"}`, `"path" also as "PATH"`},
		{"long s", `{"s":"x","ſ":"y"}`, `"s" also as "ſ"`},
		{"Kelvin", `{"K":"x","k":"y"}`, `"K" also as "k"`},
		{"duplicate among many", many(`"command":"ls","kc":2`), `"kc" appears twice`},
		{"folded among many", many(`"command":"ls","KC":2`), `"kc" also as "KC"`},
		{"long s among many", many(`"ſ":"x","s":1`), `"ſ" also as "s"`},
		{"not an object", `["a"]`, "not a JSON object"},
		{"invalid", `{"a":}`, "invalid JSON at byte 5"},
		{"unpaired surrogate", `{"a":"\ud800"}`, "unpaired surrogate escape at byte 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := checkArgs([]byte(tt.args), "")
			if tt.problem == "" {
				if err != nil {
					t.Fatalf("checkArgs(%s) = %v, want nil", tt.args, err)
				}
				return
			}
			if want := "agentpolicy: ambiguous arguments: " + tt.problem; err == nil || err.Error() != want {
				t.Fatalf("checkArgs(%s) = %v, want %q", tt.args, err, want)
			}
		})
	}
}

func FuzzField(f *testing.F) {
	for _, s := range []string{
		`{"command":"ls"}`, `{"Command":"ls"}`, `{"command":"a","command":"b"}`,
		`{"comman\u0064":"x"}`, `{"\u017f":"x","s":"y"}`, `{"\u212a":"x"}`, `{"k":"\ud83d\ude00"}`,
		`{"command":"\ud800"}`, "{\"command\":\"\xff\"}", `{"x":{"command":"rm"},"command":"ls"}`,
		`{"command":"a\/b\\c\"d\u00e9"}`, ` {"s" : "x" } `, `{"command":1}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		checkAgainstEncodingJSON(t, args)
		if _, _, err := checkArgs(args, ""); err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(args, &m); err != nil || m == nil {
			t.Fatalf("checkArgs(%q) passes arguments encoding/json reads as no object: %v", args, err)
		}
		// What the built-in matchers read of arguments the engine lets
		// through is what encoding/json reads.
		for _, name := range []string{"command", "s", "k"} {
			value, ok, err := readField(args, name, true)
			got, set, _ := decodeOne(args, name)
			if err == nil && (ok != set || value != got) {
				t.Fatalf("readField(%q, %q) = %q, %v; encoding/json reads %q, %v", args, name, value, ok, got, set)
			}
			if err != nil && !strings.Contains(err.Error(), "is not a string") {
				t.Fatalf("readField(%q, %q) fails on arguments checkArgs passes: %v", args, name, err)
			}
			// The member the check reads on its way is the one the
			// matchers read.
			checked, present, err := checkArgs(args, name)
			if err != nil || checked != value || present != ok {
				t.Fatalf("checkArgs(%q, %q) = %q, %v, %v; readField reads %q, %v", args, name, checked, present, err, value, ok)
			}
		}
	})
}

// fieldBenchArgs is a 200-byte arguments object of the usual shape: the
// value read has no escapes, another member has some.
var fieldBenchArgs = json.RawMessage(`{"command":"git log --oneline --graph --decorate -n 20 origin/main..HEAD","description":"Show the commits on this branch \"ahead\" of main","timeout":1200000,"run_in_background":false,"x":[1,2,3,4,5]}`)

func BenchmarkField(b *testing.B) {
	if len(fieldBenchArgs) != 200 {
		b.Fatalf("arguments are %d bytes, want 200", len(fieldBenchArgs))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := Field(fieldBenchArgs, "command"); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkCheckArgs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := checkArgs(fieldBenchArgs, "command"); err != nil {
			b.Fatal(err)
		}
	}
}
