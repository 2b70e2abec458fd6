//go:build !unix

package claudecode

import "io/fs"

// ownedByMe reports true: only Unix keeps the local file at the git root,
// so ownership is not asked elsewhere.
func ownedByMe(fs.FileInfo) bool { return true }
