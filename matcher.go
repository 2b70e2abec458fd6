package agentpolicy

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Matcher reports whether a rule's specifier matches one subject's
// arguments. A product registers one for every tool whose rules take
// specifiers ([ToolMatcher]); [Build] refuses a rule with a specifier for a
// tool that has none, rather than letting the rule silently match nothing.
// A carve-out's pattern ([Rule.CarveOut]) is given to the same Matcher.
//
// The engine calls a Matcher from many goroutines at once and on every
// decision, so it must be safe for concurrent use and should be cheap.
type Matcher func(spec string, args json.RawMessage) bool

// GlobMatcher returns the reference's pattern language over the string
// member field of the arguments, the language a settings file copied from
// the reference's documentation is written in:
//
//   - "*" stands for any run of characters, spaces included, anywhere:
//     "git log * main" matches "git log --oneline main" and "* --version"
//     matches "node --version";
//   - the space is part of the pattern: "ls *" matches "ls -la" but neither
//     "ls" nor "lsof", while "ls*" matches "lsof";
//   - a trailing ":*" is a wildcard at a word boundary, and the only
//     boundary is a space: "ls:*" matches "ls" and "ls -la", not "lsof" and
//     not "ls" followed by a tab;
//   - "*" and ":*" on their own match every string, the empty one included;
//   - a pattern without a wildcard matches the whole value exactly;
//   - nothing folds case.
//
// A missing member, a member that is not a string, and arguments that are
// empty or are not one JSON document match nothing. When the member appears
// twice the last one counts, as encoding/json decodes it.
//
// A pattern sees only the string it is given. A compound command is split
// into its parts by the tool's [Subjects], which is what keeps
// "git status:*" from allowing "git status && rm -rf /".
//
// Matching takes time linear in the arguments for a given pattern, with no
// backtracking, and allocates nothing unless the member's key or value
// carries JSON escapes or invalid UTF-8.
func GlobMatcher(field string) Matcher {
	return func(spec string, args json.RawMessage) bool {
		value, ok := stringField(args, field)
		if !ok {
			return false
		}
		if spec == ":*" {
			return true
		}
		if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
			return globMatch(prefix, value, false) || globMatch(prefix, value, true)
		}
		return globMatch(spec, value, false)
	}
}

// PrefixMatcher returns the simplest useful language over the string member
// field of the arguments: a specifier "<prefix>:*" matches every value that
// begins with prefix, and any other specifier matches the whole value
// exactly. A missing member, one that is not a string, and arguments that
// are empty or not JSON match nothing, as with [GlobMatcher].
//
// It is not the reference's language, and reads the same patterns
// differently: "ls:*" matches "lsof" here, and a "*" anywhere but in the
// trailing ":*" is a literal star, so "git log * main" matches nothing a
// shell would run. A settings file copied from the reference's
// documentation needs [GlobMatcher].
func PrefixMatcher(field string) Matcher {
	return func(spec string, args json.RawMessage) bool {
		value, ok := stringField(args, field)
		if !ok {
			return false
		}
		if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
			return len(value) >= len(prefix) && string(value[:len(prefix)]) == prefix
		}
		return string(value) == spec
	}
}

// Subject is one thing the policy is decided on. A call is one subject, its
// own arguments, unless its tool's [Subjects] splits it: a shell command
// into its subcommands, say, each decided on its own and the verdicts
// folded, the strictest winning.
type Subject struct {
	// Args is the subject as the tool's [Matcher] reads it.
	Args json.RawMessage
	// Tool, when set, decides the subject under another tool's rules, as a
	// shell redirect's target is held to the file tool's rules. Empty means
	// the tool that was called.
	Tool string
	// Text is how a prompt or a reason shows the subject: "rm -rf /".
	Text string
	// Constrain marks a subject that can only make the call stricter. It
	// is held to its tool's deny and ask rules, with carve-outs and
	// confinement applied, and to nothing else: it never
	// allows, the default never applies to it, and when no deny or ask rule
	// matches it adds nothing to the fold. A skill tool that will read
	// ".env" reports that read as a constraint, so the call is asked about
	// under "read(.env:*)" even though the skill itself is allowed. When
	// every subject a splitter returns is a constraint, the call's own
	// arguments are decided first as an ordinary subject. It is an
	// addition to the reference's subject, which has no such notion.
	Constrain bool
	// Unseen, when set, says why the subject runs code no rule can read:
	// "eval runs a string made when it runs", say, or "LD_PRELOAD changes
	// what the command loads". A rule matches the subject's text, not
	// the hidden code, so no rule and no default may allow it: a deny
	// rule blocks it and an ask rule asks, as for any subject, and
	// otherwise it is asked about with Unseen in the reason, whatever
	// the allow rules and the default say. A call that runs confined is
	// decided as if Unseen were empty, since the sandbox bounds what the
	// hidden code can do. It is an addition to the reference's subject,
	// which has no such notion.
	Unseen string
}

// Subjects splits one call's arguments into the subjects the policy decides,
// after whatever normalisation the tool needs: a shell tool splits a command
// on its operators and strips wrappers, a file tool resolves its path. Most
// tools are one subject per call and register no splitter. The splitter is
// the product's; this package holds no shell parser.
//
// A split fails closed: an error blocks the call with the error as the
// reason, and so does a split that returns no subjects.
type Subjects func(args json.RawMessage) ([]Subject, error)

// ToolMatcher is what a product registers for one tool in [Build]: how the
// tool's specifiers are matched and, when one call holds several subjects,
// how to split it.
type ToolMatcher struct {
	// Match reads the tool's specifiers. A tool without one cannot have
	// rules with specifiers, carve-outs included.
	Match Matcher
	// Subjects splits a call; nil for a tool whose call is one subject.
	Subjects Subjects
}

// stringField returns the string member field of the JSON object args,
// decoded, and whether there is one. It reports false for args that are
// not exactly one valid JSON document, for a document that is not an
// object, and for a member that is absent or not a string; when the member
// repeats, the last one counts. It reads args once, validating as it goes,
// and allocates only to decode a key or value with escapes or invalid UTF-8.
func stringField(args []byte, field string) ([]byte, bool) {
	s := jsonScanner{data: args}
	s.space()
	if !s.next('{') {
		return nil, false
	}
	var value []byte
	s.space()
	if !s.next('}') {
		for {
			key, ok := s.string()
			if !ok {
				return nil, false
			}
			s.space()
			if !s.next(':') {
				return nil, false
			}
			s.space()
			start := s.pos
			if !s.value(1) {
				return nil, false
			}
			if sameString(key, field) {
				value = s.data[start:s.pos]
			}
			s.space()
			if s.next('}') {
				break
			}
			if !s.next(',') {
				return nil, false
			}
			s.space()
		}
	}
	s.space()
	if s.pos != len(s.data) || len(value) == 0 || value[0] != '"' {
		return nil, false
	}
	return decodeString(value)
}

// sameString reports whether the JSON string literal raw, quotes included,
// decodes to want.
func sameString(raw []byte, want string) bool {
	s, ok := decodeString(raw)
	return ok && string(s) == want
}

// decodeString returns the contents of the JSON string literal raw, quotes
// included, as encoding/json decodes them: escapes resolved and invalid
// UTF-8 replaced. A literal with neither is its own contents, which is the
// common case and costs no allocation.
func decodeString(raw []byte) ([]byte, bool) {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return body, true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

// maxJSONDepth is encoding/json's limit on nesting; a document nested
// deeper is not valid to it, and so matches nothing here either.
const maxJSONDepth = 10000

// jsonScanner validates JSON text as RFC 8259 and encoding/json define it,
// one value at a time, without building anything.
type jsonScanner struct {
	data []byte
	pos  int
}

// peek returns the next byte, or 0 at the end.
func (s *jsonScanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// next consumes c when it is the next byte.
func (s *jsonScanner) next(c byte) bool {
	if s.peek() == c && s.pos < len(s.data) {
		s.pos++
		return true
	}
	return false
}

// space skips JSON whitespace.
func (s *jsonScanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value consumes one JSON value inside depth open containers.
func (s *jsonScanner) value(depth int) bool {
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.string()
		return ok
	case c == '{' || c == '[':
		return s.container(depth + 1)
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

// container consumes an object or an array at the given depth.
func (s *jsonScanner) container(depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	object := s.peek() == '{'
	closing := byte(']')
	if object {
		closing = '}'
	}
	s.pos++
	s.space()
	if s.next(closing) {
		return true
	}
	for {
		if object {
			if s.peek() != '"' {
				return false
			}
			if _, ok := s.string(); !ok {
				return false
			}
			s.space()
			if !s.next(':') {
				return false
			}
			s.space()
		}
		if !s.value(depth) {
			return false
		}
		s.space()
		if s.next(closing) {
			return true
		}
		if !s.next(',') {
			return false
		}
		s.space()
	}
}

// string consumes a string literal and returns it, quotes included.
func (s *jsonScanner) string() ([]byte, bool) {
	start := s.pos
	if !s.next('"') {
		return nil, false
	}
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		s.pos++
		switch {
		case c == '"':
			return s.data[start:s.pos], true
		case c < 0x20:
			return nil, false
		case c == '\\':
			if !s.escape() {
				return nil, false
			}
		}
	}
	return nil, false
}

// escape consumes what follows a backslash in a string literal.
func (s *jsonScanner) escape() bool {
	switch s.peek() {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos++
		return true
	case 'u':
		s.pos++
		for range 4 {
			if !isHex(s.peek()) {
				return false
			}
			s.pos++
		}
		return true
	}
	return false
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// literal consumes word.
func (s *jsonScanner) literal(word string) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// number consumes a number: an optional minus, an integer part without
// leading zeros, an optional fraction and an optional exponent.
func (s *jsonScanner) number() bool {
	s.next('-')
	if !s.next('0') {
		if !s.digits() {
			return false
		}
	}
	if s.next('.') && !s.digits() {
		return false
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		return s.digits()
	}
	return true
}

// digits consumes one or more decimal digits.
func (s *jsonScanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > start
}
