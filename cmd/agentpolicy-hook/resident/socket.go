//go:build linux

package resident

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// maxSocketPath is the longest path a Unix socket's address holds on
// Linux, less its closing NUL.
const maxSocketPath = 107

// ErrUnsafeDir is a socket directory another user could reach: the
// resident process is not used through it.
var ErrUnsafeDir = errors.New("resident: the socket directory is not private to this user")

// SocketPath is where the resident process of the agentpolicy binary at
// binary listens: a name of its own per binary, in Dir. It makes Dir
// when there is none.
func SocketPath(binary string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	h := fnv.New64a()
	h.Write([]byte(binary))
	path := filepath.Join(dir, "hook-"+strconv.FormatUint(h.Sum64(), 16)+".sock")
	if len(path) > maxSocketPath {
		return "", fmt.Errorf("resident: the socket path %s is longer than %d bytes", path, maxSocketPath)
	}
	return path, nil
}

// Dir is the directory of the resident processes' sockets:
// $XDG_RUNTIME_DIR/agentpolicy, else agentpolicy-UID in the temporary
// directory. It must be a directory, not a link, owned by this user and
// closed to every other; it is made so when it does not exist. On a
// shared /tmp another user may have made the name first: then it is
// refused with ErrUnsafeDir, and the client runs the binary itself.
func Dir() (string, error) {
	uid := os.Getuid()
	dir := filepath.Join(os.TempDir(), "agentpolicy-"+strconv.Itoa(uid))
	if runtime := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(runtime) {
		dir = filepath.Join(runtime, "agentpolicy")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || !info.IsDir() || int(st.Uid) != uid || info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%w: %s", ErrUnsafeDir, dir)
	}
	return dir, nil
}

// Identity names the file at path as it is now: its device, inode, size
// and modification time. A binary rebuilt or replaced in place has
// another, so a resident process started from the old one refuses calls
// meant for the new one.
func Identity(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", fmt.Errorf("resident: no file identity for %s on this system", path)
	}
	return strconv.FormatUint(uint64(st.Dev), 16) + ":" + strconv.FormatUint(st.Ino, 16) + ":" +
		strconv.FormatInt(info.Size(), 10) + ":" + strconv.FormatInt(info.ModTime().UnixNano(), 10), nil
}
