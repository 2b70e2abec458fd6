// Package cases reads the conformance cases of testdata/claudecode and
// runs each against the real Claude Code, in a scratch tree of its own.
//
// A case is settings files, trust, a permission mode, files, and one tool
// call. Strings in the settings and in the call may name the scratch tree
// by placeholders, so a case reads the same on every machine:
// @PROJECT@ (the project, Claude Code's working directory), @HOME@ (the
// scratch HOME) and @EXTRA@ (a directory beside the project, for
// additionalDirectories and paths outside the project).
package cases

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Case is one conformance case.
type Case struct {
	Name string `json:"name"`
	// Area groups the cases for the report: bash-rules, compound, ...
	Area string `json:"area"`
	// Managed, User, Project and Local are the settings files (objects as
	// the files hold them); nil writes no file.
	Managed json.RawMessage `json:"managed,omitempty"`
	User    json.RawMessage `json:"user,omitempty"`
	Project json.RawMessage `json:"project,omitempty"`
	Local   json.RawMessage `json:"local,omitempty"`
	// MCP connects the stand-in MCP server (mcpserver.js) as the user's
	// server "standin", with the tools echo and write_note.
	MCP bool `json:"mcp,omitempty"`
	// PowerShell offers Claude Code's PowerShell tool
	// (CLAUDE_CODE_USE_POWERSHELL_TOOL=1). Without pwsh on the machine
	// Claude Code cannot parse a command, so it asks about every call no
	// deny rule names: only what the deny rules decide is recorded.
	PowerShell bool `json:"powershell,omitempty"`
	// Trust accepts the project's trust dialog.
	Trust bool `json:"trust"`
	// Mode is --permission-mode; empty passes none.
	Mode string `json:"mode,omitempty"`
	// AddDirs are the session's --add-dir directories (placeholders
	// expanded).
	AddDirs []string `json:"add_dirs,omitempty"`
	// Files are created before the call: a path relative to the project
	// (or starting with @HOME@/ or @EXTRA@/) and its content; a path
	// ending in "/" is a directory.
	Files map[string]string `json:"files,omitempty"`
	// Before are calls the model makes first, whose outcomes are not
	// recorded: a Read of the file an Edit changes, as Claude Code's Edit
	// and Write refuse a file the session has not read.
	Before []Call `json:"before,omitempty"`
	// Tool and Input are the call the case records.
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
	// Note says what the case shows, when its name does not.
	Note string `json:"note,omitempty"`
}

// Call is one tool call of a case.
type Call struct {
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
}

// Recorded is Claude Code's answer to one case, as recorded.json keeps it.
type Recorded struct {
	Decision string `json:"decision"`
	Text     string `json:"text"`
}

// Tree is the scratch tree of one case.
type Tree struct {
	Root, Home, Project, Extra string
}

// NewTree lays out a tree under root: home/, project/ and extra/.
func NewTree(root string) (Tree, error) {
	t := Tree{
		Root:    root,
		Home:    filepath.Join(root, "home"),
		Project: filepath.Join(root, "project"),
		Extra:   filepath.Join(root, "extra"),
	}
	for _, dir := range []string{t.Home, t.Project, t.Extra} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return Tree{}, fmt.Errorf("agentpolicy/conformance/cases: %w", err)
		}
	}
	return t, nil
}

// Expand replaces the placeholders in s with the tree's paths.
func (t Tree) Expand(s string) string {
	return strings.NewReplacer("@PROJECT@", t.Project, "@HOME@", t.Home, "@EXTRA@", t.Extra).Replace(s)
}

// Placeholders replaces the tree's paths in s with the placeholders, so a
// recorded text does not name the machine's scratch directories: the
// root itself, the parent of the project, becomes @ROOT@.
func (t Tree) Placeholders(s string) string {
	// At one position the replacer tries its pairs in order: the
	// directories under the root before the root.
	return strings.NewReplacer(t.Project, "@PROJECT@", t.Home, "@HOME@", t.Extra, "@EXTRA@", t.Root, "@ROOT@").Replace(s)
}

// ExpandValue replaces the placeholders in every string of a JSON value.
func (t Tree) ExpandValue(v any) any {
	switch v := v.(type) {
	case string:
		return t.Expand(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = t.ExpandValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = t.ExpandValue(e)
		}
		return out
	}
	return v
}

// Write lays the case's files and settings files into the tree: the user
// file in HOME/.claude (always written, with skipWebFetchPreflight set), the project and local files in project/.claude,
// and the managed file in root/managed (see [Tree.ManagedFile]).
func (t Tree) Write(c Case) error {
	for path, content := range c.Files {
		full := t.Expand(path)
		if !filepath.IsAbs(full) {
			full = filepath.Join(t.Project, full)
		}
		if strings.HasSuffix(path, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				return fmt.Errorf("agentpolicy/conformance/cases: %w", err)
			}
			continue
		}
		if err := writeFile(full, []byte(content)); err != nil {
			return err
		}
	}
	if c.MCP {
		if err := t.writeMCP(); err != nil {
			return err
		}
	}
	user, err := withoutPreflight(c.User)
	if err != nil {
		return fmt.Errorf("agentpolicy/conformance/cases: %s: user settings: %w", c.Name, err)
	}
	for _, f := range []struct {
		settings json.RawMessage
		path     string
	}{
		{c.Managed, t.ManagedFile()},
		{user, filepath.Join(t.Home, ".claude", "settings.json")},
		{c.Project, filepath.Join(t.Project, ".claude", "settings.json")},
		{c.Local, filepath.Join(t.Project, ".claude", "settings.local.json")},
	} {
		if f.settings == nil {
			continue
		}
		if err := writeFile(f.path, []byte(t.Expand(string(f.settings)))); err != nil {
			return err
		}
	}
	return nil
}

// withoutPreflight adds skipWebFetchPreflight to the user settings: an
// allowed WebFetch would otherwise first ask a public Anthropic host
// whether the domain is safe, and a case reaches no host but the loopback.
func withoutPreflight(user json.RawMessage) (json.RawMessage, error) {
	settings := map[string]any{}
	if user != nil {
		if err := json.Unmarshal(user, &settings); err != nil {
			return nil, err
		}
	}
	settings["skipWebFetchPreflight"] = true
	return json.Marshal(settings)
}

//go:embed mcpserver.js
var mcpServer []byte

// writeMCP writes the stand-in MCP server into the tree and registers it
// in HOME/.claude.json as the user's server "standin".
func (t Tree) writeMCP() error {
	script := filepath.Join(t.Root, "mcp", "server.js")
	if err := writeFile(script, mcpServer); err != nil {
		return err
	}
	config, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"standin": map[string]any{"type": "stdio", "command": "node", "args": []string{script}},
	}})
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(t.Home, ".claude.json"), config)
}

// ManagedDir is the directory a case's managed-settings.json is written
// to; Claude Code reads it in place of the system's policy folder when
// CLAUDE_CODE_MANAGED_SETTINGS_PATH names it.
func (t Tree) ManagedDir() string { return filepath.Join(t.Root, "managed") }

// ManagedFile is the case's managed settings file, in [Tree.ManagedDir].
func (t Tree) ManagedFile() string { return filepath.Join(t.ManagedDir(), "managed-settings.json") }

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("agentpolicy/conformance/cases: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("agentpolicy/conformance/cases: %w", err)
	}
	return nil
}

// Load reads a cases file and checks that the names are unique and every
// case names a tool.
func Load(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/conformance/cases: %w", err)
	}
	var cs []Case
	if err := json.Unmarshal(data, &cs); err != nil {
		return nil, fmt.Errorf("agentpolicy/conformance/cases: %s: %w", path, err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		switch {
		case c.Name == "":
			return nil, fmt.Errorf("agentpolicy/conformance/cases: %s: a case without a name", path)
		case seen[c.Name]:
			return nil, fmt.Errorf("agentpolicy/conformance/cases: %s: two cases named %q", path, c.Name)
		case c.Tool == "":
			return nil, fmt.Errorf("agentpolicy/conformance/cases: %s: case %q names no tool", path, c.Name)
		}
		seen[c.Name] = true
	}
	return cs, nil
}

// LoadRecorded reads recorded.json: case name to Claude Code's answer.
func LoadRecorded(path string) (map[string]Recorded, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/conformance/cases: %w", err)
	}
	rec := map[string]Recorded{}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("agentpolicy/conformance/cases: %s: %w", path, err)
	}
	return rec, nil
}

// Dir is testdata/claudecode at the repository's root, where the cases and
// the recording live.
func Dir(moduleDir string) string {
	return filepath.Join(moduleDir, "..", "..", "testdata", "claudecode")
}
