package claudecode

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"unicode/utf8"
)

// scanTrust reads every project's hasTrustDialogAccepted from a
// .claude.json in one pass over the text, checking its syntax as it goes,
// and reports false where it is not sure to read the file as [decodeTrust]
// does: a syntax error, a value of another type where a project or its flag
// stands, a key of the document or of a project that encoding/json could
// match to a field only by folding case or unescaping, nesting deeper than
// scanDepth. The caller then decodes the file with encoding/json, which
// gives the answer or the error with its place, so this is only a faster
// way to the same result.
//
// The file is Claude Code's state, which grows with each project's
// history: a megabyte is common, and a hook call reads it every time.
// encoding/json checks the whole text and then decodes it, a function call
// per byte each time; this loop is several times faster.
func scanTrust(data []byte) (map[string]bool, bool) {
	s := trustScan{data: data}
	s.space()
	if s.peek() != '{' || !s.object(s.topMember) {
		return nil, false
	}
	s.space()
	return s.projects, s.pos == len(data)
}

// scanDepth is the deepest nesting scanTrust reads, far below encoding/json's
// limit, which a deeper file is left to.
const scanDepth = 1000

// trustScan is scanTrust's place in the text and what it has read.
type trustScan struct {
	data     []byte
	pos      int
	keyAt    int // where the key being read begins, at its quote
	depth    int
	projects map[string]bool
	accepted bool // the flag of the project being read
}

// stringByte marks the bytes that end the plain run of a string: the
// quote, the backslash and the control characters JSON does not allow.
var stringByte = [256]bool{'"': true, '\\': true,
	0: true, 1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true,
	8: true, 9: true, 10: true, 11: true, 12: true, 13: true, 14: true, 15: true,
	16: true, 17: true, 18: true, 19: true, 20: true, 21: true, 22: true, 23: true,
	24: true, 25: true, 26: true, 27: true, 28: true, 29: true, 30: true, 31: true}

// topMember reads a member of the document: "projects", or another that is
// only checked.
func (s *trustScan) topMember(key []byte) bool {
	switch {
	case string(key) == "projects":
		return s.projectsValue()
	case !asciiKey(key) || bytes.EqualFold(key, []byte("projects")):
		return false
	}
	return s.skip()
}

// projectsValue reads the projects object as encoding/json reads it into a
// map: null empties the map, and an object adds to it, a later entry of a
// name replacing an earlier one.
func (s *trustScan) projectsValue() bool {
	switch s.peek() {
	case 'n':
		s.projects = nil
		return s.literal("null")
	case '{':
		if s.projects == nil {
			s.projects = map[string]bool{}
		}
		return s.nested(s.project)
	}
	return false
}

// project reads one project's entry: null or an object, whose flag starts
// false.
func (s *trustScan) project(key []byte) bool {
	name, ok := projectName(key, s.data[s.keyAt:])
	if !ok {
		return false
	}
	s.accepted = false
	switch s.peek() {
	case 'n':
		if !s.literal("null") {
			return false
		}
	case '{':
		if !s.nested(s.projectMember) {
			return false
		}
	default:
		return false
	}
	s.projects[name] = s.accepted
	return true
}

// projectMember reads a member of a project's entry: the flag, which true
// or false sets and null leaves as it was, or another that is only checked.
func (s *trustScan) projectMember(key []byte) bool {
	switch {
	case string(key) == "hasTrustDialogAccepted":
		switch s.peek() {
		case 't':
			s.accepted = true
			return s.literal("true")
		case 'f':
			s.accepted = false
			return s.literal("false")
		case 'n':
			return s.literal("null")
		}
		return false
	case !asciiKey(key) || bytes.EqualFold(key, []byte("hasTrustDialogAccepted")):
		return false
	}
	return s.skip()
}

// asciiKey reports whether a key, as written between its quotes, is ASCII
// without escapes: a key encoding/json matches to a field as written or by
// folding ASCII case alone.
func asciiKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// projectName is a project's name as encoding/json reads a map key: the
// key as written between the quotes when it has no escape and is valid
// UTF-8, else what encoding/json unquotes it to. quoted is the text from
// the key's opening quote on.
func projectName(key, quoted []byte) (string, bool) {
	if unescapedUTF8(key) {
		return string(key), true
	}
	var name string
	err := json.Unmarshal(quoted[:len(key)+2], &name)
	return name, err == nil
}

// unescapedUTF8 reports whether a key is valid UTF-8 without escapes, which
// encoding/json keeps as it is written.
func unescapedUTF8(key []byte) bool {
	for _, c := range key {
		if c == '\\' {
			return false
		}
	}
	return utf8.Valid(key)
}

// nested reads the object at pos one level deeper.
func (s *trustScan) nested(member func(key []byte) bool) bool {
	if s.depth++; s.depth > scanDepth {
		return false
	}
	ok := s.object(member)
	s.depth--
	return ok
}

// object reads the object at pos, calling member with each key as written
// between its quotes and pos at the value, which member reads.
func (s *trustScan) object(member func(key []byte) bool) bool {
	s.pos++ // the brace
	s.space()
	if s.peek() == '}' {
		s.pos++
		return true
	}
	for {
		s.keyAt = s.pos
		key, ok := s.str()
		if !ok {
			return false
		}
		s.space()
		if s.peek() != ':' {
			return false
		}
		s.pos++
		s.space()
		if !member(key) {
			return false
		}
		s.space()
		switch s.peek() {
		case ',':
			s.pos++
			s.space()
		case '}':
			s.pos++
			return true
		default:
			return false
		}
	}
}

// skipMember checks a member of an object no field is read from.
func (s *trustScan) skipMember([]byte) bool { return s.skip() }

// skip checks the value at pos and moves past it.
func (s *trustScan) skip() bool {
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.str()
		return ok
	case c == '{':
		return s.nested(s.skipMember)
	case c == '[':
		return s.array()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}

// array checks the array at pos and moves past it.
func (s *trustScan) array() bool {
	if s.depth++; s.depth > scanDepth {
		return false
	}
	s.pos++ // the bracket
	s.space()
	if s.peek() == ']' {
		s.pos++
		s.depth--
		return true
	}
	for {
		if !s.skip() {
			return false
		}
		s.space()
		switch s.peek() {
		case ',':
			s.pos++
			s.space()
		case ']':
			s.pos++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// str checks the string at pos, moves past it and returns its text between
// the quotes, escapes as written.
func (s *trustScan) str() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.pos + 1
	for i := start; i < len(s.data); {
		for i+8 <= len(s.data) && plainWord(binary.LittleEndian.Uint64(s.data[i:])) {
			i += 8
		}
		if i == len(s.data) {
			break
		}
		c := s.data[i]
		if !stringByte[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			s.pos = i + 1
			return s.data[start:i], true
		case c < ' ':
			return nil, false
		}
		// A backslash: one of JSON's escapes.
		if i+1 >= len(s.data) {
			return nil, false
		}
		switch s.data[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(s.data) || !hex4(s.data[i+2:i+6]) {
				return nil, false
			}
			i += 6
		default:
			return nil, false
		}
	}
	return nil, false
}

// plainWord reports whether none of eight bytes ends a string's plain run
// (stringByte): none is a quote, a backslash or below a space. A byte is
// zero in x-ones&^x&highs, where x is the word, and only there, when some
// byte of x is zero; one below n likewise in w-n*ones&^w&highs.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	special := (quote-ones)&^quote | (backslash-ones)&^backslash | (w-ones*' ')&^w
	return special&highs == 0
}

// hex4 reports whether the four bytes are hexadecimal digits.
func hex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// number checks the number at pos, as JSON writes one, and moves past it.
func (s *trustScan) number() bool {
	if s.peek() == '-' {
		s.pos++
	}
	switch c := s.peek(); {
	case c == '0':
		s.pos++
	case '1' <= c && c <= '9':
		s.digits()
	default:
		return false
	}
	if s.peek() == '.' {
		s.pos++
		if !s.digits() {
			return false
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits moves past a run of digits and reports whether there was one.
func (s *trustScan) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > start
}

// literal checks that word is at pos and moves past it.
func (s *trustScan) literal(word string) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// space moves past the whitespace JSON allows between tokens: in an
// indented file, a run of spaces eight at a time.
func (s *trustScan) space() {
	const spaces = 0x2020202020202020
	for s.pos < len(s.data) {
		if s.pos+8 <= len(s.data) && binary.LittleEndian.Uint64(s.data[s.pos:]) == spaces {
			s.pos += 8
			continue
		}
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek is the byte at pos, 0 at the end of the text.
func (s *trustScan) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}
