package claudecode

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A shell command given an unquoted glob, "cat .en?", reads whatever
// files the shell matches when it runs, which no rule can see: the
// command asks. When the glob can match a path a deny or ask rule names,
// it is refused or asked about under that rule instead, whatever the disk
// holds, since the file may be there when it runs (issue 29 §9). The same
// holds for a relative path under a directory known only when it runs,
// "/**/id_rsa" (issue 30 §7), and for the files an include filter of a
// recursive reader selects (trees.go). Whether a glob can match a rule's
// path is decided between the two patterns, never against files.

// Tools a glob operand of a shell command is decided under, as a
// constraint beside the operand's own subject: the Read rules reach
// globReadTool and the Edit rules globEditTool ([Settings.Aliases]). Their
// matcher asks whether the glob and a rule's pattern can match one path,
// which is only right for a rule that refuses, so a subject of these tools
// is always a constraint, read by the deny and ask lists alone.
const (
	globReadTool = "Read.glob"
	globEditTool = "Edit.glob"
)

// meets reports whether some path the shell glob could match, an
// absolute path already folded as the rules are, is one the pattern
// matches, or lies under one it matches. A "*", "?" or "[...]" of the glob
// stays within one segment, as bash matches it; a "**" segment crosses
// segments, as bash's globstar may make it. A leading dot is matched like
// any other character, since dotglob may be set. Where two segments both
// hold wildcards and their fixed ends agree, they are taken to meet: a
// "maybe" is a match, which only a deny or ask rule reads; so is a
// segment doublestar cannot read ("["). The pattern's exceptions are not
// read, for the same reason.
func (g *glob) meets(baseDir, glob string) bool {
	return g.meetsFrom(baseDir, segments(glob), 0)
}

// meetsFrom is meets for a glob of which the rule's path must take at
// least the first least segments: what the rule matches may lie under a
// path it names only past them. A glob naming files alone, never a
// directory above them, has least its length; one whose first segment,
// "**", stands for a directory known only when it runs has least 2, so
// a rule is met by what was written after it, not by the unknown
// directory alone.
func (g *glob) meetsFrom(baseDir string, glob []string, least int) bool {
	if g.pattern == "" {
		return false
	}
	rule := append(literalSegments(baseDir), strings.Split(g.self, "/")...)
	return segmentsMeet(glob, rule, least)
}

// selects reports whether a glob naming files alone, an include filter's
// "src/**/*.go", selects a file the pattern names by its own name: the
// glob meets the pattern without the "**" it ends in, which would match
// any file under a directory it names, "*.go" in "secrets/**". A file it
// reaches only that way lies in a tree a recursive read asks about.
func (g *glob) selects(baseDir string, glob []string) bool {
	if g.pattern == "" {
		return false
	}
	named := strings.TrimSuffix(strings.TrimSuffix(g.self, "**"), "/")
	rule := append(literalSegments(baseDir), segments("/"+named)...)
	return segmentsMeet(glob, rule, len(glob))
}

// segments splits an absolute path into its segments; "/" has none.
func segments(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// literalSegments splits a directory into segments, each escaped so that
// a pattern reads it as the text it is.
func literalSegments(dir string) []string {
	parts := segments(dir)
	for i, s := range parts {
		var b strings.Builder
		for _, c := range []byte(s) {
			if strings.IndexByte(`*?[]\{}`, c) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		parts[i] = b.String()
	}
	return parts
}

// segmentsMeet reports whether the glob's segments, or the first least
// or more of them, and the rule's can match one path, a "**" in either
// matching any number of segments: the glob's segments past the rule's
// are a path under one the rule names. Each pair of positions is tried
// once, so the time is the product of the two lengths whatever the stars.
func segmentsMeet(glob, rule []string, least int) bool {
	width := len(rule) + 1
	memo := make([]int8, (len(glob)+1)*width)
	var meet func(i, j int) bool
	meet = func(i, j int) bool {
		cell := &memo[i*width+j]
		if *cell != 0 {
			return *cell > 0
		}
		ok := j == len(rule) && i >= least ||
			j < len(rule) && rule[j] == "**" && (meet(i, j+1) || i < len(glob) && meet(i+1, j)) ||
			i < len(glob) && glob[i] == "**" && (meet(i+1, j) || j < len(rule) && meet(i, j+1)) ||
			i < len(glob) && j < len(rule) && segmentMeets(glob[i], rule[j]) && meet(i+1, j+1)
		*cell = -1
		if ok {
			*cell = 1
		}
		return ok
	}
	return meet(0, 0)
}

// segmentMeets reports whether a segment of the glob and one of the rule
// can match one name. When either is literal text the other is matched
// against it; when both hold wildcards, they meet unless the text before
// their first wildcard, or after their last, disagrees.
func segmentMeets(glob, rule string) bool {
	switch {
	case !strings.ContainsAny(glob, "*?["):
		ok, err := doublestar.Match(rule, glob)
		return ok || err != nil
	case !strings.ContainsAny(rule, `*?[\`):
		ok, err := doublestar.Match(glob, rule)
		return ok || err != nil
	}
	gHead, gTail := fixedEnds(glob)
	rHead, rTail := fixedEnds(rule)
	return (strings.HasPrefix(gHead, rHead) || strings.HasPrefix(rHead, gHead)) &&
		(strings.HasSuffix(gTail, rTail) || strings.HasSuffix(rTail, gTail))
}

// fixedEnds returns the text of a segment before its first wildcard or
// escape and after its last, which every name it matches begins and ends
// with.
func fixedEnds(s string) (head, tail string) {
	head = s[:strings.IndexAny(s, `*?[]\`)]
	tail = s[strings.LastIndexAny(s, `*?[]\`)+1:]
	return head, tail
}
