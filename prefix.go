package agentpolicy

import (
	"encoding/json"
	"slices"
)

// The rules a decision tries: one list of one tool can hold thousands of
// rules, and trying each in turn would make a decision as slow as the
// largest list. A rule of a built-in matcher only matches a value that
// begins with the rule's literal prefix ([builtin.literal]), so the rules
// are filed in a trie under those prefixes and a decision walks the
// subject's value through it once, reaching exactly the rules whose
// literal the value begins with. Whatever cannot be filed is tried always.
// The rules found are then tried in list order, so the first that fires is
// the one a scan of the whole list would have found.

// reading is one subject as the rules of its tool read it: the member the
// tool's built-in matcher reads is decoded once, on first need, however
// many rules are tried.
type reading struct {
	tool string
	args json.RawMessage
	// field is the member read, value its value; present is false when
	// the member is missing, not a string or ambiguous, which no
	// built-in matcher's specifier matches.
	field         string
	value         string
	read, present bool
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

// prefixIndex files the rules of one list of one tool that a built-in
// matcher reads by their literal prefix.
type prefixIndex struct {
	// of is the matcher whose rules are filed: a tool has one matcher,
	// and a rule of any other is tried always.
	of builtin
	// nodes is the trie, the root, the empty prefix, first.
	nodes []prefixNode
	// always are the positions of the rules that are not filed: bare
	// rules, tool-name globs, rules of a host's matcher and rules whose
	// literal prefix is empty.
	always []int32
}

// prefixNode is one prefix of the trie.
type prefixNode struct {
	// next are the prefixes one byte longer, by byte.
	next []prefixEdge
	// rules are the positions of the rules whose literal prefix ends
	// here, in list order.
	rules []int32
}

// prefixEdge leads to the node of a prefix one byte longer.
type prefixEdge struct {
	b  byte
	to int32
}

// indexPrefixes files the list's rules, or returns nil when there is no
// rule to file, and the list is tried in turn.
func indexPrefixes(entries []entry) *prefixIndex {
	ix := &prefixIndex{nodes: []prefixNode{{}}}
	filed := false
	for i, en := range entries {
		lit := ""
		if en.builtin.lang != 0 && !en.anyTool && (!filed || en.builtin == ix.of) {
			lit = en.builtin.literal(en.spec)
		}
		if lit == "" {
			ix.always = append(ix.always, int32(i))
			continue
		}
		ix.of, filed = en.builtin, true
		n := ix.file(lit)
		ix.nodes[n].rules = append(ix.nodes[n].rules, int32(i))
	}
	if !filed {
		return nil
	}
	return ix
}

// file returns the node of the prefix lit, adding the nodes it lacks.
func (ix *prefixIndex) file(lit string) int32 {
	var n int32
	for i := 0; i < len(lit); i++ {
		next := ix.nodes[n].next
		at, found := slices.BinarySearchFunc(next, lit[i], func(e prefixEdge, b byte) int { return int(e.b) - int(b) })
		if found {
			n = next[at].to
			continue
		}
		to := int32(len(ix.nodes))
		ix.nodes = append(ix.nodes, prefixNode{})
		ix.nodes[n].next = slices.Insert(next, at, prefixEdge{b: lit[i], to: to})
		n = to
	}
	return n
}

// hits appends to buf, in list order, the positions of the filed rules
// whose literal prefix value begins with. The walk takes one step per
// byte of the value at most.
func (ix *prefixIndex) hits(value string, buf []int32) []int32 {
	n, sources := &ix.nodes[0], 0
	for i := 0; i < len(value); i++ {
		at, found := slices.BinarySearchFunc(n.next, value[i], func(e prefixEdge, b byte) int { return int(e.b) - int(b) })
		if !found {
			break
		}
		n = &ix.nodes[n.next[at].to]
		if len(n.rules) > 0 {
			buf = append(buf, n.rules...)
			sources++
		}
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
func (tr *toolRules) cursor(l list, sub *reading, buf []int32) cursor {
	ix := tr.index[l]
	if ix == nil {
		return cursor{entries: tr.lists[l]}
	}
	c := cursor{entries: tr.lists[l], indexed: true, always: ix.always}
	if value, ok := sub.member(ix.of.field); ok {
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
