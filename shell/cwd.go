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
	// dirs are the directories it may run in, relative to the call's own
	// or absolute; none is the call's own directory alone.
	dirs []string
	// unknown is why the directory is known only when it runs.
	unknown string
}

// places are the directories of the commands and redirects of the script
// being read.
type places struct {
	at map[syntax.Node]where
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
	if changesDirText(src) || strings.Contains(src, "CDPATH") {
		d := dirWalk{at: map[syntax.Node]where{}, src: src, cdpath: strings.Contains(src, "CDPATH")}
		d.stmts(f.Stmts, s.dirs.outer)
		s.dirs.at = d.at
	}
	return saved
}

// restore puts back what locate found the directories to be before.
func (s *splitter) restore(saved places) {
	s.dirs = saved
}

// dirWalk follows the directory through a script.
type dirWalk struct {
	at  map[syntax.Node]where
	src string
	// cdpath is set when the script may set CDPATH, which makes cd look
	// for a relative directory elsewhere.
	cdpath bool
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
		// Each side of a pipeline runs in a subshell.
		d.stmt(c.X, in)
		d.stmt(c.Y, in)
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
	if changesDir(c) {
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
// with a literal directory move it there; one the splitter cannot follow,
// or popd, makes it unknown.
func (d *dirWalk) cd(c *syntax.CallExpr, in where) where {
	args := c.Args
	name := ""
	for len(args) > 0 {
		name, _ = literalPath(args[0])
		args = args[1:]
		if name != "builtin" && name != "command" {
			break
		}
	}
	switch name {
	case "cd", "pushd", "popd":
	case "eval":
		if changesDirText(d.src[c.Pos().Offset():c.End().Offset()]) {
			return where{unknown: "the directory after eval is known only when it runs"}
		}
		return in
	default:
		return in
	}
	for len(args) > 0 && strings.HasPrefix(args[0].Lit(), "-") && len(args[0].Lit()) > 1 {
		if args[0].Lit() == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	if name == "popd" || len(args) != 1 {
		return where{unknown: "the directory after " + name + " is known only when it runs"}
	}
	dir, ok := literalPath(args[0])
	switch {
	case !ok || dir == "-" || strings.HasPrefix(dir, "~"):
		text := d.src[args[0].Pos().Offset():args[0].End().Offset()]
		return where{unknown: "the directory after " + name + " " + text + " is known only when it runs"}
	case d.cdpath && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "."):
		return where{unknown: "the directory after " + name + " " + dir + " depends on CDPATH"}
	}
	return in.join(dir)
}

// literalPath is the value of a word without expansions, quotes removed.
func literalPath(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[\\") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsRune(l.Value, '\\') {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), b.Len() > 0
}

// join is where a cd to dir leads from each directory in.
func (in where) join(dir string) where {
	if in.unknown != "" {
		return in
	}
	if strings.HasPrefix(dir, "/") {
		return where{dirs: []string{path.Clean(dir)}}
	}
	var out where
	for _, d := range in.all() {
		out.dirs = appendNew(out.dirs, path.Join(d, dir))
	}
	return out
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
	if len(out.dirs) == 1 && out.dirs[0] == "" {
		return where{}
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
// directory: cd, pushd, popd, or eval of a string that names one.
func changesDir(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			for _, a := range c.Args {
				if name, _ := literalPath(a); name == "cd" || name == "pushd" || name == "popd" || name == "eval" {
					found = true
				}
			}
		}
		return !found
	})
	return found
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
		} else {
			paths = appendNew(paths, path.Join(d, p))
		}
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
func (s *splitter) pathSubjects(t target, value, text, unseen string, in where) {
	if unseen != "" {
		s.add(t.field, value, text, unseen, false, t.tool)
		return
	}
	paths, why := in.paths(value)
	for _, p := range paths {
		if deviceFiles[p] {
			continue
		}
		if why == "" && s.throughLink(p) {
			s.add(t.field, p, text, "the path "+p+" is a link an earlier command made, which may point anywhere", false, t.tool)
			continue
		}
		s.add(t.field, p, text, why, false, t.tool)
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
