package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// treeSubject is the constraint subject of a tree a recursive reader
// reads ([WithTreeTool]).
func treeSubject(field, dir, text, tool string, t *tree) agentpolicy.Subject {
	b := make([]byte, 0, len(field)+len(dir)+32)
	b = append(b, '{')
	b = appendString(b, field)
	b = append(b, ':')
	b = appendString(b, dir)
	for _, m := range []struct {
		name  string
		globs []string
	}{{"exclude", t.exclude}, {"iexclude", t.iexclude}} {
		if len(m.globs) > 0 {
			b = append(b, ',')
			b = appendString(b, m.name)
			b = append(b, ':')
			b = appendString(b, strings.Join(m.globs, "/"))
		}
	}
	b = append(b, '}')
	return agentpolicy.Subject{Args: b, Tool: tool, Text: text, Constrain: true}
}

// patternSubject is the constraint subject of a pattern whose member
// "match" says how its rules are to meet it: "files" when the pattern
// names files alone, never a directory a rule may name above them (an
// include filter's "src/**/*.go"), "anywhere" when its leading "/**" is a
// directory known only when it runs, which a rule must not be met in
// alone ([WithPatternTool]).
func patternSubject(field, value, text, tool, match string) agentpolicy.Subject {
	b := make([]byte, 0, len(field)+len(value)+32)
	b = append(b, '{')
	b = appendString(b, field)
	b = append(b, ':')
	b = appendString(b, value)
	b = append(b, `,"match":`...)
	b = appendString(b, match)
	b = append(b, '}')
	return agentpolicy.Subject{Args: b, Tool: tool, Text: text, Constrain: true}
}

// recursive is a reader that reads whole trees when one of the options
// flags is given (always, for none): grep -r, rg. With no operand it
// reads the working directory, which is then a subject of its own. Each
// tree it reads is marked with what its filters leave in ([treeOf]). An
// include filter naming a file, with no glob in it ("--include=.env"),
// selects that name in every directory it reads: the name in each tree's
// top directory is a subject too, so a rule that names it decides the
// call as it decides a read of the file.
func recursive(files fileOperands, flags []string, filters ...string) fileOperands {
	return func(p parsed) (reads, writes []word) {
		reads, writes = files(p)
		if len(flags) > 0 && !p.has(flags...) && !recurses(p) || p.has("files", "type-list") {
			// rg --files and --type-list list names, reading no file.
			return reads, writes
		}
		if len(reads) == 0 && !p.has("files", "type-list") {
			reads = []word{{value: ".", literal: true}}
		}
		trees := asTrees(reads, treeOf(p, filters))
		reads = trees
		for _, g := range p.options {
			if !slices.Contains(filters, g.name) || !g.hasValue || !g.value.literal || strings.ContainsAny(g.value.value, "*?[!{") {
				continue
			}
			for _, tree := range trees {
				named := g.value
				named.value = path.Join(tree.value, g.value.value)
				named.literal = tree.literal && g.value.literal
				reads = append(reads, named)
			}
		}
		return reads, writes
	}
}

// recursiveWrites is a command that changes whole trees when one of
// the options flags is given (rm -r, chmod -R): each directory it writes
// is a tree, every path under it removed or changed.
func recursiveWrites(files fileOperands, flags ...string) fileOperands {
	return func(p parsed) (reads, writes []word) {
		reads, writes = files(p)
		if p.has(flags...) {
			writes = asTrees(writes, &tree{})
		}
		return reads, writes
	}
}

// recurses reports whether grep's -d or --directories says to recurse,
// "-d recurse" as "-r": a value recurse begins with (grep takes an
// unambiguous abbreviation) or one known only when it runs.
func recurses(p parsed) bool {
	for _, g := range p.options {
		if (g.name == "d" || g.name == "directories") && g.hasValue &&
			(!g.value.literal || g.value.value != "" && strings.HasPrefix("recurse", g.value.value)) {
			return true
		}
	}
	return false
}

// asTrees is words marked as trees read whole, with the filters t.
func asTrees(words []word, t *tree) []word {
	out := slices.Clone(words)
	for i := range out {
		out[i].tree = t
	}
	return out
}

// treeOf reads a recursive reader's filters: the options named filters
// select files by a base-name glob ("--include=*.go", "-g '*.go'"), or,
// for one beginning with "!" other than grep's --include, leave them and
// directories of that name out ("-g '!.env'"); grep's --exclude and
// --exclude-dir leave out files and directories, so a glob leaves both
// out only when both name it. A filter the splitter cannot read as a
// base name, one with a "/", braces or an expansion, selects files it
// cannot say: the tree is then read whole, and excludes nothing.
func treeOf(p parsed, filters []string) *tree {
	t := &tree{}
	var files, dirs []string
	included, whole := false, false
	fold := p.has("glob-case-insensitive")
	for _, g := range p.options {
		if !g.hasValue {
			continue
		}
		v := g.value.value
		simple := g.value.literal && !g.value.tilde && v != "" && !strings.ContainsAny(v, "/{}")
		switch {
		case g.name == "exclude" && simple:
			files = append(files, v)
		case g.name == "exclude-dir" && simple:
			dirs = append(dirs, v)
		case !slices.Contains(filters, g.name):
		case g.name != "include" && strings.HasPrefix(v, "!"):
			switch {
			case !simple || len(v) == 1:
			case g.name == "iglob" || fold:
				t.iexclude = append(t.iexclude, v[1:])
			default:
				t.exclude = append(t.exclude, v[1:])
			}
		case simple:
			included = true
			t.include = append(t.include, v)
		default:
			included, whole = true, true
		}
	}
	for _, f := range files {
		if slices.Contains(dirs, f) {
			t.exclude = append(t.exclude, f)
		}
	}
	if !included || whole {
		t.include = nil
	}
	return t
}
