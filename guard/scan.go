package guard

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// matcher finds the matches of a list of regular expressions in a text, left
// to right and without overlap: at each step the match that starts first,
// the earlier expression winning where several start at the same byte, and
// the next step starting where it ended. Empty matches are never reported.
//
// Running every expression over a window's worth of text is slow, and a
// secret or a denied phrase is rare and begins with a literal ("AKIA",
// "ghp_", "-----BEGIN"). So for an expression whose matches all begin with
// one of a few literals, read off its syntax, the matcher first looks for
// the rarest byte of each literal with strings.IndexByte, which scans many
// bytes at a time, and runs the expression only from where a literal is
// found; over text without one it runs no expression at all. An expression
// without such literals is run over all of the text.
//
// Each expression is searched for on its own, unanchored, so the regexp
// package's linear-time guarantee holds per expression: many literals in
// one long run of text cost one pass over it, not one pass each.
type matcher struct {
	res []*regexp.Regexp
	// local reports that no expression has an assertion (^ $ \A \z \b
	// \B), so each matches a text's substring wherever it lies: a match
	// in the substring is one in the whole text.
	local bool
	// prefixed reports, per expression, whether it is reached through
	// triggers.
	prefixed []bool
	// triggers maps a byte to the literals it is the rarest byte of.
	triggers [256][]trigger
	// bytes are the bytes with triggers, each once.
	bytes []byte
	// keeps holds, per expression, the test a match must pass to be
	// reported; nil, or a nil test, keeps every match.
	keeps []func(match string) bool
}

// trigger is a literal that begins every match of an expression, and where
// in it the byte the matcher looks for sits.
type trigger struct {
	pattern int
	prefix  string
	offset  int
}

// span is a match: its bounds in the text and the index of its expression.
type span struct {
	start, end, pattern int
}

// maxPrefixes bounds the literals read off one expression, so a class or a
// case-folded word does not multiply into thousands.
const maxPrefixes = 64

// maxClass bounds the characters of a class a literal may run through.
const maxClass = 16

// commonBytes orders bytes from the most to the least frequent in the
// prose, code and JSON a window holds; a byte not listed is rarer than every
// byte listed. Only the order matters: it picks which byte of a literal to
// look for.
const commonBytes = " etaoinsrhldcumfpgwybv\n,.\"'0123456789TAISONCRHLDPMBFWEGUYVkx-:/()=;_jqzKJXQZ{}[]<>"

func newMatcher(res []*regexp.Regexp) *matcher {
	m := &matcher{res: res, prefixed: make([]bool, len(res)), local: true}
	for i, re := range res {
		m.local = m.local && !hasAssertion(re.String())
		prefixes := literalPrefixes(re.String())
		if prefixes == nil {
			continue
		}
		m.prefixed[i] = true
		for _, p := range prefixes {
			off := rarestByte(p)
			b := p[off]
			if m.triggers[b] == nil {
				m.bytes = append(m.bytes, b)
			}
			m.triggers[b] = append(m.triggers[b], trigger{pattern: i, prefix: p, offset: off})
		}
	}
	return m
}

// keep makes the matcher report a match of expression q only when ok
// accepts it; a match it rejects is passed over whole (see match).
func (m *matcher) keep(q int, ok func(match string) bool) {
	if m.keeps == nil {
		m.keeps = make([]func(string) bool, len(m.res))
	}
	m.keeps[q] = ok
}

// rarestByte is the offset in literal of its least frequent byte, the first
// of equals.
func rarestByte(literal string) int {
	best, bestRank := 0, -1
	for i := 0; i < len(literal); i++ {
		rank := strings.IndexByte(commonBytes, literal[i])
		if rank < 0 {
			rank = len(commonBytes)
		}
		if rank > bestRank {
			best, bestRank = i, rank
		}
	}
	return best
}

// literalPrefixes returns literals one of which begins every match of the
// expression src, or nil when it has none: when a match may begin with any
// of too many strings, or with an assertion such as \b or ^ that a search
// started at the literal would misread.
func literalPrefixes(src string) []string {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	set, _ := prefixesOf(re)
	for _, p := range set {
		if p == "" {
			return nil
		}
	}
	return set
}

// hasAssertion reports whether the expression src holds an assertion,
// which reads the text around a match; true when src does not parse.
func hasAssertion(src string) bool {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		return slices.ContainsFunc(re.Sub, walk)
	}
	return walk(re)
}

// prefixesOf returns literals one of which begins every match of re, and
// whether they are whole matches, so that a concatenation may extend them
// with what follows.
func prefixesOf(re *syntax.Regexp) (set []string, whole bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		set = []string{""}
		for _, r := range re.Rune {
			runes := []rune{r}
			if re.Flags&syntax.FoldCase != 0 {
				runes = folds(r)
			}
			if len(set)*len(runes) > maxPrefixes {
				return set, false
			}
			set = join(set, runeStrings(runes))
		}
		return set, true
	case syntax.OpCharClass:
		var runes []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if len(runes)+int(re.Rune[i+1]-re.Rune[i])+1 > maxClass {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				runes = append(runes, r)
			}
		}
		return runeStrings(runes), true
	case syntax.OpCapture:
		return prefixesOf(re.Sub[0])
	case syntax.OpConcat:
		set = []string{""}
		for _, sub := range re.Sub {
			next, nextWhole := prefixesOf(sub)
			if next == nil || len(set)*len(next) > maxPrefixes {
				return set, false
			}
			set = join(set, next)
			if !nextWhole {
				return set, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		whole = true
		for _, sub := range re.Sub {
			next, nextWhole := prefixesOf(sub)
			if next == nil || len(set)+len(next) > maxPrefixes {
				return nil, false
			}
			set = append(set, next...)
			whole = whole && nextWhole
		}
		return set, whole
	}
	return nil, false
}

// folds is r with every rune it equals under simple case folding.
func folds(r rune) []rune {
	runes := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		runes = append(runes, f)
	}
	return runes
}

func runeStrings(runes []rune) []string {
	out := make([]string, len(runes))
	for i, r := range runes {
		out[i] = string(r)
	}
	return out
}

// join is every a followed by every b.
func join(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// each calls fn with the matches in text, in order, until fn returns false.
//
// It first finds where the literals of the prefixed expressions are, then
// keeps for each expression its next match at or after the end of the last
// one reported, searched for from the first of its literals there (from that
// end for an expression without literals), and reports the leftmost.
func (m *matcher) each(text string, fn func(span) bool) {
	starts := m.literalStarts(text)
	var nextBuf [16]span
	next := nextBuf[:0]
	for q := range m.res {
		n := span{start: unsearched, pattern: q}
		if m.prefixed[q] && (starts == nil || len(starts[q]) == 0) {
			n = none(q)
		}
		next = append(next, n)
	}
	pos := 0
	for {
		best := -1
		for q, n := range next {
			if n.start == unsearched || n.start >= 0 && n.start < pos {
				next[q] = m.search(text, pos, q, &starts)
			}
			if n = next[q]; n.start >= 0 && (best < 0 || n.start < next[best].start) {
				best = q
			}
		}
		if best < 0 || !fn(next[best]) {
			return
		}
		pos = next[best].end
	}
}

// unsearched is the start of an expression's next match before it is
// searched for.
const unsearched = -2

// none is the next match of expression q when it has none left.
func none(q int) span { return span{start: -1, end: -1, pattern: q} }

// literalStarts returns, per prefixed expression, the sorted offsets in
// text where one of its literals begins; nil when there are none at all.
func (m *matcher) literalStarts(text string) [][]int {
	var starts [][]int
	for _, b := range m.bytes {
		triggers := m.triggers[b]
		for at := indexFrom(text, 0, b); at < len(text); at = indexFrom(text, at+1, b) {
			for _, t := range triggers {
				start := at - t.offset
				if start < 0 || text[start] != t.prefix[0] || !strings.HasPrefix(text[start:], t.prefix) {
					continue
				}
				if starts == nil {
					starts = make([][]int, len(m.res))
				}
				starts[t.pattern] = append(starts[t.pattern], start)
			}
		}
	}
	for _, s := range starts {
		slices.Sort(s)
	}
	return starts
}

// search is the next match of expression q at or after pos: searched for
// from its first literal at or after pos when it has literals, with start
// and end -1 when there is none.
func (m *matcher) search(text string, pos, q int, starts *[][]int) span {
	from := pos
	if m.prefixed[q] {
		s := (*starts)[q]
		for len(s) > 0 && s[0] < pos {
			s = s[1:]
		}
		(*starts)[q] = s
		if len(s) == 0 {
			return none(q)
		}
		from = s[0]
	}
	return m.match(text, from, q)
}

// first returns the first match in text.
func (m *matcher) first(text string) (span, bool) {
	var found span
	ok := false
	m.each(text, func(s span) bool {
		found, ok = s, true
		return false
	})
	return found, ok
}

// match is the first non-empty match of expression q in text at or after
// from that its test, if any, keeps, with start and end -1 when there is
// none. A match the test rejects is passed over whole, the search going on
// from its end, so that a long run the expression matches and the test
// rejects costs one search and not one per byte.
func (m *matcher) match(text string, from, q int) span {
	for from <= len(text) {
		loc := m.res[q].FindStringIndex(text[from:])
		if loc == nil {
			break
		}
		start, end := from+loc[0], from+loc[1]
		if end == start {
			from = start + 1
			continue
		}
		if m.keeps == nil || m.keeps[q] == nil || m.keeps[q](text[start:end]) {
			return span{start: start, end: end, pattern: q}
		}
		from = end
	}
	return none(q)
}

// indexFrom is the index of the first b in text at or after from, or
// len(text).
func indexFrom(text string, from int, b byte) int {
	if i := strings.IndexByte(text[from:], b); i >= 0 {
		return from + i
	}
	return len(text)
}
