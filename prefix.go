package agentpolicy

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// The rules a decision tries. One list of one tool can hold thousands of
// rules, and trying each in turn would make a decision as slow as the
// largest list. A rule of a built-in matcher only matches a value that
// begins with the rule's literal prefix ([builtin.literal]), and a host's
// matcher given an [Index] says the same of its key, so the rules are filed
// under those prefixes and a decision finds, with one binary search,
// exactly the rules whose literal the value begins with; whatever cannot
// be filed is tried always. The rules found are tried in list order, so
// the first that fires is the one a scan of the whole list finds, each
// reading the subject's member or key read once ([reading]).

// reading is one subject as the rules of its tool read it: the member the
// tool's built-in matcher reads, or the key of its indexed matcher, is
// read once, on first need, however many rules are tried.
type reading struct {
	tool string
	args json.RawMessage
	// field is the member read, value its value; present is false when
	// the member is missing, not a string or ambiguous, which no
	// built-in matcher's specifier matches.
	field         string
	value         string
	read, present bool
	// index is the index whose key was read, key the key and keyed
	// whether there was one.
	index *Index
	key   string
	keyed bool
}

// member returns the value of the string member field, read as the
// built-in matchers read it, see [readField].
func (r *reading) member(field string) (string, bool) {
	if !r.read || r.field != field {
		value, ok, err := readField(r.args, field, true)
		r.field, r.value, r.present, r.read = field, value, ok && err == nil, true
	}
	return r.value, r.present
}

// keyOf returns the subject's key under the index, see [Index.Key].
func (r *reading) keyOf(ix *Index) (string, bool) {
	if r.index != ix {
		r.index = ix
		r.key, r.keyed = ix.Key(r.args)
	}
	return r.key, r.keyed
}

// reader is what a list's rules are filed by: the member of a built-in
// matcher, or the index of a host's.
type reader struct {
	field string
	index *Index
}

// readerOf returns what the rule is filed by, false for a rule a decision
// cannot file: a bare rule, or one of a host's matcher with no index.
func (c *compiled) readerOf() (reader, bool) {
	switch {
	case c.builtin.lang != 0:
		return reader{field: c.builtin.field}, true
	case c.index != nil:
		return reader{index: c.index}, true
	}
	return reader{}, false
}

// valueOf returns what the rules filed by rd read of the subject.
func (r *reading) valueOf(rd reader) (string, bool) {
	if rd.index != nil {
		return r.keyOf(rd.index)
	}
	return r.member(rd.field)
}

// prefixIndex files the rules of one list of one tool that a built-in
// matcher reads by their literal prefix. The literals are kept sorted, each
// with the longest other literal that is a prefix of it: the literals a
// value begins with are then the one found by a binary search, or one of
// its prefixes, and the chain of prefixes above it.
type prefixIndex struct {
	// of is what the filed rules read: a tool has one matcher, and a
	// rule of any other is tried always.
	of reader
	// literals are the filed rules' literal prefixes, each once, sorted.
	literals []string
	// parent is, for each literal, the longest other literal that is a
	// prefix of it, -1 when none is.
	parent []int32
	// rules[start[i]:start[i+1]] are the positions of the rules filed
	// under literals[i], in list order.
	start, rules []int32
	// always are the positions of the rules that are not filed: bare
	// rules, tool-name globs, rules of a host's matcher and rules whose
	// literal prefix is empty.
	always []int32
}

// indexFrom is the fewest rules a list must have to file for an index to
// pay: a shorter list is tried in turn, its member still read once, since
// a search and the merge of its hits cost more than the few comparisons
// they save (a denied call at 100 rules cost 12% more with every list
// indexed).
const indexFrom = 8

// indexPrefixes files the list's rules, or returns nil when there are
// fewer than indexFrom to file, and the list is tried in turn.
func indexPrefixes(entries []entry) *prefixIndex {
	// The positions of the rules to file, sorted by literal and then by
	// position, become the index's rules.
	files := make([]int32, 0, len(entries))
	ix := &prefixIndex{}
	for i, en := range entries {
		r, ok := en.readerOf()
		if !ok || en.anyTool || en.literal == "" || len(files) > 0 && r != ix.of {
			ix.always = append(ix.always, int32(i))
			continue
		}
		ix.of = r
		files = append(files, int32(i))
	}
	if len(files) < indexFrom {
		return nil
	}
	slices.SortFunc(files, func(a, b int32) int {
		return cmp.Or(strings.Compare(entries[a].literal, entries[b].literal), cmp.Compare(a, b))
	})
	ix.literals = make([]string, 0, len(files))
	ix.parent = make([]int32, 0, len(files))
	ix.start = make([]int32, 0, len(files)+1)
	ix.rules = files
	for i, pos := range files {
		literal := entries[pos].literal
		if n := len(ix.literals); n == 0 || ix.literals[n-1] != literal {
			// The prefixes of the literal before are its parent
			// chain; the longest of them this one begins with is its
			// parent, since sorting puts nothing between a literal
			// and one it is a prefix of that does not begin with it.
			up := int32(n - 1)
			for up >= 0 && !strings.HasPrefix(literal, ix.literals[up]) {
				up = ix.parent[up]
			}
			ix.literals = append(ix.literals, literal)
			ix.parent = append(ix.parent, up)
			ix.start = append(ix.start, int32(i))
		}
	}
	ix.start = append(ix.start, int32(len(ix.rules)))
	return ix
}

// hits appends to buf, in list order, the positions of the filed rules
// whose literal prefix value begins with. The greatest literal not above
// the value shares with it every literal the value begins with, so those
// are the literal found and its chain of prefixes, from where the value
// and the literal part.
func (ix *prefixIndex) hits(value string, buf []int32) []int32 {
	at, found := slices.BinarySearch(ix.literals, value)
	if !found {
		at--
	}
	lit := int32(at)
	for lit >= 0 && !strings.HasPrefix(value, ix.literals[lit]) {
		lit = ix.parent[lit]
	}
	sources := 0
	for ; lit >= 0; lit = ix.parent[lit] {
		buf = append(buf, ix.rules[ix.start[lit]:ix.start[lit+1]]...)
		sources++
	}
	if sources > 1 {
		slices.Sort(buf)
	}
	return buf
}

// cursor walks the rules of one list that may fire for a subject, in list
// order: every rule of a list with no index, else the rules tried always
// merged with the filed rules the subject's value reaches.
type cursor struct {
	entries []entry
	// indexed is set when always and hits say which entries to walk;
	// else every entry from pos on is.
	indexed      bool
	pos          int
	always, hits []int32
}

// cursor returns the walk of list l of tr for the subject, its hits kept
// in buf.
func (tr *toolRules) cursor(l list, sub *reading, buf []int32) (c cursor) {
	c.entries = tr.lists[l]
	ix := tr.index[l]
	if ix == nil {
		return c
	}
	c.indexed, c.always = true, ix.always
	if value, ok := sub.valueOf(ix.of); ok {
		c.hits = ix.hits(value, buf)
	}
	return c
}

// next returns the next rule of the walk, nil after the last.
func (c *cursor) next() *entry {
	if !c.indexed {
		if c.pos == len(c.entries) {
			return nil
		}
		c.pos++
		return &c.entries[c.pos-1]
	}
	var i int32
	switch {
	case len(c.always) > 0 && (len(c.hits) == 0 || c.always[0] < c.hits[0]):
		i, c.always = c.always[0], c.always[1:]
	case len(c.hits) > 0:
		i, c.hits = c.hits[0], c.hits[1:]
	default:
		return nil
	}
	return &c.entries[i]
}
