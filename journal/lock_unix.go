//go:build unix

package journal

import (
	"os"
	"syscall"
)

// lockFile holds an exclusive flock(2) on f until the returned function
// is called: every File takes it to append a record and to look at the
// file's last byte, so a record another process is writing is never
// taken for a torn line.
func lockFile(f *os.File) (unlock func(), err error) {
	fd := int(f.Fd())
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { _ = syscall.Flock(fd, syscall.LOCK_UN) }, nil
}
