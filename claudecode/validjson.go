package claudecode

import "encoding/json"

// validJSON walks a text encoding/json has found valid (json.Valid), so it
// finds where each value ends without checking what it passes over: every
// string is closed, every bracket matched, and nothing but a value follows
// a key and its colon.
type validJSON struct {
	data []byte
	pos  int
}

// space skips the whitespace JSON allows between tokens.
func (v *validJSON) space() {
	for v.pos < len(v.data) {
		switch v.data[v.pos] {
		case ' ', '\t', '\n', '\r':
			v.pos++
		default:
			return
		}
	}
}

// value skips the next value and returns its text.
func (v *validJSON) value() []byte {
	v.space()
	start := v.pos
	switch v.data[v.pos] {
	case '"':
		v.skipString()
	case '{', '[':
		for depth := 0; ; {
			switch v.data[v.pos] {
			case '"':
				v.skipString()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			v.pos++
			if depth == 0 {
				break
			}
		}
	default:
		// A number, true, false or null runs to the next delimiter.
		for v.pos < len(v.data) {
			switch v.data[v.pos] {
			case ' ', '\t', '\n', '\r', ',', ']', '}':
				return v.data[start:v.pos]
			}
			v.pos++
		}
	}
	return v.data[start:v.pos]
}

// skipString skips the string that begins at pos, escapes and all.
func (v *validJSON) skipString() {
	for v.pos++; v.data[v.pos] != '"'; v.pos++ {
		if v.data[v.pos] == '\\' {
			v.pos++
		}
	}
	v.pos++
}

// object calls member with the key, quoted as written, and the value of
// each member of the object that comes next, in order, until member
// returns false. It reports whether the value was an object whose every
// member was taken.
func (v *validJSON) object(member func(key, value []byte) bool) bool {
	v.space()
	if v.data[v.pos] != '{' {
		return false
	}
	v.pos++
	for {
		v.space()
		switch v.data[v.pos] {
		case '}':
			v.pos++
			return true
		case ',':
			v.pos++
		}
		key := v.value()
		v.space()
		v.pos++ // the colon
		if !member(key, v.value()) {
			return false
		}
	}
}

// array returns the items of the array that comes next, false for any
// other value. The items are counted first, so a list of hundreds of rules
// is read into a slice of its size.
func (v *validJSON) array() ([]json.RawMessage, bool) {
	v.space()
	if v.data[v.pos] != '[' {
		return nil, false
	}
	start := v.pos
	n := 0
	v.items(func([]byte) { n++ })
	items := make([]json.RawMessage, 0, n)
	v.pos = start
	v.items(func(item []byte) { items = append(items, item) })
	return items, true
}

// items calls item with each item of the array that begins at pos.
func (v *validJSON) items(item func([]byte)) {
	v.pos++
	for {
		v.space()
		switch v.data[v.pos] {
		case ']':
			v.pos++
			return
		case ',':
			v.pos++
		}
		item(v.value())
	}
}
