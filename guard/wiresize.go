package guard

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/ChristopherDavenport/openresponses"
)

// The wire size of a request's items is what [Limit] bounds, and building
// the encoding to measure it costs an allocation and a copy of every byte.
// So the size is computed from the items' fields: the members each item
// and part type writes, in the shape openresponses encodes it (its "type"
// first, the members its struct tags name, empty ones left out where the
// tag says so), and each string's length as encoding/json escapes it.
// A value of a type the computation does not know, a product's own item
// or part, an unknown one kept as raw bytes, or a number encoding/json
// refuses, is measured by encoding it, so the size is always the encoding's.

// encodedSize is len(json.Marshal(items)).
func encodedSize(items openresponses.Items) (int64, error) {
	if items == nil {
		return int64(len("null")), nil
	}
	n := int64(len("[]"))
	for i, item := range items {
		if i > 0 {
			n++
		}
		size, ok := itemSize(item)
		if !ok {
			var err error
			if size, err = marshalledSize(item); err != nil {
				return 0, err
			}
		}
		n += size
	}
	return n, nil
}

// itemSize is the length of item's encoding, and false when the
// computation does not know its type.
func itemSize(item openresponses.Item) (int64, bool) {
	var o object
	switch it := item.(type) {
	case nil:
		return null, true
	case *openresponses.Message:
		if it == nil {
			return null, true
		}
		content, ok := contentsSize(it.Content)
		o.typed(it.ItemType())
		o.omitEmpty("id", it.ID)
		o.omitEmpty("status", string(it.Status))
		o.str("role", string(it.Role))
		o.member("content", content)
		o.omitEmpty("phase", string(it.Phase))
		return o.n, ok
	case *openresponses.FunctionCall:
		if it == nil {
			return null, true
		}
		o.typed(it.ItemType())
		o.omitEmpty("id", it.ID)
		o.omitEmpty("status", string(it.Status))
		o.str("call_id", it.CallID)
		o.str("name", it.Name)
		o.str("arguments", it.Arguments)
		return o.n, true
	case *openresponses.FunctionCallOutput:
		if it == nil {
			return null, true
		}
		output, ok := quotedSize(it.Output.Text), true
		if it.Output.Parts != nil {
			output, ok = contentsSize(it.Output.Parts)
		}
		o.typed(it.ItemType())
		o.omitEmpty("id", it.ID)
		o.omitEmpty("status", string(it.Status))
		o.str("call_id", it.CallID)
		o.member("output", output)
		return o.n, ok
	case *openresponses.ReasoningItem:
		if it == nil {
			return null, true
		}
		summary, ok := contentsSize(it.Summary)
		o.typed(it.ItemType())
		o.omitEmpty("id", it.ID)
		o.omitEmpty("status", string(it.Status))
		o.member("summary", summary)
		if len(it.Content) > 0 {
			content, contentOK := contentsSize(it.Content)
			o.member("content", content)
			ok = ok && contentOK
		}
		o.omitEmpty("encrypted_content", it.EncryptedContent)
		return o.n, ok
	case *openresponses.Compaction:
		if it == nil {
			return null, true
		}
		o.typed(it.ItemType())
		o.omitEmpty("id", it.ID)
		o.str("encrypted_content", it.EncryptedContent)
		o.omitEmpty("created_by", it.CreatedBy)
		o.omitEmpty("status", string(it.Status))
		return o.n, true
	case *openresponses.ItemReference:
		if it == nil {
			return null, true
		}
		o.typed(it.ItemType())
		o.str("id", it.ID)
		return o.n, true
	}
	return 0, false
}

// contentsSize is the length of a list of parts' encoding, nil written as
// [], and false when a part is of a type the computation does not know or
// holds a number encoding/json refuses.
func contentsSize(parts openresponses.Contents) (int64, bool) {
	n := int64(len("[]"))
	for i, part := range parts {
		if i > 0 {
			n++
		}
		size, ok := partSize(part)
		if !ok {
			return 0, false
		}
		n += size
	}
	return n, true
}

// partSize is the length of a part's encoding, as contentsSize reads it.
func partSize(part openresponses.Content) (int64, bool) {
	var o object
	switch p := part.(type) {
	case nil:
		return null, true
	case *openresponses.InputText:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.str("text", p.Text)
	case *openresponses.OutputText:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.str("text", p.Text)
		if len(p.Annotations) > 0 {
			o.member("annotations", listSize(p.Annotations, annotationSize))
		}
		if len(p.Logprobs) > 0 {
			logprobs, ok := floatListSize(p.Logprobs, logProbSize)
			if !ok {
				return 0, false
			}
			o.member("logprobs", logprobs)
		}
	case *openresponses.Refusal:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.str("refusal", p.Refusal)
	case *openresponses.Text:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.str("text", p.Text)
	case *openresponses.SummaryText:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.str("text", p.Text)
	case *openresponses.ReasoningText:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.str("text", p.Text)
	case *openresponses.InputImage:
		if p == nil {
			return null, true
		}
		o.typed(p.ContentType())
		o.omitEmpty("image_url", p.ImageURL)
		o.omitEmpty("file_id", p.FileID)
		o.omitEmpty("detail", p.Detail)
	default:
		return 0, false
	}
	return o.n, true
}

func annotationSize(a openresponses.Annotation) int64 {
	var o object
	o.open()
	o.str("type", a.Type)
	o.omitEmpty("url", a.URL)
	o.omitEmpty("title", a.Title)
	o.omitEmpty("file_id", a.FileID)
	o.omitEmpty("filename", a.Filename)
	if a.StartIndex != 0 {
		o.member("start_index", intSize(int64(a.StartIndex)))
	}
	if a.EndIndex != 0 {
		o.member("end_index", intSize(int64(a.EndIndex)))
	}
	return o.n
}

func logProbSize(p openresponses.LogProb) (int64, bool) {
	logprob, ok := floatSize(p.Logprob)
	if !ok {
		return 0, false
	}
	var o object
	o.open()
	o.str("token", p.Token)
	o.member("logprob", logprob)
	if len(p.Bytes) > 0 {
		o.member("bytes", listSize(p.Bytes, func(b int) int64 { return intSize(int64(b)) }))
	}
	if len(p.TopLogprobs) > 0 {
		top, ok := floatListSize(p.TopLogprobs, topLogProbSize)
		if !ok {
			return 0, false
		}
		o.member("top_logprobs", top)
	}
	return o.n, true
}

func topLogProbSize(p openresponses.TopLogProb) (int64, bool) {
	logprob, ok := floatSize(p.Logprob)
	if !ok {
		return 0, false
	}
	var o object
	o.open()
	o.str("token", p.Token)
	o.member("logprob", logprob)
	if len(p.Bytes) > 0 {
		o.member("bytes", listSize(p.Bytes, func(b int) int64 { return intSize(int64(b)) }))
	}
	return o.n, true
}

// listSize is the length of a non-nil list's encoding.
func listSize[T any](list []T, size func(T) int64) int64 {
	n := int64(len("[]")) + int64(len(list)) - 1
	for _, v := range list {
		n += size(v)
	}
	return n
}

// floatListSize is listSize for elements that hold a float, which
// encoding/json may refuse.
func floatListSize[T any](list []T, size func(T) (int64, bool)) (int64, bool) {
	n := int64(len("[]")) + int64(len(list)) - 1
	for _, v := range list {
		s, ok := size(v)
		if !ok {
			return 0, false
		}
		n += s
	}
	return n, true
}

// null is the length of "null".
const null = int64(len("null"))

// object counts the length of a JSON object's encoding as its members are
// added in order.
type object struct {
	n       int64
	members int
}

// open starts the count at "{}".
func (o *object) open() { o.n = int64(len("{}")) }

// typed starts the count at "{}" with the "type" member openresponses
// writes first.
func (o *object) typed(typ string) {
	o.open()
	o.str("type", typ)
}

// member adds a member whose key needs no escape and whose value's
// encoding is size bytes long.
func (o *object) member(key string, size int64) {
	if o.members > 0 {
		o.n++
	}
	o.members++
	o.n += int64(len(key)) + int64(len(`"":`)) + size
}

func (o *object) str(key, value string) { o.member(key, quotedSize(value)) }

// omitEmpty adds a string member tagged omitempty.
func (o *object) omitEmpty(key, value string) {
	if value != "" {
		o.str(key, value)
	}
}

// quotedSize is the length of s as encoding/json writes a string: quoted,
// with \" \\ \b \f \n \r \t for those bytes, \u00XX for the other control
// bytes and for < > & (written so a page that embeds the JSON does not read
// them as markup), \ufffd for each byte of invalid UTF-8, and \u2028 and
// \u2029 for the line and paragraph separators.
func quotedSize(s string) int64 {
	n := int64(len(s)) + 2
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			n += int64(escapeGrowth[b])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += int64(len(`\ufffd`)) - 1
		case r == '\u2028' || r == '\u2029':
			n += int64(len(`\u2028`)) - int64(size)
		}
		i += size
	}
	return n
}

// escapeGrowth is, per ASCII byte, how many bytes encoding/json's escape of
// it adds to the byte itself.
var escapeGrowth = func() (g [utf8.RuneSelf]uint8) {
	for b := range g {
		switch b {
		case '"', '\\', '\b', '\f', '\n', '\r', '\t':
			g[b] = 1
		case '<', '>', '&':
			g[b] = 5
		default:
			if b < 0x20 {
				g[b] = 5
			}
		}
	}
	return g
}()

// intSize is the length of n in decimal.
func intSize(n int64) int64 {
	var buf [20]byte
	return int64(len(strconv.AppendInt(buf[:0], n, 10)))
}

// floatSize is the length of f as encoding/json writes a float64, and false
// for the NaN and infinities it refuses: the shortest decimal that reads
// back as f, in exponent form below 1e-6 and from 1e21, with no leading
// zero in a negative exponent.
func floatSize(f float64) (int64, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, format, -1, 64)
	n := int64(len(b))
	if format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		n--
	}
	return n, true
}

// marshalledSize is len(json.Marshal(item)), counted through a writer that
// keeps nothing.
func marshalledSize(item openresponses.Item) (int64, error) {
	var c counter
	if err := json.NewEncoder(&c).Encode(item); err != nil {
		return 0, err
	}
	return c.n - 1, nil // the newline the encoder ends a value with
}

// counter is an io.Writer that only counts.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
