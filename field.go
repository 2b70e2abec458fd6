package agentpolicy

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field returns the string member name of a call's arguments. Every
// matcher and splitter reads arguments through it, so the policy reads
// what the tool will.
//
// ok is false, with a nil error, when the arguments are one JSON object
// without the member. The error wraps [ErrAmbiguousArgs] when:
//   - the arguments are not exactly one valid JSON object (invalid UTF-8
//     and unpaired surrogate escapes, which decoders repair differently,
//     make them invalid);
//   - the member appears more than once (an escaped key such as
//     "comman\u0064" is the same key);
//   - another top-level key equals name under Unicode simple case folding
//     ([strings.EqualFold], as encoding/json matches struct fields);
//   - the member's value is not a string.
//
// Members of nested objects are not read. RFC 0001 §3.1 is the full
// contract.
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
		case r.foldsTo(key, name, nameASCII):
			if !folded || raw != nil {
				return "", false, errAlsoAs(name, key)
			}
			raw, escaped, spelled = r.value, r.valueEscaped, key
		}
	}
	if raw != nil && raw[0] != '"' {
		return "", false, errNotString(name)
	}
	value, ok := stringValue(raw, escaped)
	return value, ok, nil
}

// foldsTo reports whether key, the member just read, equals name under
// simple case folding. Folding keeps the length of ASCII text, so an
// unescaped ASCII key of another length is not compared; an escape may
// stand for any character.
func (r *objectReader) foldsTo(key, name string, nameASCII bool) bool {
	if nameASCII && r.keyASCII && !r.keyEscaped && len(key) != len(name) {
		return false
	}
	return strings.EqualFold(key, name)
}

// stringValue is the string a member's value holds, raw its JSON text and
// escaped whether it has an escape; ok is false for a missing member, nil
// raw, and for a value that is not a string.
func stringValue(raw []byte, escaped bool) (value string, ok bool) {
	switch {
	case raw == nil || raw[0] != '"':
		return "", false
	case escaped:
		return unescape(raw), true
	}
	return unsafeString(raw[1 : len(raw)-1]), true
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
//
// On the way it reads the string member field, when field is not empty,
// as the built-in matchers read it ([readField] folded): a decision
// checks a subject and reads its member in one scan. present is false
// when the member is missing or not a string, and when err is not nil.
func checkArgs(args []byte, field string) (value string, present bool, err error) {
	r := objectReader{scan: jsonScanner{data: args}}
	if err := r.open(); err != nil {
		return "", false, err
	}
	fieldASCII := isASCII(field)
	var raw []byte
	var escaped bool
	// Most arguments have a handful of keys, compared pairwise on the
	// stack; a hostile object with many is compared through a map, so
	// the check stays linear.
	var small [8]string
	keys := small[:0]
	var folded map[string]string
	for {
		more, err := r.next()
		if err != nil {
			return "", false, err
		}
		if !more {
			value, present = stringValue(raw, escaped)
			return value, present, nil
		}
		key := r.keyString()
		if field != "" && (key == field || r.foldsTo(key, field, fieldASCII)) {
			// The keys are checked to be unique under folding, so
			// this is the one member the matchers read, or the
			// arguments are refused.
			raw, escaped = r.value, r.valueEscaped
		}
		if folded == nil && len(keys) < len(small) {
			for _, seen := range keys {
				if err := collision(seen, key); err != nil {
					return "", false, err
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
			return "", false, collision(seen, key)
		}
		folded[f] = key
	}
}

// read sets rd to a subject's arguments as the tool's rules, the policy's
// rs[0] and the grant sets' consulted, read them: checked, and with the
// member the tool's built-in matcher reads read in the same scan. The
// error says why they cannot be decided under those rules: the rules read
// them, through a matcher or a splitter, and they do not read the same
// under every decoder. A matcher is opaque, so the engine cannot know
// which member it reads and holds every member to one reading; a tool
// none of whose rules read anything has nothing to confuse.
func (rs *rules) read(rd *reading, tool string, args json.RawMessage) error {
	*rd = reading{tool: tool, args: args}
	if !rs.reads() {
		return nil
	}
	field := rs[0].field
	value, present, err := checkArgs(args, field)
	if field != "" {
		rd.field, rd.value, rd.present, rd.read = field, value, present, true
	}
	return err
}

// reads reports whether any of the rules read a subject's arguments.
func (rs *rules) reads() bool {
	for _, tr := range rs {
		if tr != nil && tr.reads {
			return true
		}
	}
	return false
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
