//go:build !amd64 || purego

package secret

// haveVectors reports whether pairMasks runs on vector instructions: not
// on this architecture, or with the purego build tag, where the matcher
// uses byteStarts, whose passes of strings.IndexByte are faster than
// pairMasksPortable.
func haveVectors() bool { return false }

// pairMasks is pairMasksPortable: the tests run pairStarts on every
// architecture.
func pairMasks(s string, t *pairTables, masks []uint32) { pairMasksPortable(s, t, masks) }
