package claudecode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// The recorded oracle: testdata/claudecode holds cases (settings files,
// trust, a permission mode, files, one tool call), what the real Claude
// Code 2.1.328 decided for each (recorded.json, written by
// conformance/claudecode's recorder), and the cases where the importer
// knowingly decides otherwise (divergences.json). The files are read here
// as that module writes them; this test does not import it, so this module
// needs nothing of the harness.
const oracleDir = "../testdata/claudecode"

// oracleCase is a case of cases.json, the members this test reads.
type oracleCase struct {
	Name    string            `json:"name"`
	Area    string            `json:"area"`
	Managed json.RawMessage   `json:"managed"`
	User    json.RawMessage   `json:"user"`
	Project json.RawMessage   `json:"project"`
	Local   json.RawMessage   `json:"local"`
	Trust   bool              `json:"trust"`
	Mode    string            `json:"mode"`
	AddDirs []string          `json:"add_dirs"`
	Files   map[string]string `json:"files"`
	Tool    string            `json:"tool"`
	Input   map[string]any    `json:"input"`
}

// oracleAnswer is Claude Code's recorded answer to a case.
type oracleAnswer struct {
	Decision string `json:"decision"`
	Text     string `json:"text"`
}

// divergence is an entry of divergences.json: a case where agentpolicy
// knowingly decides otherwise than Claude Code, and why.
type divergence struct {
	Case      string `json:"case"`
	Direction string `json:"direction"` // "stricter", or "looser" for a read-only allow (readOnlyAllow)
	Reason    string `json:"reason"`
}

// strictness orders the decisions: a verdict of higher rank than Claude
// Code's lets through what Claude Code would not.
var strictness = map[string]int{"deny": 0, "ask": 1, "allow": 2}

// TestRecordedClaudeCode decides every recorded case with the importer, as
// the command's explain builds its engine, and holds it to what Claude
// Code decided: each case agrees, or is listed in divergences.json as
// stricter with a reason. A looser case fails unless the table lists it
// and it is a read-only allow (readOnlyAllow), and so does a listed case
// that now agrees, so the table stays exact.
func TestRecordedClaudeCode(t *testing.T) {
	cases := readJSON[[]oracleCase](t, "cases.json")
	recorded := readJSON[map[string]oracleAnswer](t, "recorded.json")
	listed := map[string]divergence{}
	for _, d := range readJSON[[]divergence](t, "divergences.json") {
		if _, dup := listed[d.Case]; dup {
			t.Errorf("divergences.json lists %q twice", d.Case)
		}
		if d.Reason == "" {
			t.Errorf("divergences.json: %q gives no reason", d.Case)
		}
		listed[d.Case] = d
	}

	var agree, stricter, looser int
	var report []finding
	for _, c := range cases {
		want, ok := recorded[c.Name]
		if !ok {
			t.Errorf("%s: not recorded; run make record-claudecode", c.Name)
			continue
		}
		if want.Decision == "unavailable" {
			// A tool a deny rule names without a specifier is taken
			// out of the session: the model is told there is no such
			// tool. That is a denial.
			want.Decision = "deny"
		}
		if _, known := strictness[want.Decision]; !known {
			t.Errorf("%s: recorded decision %q is none of allow, ask, deny, unavailable", c.Name, want.Decision)
			continue
		}
		got, reason := decideCase(t, c)
		d, isListed := listed[c.Name]
		delete(listed, c.Name)
		switch {
		case got == want.Decision:
			agree++
			if isListed {
				t.Errorf("%s: agrees with Claude Code (%s) but divergences.json lists it; strike it off", c.Name, got)
			}
		case strictness[got] > strictness[want.Decision]:
			looser++
			report = append(report, finding{c, "looser", want, got, reason})
			if !isListed || d.Direction != "looser" || !readOnlyAllow(want.Decision, got, reason) {
				t.Errorf("%s: LOOSER than Claude Code: agentpolicy %s (%s), Claude Code %s (%s)", c.Name, got, reason, want.Decision, brief(want.Text))
			}
		default:
			stricter++
			report = append(report, finding{c, "stricter", want, got, reason})
			if !isListed || d.Direction != "stricter" {
				t.Errorf("%s: stricter than Claude Code and not in divergences.json: agentpolicy %s (%s), Claude Code %s (%s)",
					c.Name, got, reason, want.Decision, brief(want.Text))
			}
		}
	}
	for name := range listed {
		t.Errorf("divergences.json lists %q, which is no case", name)
	}
	t.Logf("%d cases: %d agree, %d stricter, %d looser", len(cases), agree, stricter, looser)
	if path := os.Getenv("AGENTPOLICY_CC_FINDINGS"); path != "" {
		writeFindings(t, path, report)
	}
}

// readOnlyAllow reports whether a looser verdict is the one kind
// divergences.json may list: a command Claude Code asks about that the
// engine allows only because its shell reader's table knows it is
// read-only (issue 29's "tar -tf", "command -v"). No rule allows it, and
// the hook leaves an allowed call to Claude Code's own rules unless it is
// given --allow, so in front of Claude Code it still asks.
func readOnlyAllow(want, got, reason string) bool {
	return want == "ask" && got == "allow" && reason == "allowed by Bash(read_only:true)"
}

// decideCase lays the case's settings and files into a scratch tree, loads
// them and builds the engine as the command's explain does (the case's
// --permission-mode given as a command-line settings value, which outranks
// every file but the managed one, as the flag does) and decides the call.
func decideCase(t *testing.T, c oracleCase) (decision, reason string) {
	t.Helper()
	root := t.TempDir()
	tree := map[string]string{"@PROJECT@": filepath.Join(root, "project"), "@HOME@": filepath.Join(root, "home"), "@EXTRA@": filepath.Join(root, "extra")}
	expand := func(s string) string {
		for k, v := range tree {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	for _, dir := range []string{tree["@PROJECT@"], tree["@HOME@"], tree["@EXTRA@"], filepath.Join(tree["@PROJECT@"], ".git")} {
		mustMkdir(t, dir)
	}
	for path, content := range c.Files {
		full := expand(path)
		if !filepath.IsAbs(full) {
			full = filepath.Join(tree["@PROJECT@"], full)
		}
		if strings.HasSuffix(path, "/") {
			mustMkdir(t, full)
			continue
		}
		mustWrite(t, full, content)
	}
	managed := filepath.Join(root, "managed")
	for _, f := range []struct {
		settings json.RawMessage
		path     string
	}{
		{c.Managed, filepath.Join(managed, "managed-settings.json")},
		{c.User, filepath.Join(tree["@HOME@"], ".claude", "settings.json")},
		{c.Project, filepath.Join(tree["@PROJECT@"], ".claude", "settings.json")},
		{c.Local, filepath.Join(tree["@PROJECT@"], ".claude", "settings.local.json")},
	} {
		if f.settings != nil {
			mustWrite(t, f.path, expand(string(f.settings)))
		}
	}
	opts := claudecode.LoadOptions{
		Project:    tree["@PROJECT@"],
		Home:       tree["@HOME@"],
		ConfigDir:  filepath.Join(tree["@HOME@"], ".claude"),
		ManagedDir: managed,
		Trusted:    c.Trust,
		Tracked:    func(string) (bool, error) { return false, nil },
	}
	for _, dir := range c.AddDirs {
		opts.AddDirs = append(opts.AddDirs, expand(dir))
	}
	if c.Mode != "" {
		opts.Settings = []string{fmt.Sprintf(`{"permissions":{"defaultMode":%q}}`, c.Mode)}
	}
	s, err := claudecode.Load(opts)
	if err != nil {
		t.Fatalf("%s: Load: %v", c.Name, err)
	}
	// explain expands the allow rules over a whole MCP server or a glob of
	// its tools over the tool asked about, as Claude Code applies them.
	var mcpTools []string
	if strings.HasPrefix(c.Tool, "mcp__") {
		mcpTools = append(mcpTools, c.Tool)
	}
	policy, err := s.Policy(mcpTools...)
	if err != nil {
		t.Fatalf("%s: Policy: %v", c.Name, err)
	}
	eng, err := agentpolicy.Build(policy, s.Matchers(claudecode.Options{}), agentpolicy.WithAliases(s.Aliases()))
	if err != nil {
		t.Fatalf("%s: Build: %v", c.Name, err)
	}
	input := map[string]any{}
	for k, v := range c.Input {
		if s, ok := v.(string); ok {
			v = expand(s)
		}
		input[k] = v
	}
	args, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	call := &openresponses.FunctionCall{Name: c.Tool, Arguments: string(args)}
	v, err := eng.Would(context.Background(), agentturn.ToolCallInfo{Call: call, Args: args})
	if err != nil {
		t.Fatalf("%s: Would: %v", c.Name, err)
	}
	return cliDecision(v), v.Reason
}

// cliDecision is the verdict as Claude Code's -p shows it: a deferred call
// is one Claude Code would ask about, which -p refuses as needing approval.
func cliDecision(v agentpolicy.Verdict) string {
	switch v.Action {
	case agentturn.Allow:
		return "allow"
	case agentturn.Block:
		return "deny"
	}
	return "ask"
}

// finding is a case where agentpolicy and Claude Code disagree, for the
// findings file a run writes when AGENTPOLICY_CC_FINDINGS names one.
type finding struct {
	c         oracleCase
	direction string
	want      oracleAnswer
	got       string
	reason    string
}

func writeFindings(t *testing.T, path string, report []finding) {
	t.Helper()
	slices.SortFunc(report, func(a, b finding) int {
		return strings.Compare(a.direction+a.c.Name, b.direction+b.c.Name)
	})
	type entry struct {
		Case      string          `json:"case"`
		Area      string          `json:"area"`
		Direction string          `json:"direction"`
		Claude    oracleAnswer    `json:"claude"`
		Policy    string          `json:"agentpolicy"`
		Reason    string          `json:"reason"`
		Settings  json.RawMessage `json:"settings"`
		Mode      string          `json:"mode,omitempty"`
		Trust     bool            `json:"trust"`
		Tool      string          `json:"tool"`
		Input     map[string]any  `json:"input"`
	}
	var out []entry
	for _, f := range report {
		settings, _ := json.Marshal(map[string]json.RawMessage{"user": f.c.User, "project": f.c.Project, "local": f.c.Local})
		out = append(out, entry{f.c.Name, f.c.Area, f.direction, f.want, f.got, f.reason, settings, f.c.Mode, f.c.Trust, f.c.Tool, f.c.Input})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// brief is a recorded text on one line, cut short: an allowed call's text
// is the tool's output.
func brief(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 160 {
		text = text[:157] + "..."
	}
	return text
}

func readJSON[T any](t *testing.T, name string) T {
	t.Helper()
	var v T
	data, err := os.ReadFile(filepath.Join(oracleDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
