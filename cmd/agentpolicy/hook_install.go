package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/spf13/cobra"
)

func newHookInstall(h *hookFlags, flags *settingsFlags) *cobra.Command {
	var scope string
	var force bool
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Add agentpolicy hook to a Claude Code settings file, as a PreToolUse hook for every tool",
		Long: `install adds the entry {"matcher": "*", "hooks": [{"type": "command", "command":
"<this binary> hook <flags>"}]} to hooks.PreToolUse of the settings file of the
scope: the project's .claude/settings.json, its local .claude/settings.local.json
(the default), both at the project's root (the directory above --project that
holds .claude/, or the git root), or the user's settings.json.

Every flag the hook reads is written into its command line: --policy,
--settings, --user-dir, --managed-dir, --trust, --allow, --journal and
--unattended, their files as absolute paths. Before it writes anything,
install loads the --policy and --settings files, the user's and the managed
settings exactly as the hook will, and opens the journal and the queue: if the
hook would refuse every call, install refuses with the reason and exit status
2, unless --force.

Only the entry is added: every other member of the file keeps its text and its
place, and the file is replaced whole, never left half written. Installing again
with the same flags changes nothing; with other flags it replaces the entry.

--agent codex adds the hook, and the trust Codex CLI needs to run it, to
$CODEX_HOME/config.toml (--scope user, the default) or the project's
.codex/config.toml (--scope project), every other line kept; --agent gemini
adds it to the project's .gemini/settings.json (the default) or the user's
(--scope user), matcher "^.*$".`,
		Example: `  agentpolicy hook install --policy team-policy.json --journal ~/.claude/agentpolicy.jsonl
  agentpolicy hook install --scope project --project .
  agentpolicy hook install --agent codex --policy team-policy.json
  agentpolicy hook install --agent gemini --project . --policy team-policy.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if h.agent == agentCodex || h.agent == agentGemini {
				return h.installAgent(cmd, *flags, scope, force)
			}
			path, err := scopeFile(*flags, scope)
			if err != nil {
				return err
			}
			if err := h.check(*flags, cmd.ErrOrStderr()); err != nil {
				if !force {
					return fmt.Errorf("hook install: %w (nothing was installed; --force installs anyway)", err)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "agentpolicy: warning: installed under --force: %s\n", oneLine(err.Error()))
			}
			prefix, err := hookPrefix()
			if err != nil {
				return err
			}
			command, err := h.command(prefix.written, *flags)
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
			prefix.note(cmd.ErrOrStderr())
			return nil
		},
	}
	cmd.Flags().StringVar(&scope, "scope", "local", "the settings file: project, local or user (--agent codex: user, the default, or project; --agent gemini: project, the default, or user)")
	cmd.Flags().BoolVar(&force, "force", false, "install even when the hook, as given, would refuse every call")
	return cmd
}

func newHookUninstall(flags *settingsFlags) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove the entry hook install added from a Claude Code settings file",
		Long: `uninstall removes from hooks.PreToolUse of the scope's settings file every entry
whose one hook runs this binary's hook command, whatever its flags, and the
hooks.PreToolUse and hooks members that leave empty. Nothing else changes; a
file left holding nothing at all, as install created it, is removed.`,
		Example: "  agentpolicy hook uninstall --scope project --project .",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if agent, _ := cmd.Flags().GetString("agent"); agent == agentCodex || agent == agentGemini {
				return uninstallAgent(cmd, agent, scope)
			}
			path, err := scopeFile(*flags, scope)
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
				if err := removeIfEmpty(path); err != nil {
					return err
				}
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

// removeIfEmpty removes the settings file at path when it holds an empty object
// and nothing else, as install creates it: uninstall leaves no trace of a
// file install made.
func removeIfEmpty(path string) error {
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		// A link, to a file kept with a user's dotfiles, is the user's.
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || obj == nil || len(obj) > 0 {
		return nil
	}
	return os.Remove(path)
}

// scopeFile is the settings file of the scope, for the --project and
// --user-dir the command line gives. The project and local files are
// those of the project's root, wherever under it --project points, as
// Claude Code reads them for a session started anywhere in the project.
func scopeFile(flags settingsFlags, scope string) (string, error) {
	switch scope {
	case "project", "local":
		if !isDir(flags.project) {
			return "", fmt.Errorf("--project %s: no such directory", flags.project)
		}
		root, err := projectRoot(flags.project)
		if err != nil {
			return "", err
		}
		if scope == "project" {
			return filepath.Join(root, ".claude", "settings.json"), nil
		}
		// The local file sits where Claude Code reads it: at the git root.
		s, err := claudecode.Load(claudecode.LoadOptions{Project: root, ConfigDir: flags.userDir, Sources: []string{}})
		if s == nil {
			return "", err
		}
		return s.LocalSource().Path, nil
	case "user":
		userDir := flags.userDir
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

// check is what the hook, run with these flags, would refuse every call
// for: a --policy or --settings file, the user's or the managed settings
// that cannot be read or hold a --policy rule the engine cannot use, or a
// journal or queue that cannot be opened. The project's own files are
// the session's, read when it runs.
func (h *hookFlags) check(flags settingsFlags, stderr io.Writer) error {
	flags.project = ""
	p, err := flags.load()
	if err != nil {
		return err
	}
	flags.reportFiles(stderr, p)
	for _, path := range []string{h.journal, h.unattended} {
		if path == "" {
			continue
		}
		j, err := journal.Open(path)
		if err != nil {
			return err
		}
		if err := j.Close(); err != nil {
			return err
		}
	}
	return nil
}

// command is the hook's command line: prefix, which names this binary and
// "hook", and every flag the hook reads, each file made absolute, since
// Claude Code runs the hook from the session's directory, whichever it is.
// Inline --settings JSON is carried as it is.
func (h *hookFlags) command(prefix string, flags settingsFlags) (string, error) {
	words := []string{prefix}
	for _, f := range []struct {
		flag  string
		paths []string
	}{
		{"--policy", flags.policies},
		{"--settings", flags.settings},
		{"--user-dir", nonEmpty(flags.userDir)},
		{"--managed-dir", nonEmpty(flags.managedDir)},
		{"--journal", nonEmpty(h.journal)},
		{"--unattended", nonEmpty(h.unattended)},
	} {
		for _, p := range f.paths {
			if (f.flag == "--settings" && strings.HasPrefix(strings.TrimSpace(p), "{")) || isDatabaseURL(p) {
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
	if flags.trust {
		words = append(words, "--trust")
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

// hookPrefixes are the ways this binary's hook command line begins:
// written is what install writes, and known every beginning install and
// uninstall take for this binary's hook, written among them.
type hookPrefixes struct {
	written string
	known   []string
	// client is agentpolicy-hook's path beside this binary, which written
	// names when it is there.
	client string
}

// note tells an installer whose hook will start this binary at every
// call how to have one resident process answer them instead.
func (p hookPrefixes) note(w io.Writer) {
	if p.written == shellQuote(p.client) || !residentSupported {
		return
	}
	fmt.Fprintf(w, "agentpolicy: note: each call will start this binary; build agentpolicy-hook as %s (go build -o %s ./cmd/agentpolicy-hook) and install again, for calls answered by one resident process\n",
		p.client, shellQuote(p.client))
}

// ours reports whether command runs this binary's hook: it is a known
// prefix, alone or followed by flags.
func (p hookPrefixes) ours(command string) bool {
	for _, prefix := range p.known {
		if command == prefix || strings.HasPrefix(command, prefix+" ") {
			return true
		}
	}
	return false
}

// hookPrefix is how the hook's command line begins: agentpolicy-hook
// beside this binary when it is there (see cmd/agentpolicy-hook), which
// hands each call to a resident process, else this binary's absolute
// path and "hook". Both are known, so a hook installed either way is
// replaced or removed.
func hookPrefix() (hookPrefixes, error) {
	exe, err := os.Executable()
	if err != nil {
		return hookPrefixes{}, fmt.Errorf("hook: cannot find this binary's path: %w", err)
	}
	direct, client := shellQuote(exe)+" hook", filepath.Join(filepath.Dir(exe), "agentpolicy-hook")
	p := hookPrefixes{written: direct, known: []string{direct, shellQuote(client)}, client: client}
	if info, err := os.Stat(client); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0 && residentSupported {
		p.written = shellQuote(client)
	}
	return p, nil
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
// ours with other flags is replaced; one with the same is left as it is.
func addHook(data []byte, prefix hookPrefixes, command string) ([]byte, error) {
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
func removeHook(data []byte, prefix hookPrefixes) ([]byte, error) {
	return removeEntries(data, "PreToolUse", func(raw []byte) bool { return ourCommand(raw, prefix) != "" })
}

// removeEntries removes every entry of hooks.<event> that ours reports,
// and the members that leaves empty, editing the text in place: every
// other byte stays as it was.
func removeEntries(data []byte, event string, ours func(raw []byte) bool) ([]byte, error) {
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
		entries, ok, err := hooksObj.member(event)
		if err != nil || !ok {
			return data, err
		}
		list, err := parseArray(data, entries.value)
		if err != nil {
			return nil, fmt.Errorf("hooks.%s: %w", event, err)
		}
		i := -1
		for k, el := range list.elements {
			if ours(data[el.start:el.end]) {
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
			data = hooksObj.remove(entries)
		default:
			data = top.remove(hooks)
		}
	}
}

// ourCommand is the command of an entry whose one hook is a command
// that runs this binary's hook, as install writes it; "" for any other
// entry.
func ourCommand(raw []byte, prefix hookPrefixes) string {
	var e hookEntry
	if json.Unmarshal(raw, &e) != nil || len(e.Hooks) != 1 || e.Hooks[0].Type != "command" || !prefix.ours(e.Hooks[0].Command) {
		return ""
	}
	return e.Hooks[0].Command
}
