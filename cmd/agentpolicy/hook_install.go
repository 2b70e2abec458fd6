package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/spf13/cobra"
)

func newHookInstall(h *hookFlags) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Add agentpolicy hook to a Claude Code settings file, as a PreToolUse hook for every tool",
		Long: `install adds the entry {"matcher": "*", "hooks": [{"type": "command", "command":
"<this binary> hook <flags>"}]} to hooks.PreToolUse of the settings file of the
scope: the project's .claude/settings.json, its local .claude/settings.local.json
(the default), or the user's settings.json. The --policy, --journal and
--unattended files are written as absolute paths.

Only the entry is added: every other member of the file keeps its text and its
place, and the file is replaced whole, never left half written. Installing again
with the same flags changes nothing; with other flags it replaces the entry.`,
		Example: `  agentpolicy hook install --policy /etc/agentpolicy/team.json --journal ~/.claude/agentpolicy.jsonl
  agentpolicy hook install --scope project --project .`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := scopeFile(cmd, scope)
			if err != nil {
				return err
			}
			prefix, err := hookPrefix()
			if err != nil {
				return err
			}
			command, err := h.command(prefix)
			if err != nil {
				return err
			}
			changed, err := editSettings(path, func(data []byte) ([]byte, error) { return addHook(data, prefix, command) })
			if err != nil {
				return err
			}
			if changed {
				fmt.Fprintf(cmd.OutOrStdout(), "installed in %s: %s\n", relPath(path), command)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "already installed in %s\n", relPath(path))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&scope, "scope", "local", "the settings file: project, local or user")
	return cmd
}

func newHookUninstall() *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove the entry hook install added from a Claude Code settings file",
		Long: `uninstall removes from hooks.PreToolUse of the scope's settings file every entry
whose one hook runs this binary's hook command, whatever its flags, and the
hooks.PreToolUse and hooks members that leave empty. Nothing else changes.`,
		Example: "  agentpolicy hook uninstall --scope project --project .",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := scopeFile(cmd, scope)
			if err != nil {
				return err
			}
			prefix, err := hookPrefix()
			if err != nil {
				return err
			}
			changed, err := editSettings(path, func(data []byte) ([]byte, error) { return removeHook(data, prefix) })
			if err != nil {
				return err
			}
			if changed {
				fmt.Fprintf(cmd.OutOrStdout(), "uninstalled from %s\n", relPath(path))
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "not installed in %s\n", relPath(path))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&scope, "scope", "local", "the settings file: project, local or user")
	return cmd
}

// scopeFile is the settings file of the scope, for the --project and
// --user-dir the command line gives.
func scopeFile(cmd *cobra.Command, scope string) (string, error) {
	project, _ := cmd.Flags().GetString("project")
	userDir, _ := cmd.Flags().GetString("user-dir")
	switch scope {
	case "project":
		return filepath.Abs(filepath.Join(project, ".claude", "settings.json"))
	case "local":
		// The local file sits where Claude Code reads it: at the git root.
		s, err := claudecode.Load(claudecode.LoadOptions{Project: project, ConfigDir: userDir, Sources: []string{}})
		if s == nil {
			return "", err
		}
		return s.LocalSource().Path, nil
	case "user":
		if userDir == "" {
			userDir = os.Getenv("CLAUDE_CONFIG_DIR")
		}
		if userDir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			userDir = filepath.Join(home, ".claude")
		}
		return filepath.Abs(filepath.Join(userDir, "settings.json"))
	}
	return "", fmt.Errorf("hook: --scope is project, local or user, not %q", scope)
}

// command is the hook's command line: prefix, which names this binary and
// "hook", and the flags,
// their files made absolute, since Claude Code runs the hook from the
// session's directory, whichever it is.
func (h *hookFlags) command(prefix string) (string, error) {
	words := []string{prefix}
	for _, f := range []struct {
		flag  string
		paths []string
	}{{"--policy", h.policies}, {"--journal", nonEmpty(h.journal)}, {"--unattended", nonEmpty(h.unattended)}} {
		for _, p := range f.paths {
			if isDatabaseURL(p) {
				words = append(words, f.flag, shellQuote(p))
				continue
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return "", err
			}
			words = append(words, f.flag, shellQuote(abs))
		}
	}
	words = append(words, h.fleet.words()...)
	if h.allow {
		words = append(words, "--allow")
	}
	return strings.Join(words, " "), nil
}

// nonEmpty is the path as a list: none for "".
func nonEmpty(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path}
}

// hookPrefix is how the hook's command line begins: this binary's
// absolute path and "hook".
func hookPrefix() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("hook: cannot find this binary's path: %w", err)
	}
	return shellQuote(exe) + " hook", nil
}

// shellQuote is word as one word of a shell command line: as it is when
// it holds only characters no shell reads specially, else single-quoted.
func shellQuote(word string) string {
	safe := word != "" && strings.IndexFunc(word, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0
	if safe {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

// hookEntry is the entry install writes, in the order its members are
// written.
type hookEntry struct {
	Matcher string        `json:"matcher"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// editSettings applies edit to the settings file at path, a new file when
// it does not exist, and replaces the file when the text changed. A path
// that is a symbolic link, a settings file kept with a user's dotfiles,
// has the file it points to replaced, and stays a link.
func editSettings(path string, edit func([]byte) ([]byte, error)) (changed bool, err error) {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err != nil {
		data = []byte("{}\n")
	}
	out, err := edit(data)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(out, data) {
		return false, nil
	}
	return true, writeFile(path, out)
}

// addHook adds the entry that runs command to hooks.PreToolUse of the
// settings text, creating the members it needs. An entry whose command is
// prefix with other flags is replaced; one with the same is left as it is.
func addHook(data []byte, prefix, command string) ([]byte, error) {
	entry := hookEntry{Matcher: "*", Hooks: []hookCommand{{Type: "command", Command: command}}}
	top, err := parseObject(data, span{0, len(data)})
	if err != nil {
		return nil, err
	}
	hooks, ok, err := top.member("hooks")
	if err != nil || !ok {
		return top.insert("hooks", map[string][]hookEntry{"PreToolUse": {entry}}), err
	}
	hooksObj, err := parseObject(data, hooks.value)
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	pre, ok, err := hooksObj.member("PreToolUse")
	if err != nil || !ok {
		return hooksObj.insert("PreToolUse", []hookEntry{entry}), err
	}
	list, err := parseArray(data, pre.value)
	if err != nil {
		return nil, fmt.Errorf("hooks.PreToolUse: %w", err)
	}
	for i, el := range list.elements {
		switch ourCommand(data[el.start:el.end], prefix) {
		case command:
			return data, nil
		case "":
		default:
			return list.replace(i, entry), nil
		}
	}
	return list.append(entry), nil
}

// removeHook removes every entry of hooks.PreToolUse whose one hook runs a
// command beginning with prefix, and the members that leaves empty.
func removeHook(data []byte, prefix string) ([]byte, error) {
	for {
		top, err := parseObject(data, span{0, len(data)})
		if err != nil {
			return nil, err
		}
		hooks, ok, err := top.member("hooks")
		if err != nil || !ok {
			return data, err
		}
		hooksObj, err := parseObject(data, hooks.value)
		if err != nil {
			return nil, fmt.Errorf("hooks: %w", err)
		}
		pre, ok, err := hooksObj.member("PreToolUse")
		if err != nil || !ok {
			return data, err
		}
		list, err := parseArray(data, pre.value)
		if err != nil {
			return nil, fmt.Errorf("hooks.PreToolUse: %w", err)
		}
		i := -1
		for k, el := range list.elements {
			if ourCommand(data[el.start:el.end], prefix) != "" {
				i = k
				break
			}
		}
		switch {
		case i < 0:
			return data, nil
		case len(list.elements) > 1:
			data = list.remove(i)
		case len(hooksObj.members) > 1:
			data = hooksObj.remove(pre)
		default:
			data = top.remove(hooks)
		}
	}
}

// ourCommand is the command of an entry whose one hook is a command
// beginning with prefix, as install writes it; "" for any other entry.
func ourCommand(raw []byte, prefix string) string {
	var e hookEntry
	if json.Unmarshal(raw, &e) != nil || len(e.Hooks) != 1 || e.Hooks[0].Type != "command" {
		return ""
	}
	c := e.Hooks[0].Command
	if c != prefix && !strings.HasPrefix(c, prefix+" ") {
		return ""
	}
	return c
}
