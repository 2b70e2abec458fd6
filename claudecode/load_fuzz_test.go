package claudecode

import (
	"encoding/json"
	"reflect"
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

// FuzzDecodeCommon checks the one-pass reading of a settings file: a file
// decodeCommon reads is one decodeStrict reads into the same document.
func FuzzDecodeCommon(f *testing.F) {
	for _, seed := range []string{
		`{"permissions":{"allow":["Bash(ls)",1,{"a": [1, "]"]} ],"deny":null,"ask":[],"defaultMode":"plan"}}`,
		` {"permissions": {"additionalDirectories": ["../x", "~/y"], "disableBypassPermissionsMode": "disable"}} `,
		`{"allowManagedPermissionRulesOnly": true, "disableAutoMode": "disable", "permissions": null, "env": {"A": "\"}"}}`,
		`{"permissions":{"allow":["a"],"allow":["b"]}}`, `{"allowManagedPermissionRulesOnly":true,"allowManagedPermissionRulesOnly":null}`,
		`{"permissions":{"defaultMode":"plan","defaultMode":null}}`, `{"perm\u0069ssions":{"deny":["Read"]}}`, `{"Permissions":{"deny":["x"]}}`,
		`{"permissions":{"allow":"Bash"}}`, `{"permissions":[]}`, `{"allowManagedPermissionRulesOnly":"yes"}`,
		`[]`, `null`, `{"a":1}x`, `{"permissions":{"defaultMode":5}}`, "{\"permissions\":{\"deny\":[\"\xff\",\"\\u00e9\"]}}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, ok := decodeCommon(data)
		if !ok {
			return
		}
		want, err := decodeStrict("f.json", data)
		if err != nil {
			t.Fatalf("decodeCommon read %q, which decodeStrict rejects: %v", data, err)
		}
		if !reflect.DeepEqual(doc, want) {
			t.Fatalf("decodeCommon read %q as\n%#v\nwhere decodeStrict reads\n%#v", data, doc, want)
		}
	})
}
