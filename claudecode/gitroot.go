package claudecode

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// localDir returns the directory whose .claude/settings.local.json is the
// local file (spec §1.1): the root of the git repository holding cwd, the
// main checkout for a worktree, unless cwd is in no repository, the root
// is the home directory, the platform is Windows, or the root, its .git or
// its .claude belongs to another user; then cwd itself.
func localDir(cwd, home string) string {
	if runtime.GOOS == "windows" {
		return cwd
	}
	root, ok := gitRoot(cwd)
	if !ok || root == filepath.Clean(home) {
		return cwd
	}
	for _, p := range []string{root, filepath.Join(root, ".git"), filepath.Join(root, ".claude")} {
		if info, err := os.Lstat(p); err == nil && !ownedByMe(info) {
			return cwd
		}
	}
	return root
}

// gitRoot finds the repository holding dir by its .git entry, following a
// worktree's .git file to the main checkout.
func gitRoot(dir string) (string, bool) {
	for d := filepath.Clean(dir); ; {
		info, err := os.Lstat(filepath.Join(d, ".git"))
		switch {
		case err == nil && info.IsDir():
			return d, true
		case err == nil && info.Mode().IsRegular():
			if main, ok := mainCheckout(d); ok {
				return main, true
			}
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// mainCheckout reads a worktree's .git file, "gitdir: <dir>", and the
// commondir file there, to the checkout whose .git the worktree shares.
func mainCheckout(worktree string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(worktree, ".git"))
	if err != nil {
		return "", false
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", false
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(worktree, gitdir)
	}
	common, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return "", false
	}
	dir := strings.TrimSpace(string(common))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitdir, dir)
	}
	dir = filepath.Clean(dir)
	if filepath.Base(dir) != ".git" {
		return "", false
	}
	return filepath.Dir(dir), true
}

// gitTracked asks git whether it tracks the file.
func gitTracked(file string) (bool, error) {
	cmd := exec.Command("git", "-C", filepath.Dir(file), "ls-files", "--error-unmatch", "--", filepath.Base(file))
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	default:
		return false, err
	}
}
