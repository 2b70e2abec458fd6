package claudecode

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Trusted reports whether the user accepted Claude Code's workspace trust
// dialog for the project directory, as Claude Code records it (spec §1.4):
// projects[DIR].hasTrustDialogAccepted in the .claude.json of the
// configuration directory when $CLAUDE_CONFIG_DIR is set, else of home,
// DIR being project itself or the root of the git repository that holds
// it. A home of "" is os.UserHomeDir.
//
// It is the answer [LoadOptions.Trusted] takes for a host that runs inside
// a Claude Code session, as a hook does. A missing file or entry is no
// trust; a file that cannot be read or is not JSON is an error, and a host
// that fails closed reads it as no trust either.
func Trusted(home, project string) (bool, error) {
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return false, errors.New("agentpolicy/claudecode: no home directory: " + err.Error())
		}
		home = h
	}
	file := filepath.Join(home, ".claude.json")
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		file = filepath.Join(dir, ".claude.json")
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var state struct {
		Projects map[string]struct {
			HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		return false, syntaxError(file, data, err)
	}
	dir, err := filepath.Abs(project)
	if err != nil {
		return false, err
	}
	if state.Projects[filepath.ToSlash(dir)].HasTrustDialogAccepted {
		return true, nil
	}
	root, ok := gitRoot(dir)
	return ok && state.Projects[filepath.ToSlash(root)].HasTrustDialogAccepted, nil
}
