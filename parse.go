package agentpolicy

import (
	"iter"
	"strconv"
	"strings"
)

// ParseRules reads a list of rules in the grammar of a skill's
// allowed-tools line (RFC 0001 §2). Tokens are separated by whitespace.
// Each is a tool name, or a tool name followed by one specifier in
// parentheses: "read bash(git status:*) mcp__*".
//
// # Tokens
//
// Only the six ASCII whitespace characters separate tokens: space, tab,
// newline, vertical tab, form feed, carriage return. They separate only
// outside parentheses, so a specifier may hold spaces. Other characters that look
// like space, a no-break space or U+0085, belong to the name or specifier
// they sit in. Parentheses inside a specifier are literal while they
// balance: "Edit(./Finance (2024)/**)" has the specifier
// "./Finance (2024)/**".
//
// # Errors
//
// The parentheses of the whole text are checked before anything else. So
// an unbalanced parenthesis is the error reported, wherever it is. Then
// each token must have:
//   - a name;
//   - a specifier that is not empty;
//   - a carve-out that is more than "!";
//   - nothing after its closing parenthesis.
//
// One bad token fails the whole list, since a policy missing one of its
// rules is a different policy. The error quotes the token.
//
// # Results
//
// Empty or all-whitespace text gives no rules and no error. The rules have
// no [Source] and no Note; [Merge] stamps the source. [Rule.String] writes
// each rule back as the token it was read from.
func ParseRules(s string) ([]Rule, error) {
	n := 0
	for token := range ruleTokens(s) {
		if !balanced(token) {
			return nil, &grammarError{kind: kindUnbalanced, token: token}
		}
		n++
	}
	if n == 0 {
		return nil, nil
	}
	rules := make([]Rule, 0, n)
	for token := range ruleTokens(s) {
		r, err := parseToken(token)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// parseToken reads one token whose parentheses balance. Its faults are
// reported in the order they are read, left to right: the name, then the
// specifier, then what follows it.
func parseToken(token string) (Rule, error) {
	name, rest, hasSpec := strings.Cut(token, "(")
	if name == "" {
		return Rule{}, &grammarError{kind: kindMissingName, token: token}
	}
	if !hasSpec {
		return Rule{Tool: name}, nil
	}
	end := closingParen(rest)
	spec := rest[:end]
	switch {
	case spec == "":
		return Rule{}, &grammarError{kind: kindEmptySpec, token: token}
	case spec == "!":
		return Rule{}, &grammarError{kind: kindEmptyCarveOut, token: token}
	case end+1 != len(rest):
		return Rule{}, &grammarError{kind: kindTextAfterSpec, token: token}
	}
	return Rule{Tool: name, Spec: spec}, nil
}

// closingParen returns the position in s of the parenthesis that closes one
// already open before s. The caller has checked that it exists.
func closingParen(s string) int {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// ruleTokens yields the tokens of s: the runs between separators, where a
// separator inside parentheses separates nothing. A stray ")" opens
// nothing, and an unclosed "(" runs its token to the end of s, so the
// token an unbalanced parenthesis sits in is the token the error quotes.
func ruleTokens(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		depth := 0
		start := -1
		for i := 0; i < len(s); i++ {
			c := s[i]
			if depth == 0 && isSeparator(c) {
				if start >= 0 && !yield(s[start:i]) {
					return
				}
				start = -1
				continue
			}
			if start < 0 {
				start = i
			}
			switch {
			case c == '(':
				depth++
			case c == ')' && depth > 0:
				depth--
			}
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// separators are the six ASCII whitespace characters, the only characters
// that separate tokens.
const separators = " \t\n\v\f\r"

// isSeparator reports whether c is one of the separators.
func isSeparator(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// balanced reports whether every parenthesis of token closes one it opened
// and every one it opened is closed.
func balanced(token string) bool {
	depth := 0
	for i := 0; i < len(token); i++ {
		switch token[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return false
			}
			depth--
		}
	}
	return depth == 0
}

// validateRule checks a rule a product built by hand the way the grammar
// checks a parsed one, so [Build] refuses what [ParseRules] would: its
// token, [Rule.String], must read back as this very rule. A bare rule,
// Spec "", is fine; a Spec of "!" alone is an empty carve-out. The error
// quotes the whole token. A name holding a separator or a parenthesis
// reads back as other rules, and is refused as kindInvalidName where the
// grammar has no error of its own for the token.
func validateRule(r Rule) error {
	if readsBack(r) {
		return nil
	}
	return checkToken(r)
}

// readsBack reports the common case of a rule whose token reads back as
// the rule, told without writing the token, as [Build] tells it of every
// rule of a policy: a name of neither separators nor parentheses, and a
// specifier that is not "!" and whose parentheses balance. A rule it does
// not report may still be valid; [checkToken] decides that.
func readsBack(r Rule) bool {
	return r.Tool != "" && !strings.ContainsAny(r.Tool, separators+"()") &&
		(r.Spec == "" || r.Spec != "!" && balanced(r.Spec))
}

// checkToken is [validateRule] on the rule's token.
func checkToken(r Rule) error {
	token := r.String()
	switch {
	case r.Tool == "":
		return &grammarError{kind: kindMissingName, token: token}
	case strings.ContainsAny(r.Tool, separators):
		return &grammarError{kind: kindInvalidName, token: token}
	case !balanced(token):
		return &grammarError{kind: kindUnbalanced, token: token}
	}
	parsed, err := parseToken(token)
	if err != nil {
		return err
	}
	if parsed.Tool != r.Tool || parsed.Spec != r.Spec {
		return &grammarError{kind: kindInvalidName, token: token}
	}
	return nil
}

// grammarError is a token the grammar refuses.
type grammarError struct{ kind, token string }

// The kinds of grammarError. The first five are the grammar's and the
// conformance corpus names them; kindInvalidName is a hand-built rule's
// only, since a parsed name can hold neither a separator nor a parenthesis.
const (
	kindUnbalanced    = "unbalanced_parentheses"
	kindMissingName   = "missing_tool_name"
	kindEmptySpec     = "empty_specifier"
	kindEmptyCarveOut = "empty_carve_out"
	kindTextAfterSpec = "text_after_specifier"
	kindInvalidName   = "invalid_tool_name"
)

// grammarTexts says, for each kind, what is wrong with the token.
var grammarTexts = map[string]string{
	kindUnbalanced:    "unbalanced parentheses",
	kindMissingName:   "missing tool name",
	kindEmptySpec:     "empty specifier",
	kindEmptyCarveOut: "empty carve-out",
	kindTextAfterSpec: "text after the specifier",
	kindInvalidName:   "whitespace or a parenthesis in the tool name",
}

// Error quotes the token and says what is wrong with it:
// agentpolicy: rule "Bash(git status": unbalanced parentheses.
func (e *grammarError) Error() string {
	return "agentpolicy: rule " + strconv.Quote(e.token) + ": " + grammarTexts[e.kind]
}
