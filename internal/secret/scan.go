package secret

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// matcher finds the matches of a list of regular expressions in a text, left
// to right and without overlap: at each step the match that starts first,
// the earlier expression winning where several start at the same byte, and
// the next step starting where it ended. Empty matches are never reported.
//
// Running every expression over a window's worth of text is slow, and a
// secret or a denied phrase is rare and begins with a literal ("AKIA",
// "ghp_", "-----BEGIN"). So for an expression whose matches all begin with
// one of a few literals, read off its syntax, the matcher first finds where
// the literals are (literalStarts) and runs the expression only from there;
// over text without one it runs no expression at all. An expression
// without such literals is run over all of the text.
//
// A literal is looked for by one of its bytes, its trigger: where the byte
// is found, the literal may begin as many bytes before as the trigger sits
// in it, which a few tests of the text there decide. The triggers are few
// and rare: a greedy set cover (triggerBytes) picks bytes until every
// literal holds one, by how often a byte occurs in typical text and code
// (commonBytes). One of two scanners then reads the text; both find the
// same literals.
//
//   - pairStarts, on a processor with AVX2, reads the text once, 32 bytes at
//     a time, as pairs of adjacent bytes, looking each pair up in nibble
//     tables (pairTables). A literal is looked for by a pair it holds, a
//     picked byte and the byte before it, the rarest such pair it has
//     (rarestPair): a pair is far rarer than its byte, and so are the places
//     that need a test.
//   - byteStarts, elsewhere, makes a pass of strings.IndexByte per picked
//     byte, a block of the text at a time, and a literal is looked for by
//     the rarest picked byte it holds.
//
// Each expression is searched for on its own: one whose matches are short
// (window) tried anchored at each of its literals, over no more text than a
// match can hold; any other tried anchored at a few of its literals, then
// searched for unanchored (see search). So the regexp package's
// linear-time guarantee holds per expression: many literals in one long run
// of text cost a few passes over it, not one pass each.
type matcher struct {
	// exprs are the expressions. One given as a source (sourceExpr) is
	// compiled the first time a search runs it unanchored, or a match's
	// test reads its groups, so that [Default] compiles nothing at all
	// for a text that holds none of its literals.
	exprs []expr
	// local reports that no expression has an assertion (^ $ \A \z \b
	// \B), so each matches a text's substring wherever it lies: a match
	// in the substring is one in the whole text.
	local bool
	// prefixed reports, per expression, whether it is reached through
	// triggers.
	prefixed []bool
	// anchored holds, per prefixed expression, the expression anchored at
	// the start of the text it is run over, tried at each literal. Each is
	// compiled the first time a literal of its kind is found: a finder
	// used for one short text (a hook's one call) compiles none of the
	// kinds that text does not reach.
	anchored []func() *regexp.Regexp
	// windows holds, per prefixed expression whose matches are short
	// (maxWindow), the bytes an anchored try reads, and 0 for the others.
	windows []int
	// triggers maps a byte to the literals it is the trigger of, grouped
	// by where in them it sits.
	triggers [256][]triggerGroup
	// before holds, per byte with triggers, the bytes its literals hold
	// just before it, every byte when one of them begins with it: where
	// the byte is found after any other, no literal holds it there, which
	// one test decides before the groups are read.
	before [256]byteSet
	// bytes are the bytes with triggers, each once.
	bytes []byte
	// pairs is what pairStarts looks for the bytes with, nil where
	// byteStarts looks for them instead.
	pairs *pairScanner
	// keeps holds, per expression, the test a match must pass to be
	// reported; nil, or a nil test, keeps every match.
	keeps []func(match string) bool
}

// trigger is a literal that begins every match of an expression.
type trigger struct {
	pattern int
	prefix  string
}

// triggerGroup is the literals a byte is looked for on behalf of that hold
// it at the same offset, and the sets of their first and second bytes:
// where the byte is found, the text at that offset before it must begin
// with one of the first and one of the second for any literal of the group
// to begin there, which two tests of a set decide for the group, however
// many literals it has. A literal of one byte adds every byte to seconds.
// befores are the bytes the literals hold just before the byte, at an
// offset past 0.
type triggerGroup struct {
	offset                   int
	firsts, seconds, befores byteSet
	triggers                 []trigger
}

// byteSet is a set of bytes.
type byteSet [4]uint64

// allBytes is the set of every byte.
var allBytes = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) remove(b byte)   { s[b>>6] &^= 1 << (b & 63) }

// span is a match: its bounds in the text and the index of its expression.
type span struct {
	start, end, pattern int
}

// commonBytes orders the printable bytes from the most to the least
// frequent, as measured over 11 MB of what an agent's window holds: Go and
// Python sources, Markdown and JSON, a quarter each; a byte not listed (one
// of less than one in ten thousand, a control byte, a byte of UTF-8) is
// rarer than every byte listed. byteShare reads a frequency off the order.
const commonBytes = " etioasrn\nlc\"dpu,hmf.g:/0\tby)(-xv'_12wk=S{}34TCE[]A86`IR5P9N7#*OLDFMG\\|BUqVWHzj+<>%!&;KXY?Z$^~J@Q"

// The cost model that picks the bytes looked for on the literals' behalf,
// in shares of the text's bytes. A byte at rank r of commonBytes is taken to
// be topShare·decay^r of the text, which is within a factor of two of the
// measured share from "e" (6.6%) to "Q" (0.013%), and a byte not listed
// rareShare. Each byte found costs a restart of the search and a check;
// each byte looked for costs a pass over the text besides, which the
// literals that hold the byte share. A pass costs what passShare of the
// text's bytes found does: measured over a MiB of prose, a pass of
// strings.IndexByte reads it in about 60 µs and each byte found costs
// about 30 ns more, so a byte found in one of 500 doubles the pass's cost.
// That is byteStarts' cost; pairStarts makes one pass whatever the bytes,
// but a byte takes a bucket of its tables, of which there are sixteen, and
// the model's pass stands for that.
const (
	topShare  = 0.045
	decay     = 0.947
	rareShare = 1e-5
	passShare = 2e-3
)

// byteShare is the share of a text's bytes that are b, as the cost model
// takes it.
func byteShare(b byte) float64 { return shares()[b] }

// shares is byteShare of every byte, worked out on first use: the cost
// model reads it thousands of times while it builds a finder.
func shares() *[256]float64 {
	byteShares.once.Do(func() {
		for c := range byteShares.of {
			byteShares.of[c] = rareShare
			if rank := strings.IndexByte(commonBytes, byte(c)); rank >= 0 {
				byteShares.of[c] = topShare * math.Pow(decay, float64(rank))
			}
		}
	})
	return &byteShares.of
}

// byteShares holds byteShare of each byte, worked out on first use.
var byteShares struct {
	once sync.Once
	of   [256]float64
}

// expr is an expression to match: its source, which the matcher reads
// its literals off, and the expression compiled, which compiled returns,
// compiling it at most once.
type expr struct {
	src      string
	compiled func() *regexp.Regexp
}

// compiledExprs is res as expressions compiled already.
func compiledExprs(res []*regexp.Regexp) []expr {
	exprs := make([]expr, len(res))
	for i, re := range res {
		exprs[i] = expr{src: re.String(), compiled: func() *regexp.Regexp { return re }}
	}
	return exprs
}

// sourceExpr is the expression of src, compiled the first time it is
// needed. src must compile.
func sourceExpr(src string) expr {
	return expr{src: src, compiled: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })}
}

// newMatcher readies res for matching.
func newMatcher(res []*regexp.Regexp) *matcher {
	return newMatcherFor(compiledExprs(res), haveVectors(), nil)
}

// plan is what newMatcherFor works out for its expressions before it
// files their literals: readSyntax of each, the bytes triggerBytes picks
// among their literals, and for pairStarts the tables newPairTables builds
// (nil when it is to build them). kindsPlan is the default kinds', worked
// out when kinds_plan.go was generated, so that a process building
// [Default] parses no expression and runs no cost model.
type plan struct {
	facts    []syntaxFacts
	triggers byteSet
	tables   *pairTables
}

// planFor works out the plan of exprs, but for its tables.
func planFor(exprs []expr) *plan {
	p := &plan{facts: make([]syntaxFacts, len(exprs))}
	var all []string
	for i, e := range exprs {
		p.facts[i] = readSyntax(e.src)
		all = append(all, p.facts[i].prefixes...)
	}
	p.triggers = triggerBytes(all)
	return p
}

// newMatcherFor is newMatcher with the scanner chosen: pairStarts when
// pairs, else byteStarts, and with exprs' plan when p is not nil. Both
// scanners look for the bytes triggerBytes picks; byteStarts looks for a
// literal by the rarest of them it holds (rarestByte), pairStarts by the
// rarest pair one of them ends (rarestPair).
func newMatcherFor(exprs []expr, pairs bool, p *plan) *matcher {
	if p == nil {
		p = planFor(exprs)
	}
	m := &matcher{exprs: exprs, prefixed: make([]bool, len(exprs)), anchored: make([]func() *regexp.Regexp, len(exprs)), windows: make([]int, len(exprs)), local: true}
	for _, f := range p.facts {
		m.local = m.local && !f.assertion
	}
	lookFor := func(literal string) int { return rarestByte(literal, &p.triggers) }
	if pairs {
		lookFor = func(literal string) int { return rarestPair(literal, &p.triggers) }
	}
	for i, e := range exprs {
		f := p.facts[i]
		if f.prefixes == nil {
			continue
		}
		m.prefixed[i] = true
		m.anchored[i] = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:` + e.src + `)`) })
		m.windows[i] = f.window
		for _, prefix := range f.prefixes {
			off := lookFor(prefix)
			b := prefix[off]
			if m.triggers[b] == nil {
				m.bytes = append(m.bytes, b)
			}
			m.addTrigger(b, off, trigger{pattern: i, prefix: prefix})
		}
	}
	if pairs && m.bytes != nil {
		m.pairs = newPairScanner(m, p.tables)
	}
	return m
}

// triggerBytes picks the bytes to look for so that each literal holds one
// of them, at the least cost: each byte picked costs passShare plus its
// share of the text (byteShare). It is the greedy answer to that set
// cover: it picks, while a literal holds none of the picked bytes, the
// byte whose cost is least per literal it newly covers; then it drops,
// the most frequent first, each picked byte that every literal holding it
// holds another picked byte besides.
func triggerBytes(literals []string) (chosen byteSet) {
	var order []byte
	covered := make([]bool, len(literals))
	for left := len(literals); left > 0; {
		var holds [256]int
		for i, p := range literals {
			if covered[i] {
				continue
			}
			var seen byteSet
			for j := 0; j < len(p); j++ {
				if !seen.has(p[j]) {
					seen.add(p[j])
					holds[p[j]]++
				}
			}
		}
		best, bestCost := 0, math.Inf(1)
		for b, n := range holds {
			if c := (passShare + byteShare(byte(b))) / float64(n); n > 0 && c < bestCost {
				best, bestCost = b, c
			}
		}
		chosen.add(byte(best))
		order = append(order, byte(best))
		for i, p := range literals {
			if !covered[i] && strings.IndexByte(p, byte(best)) >= 0 {
				covered[i] = true
				left--
			}
		}
	}
	slices.SortStableFunc(order, func(a, b byte) int { return cmp.Compare(byteShare(b), byteShare(a)) })
	for _, b := range order {
		chosen.remove(b)
		if !slices.ContainsFunc(literals, func(p string) bool { return !holdsAny(p, &chosen) }) {
			continue
		}
		chosen.add(b)
	}
	return chosen
}

// holdsAny reports whether literal holds a byte of set.
func holdsAny(literal string, set *byteSet) bool {
	for i := 0; i < len(literal); i++ {
		if set.has(literal[i]) {
			return true
		}
	}
	return false
}

// addTrigger files t under byte b at offset off.
func (m *matcher) addTrigger(b byte, off int, t trigger) {
	groups := m.triggers[b]
	i := slices.IndexFunc(groups, func(g triggerGroup) bool { return g.offset == off })
	if i < 0 {
		groups = append(groups, triggerGroup{offset: off})
		i = len(groups) - 1
	}
	g := &groups[i]
	g.firsts.add(t.prefix[0])
	if len(t.prefix) > 1 {
		g.seconds.add(t.prefix[1])
	} else {
		g.seconds = allBytes
	}
	if off > 0 {
		g.befores.add(t.prefix[off-1])
	}
	g.triggers = append(g.triggers, t)
	m.triggers[b] = groups
	if off == 0 {
		m.before[b] = allBytes
	} else {
		m.before[b].add(t.prefix[off-1])
	}
}

// keep makes the matcher report a match of expression q only when ok
// accepts it; a match it rejects is passed over whole (see match).
func (m *matcher) keep(q int, ok func(match string) bool) {
	if m.keeps == nil {
		m.keeps = make([]func(string) bool, len(m.exprs))
	}
	m.keeps[q] = ok
}

// rarestByte is the offset in literal of its rarest byte among chosen
// (byteShare); the first of equals.
func rarestByte(literal string, chosen *byteSet) int {
	best, bestShare := -1, math.Inf(1)
	for i := 0; i < len(literal); i++ {
		if s := byteShare(literal[i]); chosen.has(literal[i]) && s < bestShare {
			best, bestShare = i, s
		}
	}
	return best
}

// each calls fn with the matches in text, in order, until fn returns false.
//
// It first finds where the literals of the prefixed expressions are, then
// keeps for each expression its next match at or after the end of the last
// one reported, searched for from the first of its literals there (from that
// end for an expression without literals), and reports the leftmost.
func (m *matcher) each(text string, fn func(span) bool) {
	starts := m.literalStarts(text)
	// next holds, in the order of the expressions, those that may match:
	// a prefixed expression whose literals the text lacks has no place.
	var nextBuf [16]span
	next := nextBuf[:0]
	for q := range m.exprs {
		if !m.prefixed[q] || starts != nil && len(starts[q]) > 0 {
			next = append(next, span{start: unsearched, pattern: q})
		}
	}
	pos := 0
	for {
		best := -1
		for i, n := range next {
			if n.start == unsearched || n.start >= 0 && n.start < pos {
				next[i] = m.search(text, pos, n.pattern, &starts)
			}
			if n = next[i]; n.start >= 0 && (best < 0 || n.start < next[best].start) {
				best = i
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
// It finds them with one of two scanners, which find the same offsets: one
// pass over the text on AVX2 where the processor has it (pairStarts), else
// a pass of strings.IndexByte per byte looked for (byteStarts).
func (m *matcher) literalStarts(text string) [][]int {
	var starts [][]int
	if m.pairs != nil {
		starts = m.pairStarts(text)
	} else {
		starts = m.byteStarts(text)
	}
	for _, s := range starts {
		slices.Sort(s)
	}
	return starts
}

// byteStarts is literalStarts' portable scanner. It reads the text a block
// at a time, looking in the block for each byte in turn while the block is
// in the processor's cache, so the text is read from memory once however
// many bytes the literals need. The offsets it returns are not sorted.
func (m *matcher) byteStarts(text string) [][]int {
	var starts [][]int
	for lo := 0; lo < len(text); lo += scanBlock {
		block := text[:min(lo+scanBlock, len(text))]
		for _, b := range m.bytes {
			for at := indexFrom(block, lo, b); at < len(block); at = indexFrom(block, at+1, b) {
				if at == 0 || m.before[b].has(text[at-1]) {
					starts = m.addStarts(starts, text, at, m.triggers[b])
				}
			}
		}
	}
	return starts
}

// scanBlock is the bytes literalStarts reads at a time: well within a
// core's first-level data cache.
const scanBlock = 16 << 10

// addStarts adds to starts the literals of groups that begin in text so
// that their byte sits at at.
func (m *matcher) addStarts(starts [][]int, text string, at int, groups []triggerGroup) [][]int {
	for gi := range groups {
		g := &groups[gi]
		start := at - g.offset
		if start < 0 || !g.firsts.has(text[start]) || start+1 < len(text) && !g.seconds.has(text[start+1]) {
			continue
		}
		for _, t := range g.triggers {
			if text[start] != t.prefix[0] || !strings.HasPrefix(text[start:], t.prefix) {
				continue
			}
			if starts == nil {
				starts = make([][]int, len(m.exprs))
			}
			starts[t.pattern] = append(starts[t.pattern], start)
		}
	}
	return starts
}

// search is the next match of expression q at or after pos, with start and
// end -1 when there is none. An expression with literals is tried,
// anchored, at each of its literals at or after pos: over its window when
// it has one, else, after maxAnchored misses, searched for from the next
// literal on. One without literals is searched for from pos.
func (m *matcher) search(text string, pos, q int, starts *[][]int) span {
	if !m.prefixed[q] {
		return m.match(text, pos, q)
	}
	s := (*starts)[q]
	defer func() { (*starts)[q] = s }()
	for tries := 0; ; tries++ {
		for len(s) > 0 && s[0] < pos {
			s = s[1:]
		}
		if len(s) == 0 {
			return none(q)
		}
		window := m.windows[q]
		if window == 0 && (tries == maxAnchored || len(s) > 1 && s[1]-s[0] < denseLiterals) {
			return m.match(text, s[0], q)
		}
		from := s[0]
		s = s[1:]
		until := len(text)
		if window > 0 {
			until = min(until, from+window)
		}
		loc := m.anchored[q]().FindStringIndex(text[from:until])
		if loc == nil || loc[1] == 0 {
			continue
		}
		end := from + loc[1]
		if m.keeps == nil || m.keeps[q] == nil || m.keeps[q](text[from:end]) {
			return span{start: from, end: end, pattern: q}
		}
		pos = end
	}
}

// maxWindow bounds the window of an expression tried only anchored: a
// search for an expression whose matches hold at most that many bytes tries
// it at each of its literals in turn, and never unanchored, since a try
// reads no more than its window however the literals lie. Over code, where
// literals such as "sc_" and "pat" are common and the expression has no
// literal prefix of its own for the regexp package to skip by, an
// unanchored search costs a step of its machine at every byte.
const maxWindow = 256

// maxAnchored bounds the literals one search tries the anchored expression
// at before it runs the expression once, unanchored, from the next literal
// on; and a search goes unanchored at once where the next two literals lie
// within denseLiterals bytes of each other. An anchored try costs what it
// reads, and where a literal is common and its token rare (a URL's
// "https://" in code) that is little, where an unanchored search reads on
// to the next match; but a try may read far before it fails (a long run of
// a token's characters without the rest of the token), and a run holding
// the literal over and over is where tries would read the same bytes again
// and again. The two bounds keep a search linear in the text.
const (
	maxAnchored   = 3
	denseLiterals = 64
)

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
		loc := m.exprs[q].compiled().FindStringIndex(text[from:])
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
