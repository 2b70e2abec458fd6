package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word is one word of a command as the shell reads it.
type word struct {
	// value is the word with quotes and backslashes removed and ANSI-C
	// strings decoded; an expansion in it is kept as written.
	value string
	// literal is set when the word holds no expansion, so value is what
	// the command receives.
	literal bool
	// pattern is set when an unquoted glob character makes the shell
	// replace the word with the names of files.
	pattern bool
	// tilde is set when an unquoted tilde starts the word, or follows
	// "=" or ":" in it, where the shell may replace it with a directory.
	tilde bool
	// braces is set when the word, read unexpanded, has braces the shell
	// expands; a command's words are expanded before they are read.
	braces bool
	// holdsCode is set when a quoted or escaped part of the word holds
	// "$(" or a backquote: text to the parser, code to whatever runs the
	// value later.
	holdsCode bool
	// tree, when set, marks a directory a recursive reader reads whole,
	// with the filters that say which of its files it reads.
	tree *tree
	// confined marks a glob operand a command reads that names files
	// only in the directory it is relative to ([program.confine]).
	confined bool
	// pos and end are where the word starts and ends in the source.
	pos, end uint
	// src is the word as parsed, when it is not literal: the values it
	// may take are read from it (possible.go).
	src *syntax.Word
}

// maxWords bounds the words brace expansion may make of one command.
const maxWords = 1024

// expandWords reads a command's words, expanding braces as the shell
// does, so "{rm,-rf,/}" is the three words it runs. A command whose braces
// would make more than maxWords words is read unexpanded, with a reason.
func (s *splitter) expandWords(ws []*syntax.Word) ([]word, string) {
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		if known, ok := s.positionalWords(w); ok {
			out = append(out, known...)
			continue
		}
		if s.posix || !hasBraces(w) {
			out = append(out, s.wordOf(w))
			continue
		}
		split := &syntax.Word{Parts: slices.Clone(w.Parts)}
		if !syntax.SplitBraces(split) {
			out = append(out, s.wordOf(w))
			continue
		}
		for ew, err := range expand.BracesSeq(nil, split) {
			if err != nil || len(out) >= maxWords {
				return s.words(ws), "brace expansion makes more words than the splitter reads"
			}
			read := s.wordOf(ew)
			if read.value == "" && !quoted(ew) {
				// The shell drops an unquoted empty word: "{,rm} x" runs "rm x".
				continue
			}
			read.pos, read.end = w.Pos().Offset(), w.End().Offset()
			out = append(out, read)
		}
	}
	return out, ""
}

// quoted reports whether a word has a quoted part, which keeps it a word
// of its own even when it is empty.
func quoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// words reads words without expanding braces.
func (s *splitter) words(ws []*syntax.Word) []word {
	out := make([]word, len(ws))
	for i, w := range ws {
		out[i] = s.wordOf(w)
	}
	return out
}

// hasBraces reports whether an unquoted part of w has a brace.
func hasBraces(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// wordOf reads one word.
func (s *splitter) wordOf(w *syntax.Word) word {
	out := word{literal: true, pos: w.Pos().Offset(), end: w.End().Offset()}
	if len(w.Parts) == 1 {
		// Most words are one plain literal or one quoted string, which
		// are their own value.
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '\\') < 0 && strings.IndexByte(p.Value, '{') < 0 {
				out.value, out.pattern = p.Value, strings.ContainsAny(p.Value, "*?") || bracketed(p.Value)
				out.tilde = hasTilde(p.Value, true)
				out.holdsCode = strings.Contains(p.Value, "`")
				return out
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				out.value = p.Value
				out.holdsCode = strings.Contains(p.Value, "$(") || strings.Contains(p.Value, "`")
				return out
			}
		}
	}
	var b strings.Builder
	bracket := false
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			glob, open := unquote(&b, p.Value)
			out.pattern, bracket = out.pattern || glob, bracket || open
			out.tilde = out.tilde || hasTilde(p.Value, i == 0)
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unquoteDouble(l.Value))
					continue
				}
				if cs, ok := q.(*syntax.CmdSubst); ok {
					if text, ok := literalText(cs); ok {
						b.WriteString(text)
						continue
					}
				}
				out.literal = false
				b.WriteString(s.text(q))
			}
		case *syntax.ExtGlob:
			out.pattern = true
			b.WriteString(s.text(p))
		default:
			out.literal = false
			b.WriteString(s.text(p))
		}
	}
	out.value = b.String()
	if !out.literal {
		out.src = w
	}
	out.pattern = out.pattern || bracket && bracketed(out.value)
	out.braces = expandsBraces(w)
	if out.literal {
		out.holdsCode = strings.Contains(out.value, "$(") || strings.Contains(out.value, "`")
	} else {
		out.holdsCode = literalHoldsCode(w)
	}
	return out
}

// hasTilde reports whether an unquoted literal has a tilde the shell may
// expand: at the start of the word (first), or after "=" or ":", where
// bash expands one in a word that reads as an assignment.
func hasTilde(lit string, first bool) bool {
	return first && strings.HasPrefix(lit, "~") || strings.Contains(lit, "=~") || strings.Contains(lit, ":~")
}

// expandsBraces reports whether brace expansion changes the word.
func expandsBraces(w *syntax.Word) bool {
	if !hasBraces(w) {
		return false
	}
	split := &syntax.Word{Parts: slices.Clone(w.Parts)}
	return syntax.SplitBraces(split) && expands(split.Parts)
}

// expands reports whether the parts hold a brace expansion that makes
// other words than the one written: a sequence or a list of two or more,
// not "{a}", which the shell leaves as it is.
func expands(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if b, ok := p.(*syntax.BraceExp); ok && (b.Sequence || len(b.Elems) > 1 || expands(b.Elems[0].Parts)) {
			return true
		}
	}
	return false
}

// literalHoldsCode reports whether a quoted part of a word that also
// holds expansions has "$(" or a backquote in it.
func literalHoldsCode(w *syntax.Word) bool {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			unquote(&b, p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unquoteDouble(l.Value))
				}
			}
		}
		b.WriteByte(' ')
	}
	return strings.Contains(b.String(), "$(") || strings.Contains(b.String(), "`")
}

// unquote writes an unquoted literal with its backslashes removed and
// reports whether it has a "*" or "?" the backslashes left active, a glob,
// and whether it has such a "[", which is one when a "]" follows it.
func unquote(b *strings.Builder, lit string) (glob, bracket bool) {
	for i := 0; i < len(lit); i++ {
		switch c := lit[i]; c {
		case '\\':
			if i+1 < len(lit) {
				i++
				if lit[i] != '\n' {
					b.WriteByte(lit[i])
				}
			}
		case '*', '?':
			glob = true
			b.WriteByte(c)
		case '[':
			bracket = true
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return glob, bracket
}

// bracketed reports whether v has a "[" with a "]" after it, which makes
// a bracket expression of a glob; "[" alone, the test command, is none.
func bracketed(v string) bool {
	open := strings.IndexByte(v, '[')
	return open >= 0 && strings.LastIndexByte(v, ']') > open
}

// unquoteDouble removes the backslashes a double-quoted literal gives a
// meaning to: before $, `, ", \ and a newline.
func unquoteDouble(lit string) string {
	if strings.IndexByte(lit, '\\') < 0 {
		return lit
	}
	var b strings.Builder
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c == '\\' && i+1 < len(lit) {
			switch lit[i+1] {
			case '$', '`', '"', '\\':
				i++
				c = lit[i]
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ansiC decodes the body of a $'...' string as bash does, which ends the
// string at an escape that makes a NUL: $'rm\0x' is "rm".
func ansiC(body string) string {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 == len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'c':
			if i+1 < len(body) {
				i++
				if body[i]&0x1f == 0 {
					return b.String()
				}
				b.WriteByte(body[i] & 0x1f)
			} else {
				b.WriteString(`\c`)
			}
		case 'x', 'u', 'U':
			digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			n, end := number(body, i+1, digits, 16)
			if end == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if n == 0 {
				return b.String()
			}
			if e == 'x' {
				b.WriteByte(byte(n))
			} else {
				writeCodePoint(&b, n)
			}
			i = end - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, end := number(body, i, 3, 8)
			if byte(n) == 0 {
				return b.String()
			}
			b.WriteByte(byte(n))
			i = end - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// writeCodePoint writes n as bash does: in the original UTF-8 scheme of
// up to six bytes, surrogates and values past U+10FFFF included, and
// nothing past 0x7FFFFFFF.
func writeCodePoint(b *strings.Builder, n uint64) {
	switch {
	case n < 0x80:
		b.WriteByte(byte(n))
		return
	case n >= 0x80000000:
		return
	}
	// Two bytes carry 11 bits, and each byte more 5 bits more.
	size := 2
	for limit := uint64(0x800); n >= limit; limit <<= 5 {
		size++
	}
	var buf [6]byte
	for i := size - 1; i > 0; i-- {
		buf[i] = 0x80 | byte(n&0x3f)
		n >>= 6
	}
	buf[0] = byte(0xff<<(8-size)) | byte(n)
	b.Write(buf[:size])
}

// number reads at most max digits of the base from s at i, returning the
// value and where the digits end.
func number(s string, i, max, base int) (uint64, int) {
	end := i
	for end < len(s) && end-i < max && isDigit(s[end], base) {
		end++
	}
	n, _ := strconv.ParseUint(s[i:end], base, 32)
	return n, end
}

// isDigit reports whether c is a digit of base 8 or 16.
func isDigit(c byte, base int) bool {
	if base == 8 {
		return '0' <= c && c <= '7'
	}
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// join is the normalised command: its words, an empty one shown as ”.
func join(words []word) string {
	var b strings.Builder
	n := len(words)
	for _, w := range words {
		n += len(w.value) + 2
	}
	b.Grow(n)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.value == "" {
			b.WriteString("''")
		} else {
			b.WriteString(w.value)
		}
	}
	return b.String()
}

// values are the words' values.
func values(words []word) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w.value
	}
	return out
}

// allLiteral reports whether no word holds an expansion.
func allLiteral(words []word) bool {
	for _, w := range words {
		if !w.literal {
			return false
		}
	}
	return true
}

// nameUnseen is why a command's name hides what runs: an expansion or a
// glob makes the name known only when the command runs.
func nameUnseen(name word) string {
	switch {
	case !name.literal:
		return "the command name " + name.value + " is known only when it runs"
	case name.pattern:
		return "the command name " + name.value + " is a pattern the shell expands"
	case strings.Contains(name.value, "{}"):
		return "the command name " + name.value + " is replaced by find or xargs when it runs"
	case name.tilde && name.value != "~" && !strings.HasPrefix(name.value, "~/"):
		// ~+ is the working directory, ~- the previous one, ~user a home.
		return "the command name " + name.value + " starts with a tilde bash expands when it runs"
	}
	return ""
}

// assignments is the normalised text of assignments that run on their
// own: "x=1 y=2".
func (s *splitter) assignments(as []*syntax.Assign) string {
	parts := make([]string, 0, len(as))
	for _, a := range as {
		parts = append(parts, s.assignment(a))
	}
	return strings.Join(parts, " ")
}

// assignment is one assignment's normalised text.
func (s *splitter) assignment(a *syntax.Assign) string {
	if a.Name == nil {
		return s.wordOf(a.Value).value
	}
	op := "="
	if a.Append {
		op = "+="
	}
	switch {
	case a.Naked:
		return a.Name.Value
	case a.Array != nil:
		return a.Name.Value + op + s.text(a.Array)
	case a.Value != nil:
		return a.Name.Value + op + s.wordOf(a.Value).value
	}
	return a.Name.Value + op
}
