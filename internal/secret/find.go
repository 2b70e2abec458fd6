package secret

import (
	"regexp"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/openresponses"
)

// Pattern is a kind of secret: the name a reason and a redaction call it
// by, the expression that finds one, and the least entropy, in bits per
// byte, a match must hold to be one when above zero. Its fields are those
// of guard.Pattern, which converts to it; guard documents their meaning.
type Pattern struct {
	Name       string
	Regexp     *regexp.Regexp
	MinEntropy float64
}

// Finder finds and redacts the secrets of a list of patterns: the matches
// of their expressions, left to right and without overlap, the earlier
// pattern winning where several match at the same byte. It is safe for
// concurrent use.
type Finder struct {
	names []string
	m     *matcher
}

// New returns the finder of patterns, which it keeps: the caller copies a
// list it may change.
func New(patterns []Pattern) *Finder {
	names := make([]string, len(patterns))
	res := make([]*regexp.Regexp, len(patterns))
	entropies := make([]float64, len(patterns))
	for i, p := range patterns {
		names[i], res[i], entropies[i] = p.Name, p.Regexp, p.MinEntropy
	}
	return newFinder(names, compiledExprs(res), entropies, nil)
}

// newFinder readies exprs, named by names, each match of expression i
// kept only when it holds entropies[i] bits per byte, when above zero;
// p is their plan, or nil for newFinder to work it out.
func newFinder(names []string, exprs []expr, entropies []float64, p *plan) *Finder {
	m := newMatcherFor(exprs, haveVectors(), p)
	for i, min := range entropies {
		if min > 0 {
			m.keep(i, realSecret(exprs[i], min))
		}
	}
	return &Finder{names: names, m: m}
}

// First is the name of the first secret in text, "" when none.
func (f *Finder) First(text string) string {
	if sp, ok := f.m.first(text); ok {
		return f.names[sp.pattern]
	}
	return ""
}

// FirstInItems is the name of the first secret in the text fields of items
// that skip, when not nil, does not leave out, "" when none. It reads a
// function call's arguments as they are and then each JSON string they
// hold, decoded, as the tool will read it.
func (f *Finder) FirstInItems(items openresponses.Items, skip func(openresponses.Item) bool) string {
	var name string
	eachText(items, skip, f.m.local, func(text string) bool {
		name = f.First(text)
		return name == ""
	})
	return name
}

// RedactItems returns a deep copy of items with every secret replaced by
// its redaction, "[REDACTED NAME]", counting them in t; items are left as
// they are. A function call's arguments are redacted as redactArguments
// tells.
func (f *Finder) RedactItems(items openresponses.Items, t *Tally) openresponses.Items {
	out := items.Clone()
	eachField(out, nil, func(field *string, arguments bool) bool {
		if arguments {
			*field = f.redactArguments(*field, t)
		} else {
			*field = f.Redact(*field, t)
		}
		return true
	})
	return out
}

// redactArguments returns a function call's arguments with every secret
// replaced, counting them in t. A secret in a JSON string, read decoded as
// the tool will read it (and the decoded value read as arguments in turn,
// as eachDecoded reads it), is replaced in the decoded value and the string
// written again as JSON, so valid arguments stay valid and nothing in them
// decodes back to the secret. What is left is redacted as raw text: a
// secret outside every string, in a number say, or across a string's
// bounds. Replacing that one breaks the JSON, so a tool refuses the
// arguments rather than act on the secret.
func (f *Finder) redactArguments(args string, t *Tally) string {
	var b strings.Builder
	last := 0
	eachString(args, func(start, end int) bool {
		value := decoded(args[start:end])
		before := t.Count
		redacted := f.redactArguments(value, t)
		if t.Count == before {
			return true
		}
		if last == 0 {
			b.Grow(len(args))
		}
		b.WriteString(args[last:start])
		b.WriteString(quote(redacted))
		last = end
		return true
	})
	if last > 0 {
		b.WriteString(args[last:])
		args = b.String()
	}
	return f.Redact(args, t)
}

// Redact returns text with every secret replaced by its redaction,
// counting them in t.
func (f *Finder) Redact(text string, t *Tally) string {
	var b strings.Builder
	last := 0
	f.m.each(text, func(sp span) bool {
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		name := f.names[sp.pattern]
		b.WriteString(text[last:sp.start])
		b.WriteString(redaction(name))
		last = sp.end
		t.add(name)
		return true
	})
	if b.Len() == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// Tally counts the secrets a redaction replaced and keeps the names of
// their kinds in the order first seen.
type Tally struct {
	Count int
	Names []string
}

func (t *Tally) add(name string) {
	t.Count++
	if !slices.Contains(t.Names, name) {
		t.Names = append(t.Names, name)
	}
}
