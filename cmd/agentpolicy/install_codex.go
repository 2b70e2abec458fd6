package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Codex CLI reads its hooks from config.toml: the user's, in CODEX_HOME
// (default ~/.codex), and a trusted project's .codex/config.toml. It runs
// a hook only once the hook is trusted, which the user's config.toml
// records as
//
//	[hooks.state."<config file>:pre_tool_use:<entry>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// the hash being SHA-256 of the hook's definition as compact JSON with
// sorted keys (codexHookHash). A hook that is not trusted, or whose
// definition changed since, does not run, and says nothing: so install
// writes the trust beside the hook, and both between marker comments that
// uninstall finds again. Every other line of the files stays as it was.

// The marker comments around what install adds to a config.toml.
const (
	codexHookBegin  = "# BEGIN agentpolicy hook (added by agentpolicy hook install --agent codex; agentpolicy hook uninstall --agent codex removes it)"
	codexHookEnd    = "# END agentpolicy hook"
	codexTrustBegin = "# BEGIN agentpolicy hook trust (the hook above runs only while Codex CLI finds it trusted)"
	codexTrustEnd   = "# END agentpolicy hook trust"
)

// codexHookTimeout is the hook's timeout, in seconds, well above the
// milliseconds the hook takes.
const codexHookTimeout = 10

// codexMatcher is the hook's matcher: every tool.
const codexMatcher = ".*"

// codexFiles are the files a Codex CLI install edits: the config.toml
// that holds the hook and the user's, which holds its trust (the same
// file for the user scope).
type codexFiles struct {
	hook, user string
	project    string // the project directory, for the project scope
}

// codexScopeFiles are the files of the scope: user (the default) or
// project.
func codexScopeFiles(scope, project string) (codexFiles, error) {
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		dir, err := os.UserHomeDir()
		if err != nil {
			return codexFiles{}, err
		}
		home = filepath.Join(dir, ".codex")
	}
	user, err := filepath.Abs(filepath.Join(home, "config.toml"))
	if err != nil {
		return codexFiles{}, err
	}
	switch scope {
	case "user":
		return codexFiles{hook: user, user: user}, nil
	case "project":
		dir, err := filepath.Abs(project)
		if err != nil {
			return codexFiles{}, err
		}
		return codexFiles{hook: filepath.Join(dir, ".codex", "config.toml"), user: user, project: dir}, nil
	}
	return codexFiles{}, fmt.Errorf("hook: --scope for --agent codex is user or project, not %q", scope)
}

// installCodex adds the hook that runs command to the scope's config.toml
// and its trust to the user's, and says what it did, and what Codex CLI
// still needs, on w.
func installCodex(w io.Writer, files codexFiles, command string) error {
	if err := checkCodexCommand(command); err != nil {
		return err
	}
	hookText, err := readText(files.hook)
	if err != nil {
		return err
	}
	newHook, index, err := placeCodexHook(hookText, command)
	if err != nil {
		return fmt.Errorf("%s: %w", files.hook, err)
	}
	key := fmt.Sprintf("%s:pre_tool_use:%d:0", files.hook, index)
	userText := newHook
	if files.user != files.hook {
		if userText, err = readText(files.user); err != nil {
			return err
		}
	}
	newUser, err := placeCodexTrust(userText, key, codexHookHash(command))
	if err != nil {
		return fmt.Errorf("%s: %w", files.user, err)
	}
	changed := false
	if files.user != files.hook {
		if newHook != hookText {
			if err := writeFile(files.hook, []byte(newHook)); err != nil {
				return err
			}
			changed = true
		}
		if newUser != userText {
			if err := writeFile(files.user, []byte(newUser)); err != nil {
				return err
			}
			changed = true
		}
	} else if newUser != hookText {
		if err := writeFile(files.user, []byte(newUser)); err != nil {
			return err
		}
		changed = true
	}
	if changed {
		fmt.Fprintf(w, "installed in %s (trusted in %s): %s\n", relPath(files.hook), relPath(files.user), command)
	} else {
		fmt.Fprintf(w, "already installed in %s\n", relPath(files.hook))
	}
	if files.project != "" && !codexTrustsProject(newUser, files.project) {
		fmt.Fprintf(w, "note: Codex CLI reads %s only while it trusts the project: [projects.%s] trust_level = \"trusted\" in %s\n",
			relPath(files.hook), strconv.Quote(files.project), relPath(files.user))
	}
	return nil
}

// uninstallCodex removes what install added: the hook from the scope's
// config.toml, and its trust from the user's.
func uninstallCodex(w io.Writer, files codexFiles) error {
	removed := false
	for _, f := range []struct{ path, begin, end string }{
		{files.hook, codexHookBegin, codexHookEnd},
		{files.user, codexTrustBegin, codexTrustEnd},
	} {
		text, err := readText(f.path)
		if err != nil {
			return err
		}
		out, _, found := cutBlock(text, f.begin, f.end)
		if !found {
			continue
		}
		if err := writeFile(f.path, []byte(out)); err != nil {
			return err
		}
		removed = true
	}
	if removed {
		fmt.Fprintf(w, "uninstalled from %s\n", relPath(files.hook))
	} else {
		fmt.Fprintf(w, "not installed in %s\n", relPath(files.hook))
	}
	return nil
}

// readText is the file's text, "" when it does not exist.
func readText(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return string(data), err
}

// checkCodexCommand refuses a command line whose hash this package could
// not compute as Codex CLI does: JSON encoders differ on control
// characters and on U+2028 and U+2029, which a path may hold but no path
// worth installing from does.
func checkCodexCommand(command string) error {
	if i := strings.IndexFunc(command, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }); i >= 0 {
		return fmt.Errorf("hook: the command line holds the character %q, which install does not write into config.toml", command[i:i+1])
	}
	return nil
}

// codexHookHash is the hash Codex CLI trusts the hook by: SHA-256 of its
// definition as compact JSON, keys sorted, as Codex computes it.
func codexHookHash(command string) string {
	type handler struct {
		Async   bool   `json:"async"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
		Type    string `json:"type"`
	}
	def := struct {
		EventName string    `json:"event_name"`
		Hooks     []handler `json:"hooks"`
		Matcher   string    `json:"matcher"`
	}{"pre_tool_use", []handler{{Command: command, Timeout: codexHookTimeout, Type: "command"}}, codexMatcher}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(def)
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// placeCodexHook is text with the hook block in it, where the last
// install put it or else at the end, and the block's index among the
// file's [[hooks.PreToolUse]] entries.
func placeCodexHook(text, command string) (string, int, error) {
	block := strings.Join([]string{
		codexHookBegin,
		"[[hooks.PreToolUse]]",
		"matcher = " + tomlString(codexMatcher),
		"[[hooks.PreToolUse.hooks]]",
		`type = "command"`,
		"command = " + tomlString(command),
		"timeout = " + strconv.Itoa(codexHookTimeout),
		codexHookEnd,
	}, "\n") + "\n"
	out := putBlock(text, block, codexHookBegin, codexHookEnd)
	at := strings.Index(out, codexHookBegin)
	index, err := codexPreToolUseEntries(out[:at])
	if err != nil {
		return "", 0, err
	}
	return out, index, nil
}

// placeCodexTrust is text with the trust block for key in it.
func placeCodexTrust(text, key, hash string) (string, error) {
	header := "[hooks.state." + tomlString(key) + "]"
	rest, _, _ := cutBlock(text, codexTrustBegin, codexTrustEnd)
	if strings.Contains(normalizeTOMLHeader(rest), normalizeTOMLHeader(header)) {
		return "", fmt.Errorf("the file already records a trust for %s: remove it, and install again", key)
	}
	block := strings.Join([]string{codexTrustBegin, header, "trusted_hash = " + tomlString(hash), codexTrustEnd}, "\n") + "\n"
	return putBlock(text, block, codexTrustBegin, codexTrustEnd), nil
}

// putBlock is text with block in place of the one between begin and end,
// or appended on a line of its own when there is none.
func putBlock(text, block, begin, end string) string {
	if rest, at, found := cutBlock(text, begin, end); found {
		return rest[:at] + block + rest[at:]
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + block
}

// cutBlock is text without the lines from begin to end, and where they
// began; found is false, and text unchanged, when there are none.
func cutBlock(text, begin, end string) (rest string, at int, found bool) {
	start := lineIndex(text, begin, 0)
	if start < 0 {
		return text, 0, false
	}
	stop := lineIndex(text, end, start)
	if stop < 0 {
		return text, 0, false
	}
	stop += len(end)
	if stop < len(text) && text[stop] == '\n' {
		stop++
	}
	return text[:start] + text[stop:], start, true
}

// lineIndex is the offset of the first line at or after from that is
// exactly line, or -1.
func lineIndex(text, line string, from int) int {
	for i := from; i <= len(text); {
		j := strings.IndexByte(text[i:], '\n')
		next := len(text) + 1
		if j >= 0 {
			next = i + j + 1
		}
		end := min(next-1, len(text))
		if strings.TrimRight(text[i:end], "\r") == line {
			return i
		}
		i = next
	}
	return -1
}

// codexPreToolUseEntries counts the [[hooks.PreToolUse]] entries text
// opens, which is what the index in a hook's trust key counts. An entry
// written another way (an inline array, a hooks table written inline) is
// an error: install would count it wrong, and a wrong key is a hook that
// silently does not run.
func codexPreToolUseEntries(text string) (int, error) {
	n := 0
	inString := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if inString != "" {
			if strings.Count(trimmed, inString)%2 == 1 {
				inString = ""
			}
			continue
		}
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(trimmed, q)%2 == 1 {
				inString = q
			}
		}
		if strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasPrefix(trimmed, "[[") {
			// A comment may follow a table header on its line.
			if i := strings.Index(trimmed, "]]"); i >= 0 {
				trimmed = trimmed[:i+2]
			}
		}
		header := normalizeTOMLHeader(trimmed)
		switch {
		case header == "[[hooks.PreToolUse]]":
			n++
		case strings.HasPrefix(header, "PreToolUse="), strings.HasPrefix(header, "hooks="),
			strings.HasPrefix(header, "hooks.PreToolUse="):
			return 0, errors.New("the file writes hooks or hooks.PreToolUse inline; write its entries as [[hooks.PreToolUse]] tables, and install again")
		}
	}
	return n, nil
}

// normalizeTOMLHeader is a line with its spaces and the quotes around
// bare keys taken out, so [[ hooks."PreToolUse" ]] reads
// [[hooks.PreToolUse]].
func normalizeTOMLHeader(line string) string {
	line = strings.Join(strings.Fields(line), "")
	for _, k := range []string{"hooks", "PreToolUse", "state"} {
		line = strings.ReplaceAll(line, `"`+k+`"`, k)
		line = strings.ReplaceAll(line, `'`+k+`'`, k)
	}
	return line
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// codexTrustsProject reports whether the user's config.toml trusts the
// project: [projects."<dir>"] with trust_level = "trusted" in it.
func codexTrustsProject(userText, project string) bool {
	header := normalizeTOMLHeader("[projects." + tomlString(project) + "]")
	in := false
	for _, line := range strings.Split(userText, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "[") {
			in = normalizeTOMLHeader(trimmed) == header
			continue
		}
		if in && normalizeTOMLHeader(trimmed) == `trust_level="trusted"` {
			return true
		}
	}
	return false
}
