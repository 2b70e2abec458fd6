package agentpolicy

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// ErrAmbiguousArgs is wrapped by the error [Field] returns when a call's
// arguments do not say one thing: two decoders could read different values
// from them, so a policy that reads one value may allow a call whose tool
// acts on another. The engine blocks such a call as unevaluable, with a
// reason that names the problem.
var ErrAmbiguousArgs = errors.New("agentpolicy: ambiguous arguments")

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
	r := objectReader{scan: jsonScanner{data: args}}
	if err := r.open(); err != nil {
		return "", false, err
	}
	var raw []byte
	for {
		m, more, err := r.next()
		if err != nil {
			return "", false, err
		}
		if !more {
			break
		}
		key := m.keyString()
		switch {
		case key == name:
			if raw != nil {
				return "", false, ambiguous(strconv.Quote(name) + " appears twice")
			}
			raw = m.value
		case strings.EqualFold(key, name):
			return "", false, alsoAs(name, key)
		}
	}
	if raw == nil {
		return "", false, nil
	}
	if raw[0] != '"' {
		return "", false, ambiguous(strconv.Quote(name) + " is not a string")
	}
	return decodeString(raw), true, nil
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
		m, more, err := r.next()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		key := m.keyString()
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

// collision is the error for a key that follows seen, nil when the two
// are different keys under folding.
func collision(seen, key string) error {
	switch {
	case seen == key:
		return ambiguous(strconv.Quote(key) + " appears twice")
	case strings.EqualFold(seen, key):
		return alsoAs(seen, key)
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

// ambiguousError is the error [Field] and the engine's check return: the
// problem alone is what a verdict's reason quotes.
type ambiguousError struct {
	problem string
}

func (e *ambiguousError) Error() string { return ErrAmbiguousArgs.Error() + ": " + e.problem }

func (e *ambiguousError) Unwrap() error { return ErrAmbiguousArgs }

func ambiguous(problem string) error { return &ambiguousError{problem: problem} }

func alsoAs(name, key string) error {
	return ambiguous(strconv.Quote(name) + " also as " + strconv.Quote(key))
}

// member is one top-level member of an object: its key as a string
// literal, quotes included, and its value as JSON text.
type member struct {
	key, value []byte
	// escaped marks a key with an escape, which must be decoded to be
	// compared.
	escaped bool
}

// keyString is the member's key decoded. It shares memory with the
// arguments when the key has no escapes, so it is only compared, never
// kept.
func (m member) keyString() string {
	if !m.escaped {
		body := m.key[1 : len(m.key)-1]
		return unsafe.String(unsafe.SliceData(body), len(body))
	}
	return decodeString(m.key)
}

// objectReader walks the top-level members of one JSON object, validating
// the whole text as it goes, so that what it reports of a member holds
// only if the arguments are one valid object.
type objectReader struct {
	scan jsonScanner
	// started is set once the first member has been read.
	started bool
}

// open consumes the object's opening brace.
func (r *objectReader) open() error {
	r.scan.space()
	if r.scan.peek() != '{' {
		if r.scan.value(0) && r.scan.end() {
			return ambiguous("not a JSON object")
		}
		return r.scan.invalid()
	}
	r.scan.pos++
	r.scan.space()
	return nil
}

// next returns the next member, or more false after the last one, once
// the object has been closed and nothing but space follows it.
func (r *objectReader) next() (m member, more bool, err error) {
	s := &r.scan
	if r.started {
		switch {
		case s.next('}'):
			return r.close()
		case !s.next(','):
			return member{}, false, s.invalid()
		}
		s.space()
	} else if s.next('}') {
		return r.close()
	}
	r.started = true
	if s.peek() != '"' {
		return member{}, false, s.invalid()
	}
	start := s.pos
	if !s.string() {
		return member{}, false, s.invalid()
	}
	m.key = s.data[start:s.pos]
	m.escaped = s.escaped
	s.space()
	if !s.next(':') {
		return member{}, false, s.invalid()
	}
	s.space()
	start = s.pos
	if !s.value(1) {
		return member{}, false, s.invalid()
	}
	m.value = s.data[start:s.pos]
	s.space()
	return m, true, nil
}

// close ends the walk after the object's closing brace.
func (r *objectReader) close() (member, bool, error) {
	if !r.scan.end() {
		return member{}, false, ambiguous("not one JSON object")
	}
	return member{}, false, nil
}

// decodeString returns the contents of a string literal the scanner
// validated, quotes included. A literal without escapes is its own
// contents and shares its memory; one with escapes is decoded as
// encoding/json decodes it, which for a validated literal repairs nothing.
func decodeString(raw []byte) string {
	body := raw[1 : len(raw)-1]
	if !hasEscape(body) {
		return unsafe.String(unsafe.SliceData(body), len(body))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		// The scanner accepted raw, so encoding/json does too.
		panic("agentpolicy: a validated string literal did not decode: " + err.Error())
	}
	return s
}

// hasEscape reports whether a string literal's body holds a backslash.
func hasEscape(body []byte) bool {
	for _, c := range body {
		if c == '\\' {
			return true
		}
	}
	return false
}

// maxJSONDepth is encoding/json's limit on nesting; a document nested
// deeper is not valid to it, and so is invalid here too.
const maxJSONDepth = 10000

// jsonScanner validates JSON text as RFC 8259 defines it, one value at a
// time, without building anything. It is stricter than encoding/json in
// the one place decoders disagree: a string with invalid UTF-8 or an
// unpaired surrogate escape, which encoding/json repairs and others
// reject or repair differently, is invalid.
type jsonScanner struct {
	data []byte
	pos  int
	// escaped is set by string when the literal it consumed has an
	// escape.
	escaped bool
	// fault names what made the text invalid when it is more than a
	// syntax error: "invalid UTF-8" or "unpaired surrogate escape".
	fault string
}

// invalid is the error for text that is not valid JSON, naming the byte
// the scanner stopped at.
func (s *jsonScanner) invalid() error {
	fault := s.fault
	switch {
	case fault != "":
	case s.pos >= len(s.data):
		return ambiguous("invalid JSON: unexpected end")
	default:
		fault = "invalid JSON"
	}
	return ambiguous(fault + " at byte " + strconv.Itoa(s.pos))
}

// end consumes trailing space and reports whether nothing else follows.
func (s *jsonScanner) end() bool {
	s.space()
	return s.pos == len(s.data)
}

// peek returns the next byte, or 0 at the end.
func (s *jsonScanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// next consumes c when it is the next byte.
func (s *jsonScanner) next(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// space skips JSON whitespace.
func (s *jsonScanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value consumes one JSON value inside depth open containers.
func (s *jsonScanner) value(depth int) bool {
	switch c := s.peek(); {
	case c == '"':
		return s.string()
	case c == '{' || c == '[':
		return s.container(depth + 1)
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

// container consumes an object or an array at the given depth.
func (s *jsonScanner) container(depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	object := s.peek() == '{'
	closing := byte(']')
	if object {
		closing = '}'
	}
	s.pos++
	s.space()
	if s.next(closing) {
		return true
	}
	for {
		if object {
			if s.peek() != '"' || !s.string() {
				return false
			}
			s.space()
			if !s.next(':') {
				return false
			}
			s.space()
		}
		if !s.value(depth) {
			return false
		}
		s.space()
		if s.next(closing) {
			return true
		}
		if !s.next(',') {
			return false
		}
		s.space()
	}
}

// plain marks the bytes a string literal holds as they are: printable
// ASCII other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// string consumes a string literal, setting escaped when it has an
// escape.
func (s *jsonScanner) string() bool {
	s.escaped = false
	s.pos++ // the opening quote
	for {
		for s.pos < len(s.data) && plain[s.data[s.pos]] {
			s.pos++
		}
		if s.pos >= len(s.data) {
			return false
		}
		switch c := s.data[s.pos]; {
		case c == '"':
			s.pos++
			return true
		case c == '\\':
			s.escaped = true
			s.pos++
			if !s.escape() {
				return false
			}
		case c < 0x20:
			return false
		default:
			r, n := utf8.DecodeRune(s.data[s.pos:])
			if r == utf8.RuneError && n <= 1 {
				s.fault = "invalid UTF-8"
				return false
			}
			s.pos += n
		}
	}
}

// escape consumes what follows a backslash in a string literal. A high
// surrogate escape must be followed by a low one, and a low one must not
// stand alone.
func (s *jsonScanner) escape() bool {
	switch s.peek() {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos++
		return true
	case 'u':
		backslash := s.pos - 1
		s.pos++
		r, ok := s.hex4()
		if !ok {
			return false
		}
		if r < 0xD800 || r > 0xDFFF {
			return true
		}
		if r <= 0xDBFF && s.next('\\') && s.next('u') {
			low, ok := s.hex4()
			if !ok {
				return false
			}
			if 0xDC00 <= low && low <= 0xDFFF {
				return true
			}
		}
		s.pos, s.fault = backslash, "unpaired surrogate escape"
		return false
	}
	return false
}

// hex4 consumes the four hexadecimal digits of a \u escape.
func (s *jsonScanner) hex4() (rune, bool) {
	if len(s.data)-s.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.pos : s.pos+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	s.pos += 4
	return r, true
}

// literal consumes word.
func (s *jsonScanner) literal(word string) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// number consumes a number: an optional minus, an integer part without
// leading zeros, an optional fraction and an optional exponent.
func (s *jsonScanner) number() bool {
	s.next('-')
	if !s.next('0') {
		if !s.digits() {
			return false
		}
	}
	if s.next('.') && !s.digits() {
		return false
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		return s.digits()
	}
	return true
}

// digits consumes one or more decimal digits.
func (s *jsonScanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > start
}
