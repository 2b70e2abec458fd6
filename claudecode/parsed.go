package claudecode

import (
	"slices"
	"sync"
)

// parsedFiles keeps what parse made of the last settings files it read, so
// a host that loads the same files again and again, as the resident hook
// process does for every call, translates each rule of a file once. The
// file is still read every time: only equal content (its SHA-256), read
// the same way, is parsed from here.
var parsedFiles = parseMemo{byKey: map[parseKey]parsedFile{}}

// maxParsedFiles bounds the files kept, a few sessions' worth.
const maxParsedFiles = 64

// parseKey is everything a file's parse reads: its content's hash, where
// it came from and how it is trusted, and the home and project its
// additional directories are resolved against.
type parseKey struct {
	sum                     [32]byte
	scope                   Scope
	name, path, slashAnchor string
	trusted                 bool
	home, cwd               string
}

// parsedFile is what parse added to the loader for one file.
type parsedFile struct {
	file     *File
	problems []Problem
	scalars  scalars
}

type parseMemo struct {
	mu    sync.Mutex
	byKey map[parseKey]parsedFile
}

// get returns a copy of what parse made of the file, which the caller may
// change.
func (m *parseMemo) get(k parseKey) (parsedFile, bool) {
	m.mu.Lock()
	p, ok := m.byKey[k]
	m.mu.Unlock()
	if !ok {
		return parsedFile{}, false
	}
	return parsedFile{file: p.file.clone(), problems: slices.Clone(p.problems), scalars: p.scalars}, true
}

// put keeps a copy of what parse made of the file.
func (m *parseMemo) put(k parseKey, p parsedFile) {
	p = parsedFile{file: p.file.clone(), problems: slices.Clone(p.problems), scalars: p.scalars}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.byKey) >= maxParsedFiles {
		clear(m.byKey)
	}
	m.byKey[k] = p
}

// clone is a copy of the file that shares no memory a loader changes:
// [File.reachDirectories] appends to its entries' rules and its lists.
func (f *File) clone() *File {
	c := *f
	c.Entries = slices.Clone(f.Entries)
	for i := range c.Entries {
		c.Entries[i].Rules = slices.Clone(c.Entries[i].Rules)
	}
	c.AdditionalDirectories = slices.Clone(f.AdditionalDirectories)
	c.allow, c.ask, c.deny = slices.Clone(f.allow), slices.Clone(f.ask), slices.Clone(f.deny)
	c.mcp = slices.Clone(f.mcp)
	return &c
}
