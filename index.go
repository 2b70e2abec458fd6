package agentpolicy

import "encoding/json"

// Index describes a host's [Matcher] to the engine (RFC 0001 §3.2). With
// it, a decision tries only the rules of a long list that may match a
// subject. The engine does the same for [GlobMatcher] and [PrefixMatcher].
// A file tool whose rules are directories needs one. Without an index, a
// policy of two hundred of them is two hundred matcher calls per decision.
//
// How the engine uses it:
//   - It files each rule of the matcher under Literal(spec).
//   - It reads Key(args) once per subject.
//   - It calls the matcher only for the rules whose literal the key begins
//     with, and for those filed under "".
//   - It calls them in list order, and the first that matches decides.
//
// So a decision is what calling every rule would make it, provided the
// index tells the truth. The engine cannot check that it does. A Literal
// must be a prefix of the key of every subject its specifier matches.
// Otherwise the engine passes over a matching rule, a deny rule included.
//
// Give a specifier whose literal cannot be known the literal "". Test the
// index by deciding the same calls with and without it, as the claudecode
// module does for its path matcher.
type Index struct {
	// Key reads from a subject's arguments the text the matcher matches
	// specifiers against: for a path matcher, the cleaned absolute path.
	// It is called once per subject, with arguments the engine has found
	// unambiguous ([Field]). ok is false when the matcher reads nothing
	// from them, and then only the rules filed under "" are called.
	Key func(args json.RawMessage) (key string, ok bool)
	// Literal returns text the key of every subject spec matches begins
	// with, "" when there is none to give. It is called once per rule
	// when a policy is compiled.
	Literal func(spec string) string
}

// BuiltinIndex returns the [Index] of a built-in matcher, [GlobMatcher] or
// [PrefixMatcher], and false for any other.
//
// A host may wrap a built-in matcher in a Matcher of its own, to read some
// specifiers itself. It gives the wrapper this index, with the literal of
// its own specifiers set to "". A decision then still finds the built-in's
// rules by their literal prefix, rather than calling the wrapper for each.
func BuiltinIndex(m Matcher) (Index, bool) {
	b, ok := builtinOf(m)
	if !ok {
		return Index{}, false
	}
	key := func(args json.RawMessage) (string, bool) {
		value, ok, err := readField(args, b.field, true)
		return value, ok && err == nil
	}
	return Index{Key: key, Literal: b.literal}, true
}

// matcherIndex is the index [WithIndex] gave for a matcher.
type matcherIndex struct {
	match Matcher
	index *Index
}

// WithIndex gives the engine the [Index] of a host's matcher m. It applies
// to every tool whose [ToolMatcher] has m as its Match: the same func value,
// not another made the same way. A later WithIndex for the same matcher
// replaces an earlier one.
//
// [Build] refuses:
//   - an index with a nil Key or Literal;
//   - an index for a matcher no tool has;
//   - an index for a built-in matcher, which the engine indexes itself.
func WithIndex(m Matcher, ix Index) Option {
	return func(e *Engine) {
		e.indexes = append(e.indexes, matcherIndex{match: m, index: &ix})
	}
}

// checkIndexes refuses the indexes [WithIndex] cannot use.
func (e *Engine) checkIndexes() error {
	for _, mi := range e.indexes {
		if mi.match == nil || mi.index.Key == nil || mi.index.Literal == nil {
			return errIndexIncomplete
		}
		if _, ok := builtinOf(mi.match); ok {
			return errIndexBuiltin
		}
		used := false
		for _, tm := range e.matchers {
			used = used || tm.Match != nil && closure(tm.Match) == closure(mi.match)
		}
		if !used {
			return errIndexUnused
		}
	}
	return nil
}

// indexOf returns the index given last for m, nil when there is none.
func (e *Engine) indexOf(m Matcher) *Index {
	for i := len(e.indexes) - 1; i >= 0; i-- {
		if mi := e.indexes[i]; closure(mi.match) == closure(m) {
			return mi.index
		}
	}
	return nil
}
