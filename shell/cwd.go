package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Where a path really points: a relative path after cd DIR is
// DIR-relative, after a cd the splitter cannot follow it is unknown, and
// /proc/self/cwd, /proc/self/root and the descriptors under /proc and
// /dev/fd are read through to what they name, or are unknown.

// where is what the splitter knows of the directory a command runs in.
type where struct {
	// dirs are the directories it may run in, relative to the call's own,
	// absolute, or in the home directory ("~/.ssh"); none is the call's
	// own directory alone.
	dirs []string
	// unknown is why the directory is known only when it runs.
	unknown string
	// old is where the shell was before its last cd, $OLDPWD and the
	// directory of "cd -", nil until a cd the call makes.
	old *where
}

// places are the directories of the commands and redirects of the script
// being read.
type places struct {
	at map[syntax.Node]where
	// seen are the directories the call's cd commands are known to move
	// to or push, where a directory known only when it runs may lie.
	seen []string
	// outer is where the script starts: the directory of the command that
	// runs it as code.
	outer where
}

// of is where a command or a redirect of the script runs.
func (p places) of(n syntax.Node) where {
	if w, ok := p.at[n]; ok {
		return w
	}
	return p.outer
}

// locate reads where each command and redirect of f runs and returns
// what was known before, for restore.
func (s *splitter) locate(f *syntax.File, src string) places {
	saved := s.dirs
	s.dirs.at = nil
	if mayChangeDir(src) || strings.Contains(src, "CDPATH") {
		d := dirWalk{s: s, at: map[syntax.Node]where{}, src: src, cdpath: strings.Contains(src, "CDPATH"), seen: saved.seen}
		d.stmts(f.Stmts, s.dirs.outer)
		s.dirs.at, s.dirs.seen = d.at, d.seen
	}
	return saved
}

// restore puts back what locate found the directories to be before.
func (s *splitter) restore(saved places) {
	s.dirs = saved
}

// dirWalk follows the directory through a script.
type dirWalk struct {
	// s reads the words of a cd as the shell does.
	s   *splitter
	at  map[syntax.Node]where
	src string
	// cdpath is set when the script may set CDPATH, which makes cd look
	// for a relative directory elsewhere.
	cdpath bool
	// seen are the directories known to be moved to or pushed so far.
	seen []string
}

// note adds the directories of a known where to those seen, up to a
// bound.
func (d *dirWalk) note(w where) {
	if w.unknown != "" {
		return
	}
	for _, dir := range w.dirs {
		if len(d.seen) < 4*maxDirs && !slices.Contains(d.seen, dir) {
			d.seen = append(d.seen[:len(d.seen):len(d.seen)], dir)
		}
	}
}

// after is where a command leaves the shell when it succeeds and when it
// fails, which decide where the commands after && and || run.
type after struct{ ok, fail where }

// stmts follows a list run one after another.
func (d *dirWalk) stmts(list []*syntax.Stmt, in where) after {
	out := after{in, in}
	for i, st := range list {
		if i > 0 {
			in = union(out.ok, out.fail)
		}
		out = d.stmt(st, in)
	}
	return out
}

// stmt follows one statement.
func (d *dirWalk) stmt(st *syntax.Stmt, in where) after {
	for _, r := range st.Redirs {
		d.at[r] = in
		d.inside(r, in)
	}
	if st.Cmd == nil {
		return after{in, in}
	}
	out := d.command(st.Cmd, in)
	switch {
	case st.Background || st.Coprocess:
		// It runs in a subshell of its own.
		return after{in, in}
	case st.Negated:
		return after{out.fail, out.ok}
	}
	return out
}

// command follows one command.
func (d *dirWalk) command(c syntax.Command, in where) after {
	switch c := c.(type) {
	case *syntax.CallExpr:
		d.at[c] = in
		d.inside(c, in)
		return after{d.cd(c, in), in}
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			l := d.stmt(c.X, in)
			r := d.stmt(c.Y, l.ok)
			return after{r.ok, union(l.fail, r.fail)}
		case syntax.OrStmt:
			l := d.stmt(c.X, in)
			r := d.stmt(c.Y, l.fail)
			return after{union(l.ok, r.ok), r.fail}
		}
		// Each side of a pipeline runs in a subshell, but with lastpipe
		// set the last runs in this shell: a cd there may move it.
		d.stmt(c.X, in)
		r := d.stmt(c.Y, in)
		if d.changesDir(c.Y) {
			return after{union(in, r.ok), union(in, r.fail)}
		}
		return after{in, in}
	case *syntax.Subshell:
		d.stmts(c.Stmts, in)
		return after{in, in}
	case *syntax.Block:
		return d.stmts(c.Stmts, in)
	}
	// A loop, a condition or a function may run a cd any number of
	// times, or none: the directory inside and after it is known only
	// when it runs.
	if d.changesDir(c) {
		in = where{unknown: "the command changes directory in a loop, a condition or a function"}
	}
	d.inside(c, in)
	return after{in, in}
}

// inside gives the commands and redirects nested in n the directory in;
// a substitution runs its commands in a subshell that starts there.
func (d *dirWalk) inside(n syntax.Node, in where) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.CmdSubst:
			d.stmts(m.Stmts, in)
			return false
		case *syntax.ProcSubst:
			d.stmts(m.Stmts, in)
			return false
		case *syntax.CallExpr, *syntax.Redirect:
			if _, ok := d.at[m]; !ok {
				d.at[m] = in
			}
		}
		return true
	})
}

// cd is where a command leaves the shell when it succeeds: cd and pushd
// to a directory the splitter computes exactly move it there; one it
// cannot, or popd, makes it unknown. The words are read as the shell
// reads them, braces expanded, so "\\cd", "builtin cd", "command cd" and
// "cd {dir,}" are followed.
func (d *dirWalk) cd(c *syntax.CallExpr, in where) where {
	args, why := d.s.expandWords(c.Args)
	name := ""
	for len(args) > 0 {
		if args[0].literal {
			name = args[0].value
		} else {
			name = ""
		}
		args = args[1:]
		if name == "command" {
			for len(args) > 0 && args[0].value == "-p" {
				args = args[1:]
			}
		}
		if name != "builtin" && name != "command" {
			break
		}
	}
	switch name {
	case "cd", "pushd", "popd":
		if d.s.keyword && keywordArgument(args) {
			// Under set -k a NAME=VALUE word is cd's environment.
			return where{unknown: "the directory after " + name + " is known only when it runs: keyword mode may make a word environment"}
		}
	case "eval":
		if mayChangeDir(strings.Join(values(args), " ")) {
			return where{unknown: "the directory after eval is known only when it runs"}
		}
		return in
	default:
		return in
	}
	if why != "" {
		return where{unknown: "the directory after " + name + " is known only when it runs: " + why}
	}
	for len(args) > 0 && args[0].literal && strings.HasPrefix(args[0].value, "-") && len(args[0].value) > 1 {
		if args[0].value == "--" {
			args = args[1:]
			break
		}
		if name == "pushd" && args[0].value == "-n" {
			// pushd -n adds to the stack without changing directory.
			return in
		}
		args = args[1:]
	}
	switch {
	case name == "popd" || len(args) > 1:
		return where{unknown: "the directory after " + name + " is known only when it runs"}
	case len(args) == 0 && name == "cd":
		// The home directory, or a value the call gives HOME
		// ("HOME=secrets; cd").
		return in.moveTo(append([]string{"~"}, d.s.assignedValues().given["HOME"]...))
	case len(args) == 0:
		return where{unknown: "the directory after " + name + " is known only when it runs"}
	}
	w := args[0]
	text := d.src[w.pos:w.end]
	unknown := where{unknown: "the directory after " + name + " " + text + " is known only when it runs"}
	switch {
	case w.literal && w.value == "-" && name == "cd":
		if in.old == nil {
			return unknown
		}
		back := *in.old
		prev := in
		prev.old = nil
		back.old = &prev
		return back
	case name == "pushd" && w.literal && (strings.HasPrefix(w.value, "+") || strings.HasPrefix(w.value, "-")):
		return unknown
	case w.literal && !w.tilde && strings.HasPrefix(w.value, "~"):
		// A directory named "~" the shell left as it is.
		return unknown
	}
	if self, ok := selfProc(w); ok {
		// cd /proc/self/root$PWD is cd $PWD.
		w = self
	}
	dirs, ok := in.resolve(w)
	if ok {
		// Even where the cd is not followed, the directory it names is
		// one a later path may lie in.
		d.note(in.cdTo(w, dirs))
	}
	switch {
	case !ok:
		return unknown
	case d.cdpath && !strings.HasPrefix(w.value, "/") && !strings.HasPrefix(w.value, ".") && w.literal && !w.tilde:
		return where{unknown: "the directory after " + name + " " + w.value + " depends on CDPATH"}
	}
	return in.cdTo(w, dirs)
}

// moveTo is where a cd to each of dirs, resolved against in, leads.
func (in where) moveTo(dirs []string) where {
	if in.unknown != "" {
		return in
	}
	prev := in
	prev.old = nil
	out := where{old: &prev}
	for _, dir := range dirs {
		if dir == "" {
			dir = "."
		}
		// cd /proc/self/cwd stays where it is; cd /proc/self/root/x
		// goes to /x.
		dir, why := throughProc(cleanPath(dir))
		if why != "" {
			return where{unknown: why}
		}
		joined, ok := in.join(dir)
		if !ok {
			return where{unknown: "the directory after cd " + dir + " lies outside the home directory, whose place the splitter does not know"}
		}
		for _, j := range joined.all() {
			out.dirs = appendNew(out.dirs, j)
		}
	}
	if len(out.dirs) == 1 && out.dirs[0] == "" {
		out.dirs = nil
	}
	return out
}

// join is where a cd to dir leads from each directory in, and false
// when it leaves the home directory by "..", to a place not known.
func (in where) join(dir string) (where, bool) {
	if in.unknown != "" {
		return in, true
	}
	if strings.HasPrefix(dir, "/") {
		return where{dirs: []string{path.Clean(dir)}}, true
	}
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		j, ok := joinPath("~", strings.TrimPrefix(dir[1:], "/"))
		return where{dirs: []string{j}}, ok
	}
	var out where
	for _, d := range in.all() {
		j, ok := joinPath(d, dir)
		if !ok {
			return where{}, false
		}
		out.dirs = appendNew(out.dirs, j)
	}
	return out, true
}

// all are the directories of a known where, "" for the call's own.
func (in where) all() []string {
	if len(in.dirs) == 0 {
		return []string{""}
	}
	return in.dirs
}

// maxDirs bounds the directories a command may run in that the splitter
// follows; past it the directory is unknown.
const maxDirs = 8

// union is where a command runs that may run in a or in b.
func union(a, b where) where {
	switch {
	case a.unknown != "":
		return a
	case b.unknown != "":
		return b
	}
	out := where{dirs: slices.Clone(a.all())}
	for _, d := range b.all() {
		out.dirs = appendNew(out.dirs, d)
	}
	if len(out.dirs) > maxDirs {
		return where{unknown: "the command may run in more directories than the splitter follows"}
	}
	if a.old != nil && b.old != nil {
		old := union(*a.old, *b.old)
		old.old = nil
		out.old = &old
	}
	if len(out.dirs) == 1 && out.dirs[0] == "" {
		out.dirs = nil
	}
	return out
}

// appendNew appends s unless list holds it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// changesDir reports whether n holds a command that may change
// directory: cd, pushd, popd, or eval of a string that names one, in
// any spelling the shell reads as one ("\\cd", $'cd').
func (d *dirWalk) changesDir(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			for _, a := range c.Args {
				switch d.s.wordOf(a).value {
				case "cd", "pushd", "popd", "eval":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// mayChangeDir reports whether a script may name a command that changes
// directory in any spelling: its text with quotes and backslashes
// removed names one (line continuations too), or it has an ANSI-C
// string, which may spell any.
func mayChangeDir(src string) bool {
	if strings.Contains(src, "$'") {
		return true
	}
	if !strings.ContainsAny(src, "'\"\\") {
		return changesDirText(src)
	}
	// Each name ends in "d": read back from every "d", quotes,
	// backslashes and newlines (a line continuation) skipped.
	for i := strings.IndexByte(src, 'd'); i >= 0; {
		var name [5]byte
		n := 0
		for j := i; j >= 0 && n < len(name); j-- {
			if c := src[j]; c != '\'' && c != '"' && c != '\\' && c != '\n' {
				n++
				name[len(name)-n] = c
			}
		}
		if word := string(name[len(name)-n:]); strings.HasSuffix(word, "cd") || strings.HasSuffix(word, "popd") || word == "pushd" {
			return true
		}
		next := strings.IndexByte(src[i+1:], 'd')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return false
}

// changesDirText reports whether a string run as code may name a command
// that changes directory.
func changesDirText(text string) bool {
	return strings.Contains(text, "cd") || strings.Contains(text, "pushd") || strings.Contains(text, "popd")
}

// paths are the paths a path written in a command names, resolved
// against where the command runs, with why each is known only when it
// runs ("" when it is known).
func (in where) paths(p string) (paths []string, unknown string) {
	p, unknown = throughProc(cleanPath(p))
	switch {
	case unknown != "":
		return []string{p}, unknown
	case strings.HasPrefix(p, "/"):
		return []string{p}, ""
	case in.unknown != "":
		return []string{p}, in.unknown
	case strings.HasPrefix(p, "~"):
		// A tilde the shell left as it is ("~/x", \~/x) names a
		// directory "~" here, not the home a path rule reads "~/" as.
		p = "./" + p
	}
	for _, d := range in.all() {
		if d == "" {
			paths = appendNew(paths, p)
			continue
		}
		j, ok := joinPath(d, p)
		if !ok {
			return []string{p}, "the path " + p + " lies outside the home directory, whose place the splitter does not know"
		}
		paths = appendNew(paths, j)
	}
	return paths, ""
}

// throughProc reads a path under /proc or /dev/fd through to what it
// names: /proc/self/cwd/x is x, /proc/self/root/x is /x; a descriptor or
// another process's directory is known only when it runs.
func throughProc(p string) (string, string) {
	if !strings.HasPrefix(p, "/proc/") && !strings.HasPrefix(p, "/dev/fd/") {
		if upward(p) && throughLinks(p) {
			return p, "the path " + p + " goes back up through a link under /proc or /dev/fd, known only when it runs"
		}
		return p, ""
	}
	if upward(p) {
		return p, "the path " + p + " goes back up through a link under /proc or /dev/fd, known only when it runs"
	}
	clean := path.Clean(p)
	parts := strings.SplitN(strings.TrimPrefix(clean, "/"), "/", 4)
	switch {
	case parts[0] == "dev":
		return p, "the path " + p + " names a descriptor, known only when it runs"
	case len(parts) < 3:
		return p, ""
	case (parts[1] == "self" || parts[1] == "thread-self") && parts[2] == "cwd":
		if len(parts) == 3 {
			return ".", ""
		}
		return throughProc(parts[3])
	case (parts[1] == "self" || parts[1] == "thread-self") && parts[2] == "root":
		if len(parts) == 3 {
			return "/", ""
		}
		return throughProc("/" + parts[3])
	case parts[1] == "self" || parts[1] == "thread-self" || strings.Trim(parts[1], "0123456789") == "":
		if parts[2] == "cwd" || parts[2] == "root" || parts[2] == "fd" || parts[2] == "exe" || parts[2] == "map_files" || parts[2] == "task" {
			return p, "the path " + p + " names a file through a process, known only when it runs"
		}
	}
	return p, ""
}

// pathSubjects adds the subjects of a path a command reads or writes
// under the tool of t, one for each directory it may be relative to.
func (s *splitter) pathSubjects(t target, w word, text, unseen string, in where) {
	value := w.value
	var paths []string
	var why string
	if unseen != "" {
		if self, ok := selfProc(w); ok {
			s.pathSubjects(t, self, text, fileUnseen(self), in)
			return
		}
		known, ok := in.resolve(w)
		if !ok || w.literal && !w.tilde {
			s.add(t.field, value, text, unseen, false, t.tool)
			s.possiblePaths(t, w, text, in, nil)
			tail, ok := procTail(value)
			if !ok {
				tail, ok = unknownTail(w)
			}
			if ok {
				s.anywhere(t, word{value: tail, literal: true, pattern: w.pattern}, text)
			}
			return
		}
		// A value the splitter knows, $PWD or ~, resolved.
		for _, k := range known {
			if strings.HasPrefix(k, "~") {
				j, ok := joinPath("~", strings.TrimPrefix(k[1:], "/"))
				if !ok {
					s.add(t.field, value, text, unseen, false, t.tool)
					return
				}
				paths = appendNew(paths, j)
				continue
			}
			more, kwhy := where{}.paths(k)
			paths, why = append(paths, more...), firstOf(why, kwhy)
		}
		// The call may have set it otherwise: "PWD=secrets; cat $PWD/k".
		s.possiblePaths(t, w, text, in, paths)
	} else {
		paths, why = in.paths(value)
	}
	for _, p := range paths {
		if deviceFiles[p] {
			continue
		}
		if why == "" && s.throughLink(p) {
			s.add(t.field, p, text, "the path "+p+" is a link an earlier command made, which may point anywhere", false, t.tool)
			for _, q := range s.linkedPaths(p) {
				s.add(t.field, q, text, "", true, t.tool)
			}
			continue
		}
		s.add(t.field, p, text, why, false, t.tool)
	}
	if in.unknown != "" && why == in.unknown {
		s.maybeIn(t, value, text)
		s.anywhere(t, w, text)
		return
	}
	if why != "" && len(paths) == 1 {
		if tail, ok := procTail(paths[0]); ok {
			s.anywhere(t, word{value: tail, literal: true, pattern: w.pattern}, text)
		} else if i := strings.LastIndex(paths[0], "/../"); i >= 0 && throughLinks(paths[0]) {
			// Back up through a link: what follows is under a
			// directory known only when it runs.
			s.anywhere(t, word{value: paths[0][i+4:], literal: true, pattern: w.pattern}, text)
		}
	}
}

// maybeIn adds, as constraints, the paths a relative path names in each
// directory a cd of the call is known to move to or push: after a cd the
// splitter cannot follow ("popd", "pushd +1", "cd -"), the path asks, and
// a deny or ask rule for what it may name still holds.
func (s *splitter) maybeIn(t target, p, text string) {
	for _, d := range s.dirs.seen {
		if j, ok := joinPath(d, p); ok && j != p {
			s.add(t.field, j, text, "", true, t.tool)
		}
	}
}

// madeLinks notes the paths ln or cp -s made links at, so a later path
// through one asks: the link may name a file a rule guards.
func (s *splitter) madeLinks(links []word, in where) {
	for _, w := range links {
		paths, _ := in.paths(w.value)
		for _, p := range paths {
			if s.links == nil {
				s.links = map[string]bool{}
			}
			s.links[p] = true
		}
	}
}

// linkedTo notes what the link "ln [-s] TARGET LINK" points to when
// TARGET is literal: a path through the link then also names the same
// path under TARGET, held to the deny and ask rules, so "ln -s ~ h; cat
// h/.ssh/id_rsa" is denied where "~/.ssh/id_rsa" is. The link is LINK, or
// TARGET's name in LINK when LINK is a directory.
func (s *splitter) linkedTo(args []word, in where) {
	p := lookup("ln").flags.parseFlags("ln", args, true)
	if p.opaque != "" || len(p.operands) != 2 || p.has("t", "target-directory") {
		return
	}
	target, link := p.operands[0], p.operands[1]
	if !target.literal || target.pattern || !link.literal || link.pattern || link.tilde {
		return
	}
	var to []string
	switch home := target.tilde && (target.value == "~" || strings.HasPrefix(target.value, "~/")); {
	case home:
		to = []string{target.value}
	case target.tilde:
		return
	case path.IsAbs(target.value):
		to = []string{path.Clean(target.value)}
	default:
		at := target.value
		if p.has("s", "symbolic") && !p.has("r", "relative") {
			// A symbolic link's relative target is relative to the
			// directory the link is in.
			at = path.Join(path.Dir(link.value), target.value)
		}
		var why string
		if to, why = in.paths(at); why != "" {
			return
		}
	}
	links := []string{link.value}
	if !p.has("T", "no-target-directory") {
		links = append(links, path.Join(link.value, path.Base(target.value)))
	}
	for _, l := range links {
		paths, why := in.paths(l)
		if why != "" {
			continue
		}
		for _, q := range paths {
			if s.linkTargets == nil {
				s.linkTargets = map[string][]string{}
			}
			s.linkTargets[q] = append(s.linkTargets[q], to...)
		}
	}
}

// linkedPaths are the paths p names through the links ln made earlier in
// the call whose targets are known: "h/.ssh/id_rsa" after "ln -s ~ h" is
// "~/.ssh/id_rsa".
func (s *splitter) linkedPaths(p string) []string {
	var out []string
	for q := p; len(s.linkTargets) > 0; {
		for _, to := range s.linkTargets[q] {
			if j, ok := joinPath(to, strings.TrimPrefix(p[len(q):], "/")); ok {
				out = append(out, j)
			}
		}
		i := strings.LastIndexByte(q, '/')
		if i <= 0 {
			return out
		}
		q = q[:i]
	}
	return out
}
