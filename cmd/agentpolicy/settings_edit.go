package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A settings file is edited in its text: the members an edit adds or
// removes are spliced in or cut out, and every other byte stays as the
// user wrote it, so a diff of the file shows the edit and nothing else.

// span is a run of the text, from start up to end.
type span struct{ start, end int }

// jsonMember is one member of an object in the text: where it starts (its
// key) and its value.
type jsonMember struct {
	key   string
	start int
	value span
}

// jsonObject is an object of the text with its members located.
type jsonObject struct {
	data    []byte
	at      span
	members []jsonMember
}

// jsonArray is an array of the text with its elements located.
type jsonArray struct {
	data     []byte
	at       span
	elements []span
}

// parseObject locates the object that is the value at v, whose text may
// be surrounded by white space; for the whole file, it must be one JSON
// object and nothing more.
func parseObject(data []byte, v span) (jsonObject, error) {
	o := jsonObject{data: data}
	dec, start, err := openValue(data, v, '{')
	if err != nil {
		return o, err
	}
	prev := start + 1
	for dec.More() {
		memberStart := skipSeparators(data, prev)
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return o, errNotSettings
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return o, errNotSettings
		}
		end := start + int(dec.InputOffset())
		o.members = append(o.members, jsonMember{key: key, start: memberStart, value: span{end - len(raw), end}})
		prev = end
	}
	if _, err := dec.Token(); err != nil {
		return o, errNotSettings
	}
	o.at = span{start, start + int(dec.InputOffset())}
	return o, nil
}

// parseArray locates the array that is the value at v.
func parseArray(data []byte, v span) (jsonArray, error) {
	a := jsonArray{data: data}
	dec, start, err := openValue(data, v, '[')
	if err != nil {
		return a, err
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return a, errNotSettings
		}
		end := start + int(dec.InputOffset())
		a.elements = append(a.elements, span{end - len(raw), end})
	}
	if _, err := dec.Token(); err != nil {
		return a, errNotSettings
	}
	a.at = span{start, start + int(dec.InputOffset())}
	return a, nil
}

// errNotSettings is the error of a file whose text is not JSON.
var errNotSettings = errors.New("not a settings file: the text is not one JSON object")

// openValue starts reading the value at v, which must open with delim and
// be valid JSON, and returns the decoder past the delimiter and the
// offset the value starts at.
func openValue(data []byte, v span, delim byte) (*json.Decoder, int, error) {
	text := data[v.start:v.end]
	if !json.Valid(text) {
		return nil, 0, errNotSettings
	}
	trimmed := bytes.TrimLeft(text, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != delim {
		kind := map[byte]string{'{': "an object", '[': "an array"}[delim]
		return nil, 0, fmt.Errorf("not %s", kind)
	}
	start := v.start + len(text) - len(trimmed)
	dec := json.NewDecoder(bytes.NewReader(data[start:v.end]))
	if _, err := dec.Token(); err != nil {
		return nil, 0, errNotSettings
	}
	return dec, start, nil
}

// skipSeparators is the offset of the first byte from i that is neither
// white space nor a comma.
func skipSeparators(data []byte, i int) int {
	for i < len(data) && strings.IndexByte(" \t\r\n,", data[i]) >= 0 {
		i++
	}
	return i
}

// member is the object's member named key. A key the object holds twice
// is an error: which of the two the reader takes is the reader's choice,
// and an edit of one of them may not be the edit it reads.
func (o jsonObject) member(key string) (jsonMember, bool, error) {
	var found []jsonMember
	for _, m := range o.members {
		if m.key == key {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return jsonMember{}, false, nil
	case 1:
		return found[0], true, nil
	}
	return jsonMember{}, false, fmt.Errorf("holds %q twice", key)
}

// insert adds the member key: value after the object's last member, in the
// layout the object's members have.
func (o jsonObject) insert(key string, value any) []byte {
	var after []span
	for _, m := range o.members {
		after = append(after, span{m.start, m.value.end})
	}
	return addElement(o.data, o.at, after, func(indent, unit string) string {
		k, _ := marshal(key)
		return string(k) + ": " + indented(value, indent, unit)
	})
}

// remove cuts the member out of the object.
func (o jsonObject) remove(m jsonMember) []byte {
	var all []span
	for _, x := range o.members {
		all = append(all, span{x.start, x.value.end})
	}
	return cutElement(o.data, o.at, all, span{m.start, m.value.end})
}

// append adds value after the array's last element.
func (a jsonArray) append(value any) []byte {
	return addElement(a.data, a.at, a.elements, func(indent, unit string) string {
		return indented(value, indent, unit)
	})
}

// replace puts value in place of element i.
func (a jsonArray) replace(i int, value any) []byte {
	el := a.elements[i]
	indent := lineIndent(a.data, el.start)
	return splice(a.data, el, indented(value, indent, indentUnit(a.data, a.at, indent)))
}

// remove cuts element i out of the array.
func (a jsonArray) remove(i int) []byte {
	return cutElement(a.data, a.at, a.elements, a.elements[i])
}

// addElement adds an element, written by text with the indentation of its
// line and of one level, after the last of elems in the container at: on
// a line of its own when the elements are on lines of their own, or the
// container is empty, and after ", " when they share a line.
func addElement(data []byte, at span, elems []span, text func(indent, unit string) string) []byte {
	outer := lineIndent(data, at.start)
	if len(elems) == 0 {
		unit := "  "
		return splice(data, span{at.start + 1, at.end - 1}, "\n"+outer+unit+text(outer+unit, unit)+"\n"+outer)
	}
	last := elems[len(elems)-1]
	if !bytes.Contains(data[at.start:elems[0].start], []byte("\n")) {
		return splice(data, span{last.end, last.end}, ", "+text("", ""))
	}
	indent := lineIndent(data, last.start)
	return splice(data, span{last.end, last.end}, ",\n"+indent+text(indent, indentUnit(data, at, indent)))
}

// cutElement removes el, one of elems, from the container at with the
// separator before it, or after it for the first, so the container reads
// as if el had never been there; the last element out leaves it empty.
func cutElement(data []byte, at span, elems []span, el span) []byte {
	switch {
	case len(elems) == 1:
		return splice(data, span{at.start + 1, at.end - 1}, "")
	case el == elems[0]:
		return splice(data, span{el.start, elems[1].start}, "")
	}
	for i, x := range elems {
		if x == el {
			return splice(data, span{elems[i-1].end, el.end}, "")
		}
	}
	return data
}

// splice is data with the span replaced by text.
func splice(data []byte, s span, text string) []byte {
	out := make([]byte, 0, len(data)+len(text))
	out = append(out, data[:s.start]...)
	out = append(out, text...)
	return append(out, data[s.end:]...)
}

// lineIndent is the white space that begins the line holding offset i.
func lineIndent(data []byte, i int) string {
	line := data[bytes.LastIndexByte(data[:i], '\n')+1 : i]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// indentUnit is one level of the file's indentation: what an element's
// indent adds to its container's, two spaces when that says nothing.
func indentUnit(data []byte, container span, indent string) string {
	outer := lineIndent(data, container.start)
	if unit, ok := strings.CutPrefix(indent, outer); ok && unit != "" {
		return unit
	}
	return "  "
}

// indented is value as JSON laid out over lines, its first line at the
// cursor and the others indented by indent and one unit per level; on one
// line when unit is "".
func indented(value any, indent, unit string) string {
	raw, _ := marshal(value)
	if unit == "" {
		return string(raw)
	}
	var b bytes.Buffer
	_ = json.Indent(&b, raw, indent, unit)
	return b.String()
}
