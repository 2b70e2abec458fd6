//go:build !amd64 || purego

package guard

// haveVectors reports whether pairIndex runs on vector instructions: not
// on this architecture, or with the purego build tag, where the matcher
// uses byteStarts, whose passes of strings.IndexByte are faster than
// pairIndexPortable.
const haveVectors = false

// pairIndex is pairIndexPortable: the tests run pairStarts on every
// architecture.
func pairIndex(s string, t *pairTables) int { return pairIndexPortable(s, t) }
