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
// than their names, a ".." is resolved by name only before the first
// such link ("/proc/self/../self/cwd/.env" is "/proc/self/cwd/.env",
// /proc/self being the directory /proc/PID); past it, it is kept, and
// throughProc calls the path unknown. A relative path is left as it is,
// joined to its directory later.
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
	if !throughLinks(folded) {
		return path.Clean(p)
	}
	var named []string
	for i, part := range kept[1:] {
		if part == ".." {
			named = named[:max(len(named)-1, 0)]
			continue
		}
		named = append(named, part)
		if procLink(named) {
			return "/" + strings.Join(append(named, kept[i+2:]...), "/")
		}
	}
	return "/" + strings.Join(named, "/")
}

// procLink reports whether the path of the names is a link under /proc
// or /dev that leads elsewhere than its name, whose ".." is not its
// name's parent: /proc/thread-self, /proc/net, /proc/mounts, /dev/fd,
// /dev/stdin and a process's cwd, root, exe, fd and the like, its own or
// a thread's. /proc/self is one too, but it names a process's directory
// right under /proc, which is its parent.
func procLink(names []string) bool {
	switch {
	case len(names) == 2 && names[0] == "dev":
		return names[1] == "fd" || names[1] == "stdin" || names[1] == "stdout" || names[1] == "stderr"
	case len(names) < 2 || names[0] != "proc":
		return false
	case len(names) == 2:
		return names[1] == "thread-self" || names[1] == "net" || names[1] == "mounts"
	case len(names) == 5 && names[2] == "task":
		return processLinks[names[4]]
	}
	return len(names) == 3 && processLinks[names[2]]
}

// processLinks are the entries of a process's directory under /proc
// that are links, or directories of links.
var processLinks = map[string]bool{"cwd": true, "root": true, "exe": true, "fd": true, "map_files": true, "ns": true}

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

// A path with a part known only when the shell runs may still end in
// text the splitter reads: "$X/secrets/k", "$(dirname "$0")/.env",
// "~root/.ssh/id_rsa" (another user's home) and "/proc/1234/cwd/.env"
// (another process's directory) all name their tail under a directory
// known only when they run. The path asks, and its tail is also held to
// the deny and ask rules as the pattern "/**/tail", as a relative path
// after an unknown cd is ([splitter.anywhere]).

// unknownTail is the literal tail of a path whose head is known only
// when it runs: what follows the first "/" after the last expansion.
func unknownTail(w word) (string, bool) {
	v := w.value
	switch {
	case w.braces:
		return "", false
	case w.literal && w.tilde:
		return otherHome(v)
	case w.literal:
		return "", false
	}
	i := strings.LastIndexAny(v, "$`)}")
	if i < 0 {
		return "", false
	}
	rest := v[i+1:]
	if v[i] == '$' {
		// $NAME, or one of the special parameters $$, $!, $0…
		n := 0
		for n < len(rest) && (rest[n] == '_' || 'a' <= rest[n]|0x20 && rest[n]|0x20 <= 'z' || '0' <= rest[n] && rest[n] <= '9') {
			n++
		}
		if n == 0 && rest != "" && strings.IndexByte("@*#?-!$", rest[0]) >= 0 {
			n = 1
		}
		rest = rest[n:]
	}
	// Text glued to the expansion ("${HOME}x/…") is part of the
	// unknown directory.
	_, rest, ok := strings.Cut(rest, "/")
	return strings.TrimLeft(rest, "/"), ok
}

// otherHome is the path after "~user/", a home directory the splitter
// does not know: another user's, or a directory of the stack ("~+1").
// "~", "~/", "~+" and "~-", which it knows, are none.
func otherHome(v string) (string, bool) {
	if !strings.HasPrefix(v, "~") {
		return "", false
	}
	if head, _ := knownHead(word{value: v, literal: true}); head != "" {
		return "", false
	}
	_, rest, ok := strings.Cut(v, "/")
	return strings.TrimLeft(rest, "/"), ok
}

// procTail is the path after another process's directory,
// "/proc/1234/cwd/.env", "/proc/$$/cwd/.env" or "/proc/1234/root/etc/x",
// which the process
// holds when it runs: ".env" and "etc/x".
// A thread's, "/proc/1234/task/1235/cwd/.env", is read alike.
func procTail(p string) (string, bool) {
	parts := strings.SplitN(strings.TrimPrefix(path.Clean(p), "/"), "/", 6)
	if len(parts) < 4 || parts[0] != "proc" {
		return "", false
	}
	if parts[2] == "task" && len(parts) == 6 {
		parts = append(parts[:2], parts[4:]...)
	}
	if parts[2] != "cwd" && parts[2] != "root" {
		return "", false
	}
	return strings.Join(parts[3:], "/"), true
}

// selfProc is the word a path through the process of the command names:
// "/proc/$BASHPID/…" read as "/proc/self/…", and
// "/proc/self/root" before a value the splitter knows ("$PWD/.env")
// dropped, since the root is "/". false when w is no such word.
func selfProc(w word) (word, bool) {
	if w.literal {
		return w, false
	}
	v := w.value
	// $$ is the shell's first process, not a subshell's, whose
	// directory may differ: another process's, read by procTail.
	for _, pid := range []string{"$BASHPID", "${BASHPID}"} {
		if rest, ok := strings.CutPrefix(v, "/proc/"+pid+"/"); ok {
			v = "/proc/self/" + rest
			break
		}
	}
	for _, root := range []string{"/proc/self/root", "/proc/thread-self/root"} {
		// "/proc/self/root/$PWD" is "/proc/self/root$PWD": a slash
		// before an absolute path changes nothing.
		if rest, ok := strings.CutPrefix(v, root); ok && strings.HasPrefix(strings.TrimLeft(rest, "/"), "$") {
			v = strings.TrimLeft(rest, "/")
			break
		}
	}
	if v == w.value {
		return w, false
	}
	w.value = v
	w.literal = !strings.ContainsAny(v, "$`")
	// The word as parsed is no longer the word read.
	w.src = nil
	return w, true
}
