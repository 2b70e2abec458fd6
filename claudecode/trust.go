package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
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
	projects, err := trustRecord(data)
	if err != nil {
		return false, syntaxError(file, data, err)
	}
	dir, err := filepath.Abs(project)
	if err != nil {
		return false, err
	}
	if projects[filepath.ToSlash(dir)] {
		return true, nil
	}
	root, ok := gitRoot(dir)
	return ok && projects[filepath.ToSlash(root)], nil
}

// trustRecord reads each project's hasTrustDialogAccepted from the text of
// a .claude.json: by [scanTrust] where it can, else by decoding it. The
// map is the caller's to read, never to change.
func trustRecord(data []byte) (map[string]bool, error) {
	lastTrust.Lock()
	defer lastTrust.Unlock()
	if lastTrust.projects != nil && bytes.Equal(data, lastTrust.data) {
		return lastTrust.projects, nil
	}
	projects, ok := scanTrust(data)
	if !ok {
		var err error
		if projects, err = decodeTrust(data); err != nil {
			return nil, err
		}
	}
	lastTrust.data, lastTrust.projects = bytes.Clone(data), projects
	return projects, nil
}

// lastTrust is the last trust record read and what it held. Claude Code
// grows the file with every session, to megabytes, and a host that reads
// it for every call (the resident hook process) scans it again only when
// a byte of it changed.
var lastTrust struct {
	sync.Mutex
	data     []byte
	projects map[string]bool
}

// decodeTrust reads each project's hasTrustDialogAccepted as encoding/json
// decodes the file into the one field; it is what [scanTrust] must agree
// with, and gives the error, with its place, of a file that is not JSON or
// not of this shape.
func decodeTrust(data []byte) (map[string]bool, error) {
	var state struct {
		Projects map[string]struct {
			HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		return nil, err
	}
	projects := make(map[string]bool, len(state.Projects))
	for name, p := range state.Projects {
		projects[name] = p.HasTrustDialogAccepted
	}
	return projects, nil
}
