package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The words xargs reads: where the call gives xargs its input as a
// literal text (a here-string, a here-document, echo or printf into the
// pipe), the command lines it runs are known before it runs, split as
// GNU xargs splits them. By default it splits at blanks and newlines,
// removes quotes (which keep blanks and may not span a line) and
// backslashes (which keep the next character, a newline included), and
// stops at the word -E names; -0 and -d split at one character and read
// quotes, backslashes and -E as text. -I (-i) runs the command once for
// each line, leading blanks removed, with the line in place of the
// replace string in each word; -L (-l) runs it for so many lines, a line
// that ends in a blank going on to the next; -n for so many words; and
// with none of them all the words go to one command. An input that
// reads as none of these (an unmatched quote, -s or -x, which may make
// xargs stop or split otherwise, two of -I, -L and -n) is known only when
// xargs runs: its words, as read here, only hold the command to the deny
// rules.

// xargsInput is how xargs reads its input and groups the words, from
// its options.
type xargsInput struct {
	// delimiter splits the input when delimited is set (-0, -d).
	delimiter byte
	delimited bool
	// eof is the word that ends the input (-E, -e).
	eof string
	// replace is the string -I or -i replaces with each line.
	replace string
	// lines and args are the most lines (-L, -l) and words (-n) one
	// command gets, 0 for no bound.
	lines, args int
	// exact is false when an option makes the splitting otherwise than
	// modelled here.
	exact bool
	// options is the parse, for what the words appended hide.
	options parsed
}

// xargsRead is how xargs reads its input given its parsed options, and
// false when it reads no standard input (-a names a file).
func xargsRead(p parsed) (xargsInput, bool) {
	in := xargsInput{exact: true, options: p}
	grouping := 0
	for _, g := range p.options {
		v := g.value.value
		switch g.name {
		case "a", "arg-file":
			return in, false
		case "0", "null":
			in.delimiter, in.delimited = 0, true
		case "d", "delimiter":
			c, ok := delimiterChar(v)
			in.delimiter, in.delimited, in.exact = c, true, in.exact && ok
		case "E", "e", "eof":
			in.eof = v
		case "I", "i", "replace":
			in.replace, grouping = v, grouping+1
			if !g.hasValue && g.name != "I" {
				in.replace = "{}"
			}
		case "L", "l", "max-lines":
			n, ok := 1, true
			if g.hasValue {
				n, ok = positive(v)
			}
			in.lines, in.exact, grouping = n, in.exact && ok, grouping+1
		case "n", "max-args":
			n, ok := positive(v)
			in.args, in.exact, grouping = n, in.exact && ok, grouping+1
		case "s", "max-chars", "x", "exit", "process-slot-var":
			in.exact = false
		}
		in.exact = in.exact && (!g.hasValue || g.value.literal)
	}
	in.exact = in.exact && grouping <= 1
	return in, true
}

// positive is v as a count above zero.
func positive(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	return n, err == nil && n > 0
}

// delimiterChar is the one character -d names: itself, or an escape
// xargs reads.
func delimiterChar(v string) (byte, bool) {
	if len(v) == 1 {
		return v[0], true
	}
	escapes := map[string]byte{`\n`: '\n', `\t`: '\t', `\0`: 0, `\\`: '\\', `\r`: '\r', `\f`: '\f', `\v`: '\v', `\a`: '\a', `\b`: '\b'}
	c, ok := escapes[v]
	return c, ok
}

// xargsItem is one word xargs reads, and whether an input line ends
// with it.
type xargsItem struct {
	value   string
	endLine bool
}

// items splits text into the words xargs reads, and false when xargs
// reads it otherwise than modelled (an unmatched quote).
func (in xargsInput) items(text string) ([]xargsItem, bool) {
	if in.delimited {
		var out []xargsItem
		parts := strings.Split(text, string(in.delimiter))
		if parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		for _, p := range parts {
			out = append(out, xargsItem{value: p, endLine: true})
		}
		return out, true
	}
	if in.replace != "" {
		return in.lineItems(text)
	}
	var out []xargsItem
	var b strings.Builder
	inWord, quote, escaped, prev := false, byte(0), false, byte(0)
	end := func(endLine bool) bool {
		if inWord {
			if in.eof != "" && b.String() == in.eof {
				return false
			}
			out = append(out, xargsItem{value: b.String()})
			b.Reset()
			inWord = false
		}
		if endLine && len(out) > 0 {
			out[len(out)-1].endLine = true
		}
		return true
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case escaped:
			b.WriteByte(c)
			escaped = false
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0 && c == '\n':
			return out, false
		case quote != 0:
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\':
			escaped, inWord = true, true
		case c == ' ' || c == '\t' || c == '\n':
			// A line that ends in a blank goes on to the next.
			if !end(c == '\n' && prev != ' ' && prev != '\t') {
				return out, true
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
		prev = c
	}
	if quote != 0 {
		return out, false
	}
	end(true)
	return out, true
}

// lineItems splits text into the lines xargs -I reads: each line one
// word, its leading blanks removed and its quotes and backslashes read
// as in a word, an empty line none.
func (in xargsInput) lineItems(text string) ([]xargsItem, bool) {
	var out []xargsItem
	for _, line := range strings.SplitAfter(text, "\n") {
		line = strings.TrimLeft(strings.TrimSuffix(line, "\n"), " \t")
		if line == "" {
			continue
		}
		var b strings.Builder
		quote, escaped := byte(0), false
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case escaped:
				b.WriteByte(c)
				escaped = false
			case quote != 0 && c == quote:
				quote = 0
			case quote != 0:
				b.WriteByte(c)
			case c == '\'' || c == '"':
				quote = c
			case c == '\\':
				escaped = true
			default:
				b.WriteByte(c)
			}
		}
		if quote != 0 {
			return out, false
		}
		if in.eof != "" && b.String() == in.eof {
			break
		}
		out = append(out, xargsItem{value: b.String(), endLine: true})
	}
	return out, true
}

// runs are the command lines xargs runs with the words initial, given
// the words it reads: one per line with -I, so many lines or words per
// line with -L or -n, all in one otherwise; and one with no word read
// unless -r.
func (in xargsInput) runs(initial []word, items []xargsItem) [][]word {
	if len(items) == 0 {
		if in.options.has("r", "no-run-if-empty") || in.replace != "" {
			return nil
		}
		return [][]word{initial}
	}
	var out [][]word
	if in.replace != "" {
		for _, it := range items {
			line := make([]word, len(initial))
			for i, w := range initial {
				line[i] = w
				if w.literal && strings.Contains(w.value, in.replace) {
					line[i] = word{value: strings.ReplaceAll(w.value, in.replace, it.value), literal: true}
				}
			}
			out = append(out, line)
		}
		return out
	}
	line := initial[:len(initial):len(initial)]
	words, lines := 0, 0
	for _, it := range items {
		line = append(line, word{value: it.value, literal: true})
		words++
		if it.endLine {
			lines++
		}
		if in.args > 0 && words == in.args || in.lines > 0 && lines == in.lines {
			out = append(out, line)
			line, words, lines = initial[:len(initial):len(initial)], 0, 0
		}
	}
	if words > 0 {
		out = append(out, line)
	}
	return out
}

// xargsLimit bounds the input read as one command line: past it, xargs
// may split the words into more commands than one.
const xargsLimit = 64 << 10

// xargsCommands are the command lines xargs, run as n with its options p
// and the command commands names (none: echo), runs when the call gives
// its input as a literal text, and exact when they are known; fed are
// the words it reads as far as they are known, which hold the command
// it runs to the deny rules when they are not.
func (s *splitter) xargsCommands(n syntax.Node, p parsed, commands [][]word) (runs [][]word, fed []word, exact bool) {
	in, stdin := xargsRead(p)
	if !stdin {
		return nil, nil, false
	}
	text, known := s.stdinText(n)
	if !known {
		return nil, nil, false
	}
	items, read := in.items(text)
	for _, it := range items {
		fed = append(fed, word{value: it.value, literal: true})
	}
	if !read || !in.exact || len(text) > xargsLimit {
		return nil, fed, false
	}
	initial := []word{{value: "echo", literal: true}}
	if len(commands) > 0 {
		initial = commands[0]
	}
	return in.runs(initial, items), fed, true
}
