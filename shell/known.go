package shell

import (
	"path"
	"strings"
)

// The values known before the call runs: the home directory ("~",
// $HOME), the directory a command runs in ($PWD, "~+") and, after a cd
// of the call, the one before ($OLDPWD, "~-"). A path made of one of
// them and a literal rest names a file the splitter knows, held to the
// file tools' rules as a literal path is.

// joinPath joins a relative path to a directory: the call's own (""),
// an absolute one, or one in the home directory, which a path leaving it
// by ".." makes unknown (false).
func joinPath(dir, p string) (string, bool) {
	home, ok := strings.CutPrefix(dir, "~")
	if !ok {
		if dir == "" {
			return path.Clean(p), true
		}
		return path.Join(dir, p), true
	}
	rel := path.Join(strings.TrimPrefix(home, "/"), p)
	switch {
	case rel == "..", strings.HasPrefix(rel, "../"):
		return "", false
	case rel == ".":
		return "~", true
	}
	return "~/" + rel, true
}

// resolve is the paths a word may name, resolved against in: a literal
// path, a tilde the shell replaces with the home directory ("~", "~/x"),
// the directory ("~+") or the one before ("~-"), and $PWD, $HOME and
// $OLDPWD (or ${…}) followed by a literal rest. false when the word
// holds anything else known only when it runs, or names a directory the
// splitter does not know.
func (in where) resolve(w word) ([]string, bool) {
	if w.pattern || w.braces {
		return nil, false
	}
	if w.literal && !w.tilde {
		return []string{w.value}, true
	}
	head, rest := knownHead(w)
	if head == "" || strings.ContainsAny(rest, "$`{}*?[]~\\") {
		return nil, false
	}
	var base where
	switch head {
	case "HOME":
		return []string{"~" + rest}, true
	case "PWD":
		base = in
	case "OLDPWD":
		if in.old == nil {
			return nil, false
		}
		base = *in.old
	}
	if base.unknown != "" {
		return nil, false
	}
	var out []string
	for _, d := range base.all() {
		if d == "" {
			d = "."
		}
		out = append(out, path.Clean(d+rest))
	}
	return out, true
}

// cdTo is where a cd to dirs, the paths w names, leads from in: dirs
// are relative to in, but for a word made of $PWD, $OLDPWD or "~-",
// whose paths resolve names from the call's own directory ("cd /tmp &&
// cd $OLDPWD" returns to it).
func (in where) cdTo(w word, dirs []string) where {
	if head, _ := knownHead(w); head != "PWD" && head != "OLDPWD" || in.unknown != "" {
		return in.moveTo(dirs)
	}
	out := where{}.moveTo(dirs)
	prev := in
	prev.old = nil
	out.old = &prev
	return out
}

// knownHead splits a word into the variable whose value the splitter
// knows that starts it, HOME, PWD or OLDPWD, and the rest after it; ""
// when it starts with none.
func knownHead(w word) (head, rest string) {
	v := w.value
	if w.literal {
		// A tilde the shell expands: the word is literal but for it.
		switch {
		case v == "~" || strings.HasPrefix(v, "~/"):
			return "HOME", v[1:]
		case v == "~+" || strings.HasPrefix(v, "~+/"):
			return "PWD", v[2:]
		case v == "~-" || strings.HasPrefix(v, "~-/"):
			return "OLDPWD", v[2:]
		}
		return "", ""
	}
	for _, name := range []string{"OLDPWD", "PWD", "HOME"} {
		for _, spelt := range []string{"$" + name, "${" + name + "}"} {
			if r, ok := strings.CutPrefix(v, spelt); ok && (r == "" || r[0] == '/') {
				return name, r
			}
		}
		if r, ok := withDefault(v, name); ok && (r == "" || r[0] == '/') {
			return name, r
		}
	}
	return "", ""
}

// withDefault is the rest of v after a ${NAME:-…} or ${NAME-…} that
// starts it, whose default is plain text: NAME is set, so the expansion
// is its value ("${HOME:-/tmp}/.ssh").
func withDefault(v, name string) (string, bool) {
	r, ok := strings.CutPrefix(v, "${"+name)
	if !ok {
		return "", false
	}
	if r, ok = strings.CutPrefix(r, ":-"); !ok {
		if r, ok = strings.CutPrefix(r, "-"); !ok {
			return "", false
		}
	}
	def, rest, ok := strings.Cut(r, "}")
	if !ok || strings.ContainsAny(def, "${`'\"") {
		return "", false
	}
	return rest, true
}
