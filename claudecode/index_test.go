package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// indexSpecs are path specifiers of every form, a dozen to a list so each
// list is long enough for the engine to file.
var indexSpecs = [3][]string{
	{"./secrets/**", "**/.env", "~/.ssh/**", "//etc/**", "*.pem", "src/gen/**", `\*.md`, "a[b/**", "build/",
		"docs/**/*.key", "Finance (2024)/**", "*.env !sample.env", "file_path:/tmp/*"},
	{"~/private/*.txt", "/vendor/**", "./.git/**", "SRC/Upper/**", "tmp/**/x", "**/node_modules/**", "?ocs/a.md",
		"//var/log/**", "config/*.json", "~/", "notes/{a,b}/**", "src/**/*.go !src/keep/**"},
	{"src/**", "docs/**", "~/projects/**", "//tmp/**", "*.go", "README.md", "lib/", "test/**/*.ts", "**/*.txt",
		"./", "//", "pkg/**", "cmd/*/main.go"},
}

// indexPaths are tool paths that reach those specifiers, and that try to
// slip past them.
var indexPaths = []string{
	"/repo/src/a.go", "/repo/src/gen/x.go", "src/../secrets/k", "/repo/secrets/../.env", "/repo/app/.env",
	"~/.ssh/id_rsa", "/home/a/.ssh/../.ssh/id_rsa", "/etc/passwd", "/repo/../../etc/shadow", "/repo/key.pem",
	"/repo/*.md", "/repo/a.md", "/repo/a[b/c", "/repo/build/out", "/repo/docs/x/y.key", "/repo/Finance (2024)/q",
	"/repo/sample.env", "/repo/prod.env", "/home/a/private/p.txt", "/repo/vendor/m", "/repo/.git/config",
	"/repo/SRC/Upper/x", "/repo/src/upper/x", "/repo/tmp/a/b/x", "/x/node_modules/y", "/repo/docs/a.md",
	"/var/log/syslog", "/repo/config/a.json", "/home/a/x", "/repo/notes/a/x", "/repo/src/keep/k.go",
	"/home/a/projects/p/x", "/tmp/t", "/repo/main.go", "/repo/README.md", "/repo/lib/x", "/repo/test/a/b.ts",
	"/repo/x/y.txt", "/repo", "/", "/repo/pkg/z", "/repo/cmd/tool/main.go", "relative/x", "~", "~/", "",
	`C:\repo\src\a.go`, "/REPO/SRC/A.GO",
}

// indexEngines builds two engines from the specifiers, one list each for
// Read: one with the path matcher indexed, as [Settings.Engine] builds it,
// and one that calls the matcher for every rule.
func indexEngines(t testing.TB, p Paths) (indexed, called *agentpolicy.Engine) {
	pol := agentpolicy.Policy{Default: agentpolicy.Ask()}
	for l, specs := range indexSpecs {
		for _, spec := range specs {
			r := agentpolicy.Rule{Tool: "Read", Spec: spec}
			switch l {
			case 0:
				pol.Deny = append(pol.Deny, r)
			case 1:
				pol.Ask = append(pol.Ask, r)
			default:
				pol.Allow = append(pol.Allow, r)
			}
		}
	}
	fast, slow := newPathMatcher("file_path", newPatterns(p), "Read"), newPathMatcher("file_path", newPatterns(p), "Read")
	m := fast.match
	indexed, err := agentpolicy.Build(pol, map[string]agentpolicy.ToolMatcher{"Read": {Match: m}}, agentpolicy.WithIndex(m, fast.index()))
	if err != nil {
		t.Fatal(err)
	}
	called, err = agentpolicy.Build(pol, map[string]agentpolicy.ToolMatcher{"Read": {Match: slow.match}})
	if err != nil {
		t.Fatal(err)
	}
	return indexed, called
}

// sameVerdict fails unless both engines decide the Read of path alike.
func sameVerdict(t testing.TB, indexed, called *agentpolicy.Engine, path string) {
	args, _ := json.Marshal(map[string]string{"file_path": path})
	call := &openresponses.FunctionCall{CallID: "call_1", Name: "Read", Arguments: string(args)}
	info := agentturn.ToolCallInfo{RunID: "run_1", Call: call, Args: args}
	got, err := indexed.Would(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	want, err := called.Would(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	if got.Action != want.Action || got.Reason != want.Reason {
		t.Errorf("Read %q: indexed %s %q, called for every rule %s %q", path, outcome(got), got.Reason, outcome(want), want.Reason)
	}
}

// TestPathIndexDecidesAsCalled decides every path under every way of
// reading paths with the index and without it.
func TestPathIndexDecidesAsCalled(t *testing.T) {
	for _, p := range []Paths{
		{Cwd: "/repo", Home: "/home/a"},
		{Cwd: "/repo", Home: "/home/a", FoldCase: true},
		{Cwd: "/repo", Home: "/home/a", Windows: true},
		{Cwd: "/", Home: "/"},
		{Cwd: "/repo/", Home: "/repo/src"},
	} {
		t.Run(fmt.Sprintf("%+v", p), func(t *testing.T) {
			indexed, called := indexEngines(t, p)
			for _, path := range indexPaths {
				sameVerdict(t, indexed, called, path)
			}
		})
	}
}

// TestPathIndexLiterals are the literals the engine files path rules
// under: the base directory and the pattern's literal directories.
func TestPathIndexLiterals(t *testing.T) {
	m := newPathMatcher("file_path", newPatterns(Paths{Cwd: "/repo", Home: "/home/a", FoldCase: true}), "Read")
	for spec, want := range map[string]string{
		"src/**":         "/repo/src",
		"./secrets/a/**": "/repo/secrets/a",
		"~/.ssh/**":      "/home/a/.ssh",
		"//etc/**":       "/etc",
		"//**":           "/",
		"*.pem":          "/repo/",
		"SRC/Upper/*.go": "/repo/src/upper",
		`\*.md`:          "/repo/",
		"file_path:/x":   "", // a parameter rule reads other arguments
		"src/[":          "", // matches nothing
	} {
		if got := m.literal(spec); got != want {
			t.Errorf("literal(%q) = %q, want %q", spec, got, want)
		}
	}
}

// FuzzPathIndex decides any path with the index and without it.
func FuzzPathIndex(f *testing.F) {
	for _, path := range indexPaths {
		f.Add(path, false, false)
	}
	f.Add("/repo/SECRETS/k", true, false)
	f.Add(`c:\REPO\.ENV`, true, true)
	f.Fuzz(func(t *testing.T, path string, fold, windows bool) {
		indexed, called := indexEngines(t, Paths{Cwd: "/repo", Home: "/home/a", FoldCase: fold, Windows: windows})
		sameVerdict(t, indexed, called, path)
	})
}
