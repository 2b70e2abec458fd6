package shell

import (
	"path"
	"strings"
)

// A path a command reads or writes is held to the file tools' rules only
// when the words say exactly which file it is. A path known only when the
// command runs matches no allow rule and no protected-path exemption: it
// asks.

// pathUnseen is why the path a word names is known only when the command
// runs, "" when the word is a plain literal path: an expansion ("$f",
// "${d}/x", "$(pwd)/x", "$PWD"), a tilde the shell replaces ("~/x", "~+",
// "~-", "~user", "a=~/x"), an unquoted glob the shell matches against the
// files there (".claud?", "sec*/x", "[.]env", "@(a|b)"), or braces the
// shell expands (".cl{a..a}ude"). A redirect target, a tee destination
// and a file operand of a known file command are all read with it.
func pathUnseen(w word) string {
	switch {
	case !w.literal:
		return "the path " + w.value + " is known only when it runs"
	case w.tilde:
		return "the path " + w.value + " has a tilde the shell expands when it runs"
	case w.pattern && !w.confined:
		return "the path " + w.value + " is a pattern the shell matches against files when it runs"
	case w.braces:
		return "the path " + w.value + " has braces the shell expands"
	}
	return ""
}

// cleanPath is an absolute path as the kernel spells it, before any
// check of a special path: "//proc/self/cwd/.env" and "/dev//stdin" have
// their repeated slashes folded and their "." parts dropped, and a ".."
// is resolved by name. Where a path with a ".." goes through /proc or
// /dev/fd, whose links (/proc/self/root, /proc/self/cwd) lead elsewhere
// than their names, the ".." is kept, and throughProc calls the path
// unknown. A relative path is left as it is, joined to its directory
// later.
func cleanPath(p string) string {
	if !strings.HasPrefix(p, "/") {
		return p
	}
	if !upward(p) {
		return path.Clean(p)
	}
	parts := strings.Split(p, "/")
	kept := parts[:1]
	for _, part := range parts[1:] {
		if part != "" && part != "." {
			kept = append(kept, part)
		}
	}
	folded := strings.Join(kept, "/")
	if throughLinks(folded) {
		return folded
	}
	return path.Clean(p)
}

// upward reports whether a path has a ".." part.
func upward(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../")
}

// throughLinks reports whether a path goes through /proc or /dev/fd.
func throughLinks(p string) bool {
	return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/fd/") || strings.Contains(p, "/proc/") || strings.Contains(p, "/dev/fd/")
}

// throughLink reports whether p is, or goes through, a path a link was
// made at earlier in the call: "x/f" after "ln -s .claude x".
func (s *splitter) throughLink(p string) bool {
	for q := p; len(s.links) > 0; {
		if s.links[q] {
			return true
		}
		i := strings.LastIndexByte(q, '/')
		if i <= 0 {
			return false
		}
		q = q[:i]
	}
	return false
}
