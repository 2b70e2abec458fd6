package shell

import (
	"path"
	"strings"
)

// A path the shell matches against files when it runs, a glob, and a
// relative path under a directory the splitter does not know are known
// only when the command runs: their file subjects ask. What they can
// name is still known as a pattern, "src/*.go" or "/**/id_rsa" (any
// directory, then id_rsa), which a product's rules can be held to without
// looking at a disk; so is a tree a recursive reader reads, "src/**".
// These options hand the patterns to the product as constraint subjects.

// WithPatternTool decides, beside each file subject of tool whose path is
// known only as a pattern, a constraint subject of patternTool with the
// pattern in the same member: an unquoted glob ("cat .en?", resolved
// against the directories the command may run in) and a relative path
// under a directory known only when it runs ("cd "$d" && cat id_rsa" is
// "/**/id_rsa", with the member "match" set to "anywhere": a rule must
// be met by the path as written, not by the unknown directory alone). Its
// matcher says whether the pattern and a rule's can name one path; being
// a constraint, only deny and ask rules read it. With it, a glob confined
// to the directory a read-only command runs in is read as a literal path
// there (globs.go).
func WithPatternTool(tool, patternTool string) Option {
	return func(c *config) {
		if c.patternTools == nil {
			c.patternTools = make(map[string]string)
		}
		c.patternTools[tool] = patternTool
	}
}

// WithTreeTool decides each directory a recursive reader reads whole
// ("grep -r x src", "rg x") as a constraint subject of tool, beside its
// ordinary read subject: the member of the read tool holds the
// directory, "exclude" the base-name globs, joined by "/", whose files
// and directories the command's own options leave out of the read, and
// "iexclude" those it leaves out whatever their case. A tree read through
// include filters ("grep -r --include='*.go'") is decided instead as the
// globs it reads, "src/**/*.go", under the read tool's pattern tool.
func WithTreeTool(tool string) Option {
	return func(c *config) { c.treeTool = tool }
}

// tree is what a recursive reader reads of a directory operand: every
// file under it but those its exclusions name, or, when include is set,
// only the files whose names match one of include.
type tree struct {
	include           []string
	exclude, iexclude []string
}

// WithWriteTreeTool decides each directory a command changes whole ("rm
// -r build", "chmod -R g+w src") as a constraint subject of tool, beside
// its ordinary write subject, in the form [WithTreeTool] gives a tree read
// whole: every path under the directory is removed or re-moded, so a rule
// for any of them reads the call.
func WithWriteTreeTool(tool string) Option {
	return func(c *config) { c.writeTreeTool = tool }
}

// patternSubjects adds the pattern constraints of a path a command reads
// or writes under t: its glob, or the trees it reads.
func (s *splitter) patternSubjects(t target, w word, text string, in where) {
	tool := s.patternTools[t.tool]
	treeTool := s.treeTool
	if t == s.write || t == s.operandWrite {
		treeTool = s.writeTreeTool
	}
	if w.tree != nil && treeTool != "" {
		s.treeSubjects(t, tool, treeTool, w, text, in)
		return
	}
	if tool == "" || !w.pattern || !w.literal || w.braces {
		return
	}
	if w.tilde {
		if strings.HasPrefix(w.value, "~/") {
			s.add(t.field, w.value, text, "", true, tool)
		}
		return
	}
	paths, why := in.paths(w.value)
	switch {
	case in.unknown != "" && why == in.unknown:
		s.anywhere(t, w, text)
	case why == "":
		for _, p := range paths {
			s.add(t.field, p, text, "", true, tool)
		}
	}
}

// treeSubjects adds the constraints, under treeTool, of the trees a
// recursive reader reads or a recursive writer changes at w: the tree
// itself, or the files its include filters select.
func (s *splitter) treeSubjects(t target, tool, treeTool string, w word, text string, in where) {
	for _, p := range knownPaths(w, in) {
		s.subjects = append(s.subjects, treeSubject(t.field, p, text, treeTool, w.tree))
		if w.tree.include == nil {
			continue
		}
		if tool == "" {
			continue
		}
		for _, inc := range w.tree.include {
			s.subjects = append(s.subjects, patternSubject(t.field, path.Join(p, "**", inc), text, tool, "files"))
		}
	}
}

// knownPaths are the paths a word names, resolved against in, when the
// splitter knows them: a literal path, or one made of a value known before
// the call runs ("~/x", "$HOME/x", "$PWD/x"); none otherwise.
func knownPaths(w word, in where) []string {
	if w.braces {
		return nil
	}
	if w.literal && !w.tilde {
		paths, why := in.paths(w.value)
		if why != "" {
			return nil
		}
		return paths
	}
	known, ok := in.resolve(w)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range known {
		if strings.HasPrefix(k, "~") {
			out = append(out, k)
			continue
		}
		paths, why := where{}.paths(k)
		if why != "" {
			return nil
		}
		out = append(out, paths...)
	}
	return out
}

// anywhere adds, under t's pattern tool, the pattern of a relative path
// under a directory known only when it runs: any directory, then the
// path, with the ".." that climb out of the unknown directory dropped,
// since its parent is as unknown. The directory itself, ".", is every
// path and left to ask.
//
// A word only guessed to be a file is no such path: under a rule naming
// a whole directory, which "/**/x" always meets, every word of "cd "$d"
// && npm test" or "docker run -v $PWD:/app" would be refused.
func (s *splitter) anywhere(t target, w word, text string) {
	tool := s.patternTools[t.tool]
	if tool == "" || s.guessing || !w.literal || w.tilde || w.braces || strings.HasPrefix(w.value, "/") {
		return
	}
	rel := path.Clean(w.value)
	for rel == ".." || strings.HasPrefix(rel, "../") {
		rel = strings.TrimPrefix(strings.TrimPrefix(rel, ".."), "/")
	}
	if rel == "" || rel == "." {
		return
	}
	if !w.pattern {
		rel = escapeGlob(rel)
	}
	s.subjects = append(s.subjects, patternSubject(t.field, "/**/"+rel, text, tool, "anywhere"))
}

// escapeGlob escapes the characters a pattern reads as wildcards, so a
// literal path is matched as the text it is.
func escapeGlob(p string) string {
	if !strings.ContainsAny(p, `*?[]\{}`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if strings.IndexByte(`*?[]\{}`, p[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
