package claudecode

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/bmatcuk/doublestar/v4"
)

// A recursive reader, "grep -r x src" or "rg x", reads every file under a
// directory, which no rule can list. Its read of the directory itself is
// an ordinary Read subject; the tree is also decided as the pattern
// "src/**", beside it, under treeTool (issue 29 §6). A Read deny or ask
// rule whose pattern can name a path under the tree makes the call ask,
// naming the rule, unless the command's own exclusions leave out every
// path the rule can name; a tree no such rule reaches stays read-only.
// Whether a tree holds a path a rule names is decided between the
// patterns, never against the disk. A tree read through include filters
// is decided as the globs it reads ("src/**/*.go"), under the Read rules
// themselves: an include that selects a denied file is denied.

// treeTool is the tool a tree a shell command reads whole is decided
// under. Its rules are asked rules only: [Settings.Policy] writes, beside
// every Read rule of a deny or an ask list, a treeTool rule of the same
// pattern in the ask list (treeRules), so a deny rule for a file in the
// tree asks about the tree rather than refusing a search that may well
// not read it.
const treeTool = "Read.tree"

// writeTreeTool is the tool a tree a shell command changes whole ("rm -rf
// .", "chmod -R 777 src") is decided under: the Edit rules reach it
// ([Settings.Aliases]), so a deny of Edit(./src/**) refuses "rm -rf .",
// which removes src with the rest. A rule meets such a tree only when the
// directory its pattern begins with lies in it: a rule read at any depth,
// Claude Code's protected paths among them, would otherwise meet every
// tree, and "rm -rf build" would ask wherever a rule names a src.
const writeTreeTool = "Edit.tree"

// treeRules are the treeTool rules, asked, for the Read rules of a deny
// and an ask list.
func treeRules(lists ...[]agentpolicy.Rule) []agentpolicy.Rule {
	var out []agentpolicy.Rule
	for _, list := range lists {
		for _, r := range list {
			if r.Tool == "Read" && r.Spec != "" && !isParameter("Read", r.Spec) {
				out = append(out, agentpolicy.Rule{Tool: treeTool, Spec: r.Spec, Source: r.Source, Note: r.Note})
			}
		}
	}
	return out
}

// meetsGlob reports whether the glob the arguments name, an absolute
// folded path, and the pattern can match one path, read as the member
// "match" says ([shell.WithPatternTool]).
func (m *pathMatcher) meetsGlob(pp *pathPattern, glob string, args json.RawMessage) bool {
	parts := segments(glob)
	switch match, _, _ := agentpolicy.Field(args, "match"); match {
	case "files":
		return pp.glob.selects(m.byText.dirs[pp.base], parts)
	case "anywhere":
		return pp.glob.meetsFrom(m.byText.dirs[pp.base], parts, 2)
	}
	return pp.glob.meetsFrom(m.byText.dirs[pp.base], parts, 0)
}

// meetsTree reports whether the tree the arguments name, an absolute
// folded directory, holds a path the pattern can match that its
// exclusions do not provably leave out.
func (m *pathMatcher) meetsTree(pp *pathPattern, dir string, args json.RawMessage) bool {
	baseDir := m.byText.dirs[pp.base]
	// The cheaper test first: a tree changed whole must hold the
	// directory the pattern begins with.
	if m.anchoredTrees && !holds(segments(dir), append(segments(baseDir), literalHead(pp.glob.self)...)) {
		return false
	}
	if !pp.glob.meets(baseDir, strings.TrimSuffix(dir, "/")+"/**") {
		return false
	}
	exclude, _, _ := agentpolicy.Field(args, "exclude")
	iexclude, _, _ := agentpolicy.Field(args, "iexclude")
	return !excludes(pp.pattern, exclude, iexclude, m.paths.FoldCase)
}

// literalHead is the segments a pattern begins with before its first
// wildcard: "src" of "src/**/*.go", none of "**/.env".
func literalHead(pattern string) []string {
	var head []string
	for _, part := range segments(pattern) {
		if strings.ContainsAny(part, `*?[\{`) {
			break
		}
		head = append(head, part)
	}
	return head
}

// holds reports whether the directory tree holds the path, both split
// into segments: "rm -rf ." holds src/**, "rm -rf build" does not hold
// the src directories a rule read at any depth may name under it, which
// a tree change is not held to (a build tree is no place a rule for src
// means).
func holds(tree, path []string) bool {
	return len(path) >= len(tree) && slices.Equal(tree, path[:len(tree)])
}

// excludes reports whether base-name exclusions, each leaving out the
// files and the directories whose names match it (those of iexclude
// whatever their case), leave out every path the pattern matches under a
// tree the pattern does not match itself. Every such path has a segment
// below the tree that the pattern's last segment other than "**" matched,
// so an exclusion that matches every name that segment can match leaves
// them all out. A segment with wildcards is known to be left out only by
// the same glob; with foldCase, where the pattern also names the name in
// any case, a case-sensitive exclusion must match every case of it.
func excludes(pattern, exclude, iexclude string, foldCase bool) bool {
	if exclude == "" && iexclude == "" {
		return false
	}
	parts := strings.Split(pattern, "/")
	last := ""
	for i := len(parts) - 1; i >= 0 && last == ""; i-- {
		if parts[i] != "**" {
			last = parts[i]
		}
	}
	if last == "" {
		return false
	}
	wild := strings.ContainsAny(last, `*?[\`)
	for _, e := range splitGlobs(iexclude) {
		if wild && strings.EqualFold(e, last) || !wild && matchGlob(strings.ToLower(e), strings.ToLower(last)) {
			return true
		}
	}
	for _, e := range splitGlobs(exclude) {
		switch {
		case wild:
			if e == last && !foldCase {
				return true
			}
		case !foldCase:
			if matchGlob(e, last) {
				return true
			}
		case everyCase(e, last):
			return true
		}
	}
	return false
}

// splitGlobs splits the "/"-joined globs of an exclusion member.
func splitGlobs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "/")
}

// matchGlob reports whether a base-name glob matches a name; a glob
// doublestar cannot read matches nothing.
func matchGlob(glob, name string) bool {
	ok, err := doublestar.Match(glob, name)
	return ok && err == nil
}

// maxCaseLetters bounds the letters of a name whose every case is tried.
const maxCaseLetters = 10

// everyCase reports whether a case-sensitive glob matches the name in
// every mix of upper and lower case its letters can take.
func everyCase(glob, name string) bool {
	var letters []int
	for i := 0; i < len(name); i++ {
		if c := name[i] | 0x20; c >= 'a' && c <= 'z' {
			letters = append(letters, i)
		}
	}
	if len(letters) > maxCaseLetters {
		return false
	}
	b := []byte(name)
	for mask := 0; mask < 1<<len(letters); mask++ {
		for j, i := range letters {
			b[i] = name[i] | 0x20
			if mask&(1<<j) != 0 {
				b[i] &^= 0x20
			}
		}
		if !matchGlob(glob, string(b)) {
			return false
		}
	}
	return true
}
