package agentpolicy

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field returns the string member name of a call's arguments, the one
// reading every matcher and splitter shares so that the policy reads what
// the tool will.
//
// ok is false, with a nil error, when the arguments are one JSON object
// without the member. The error wraps [ErrAmbiguousArgs] when the
// arguments are not exactly one valid JSON object (invalid UTF-8 and
// unpaired surrogate escapes, which decoders repair differently, make
// them invalid), when the member appears more than once (an escaped key
// such as "comman\u0064" is the same key), when another top-level key
// equals name under Unicode simple case folding ([strings.EqualFold], the
// folding encoding/json matches struct fields with), and when the member's
// value is not a string. Members of nested objects are not read.
//
// When the value has no escapes, value shares memory with args and Field
// allocates nothing: args must not be modified while value is in use.
func Field(args json.RawMessage, name string) (value string, ok bool, err error) {
	return readField(args, name, false)
}

// readField is [Field], and with folded set the reading of the built-in
// matchers: a member spelled in another case only, "Command" for
// "command", is read as the member, as encoding/json reads it. A Matcher
// cannot say it could not read its member, and a member a deny rule's
// matcher did not read must not let the call through: the engine has
// refused arguments with two spellings of one key, so the one spelling
// left is what every decoder that folds case reads, and a decoder that
// does not fold reads no member at all.
func readField(args []byte, name string, folded bool) (string, bool, error) {
	r := objectReader{scan: jsonScanner{data: args}}
	if err := r.open(); err != nil {
		return "", false, err
	}
	nameASCII := isASCII(name)
	var raw []byte
	var escaped bool
	spelled := "" // the other spelling read, when folded
	for {
		more, err := r.next()
		if err != nil {
			return "", false, err
		}
		if !more {
			break
		}
		key := r.keyString()
		switch {
		case key == name:
			switch {
			case spelled != "":
				return "", false, errAlsoAs(name, spelled)
			case raw != nil:
				return "", false, errTwice(name)
			}
			raw, escaped = r.value, r.valueEscaped
		case nameASCII && r.keyASCII && !r.keyEscaped && len(key) != len(name):
			// Folding keeps the length of ASCII text; an escape may
			// stand for any character.
		case strings.EqualFold(key, name):
			if !folded || raw != nil {
				return "", false, errAlsoAs(name, key)
			}
			raw, escaped, spelled = r.value, r.valueEscaped, key
		}
	}
	switch {
	case raw == nil:
		return "", false, nil
	case raw[0] != '"':
		return "", false, errNotString(name)
	case escaped:
		return unescape(raw), true, nil
	}
	return unsafeString(raw[1 : len(raw)-1]), true, nil
}

// isASCII reports whether s is ASCII throughout.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// checkArgs reports whether args are unambiguous as a whole: exactly one
// valid JSON object none of whose top-level keys repeats, escaped or not,
// or equals another under simple case folding. Arguments that pass read
// the same under every decoder, whichever member a matcher reads.
func checkArgs(args []byte) error {
	r := objectReader{scan: jsonScanner{data: args}}
	if err := r.open(); err != nil {
		return err
	}
	// Most arguments have a handful of keys, compared pairwise on the
	// stack; a hostile object with many is compared through a map, so
	// the check stays linear.
	var small [8]string
	keys := small[:0]
	var folded map[string]string
	for {
		more, err := r.next()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		key := r.keyString()
		if folded == nil && len(keys) < len(small) {
			for _, seen := range keys {
				if err := collision(seen, key); err != nil {
					return err
				}
			}
			keys = append(keys, key)
			continue
		}
		if folded == nil {
			folded = make(map[string]string, 2*len(small))
			for _, seen := range keys {
				folded[foldKey(seen)] = seen
			}
		}
		f := foldKey(key)
		if seen, dup := folded[f]; dup {
			return collision(seen, key)
		}
		folded[f] = key
	}
}

// unambiguous reports why a subject's arguments cannot be decided under
// the tool's rules: the rules read them, through a matcher or a splitter,
// and they do not read the same under every decoder. A matcher is opaque,
// so the engine cannot know which member it reads and holds every member
// to one reading; a tool whose rules read nothing has nothing to confuse.
func (tr *toolRules) unambiguous(args json.RawMessage) error {
	if !tr.reads {
		return nil
	}
	return checkArgs(args)
}

// unambiguous checks every subject of a split call of the tool, each under
// the rules of the tool it is decided as.
func (s *snapshot) unambiguous(tool string, subjects []Subject) error {
	for _, sub := range subjects {
		name := tool
		if sub.Tool != "" {
			name = sub.Tool
		}
		if err := s.rulesFor(name).unambiguous(sub.Args); err != nil {
			return err
		}
	}
	return nil
}

// collision is the error for a key that follows seen, nil when the two
// are different keys under folding.
func collision(seen, key string) error {
	switch {
	case seen == key:
		return errTwice(key)
	case strings.EqualFold(seen, key):
		return errAlsoAs(seen, key)
	}
	return nil
}

// foldKey maps every rune of key to the smallest rune of its simple case
// folding orbit, so that two keys fold to the same string exactly when
// [strings.EqualFold] reports them equal.
func foldKey(key string) string {
	var b strings.Builder
	b.Grow(len(key))
	for _, r := range key {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
