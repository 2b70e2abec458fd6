package journal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/ChristopherDavenport/agentpolicy"
)

// File is an [agentpolicy.Journal] that appends each verdict to a file as
// one line of JSON, the object [agentpolicy.Verdict.Record] writes, so the
// file is read with [Read] or any JSONL tool. Each line goes to the file
// in a single write on a descriptor opened in append mode, which puts
// every write at the end of the file whatever another writer did, so on a
// local file system a line is never interleaved with another, whichever
// process or goroutine wrote it, and a crash can cut only the last line
// short. The journal never overwrites or reads a record; at [Open] it
// reads the file's last byte, to end a torn line. On Unix both the write
// and that look hold an exclusive flock(2) on the file, so a process that
// opens the journal while another writes a record does not take the
// record for a torn line.
//
// A File is safe for concurrent use. Its records are written in the order
// Record is called, one at a time.
type File struct {
	sync  bool
	bound int

	mu sync.Mutex
	f  *os.File // nil once closed
	// torn is set when a write failed part way, leaving a line with no
	// newline at the end of the file: the next record ends it first.
	torn bool
}

// Option configures a [File] at [Open].
type Option func(*File)

// WithSync has Record flush each line to stable storage, with fsync,
// before it returns, so a verdict the engine acts on survives a crash of
// the machine and not only of the process. It costs a disk round trip per
// verdict.
func WithSync() Option {
	return func(f *File) { f.sync = true }
}

// WithArgsBound has each record keep at most n bytes of a call's
// arguments, cut by [agentpolicy.Verdict.CutArgs], which writes beside
// them the whole's length and SHA-256; n of zero or less keeps them
// whole. Without it a File keeps [agentpolicy.DefaultArgsBound] bytes.
func WithArgsBound(n int) Option {
	return func(f *File) { f.bound = n }
}

// Open opens the journal at path for appending, creating the file, readable
// and writable by its owner alone, when it does not exist; the folder must.
// A file a crash left ending in a torn line is first ended with a newline,
// so the next record starts a line of its own: the torn line stays where
// it is, for [Read] to report.
func Open(path string, opts ...Option) (*File, error) {
	j := &File{bound: agentpolicy.DefaultArgsBound}
	for _, opt := range opts {
		if opt != nil {
			opt(j)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/journal: cannot open the journal: %w", err)
	}
	if err := sealTornTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("agentpolicy/journal: %s: %w", path, err)
	}
	j.f = f
	return j, nil
}

// sealTornTail ends the file with a newline when its last line has none,
// under the lock every record is written under, so a record another
// process is writing is not taken for a torn line.
func sealTornTail(f *os.File) error {
	unlock, err := lockFile(f)
	if err != nil {
		return err
	}
	defer unlock()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if info.Size() == 0 {
		return nil
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, info.Size()-1); err != nil && err != io.EOF {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	_, err = f.Write([]byte{'\n'})
	return err
}

// ErrClosed is returned by [File.Record] after [File.Close].
var ErrClosed = errors.New("agentpolicy/journal: the journal is closed")

// Record appends the verdict's record as one line, its arguments cut to
// the journal's bound ([WithArgsBound]), and flushes it to
// stable storage first when the journal was opened [WithSync]. An error
// means the verdict may not be in the journal: the engine refuses the
// allow it records. The context is not read: a record is written whole
// or fails. A nil *File records nothing and fails with [ErrClosed], so a
// product that passes one where it meant an open journal refuses every
// allow rather than crash or keep no trail.
func (j *File) Record(_ context.Context, v agentpolicy.Verdict) error {
	if j == nil {
		return ErrClosed
	}
	_, data := v.CutArgs(j.bound).Record()
	line := append(data, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return ErrClosed
	}
	if j.torn {
		line = append([]byte{'\n'}, line...)
	}
	unlock, err := lockFile(j.f)
	if err != nil {
		return fmt.Errorf("agentpolicy/journal: cannot lock the journal: %w", err)
	}
	n, err := j.f.Write(line)
	unlock()
	if n > 0 {
		j.torn = line[n-1] != '\n'
	}
	if err != nil {
		return fmt.Errorf("agentpolicy/journal: cannot record a verdict: %w", err)
	}
	if j.sync {
		if err := j.f.Sync(); err != nil {
			return fmt.Errorf("agentpolicy/journal: cannot flush a verdict: %w", err)
		}
	}
	return nil
}

// Close closes the file. A record after Close fails with [ErrClosed].
// Closing twice returns ErrClosed.
func (j *File) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return ErrClosed
	}
	err := j.f.Close()
	j.f = nil
	return err
}
