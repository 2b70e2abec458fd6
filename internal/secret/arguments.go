package secret

import (
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A function call's arguments are JSON that a tool decodes before it acts
// on them, and an escape spells a character the raw text does not hold:
// "AKIA\u0041BCDEFGHIJKLMNOP" hands the tool an AWS key the raw text does
// not spell. A guard that read only the raw text would pass what the tool
// receives. So a [Finder], and so the guards of package guard, read
// arguments as the raw text and then as each JSON string they hold, keys
// and values, decoded as encoding/json decodes it.
//
// The strings are found by their quotes alone, without parsing the rest,
// so arguments that are not valid JSON still have what look like strings
// read: a lenient decoder, of the kind harnesses use to repair a model's
// JSON, may accept them. A string with no escape is read where it lies in
// the raw text, which costs no copy; that reads as decoding it would,
// since the regexp package reads each byte of invalid UTF-8 as U+FFFD,
// which is what encoding/json decodes it to.

// eachString calls fn with the bounds of each JSON string in args, its
// quotes included, in order, until fn returns false; it reports whether fn
// returned false. A quote with no closing quote after it ends the search.
func eachString(args string, fn func(start, end int) bool) bool {
	for at := 0; ; {
		i := strings.IndexByte(args[at:], '"')
		if i < 0 {
			return false
		}
		start := at + i
		end := stringEnd(args, start+1)
		if end < 0 {
			return false
		}
		if !fn(start, end) {
			return true
		}
		at = end
	}
}

// stringEnd is the offset just past the quote that closes a JSON string
// whose content begins at from, or -1 when none does: the first quote not
// escaped by an odd run of backslashes before it.
func stringEnd(s string, from int) int {
	for at := from; ; {
		i := strings.IndexByte(s[at:], '"')
		if i < 0 {
			return -1
		}
		q := at + i
		slashes := 0
		for j := q - 1; j >= from && s[j] == '\\'; j-- {
			slashes++
		}
		if slashes%2 == 0 {
			return q + 1
		}
		at = q + 1
	}
}

// eachDecoded calls fn with each JSON string in args, decoded, until fn
// returns false; it reports whether fn returned false. With escapedOnly it
// leaves out the strings without an escape.
//
// A decoded string is read for strings in turn, since a tool may decode a
// value that is JSON itself, arguments passed on to another tool say. Only
// a string with an escape can hold one, and each level of nesting doubles
// the backslashes a quote needs, so the depth is logarithmic in the length.
func eachDecoded(args string, escapedOnly bool, fn func(text string) bool) bool {
	return eachString(args, func(start, end int) bool {
		token := args[start:end]
		if strings.IndexByte(token, '\\') < 0 {
			return escapedOnly || fn(decoded(token))
		}
		value := decoded(token)
		return fn(value) && !eachDecoded(value, escapedOnly, fn)
	})
}

// decoded is the string a JSON string token, quotes included, stands for,
// as encoding/json decodes it: the escapes \" \\ \/ \b \f \n \r \t and
// \uXXXX read, a UTF-16 surrogate pair joined and an unpaired surrogate read
// as U+FFFD. A token with no escape is its content, as it lies. Invalid
// UTF-8 is kept as it lies too, where encoding/json writes U+FFFD for each
// bad byte: the regexp package reads each such byte as U+FFFD, so a pattern
// matches the two alike. An escape encoding/json would refuse is kept as
// written, since the reading is a guard's and a guard reads what it can.
func decoded(token string) string {
	content := token[1 : len(token)-1]
	i := strings.IndexByte(content, '\\')
	if i < 0 {
		return content
	}
	var b strings.Builder
	b.Grow(len(content))
	for ; i >= 0; i = strings.IndexByte(content, '\\') {
		b.WriteString(content[:i])
		content = content[i:]
		if len(content) == 1 {
			break
		}
		size := 2
		switch e := content[1]; e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, n := unicodeEscape(content)
			if n == 0 {
				b.WriteString(`\u`)
				break
			}
			b.WriteRune(r)
			size = n
		default:
			b.WriteString(content[:2])
		}
		content = content[size:]
	}
	b.WriteString(content)
	return b.String()
}

// unicodeEscape reads the \uXXXX escape s begins with, and the low
// surrogate's escape after it when it is a high one: the rune and the bytes
// read, U+FFFD for a surrogate without its pair, and size 0 when the four
// hex digits are not there.
func unicodeEscape(s string) (rune, int) {
	r := hex4(s)
	if r < 0 {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if strings.HasPrefix(s[6:], `\u`) {
		if pair := utf16.DecodeRune(r, hex4(s[6:])); pair != utf8.RuneError {
			return pair, 12
		}
	}
	return utf8.RuneError, 6
}

// hex4 is the value of the four hex digits after the \u s begins with, or
// -1.
func hex4(s string) rune {
	if len(s) < 6 {
		return -1
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// quote is s as a JSON string, as encoding/json writes it but for < > &,
// which it leaves as they are: a string quote rewrites may be a shell
// command's quoted word inside a value, where \u003c would change it.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
