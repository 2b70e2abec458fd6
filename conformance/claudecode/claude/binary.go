package claude

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// ErrNotInstalled is the error [Binary] wraps when Claude Code is not
// installed where the harness looks for it.
var ErrNotInstalled = errors.New("agentpolicy/conformance/claude: Claude Code is not installed")

// Binary is the path of the Claude Code executable the harness runs:
// $AGENTPOLICY_CLAUDE when set, else node_modules/.bin/claude in the
// module's directory, where `npm ci` installs the pinned version. A missing
// executable is an error wrapping [ErrNotInstalled] that names the command
// installing it.
func Binary() (string, error) {
	path := os.Getenv("AGENTPOLICY_CLAUDE")
	if path == "" {
		path = filepath.Join(ModuleDir(), "node_modules", ".bin", "claude")
	}
	info, err := os.Stat(path)
	if err != nil || info.IsDir() {
		return "", fmt.Errorf("%w at %s: run `npm ci` in %s", ErrNotInstalled, path, ModuleDir())
	}
	return path, nil
}

// ModuleDir is the directory of the conformance module, found from this
// source file, so the harness finds its node_modules from a test, a
// command run with `go run`, or the recorder alike.
func ModuleDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	return filepath.Dir(filepath.Dir(file))
}
