package agentpolicy

// The JSON scanner the reading of arguments ([Field]) is built on: it
// validates the whole text once, as RFC 8259 defines it and stricter than
// encoding/json where decoders disagree, and walks the top-level members of
// an object without building anything.

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// objectReader walks the top-level members of one JSON object, validating
// the whole text as it goes, so that what it reports of a member holds
// only if the arguments are one valid object.
type objectReader struct {
	scan jsonScanner
	// started is set once the first member has been read.
	started bool
	// key and value are the member last read: its key as a string
	// literal, quotes included, and its value as JSON text.
	key, value []byte
	// keyEscaped and keyASCII say whether the key has an escape, so it
	// must be decoded to be compared, and whether it is ASCII
	// throughout; valueEscaped whether the value, if a string, has one.
	keyEscaped, keyASCII, valueEscaped bool
}

// open consumes the object's opening brace.
func (r *objectReader) open() error {
	r.scan.space()
	if r.scan.peek() != '{' {
		if r.scan.value(0) && r.scan.end() {
			return errNotObject
		}
		return r.scan.invalid()
	}
	r.scan.pos++
	r.scan.space()
	return nil
}

// next reads the next member, or reports false after the last one, once
// the object has been closed and nothing but space follows it.
func (r *objectReader) next() (bool, error) {
	s := &r.scan
	if r.started {
		switch {
		case s.next('}'):
			return r.close()
		case !s.next(','):
			return false, s.invalid()
		}
		s.space()
	} else if s.next('}') {
		return r.close()
	}
	r.started = true
	start := s.pos
	if s.peek() != '"' || !s.string() {
		return false, s.invalid()
	}
	r.key, r.keyEscaped, r.keyASCII = s.data[start:s.pos], s.escaped, s.ascii
	s.space()
	if !s.next(':') {
		return false, s.invalid()
	}
	s.space()
	start = s.pos
	if !s.value(1) {
		return false, s.invalid()
	}
	r.value, r.valueEscaped = s.data[start:s.pos], s.escaped
	s.space()
	return true, nil
}

// close ends the walk after the object's closing brace.
func (r *objectReader) close() (bool, error) {
	if !r.scan.end() {
		return false, errNotOneObject
	}
	return false, nil
}

// keyString is the member's key decoded. It shares memory with the
// arguments when the key has no escapes, so it is only compared, never
// kept past the arguments.
func (r *objectReader) keyString() string {
	if r.keyEscaped {
		return unescape(r.key)
	}
	return unsafeString(r.key[1 : len(r.key)-1])
}

// unsafeString is b as a string without a copy, for text read from
// arguments the caller does not modify.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// unescape decodes a string literal, quotes included, that the scanner
// validated and found to hold an escape. Validation leaves nothing to
// repair: every escape is whole and every surrogate escape is paired.
func unescape(raw []byte) string {
	body := raw[1 : len(raw)-1]
	b := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if body[i+1] != 'u' {
			b = append(b, escapes[body[i+1]])
			i += 2
			continue
		}
		r, _ := hexRune(body[i+2:])
		i += 6
		if utf16.IsSurrogate(r) {
			low, _ := hexRune(body[i+2:])
			r = utf16.DecodeRune(r, low)
			i += 6
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// escapes maps the letter of a one-letter escape to the byte it stands
// for.
var escapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

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
	// escaped and ascii describe the last string literal consumed: it
	// has an escape; its bytes are all ASCII.
	escaped, ascii bool
	// fault names what made the text invalid when it is more than a
	// syntax error: faultUTF8 or faultSurrogate.
	fault string
}

// invalid is the error for text that is not valid JSON, naming the byte
// the scanner stopped at.
func (s *jsonScanner) invalid() error {
	if s.fault == "" && s.pos >= len(s.data) {
		return errUnexpectedEnd
	}
	return errInvalidAt(s.fault, s.pos)
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
	pos := s.pos
	for pos < len(s.data) {
		switch s.data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
			continue
		}
		break
	}
	s.pos = pos
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

// Bytes repeated across a 64-bit word, for reading a string literal eight
// bytes at a time.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// needsLook reports whether any of the eight bytes of w may be other than
// plain: a control character, a quote, a backslash or a byte of a
// multibyte character. It errs only towards true, after a byte that is
// not plain, so a word it passes is plain throughout.
func needsLook(w uint64) bool {
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	return ((w-ones*0x20)|(quote-ones)|(backslash-ones)|w)&highs != 0
}

// string consumes a string literal, setting escaped when it has an
// escape and ascii when every byte of it is ASCII.
func (s *jsonScanner) string() bool {
	s.escaped, s.ascii = false, true
	data, pos := s.data, s.pos+1 // past the opening quote
	for {
		for len(data)-pos >= 8 && !needsLook(binary.LittleEndian.Uint64(data[pos:])) {
			pos += 8
		}
		for pos < len(data) && plain[data[pos]] {
			pos++
		}
		if pos >= len(data) {
			s.pos = pos
			return false
		}
		switch c := data[pos]; {
		case c == '"':
			s.pos = pos + 1
			return true
		case c == '\\':
			s.escaped = true
			s.pos = pos + 1
			if !s.escape() {
				return false
			}
			pos = s.pos
		case c < 0x20:
			s.pos = pos
			return false
		default:
			r, n := utf8.DecodeRune(data[pos:])
			if r == utf8.RuneError && n <= 1 {
				s.pos, s.fault = pos, faultUTF8
				return false
			}
			s.ascii = false
			pos += n
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
		s.pos, s.fault = backslash, faultSurrogate
		return false
	}
	return false
}

// hex4 consumes the four hexadecimal digits of a \u escape.
func (s *jsonScanner) hex4() (rune, bool) {
	r, ok := hexRune(s.data[s.pos:])
	if ok {
		s.pos += 4
	}
	return r, ok
}

// hexRune reads the four hexadecimal digits b begins with.
func hexRune(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
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
