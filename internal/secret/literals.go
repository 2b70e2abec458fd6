package secret

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// What the matcher reads off an expression's syntax: the literals one of
// which begins every match, whether it holds an assertion, and the most
// bytes a match can hold.

// maxPrefixes bounds the literals read off one expression, so a class or a
// case-folded word does not multiply into thousands.
const maxPrefixes = 64

// maxClass bounds the characters of a class a literal may run through.
const maxClass = 16

// syntaxFacts is what the matcher reads off an expression's syntax.
type syntaxFacts struct {
	// prefixes are literals one of which begins every match, nil when
	// there are none: when a match may begin with any of too many
	// strings, or with an assertion such as \b or ^ that a search started
	// at the literal would misread.
	prefixes []string
	// assertion reports that the expression holds an assertion, which
	// reads the text around a match.
	assertion bool
	// window is the bytes an anchored try need read: the most a match can
	// hold, and utf8.UTFMax more so that no rune it reads is cut; 0 when
	// that is unbounded or over maxWindow, or when the expression holds an
	// assertion, which would read the text past the window's end.
	window int
}

// readSyntax parses the expression src once for its facts; one that does
// not parse has no prefixes and is taken to hold an assertion.
func readSyntax(src string) syntaxFacts {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return syntaxFacts{assertion: true}
	}
	f := syntaxFacts{assertion: hasAssertion(re)}
	if set, _ := prefixesOf(re); !slices.Contains(set, "") {
		f.prefixes = set
	}
	if n := maxLength(re); !f.assertion && n >= 0 && n <= maxWindow {
		f.window = n + utf8.UTFMax
	}
	return f
}

// hasAssertion reports whether re holds an assertion.
func hasAssertion(re *syntax.Regexp) bool {
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		return slices.ContainsFunc(re.Sub, walk)
	}
	return walk(re)
}

// prefixesOf returns literals one of which begins every match of re, and
// whether they are whole matches, so that a concatenation may extend them
// with what follows.
func prefixesOf(re *syntax.Regexp) (set []string, whole bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		set = []string{""}
		for _, r := range re.Rune {
			runes := []rune{r}
			if re.Flags&syntax.FoldCase != 0 {
				runes = folds(r)
			}
			if len(set)*len(runes) > maxPrefixes {
				return set, false
			}
			set = join(set, runeStrings(runes))
		}
		return set, true
	case syntax.OpCharClass:
		var runes []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if len(runes)+int(re.Rune[i+1]-re.Rune[i])+1 > maxClass {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				runes = append(runes, r)
			}
		}
		return runeStrings(runes), true
	case syntax.OpCapture:
		return prefixesOf(re.Sub[0])
	case syntax.OpConcat:
		set = []string{""}
		for _, sub := range re.Sub {
			next, nextWhole := prefixesOf(sub)
			if next == nil || len(set)*len(next) > maxPrefixes {
				return set, false
			}
			set = join(set, next)
			if !nextWhole {
				return set, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		whole = true
		for _, sub := range re.Sub {
			next, nextWhole := prefixesOf(sub)
			if next == nil || len(set)+len(next) > maxPrefixes {
				return nil, false
			}
			set = append(set, next...)
			whole = whole && nextWhole
		}
		return set, whole
	}
	return nil, false
}

// folds is r with every rune it equals under simple case folding.
func folds(r rune) []rune {
	runes := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		runes = append(runes, f)
	}
	return runes
}

func runeStrings(runes []rune) []string {
	out := make([]string, len(runes))
	for i, r := range runes {
		out[i] = string(r)
	}
	return out
}

// join is every a followed by every b.
func join(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// maxRuneLen is the most bytes one of runes takes in UTF-8.
func maxRuneLen(runes []rune) int {
	n := 0
	for _, r := range runes {
		n = max(n, utf8.RuneLen(r))
	}
	return n
}

// maxLength is the most bytes a match of re can hold, -1 when unbounded.
func maxLength(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		total := 0
		for _, r := range re.Rune {
			runes := []rune{r}
			if re.Flags&syntax.FoldCase != 0 {
				runes = folds(r)
			}
			total += maxRuneLen(runes)
		}
		return total
	case syntax.OpCharClass:
		if len(re.Rune) > 0 && re.Rune[len(re.Rune)-1] < utf8.RuneSelf {
			return 1 // a class of ASCII characters matches one byte
		}
		return utf8.UTFMax
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxLength(re.Sub[0])
	case syntax.OpRepeat:
		if n := maxLength(re.Sub[0]); n >= 0 && re.Max >= 0 {
			return n * re.Max
		}
		return -1
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := maxLength(sub)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	case syntax.OpStar, syntax.OpPlus:
		return -1
	}
	return 0
}
