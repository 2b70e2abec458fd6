package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Gemini CLI reads its hooks from settings.json, the user's (~/.gemini)
// and the project's (.gemini), under hooks.BeforeTool: entries of a
// matcher, an unanchored JavaScript regular expression over the tool's
// name, and the hooks it runs, with a timeout in milliseconds.

// geminiMatcher is the matcher install writes: anchored, and every tool.
const geminiMatcher = "^.*$"

// geminiHookTimeout is the hook's timeout in milliseconds, well above
// the milliseconds it takes.
const geminiHookTimeout = 10000

// geminiEntry is the entry install writes, in the order its members are
// written.
type geminiEntry struct {
	Matcher string          `json:"matcher"`
	Hooks   []geminiCommand `json:"hooks"`
}

type geminiCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Name    string `json:"name,omitempty"`
	Timeout int    `json:"timeout,omitempty"`
}

// geminiScopeFile is the settings file of the scope: the project's
// .gemini/settings.json (the default) or the user's.
func geminiScopeFile(scope, project string) (string, error) {
	switch scope {
	case "project":
		return filepath.Abs(filepath.Join(project, ".gemini", "settings.json"))
	case "user":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".gemini", "settings.json"), nil
	}
	return "", fmt.Errorf("hook: --scope for --agent gemini is project or user, not %q", scope)
}

// installGemini adds the entry that runs command to hooks.BeforeTool of
// the settings file at path.
func installGemini(w io.Writer, path string, prefix hookPrefixes, command string) error {
	changed, err := editSettings(path, func(data []byte) ([]byte, error) { return addGeminiHook(data, prefix, command) })
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "installed in %s: %s\n", relPath(path), command)
	} else {
		fmt.Fprintf(w, "already installed in %s\n", relPath(path))
	}
	return nil
}

// uninstallGemini removes the entries install added.
func uninstallGemini(w io.Writer, path string, prefix hookPrefixes) error {
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(w, "not installed in %s\n", relPath(path))
		return nil
	}
	changed, err := editSettings(path, func(data []byte) ([]byte, error) { return removeGeminiHook(data, prefix) })
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "uninstalled from %s\n", relPath(path))
	} else {
		fmt.Fprintf(w, "not installed in %s\n", relPath(path))
	}
	return nil
}

// addGeminiHook adds the entry that runs command to hooks.BeforeTool of
// the settings text, creating the members it needs. An entry whose
// command is prefix with other flags is replaced; one with the same is
// left as it is.
func addGeminiHook(data []byte, prefix hookPrefixes, command string) ([]byte, error) {
	entry := geminiEntry{Matcher: geminiMatcher, Hooks: []geminiCommand{{Type: "command", Command: command, Name: "agentpolicy", Timeout: geminiHookTimeout}}}
	top, err := parseObject(data, span{0, len(data)})
	if err != nil {
		return nil, err
	}
	hooks, ok, err := top.member("hooks")
	if err != nil || !ok {
		return top.insert("hooks", map[string][]geminiEntry{"BeforeTool": {entry}}), err
	}
	hooksObj, err := parseObject(data, hooks.value)
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	before, ok, err := hooksObj.member("BeforeTool")
	if err != nil || !ok {
		return hooksObj.insert("BeforeTool", []geminiEntry{entry}), err
	}
	list, err := parseArray(data, before.value)
	if err != nil {
		return nil, fmt.Errorf("hooks.BeforeTool: %w", err)
	}
	want, _ := marshal(entry)
	for i, el := range list.elements {
		if !ourGeminiEntry(data[el.start:el.end], prefix) {
			continue
		}
		if sameJSON(data[el.start:el.end], want) {
			return data, nil
		}
		return list.replace(i, entry), nil
	}
	return list.append(entry), nil
}

// removeGeminiHook removes every entry of hooks.BeforeTool that runs a
// command beginning with prefix, and the members that leaves empty.
func removeGeminiHook(data []byte, prefix hookPrefixes) ([]byte, error) {
	return removeEntries(data, "BeforeTool", func(raw []byte) bool { return ourGeminiEntry(raw, prefix) })
}

// ourGeminiEntry reports whether the entry's one hook is a command that
// runs this binary's hook, as install writes it.
func ourGeminiEntry(raw []byte, prefix hookPrefixes) bool {
	var e geminiEntry
	return json.Unmarshal(raw, &e) == nil && len(e.Hooks) == 1 && e.Hooks[0].Type == "command" && prefix.ours(e.Hooks[0].Command)
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xs, _ := marshal(x)
	ys, _ := marshal(y)
	return string(xs) == string(ys)
}
