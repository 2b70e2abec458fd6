package agentpolicy

import (
	"encoding/json"
	"strings"
	"testing"
)

// commandArgs returns arguments whose "command" member is value.
func commandArgs(value string) json.RawMessage {
	b, err := json.Marshal(map[string]string{"command": value})
	if err != nil {
		panic(err)
	}
	return b
}

func TestGlobMatcher(t *testing.T) {
	tests := []struct {
		spec, value string
		want        bool
	}{
		// "*" is any run of characters, spaces included, anywhere.
		{"git log * main", "git log --oneline main", true},
		{"git log * main", "git log main", false},
		{"git log * main", "git log a b c main", true},
		{"git log * main", "git log --oneline main2", false},
		{"* --version", "node --version", true},
		{"* --version", " --version", true},
		{"* --version", "--version", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "acb", false},
		{"a*a*a", "aaa", true},
		{"a*a*a", "aa", false},
		{"*ab*ab*", "abab", true},
		{"*ab*ab*", "aba", false},
		// The space is part of the pattern.
		{"ls *", "ls -la", true},
		{"ls *", "ls ", true},
		{"ls *", "ls", false},
		{"ls *", "lsof", false},
		{"ls*", "lsof", true},
		{"ls*", "ls", true},
		// A trailing ":*" is a wildcard at a space boundary.
		{"ls:*", "ls", true},
		{"ls:*", "ls -la", true},
		{"ls:*", "ls ", true},
		{"ls:*", "lsof", false},
		{"ls:*", "ls\t-la", false},
		{"ls:*", "ls\n-la", false},
		{"ls:*", "ls\u00a0-la", false},
		{"ls:*", "xls", false},
		{"git status:*", "git status --short", true},
		{"git status:*", "git statuses", false},
		{"git * main:*", "git log --oneline main", true},
		{"git * main:*", "git log main --stat", true},
		{"git * main:*", "git log mainline", false},
		{"ls:*", "ls:", false},
		{"ls:*", "ls:x", false},
		// "*" and ":*" alone match everything.
		{"*", "", true},
		{"*", "anything at all", true},
		{":*", "", true},
		{":*", "anything", true},
		{":*", " lead", true},
		// A ":" not at the end before the final "*" is literal.
		{"ls:*x", "ls:abcx", true},
		{"ls:*x", "ls abcx", false},
		{"a:b", "a:b", true},
		// No wildcard: the whole value, exactly, and case matters.
		{"git status", "git status", true},
		{"git status", "git status ", false},
		{"git status", "git", false},
		{"git status", "Git status", false},
		{"GIT:*", "git status", false},
		{"", "", true},
		{"", "x", false},
		{"ls", "ls", true},
	}
	m := GlobMatcher("command")
	for _, tt := range tests {
		if got := m(tt.spec, commandArgs(tt.value)); got != tt.want {
			t.Errorf("glob %q on %q = %v, want %v", tt.spec, tt.value, got, tt.want)
		}
	}
}

func TestPrefixMatcher(t *testing.T) {
	tests := []struct {
		spec, value string
		want        bool
	}{
		{"ls:*", "ls", true},
		{"ls:*", "ls -la", true},
		{"ls:*", "lsof", true},
		{"ls:*", "ls\t-la", true},
		{"ls:*", "xls", false},
		{"ls:*", "LS", false},
		{":*", "", true},
		{":*", "anything", true},
		{"git log * main", "git log --oneline main", false},
		{"git log * main", "git log * main", true},
		{"*", "anything", false},
		{"*", "*", true},
		{"ls *", "ls -la", false},
		{"ls *", "ls *", true},
		{"git *:*", "git *x", true},
		{"git *:*", "git status", false},
		{"git status", "git status", true},
		{"git status", "git status --short", false},
		{"git status", "Git status", false},
		{"ls:", "ls:", true},
		{"ls:", "ls", false},
	}
	m := PrefixMatcher("command")
	for _, tt := range tests {
		if got := m(tt.spec, commandArgs(tt.value)); got != tt.want {
			t.Errorf("prefix %q on %q = %v, want %v", tt.spec, tt.value, got, tt.want)
		}
	}
}

func TestMatchersReadOneStringField(t *testing.T) {
	tests := []struct {
		name string
		args string
		want bool // whether ":*", which matches every string, matches
	}{
		{"the field", `{"command":"ls"}`, true},
		{"the field among others", `{"cwd":"/","command":"ls","env":{"A":[1,2,{"b":null}]}}`, true},
		{"whitespace around", " \n{ \"command\" : \"ls\" }\t", true},
		{"empty string", `{"command":""}`, true},
		{"missing field", `{"cmd":"ls"}`, false},
		{"field in a nested object", `{"args":{"command":"ls"}}`, false},
		{"field spelled in another case only", `{"Command":"ls"}`, true},
		{"field spelled with a long s", `{"\u017fcommand":"ls"}`, false},
		{"field in two spellings", `{"Command":"ls","command":"ls"}`, false},
		{"field in two other spellings", `{"Command":"ls","COMMAND":"ls"}`, false},
		{"number", `{"command":1}`, false},
		{"null", `{"command":null}`, false},
		{"array", `{"command":["ls"]}`, false},
		{"object", `{"command":{"a":"ls"}}`, false},
		{"bool", `{"command":true}`, false},
		{"empty object", `{}`, false},
		{"empty args", ``, false},
		{"whitespace args", `  `, false},
		{"null args", `null`, false},
		{"array args", `[{"command":"ls"}]`, false},
		{"string args", `"ls"`, false},
		{"not JSON", `command=ls`, false},
		{"trailing text", `{"command":"ls"} x`, false},
		{"two documents", `{"command":"ls"}{"command":"ls"}`, false},
		{"trailing comma", `{"command":"ls",}`, false},
		{"truncated", `{"command":"ls"`, false},
		{"bad later member", `{"command":"ls","x":tru}`, false},
		{"bad number later", `{"command":"ls","x":01}`, false},
		{"control character in value", "{\"command\":\"l\ns\"}", false},
		{"bad escape", `{"command":"l\qs"}`, false},
		{"single quotes", `{'command':'ls'}`, false},
		{"repeated, string last", `{"command":1,"command":"ls"}`, false},
		{"repeated, string first", `{"command":"ls","command":1}`, false},
		{"repeated, both strings", `{"command":"ls","command":"ls"}`, false},
		{"repeated, once in other case", `{"command":"ls","COMMAND":"ls"}`, false},
		{"escaped key", `{"comm\u0061nd":"ls"}`, true},
		{"numbers of every form", `{"a":-0.5e+10,"b":12E-3,"c":0,"command":"ls"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := json.RawMessage(tt.args)
			if got := GlobMatcher("command")(":*", args); got != tt.want {
				t.Errorf("glob :* = %v, want %v", got, tt.want)
			}
			if got := PrefixMatcher("command")(":*", args); got != tt.want {
				t.Errorf("prefix :* = %v, want %v", got, tt.want)
			}
			if got := GlobMatcher("command")("*", args); got != tt.want {
				t.Errorf("glob * = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMatchersDecodeEscapes(t *testing.T) {
	tests := []struct {
		args, spec string
		want       bool
	}{
		{`{"command":"git \"status\""}`, `git "status"`, true},
		{`{"command":"a\tb"}`, "a\tb", true},
		{`{"command":"\u006cs -la"}`, "ls:*", true},
		{`{"command":"ls\u0020-la"}`, "ls:*", true},
		{`{"command":"ls\t-la"}`, "ls:*", false},
		{`{"command":"caf\u00e9"}`, "café", true},
		{`{"command":"\ud83d\ude00"}`, "😀", true},
		{`{"command":"a\/b"}`, "a/b", true},
		{"{\"command\":\"\xff\"}", "\ufffd", false},
		{"{\"command\":\"\xff\"}", "\xff", false},
	}
	for _, tt := range tests {
		for name, m := range map[string]Matcher{"glob": GlobMatcher("command"), "prefix": PrefixMatcher("command")} {
			spec := tt.spec
			if name == "prefix" && strings.HasSuffix(spec, ":*") {
				continue
			}
			if got := m(spec, json.RawMessage(tt.args)); got != tt.want {
				t.Errorf("%s %q on %s = %v, want %v", name, spec, tt.args, got, tt.want)
			}
		}
	}
}

func TestMatchersNestingLimit(t *testing.T) {
	// encoding/json refuses a document nested deeper than 10000; a
	// matcher does not read past what it refuses.
	nested := func(depth int) json.RawMessage {
		inner := strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1)
		return json.RawMessage(`{"x":` + inner + `,"command":"ls"}`)
	}
	for _, tt := range []struct {
		depth int
		want  bool
	}{{10000, true}, {10001, false}} {
		args := nested(tt.depth)
		if valid := json.Valid(args); valid != tt.want {
			t.Fatalf("json.Valid at depth %d = %v; the test assumes %v", tt.depth, valid, tt.want)
		}
		if got := GlobMatcher("command")("ls", args); got != tt.want {
			t.Errorf("depth %d: match = %v, want %v", tt.depth, got, tt.want)
		}
	}
}

func TestMatchersReadTheirOwnField(t *testing.T) {
	args := json.RawMessage(`{"command":"rm -rf /","path":"/tmp/x"}`)
	if !GlobMatcher("path")("/tmp/*", args) {
		t.Error(`GlobMatcher("path") does not read "path"`)
	}
	if GlobMatcher("path")("rm:*", args) {
		t.Error(`GlobMatcher("path") reads "command"`)
	}
	if !PrefixMatcher("path")("/tmp/:*", args) {
		t.Error(`PrefixMatcher("path") does not read "path"`)
	}
}

func TestMatchersAllocateNothingForPlainStrings(t *testing.T) {
	args := commandArgs("git log --oneline --graph main")
	glob, prefix := GlobMatcher("command"), PrefixMatcher("command")
	for _, spec := range []string{"git log * main", "git log:*", "git*", "git log --oneline --graph main", "*"} {
		if n := testing.AllocsPerRun(100, func() { glob(spec, args) }); n != 0 {
			t.Errorf("glob %q allocates %v times per match", spec, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { prefix("git:*", args) }); n != 0 {
		t.Errorf("prefix allocates %v times per match", n)
	}
	long := Rule{Tool: "mcp__*__delete_*"}
	tool := "mcp__github_enterprise_server__delete_repository_permanently"
	if n := testing.AllocsPerRun(100, func() { long.MatchesTool(tool) }); n != 0 {
		t.Errorf("MatchesTool allocates %v times per match", n)
	}
}
