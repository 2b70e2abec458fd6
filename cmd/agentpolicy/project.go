package main

import (
	"os"
	"path/filepath"
)

// sessionProject is the project directory of the Claude Code session a
// hook event comes from: $CLAUDE_PROJECT_DIR, which Claude Code gives
// every hook, or, without it, the directory above the event's cwd that
// holds .claude/ or is the git root, as Claude Code finds it, or else cwd
// itself. The event's cwd is the shell's current directory, which follows
// every `cd` the agent runs, so it names where a relative path starts and
// never which settings, trust and git root apply: read from cwd, the
// project's deny rules would be lost after one `cd src`.
func sessionProject(cwd string) (string, error) {
	if dir := os.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
		return filepath.Abs(dir)
	}
	return projectRoot(cwd)
}

// projectRoot is the project a directory lies in: the nearest directory
// at or above it that holds .claude/ (the home directory's aside, which
// is the user's) or is a git root, else the directory itself.
func projectRoot(dir string) (string, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	home, _ := os.UserHomeDir()
	for d := start; ; {
		// The home directory's .claude is the user's, not a project's.
		if d != filepath.Clean(home) && isDir(filepath.Join(d, ".claude")) {
			return d, nil
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return start, nil
		}
		d = parent
	}
}

// isDir reports whether path is a directory, through a symbolic link.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
