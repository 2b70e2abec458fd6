package agentpolicy

import (
	"encoding/json"
	"strings"
	"sync"
	"unsafe"
)

// Matcher reports whether a rule's specifier matches one subject's
// arguments. A product registers one for every tool whose rules take
// specifiers ([ToolMatcher]); [Build] refuses a rule with a specifier for a
// tool that has none, rather than letting the rule silently match nothing.
// A carve-out's pattern ([Rule.CarveOut]) is given to the same Matcher.
//
// The engine calls a Matcher on every decision, once for each rule it
// tries, from many goroutines at once. So it must be safe for concurrent
// use, and should be cheap. The built-in ones, [GlobMatcher] and
// [PrefixMatcher], are not called: the engine reads their member once per
// subject and finds their rules by literal prefix.
//
// The engine hands a Matcher only arguments that are unambiguous as a
// whole (RFC 0001 §3.1). They are one valid JSON object, with no key
// repeated or spelled twice. A Matcher reads the member it needs with [Field].
type Matcher func(spec string, args json.RawMessage) bool

// GlobMatcher returns the reference's pattern language over the string
// member field of the arguments. It is the language of a settings file
// copied from the reference's documentation:
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
// The member is read as [Field] reads it, with one difference. A member
// spelled only in another case ("Command", "\u212aind" for "kind") is read
// as the member, as encoding/json reads it into a struct field. So a deny
// rule is not passed over for a spelling the tool accepts.
//
// These match nothing: a missing member, one that is not a string, and
// arguments Field finds ambiguous. The engine blocks ambiguous arguments
// before any matcher reads them.
//
// A pattern sees only the string it is given. The tool's [Subjects] splits
// a compound command into its parts. That is what keeps "git status:*"
// from allowing "git status && rm -rf /".
//
// Matching takes time linear in the arguments for a given pattern, with no
// backtracking. It allocates nothing unless the member's key or value
// carries JSON escapes.
//
// Calls with the same field return the same Matcher, one the engine
// recognises. A decision reads the member once for all the tool's rules,
// and finds the rules that may match by their literal prefix.
func GlobMatcher(field string) Matcher {
	return builtin{field: field, lang: globLanguage}.matcher()
}

// PrefixMatcher returns the simplest useful language over the string
// member field of the arguments. It reads the member as [GlobMatcher] does.
//   - A specifier "<prefix>:*" matches every value that begins with prefix.
//   - Any other specifier matches the whole value exactly.
//
// It is not the reference's language, and reads the same patterns
// differently. Here "ls:*" matches "lsof". A "*" anywhere but in the
// trailing ":*" is a literal star, so "git log * main" matches nothing a
// shell would run. A settings file copied from the reference's
// documentation needs [GlobMatcher].
//
// Calls with the same field return the same Matcher, one the engine
// recognises as it recognises GlobMatcher's.
func PrefixMatcher(field string) Matcher {
	return builtin{field: field, lang: prefixLanguage}.matcher()
}

// language is the pattern language of a built-in matcher; the zero
// language is a host's own matcher, opaque to the engine.
type language uint8

const (
	prefixLanguage language = iota + 1
	globLanguage
)

// builtin is a matcher this package builds, [PrefixMatcher] or
// [GlobMatcher]: the member it reads and the language of its specifiers.
// The engine finds it behind the Matcher it was given when it compiles a
// policy ([builtinOf]), so a decision can read the member once for every
// rule it tries ([reading]) and skip the rules whose literal prefix the
// value does not begin with ([prefixIndex]). What it reads is the
// member as the Matcher itself reads it, so a verdict cannot tell the two
// paths apart.
type builtin struct {
	field string
	lang  language
}

// matches reports whether spec matches value, the member as the matcher
// read it.
func (b builtin) matches(spec, value string) bool {
	if b.lang == prefixLanguage {
		if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
			return strings.HasPrefix(value, prefix)
		}
		return value == spec
	}
	if spec == ":*" {
		return true
	}
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		return globMatch(prefix, value, false) || globMatch(prefix, value, true)
	}
	return globMatch(spec, value, false)
}

// literal is the text every value spec matches begins with: the
// specifier up to its trailing ":*" and, in the glob language, up to its
// first "*".
func (b builtin) literal(spec string) string {
	prefix, _ := strings.CutSuffix(spec, ":*")
	if b.lang == globLanguage {
		prefix, _, _ = strings.Cut(prefix, "*")
	}
	return prefix
}

// builtins holds every built-in matcher made, one per member and
// language, so that the engine can tell it from a host's: a Matcher is a
// func, which Go cannot compare, but the closure a func value points to
// identifies it. Holding each for good keeps that identity from being
// reused by another func, and costs one closure per member name a
// program uses.
var builtins struct {
	sync.Mutex
	made map[builtin]Matcher
	of   map[unsafe.Pointer]builtin
}

// matcher returns the Matcher of b, made on first use.
func (b builtin) matcher() Matcher {
	builtins.Lock()
	defer builtins.Unlock()
	if m, ok := builtins.made[b]; ok {
		return m
	}
	m := Matcher(func(spec string, args json.RawMessage) bool {
		value, ok, err := readField(args, b.field, true)
		return ok && err == nil && b.matches(spec, value)
	})
	if builtins.made == nil {
		builtins.made, builtins.of = make(map[builtin]Matcher), make(map[unsafe.Pointer]builtin)
	}
	builtins.made[b], builtins.of[closure(m)] = m, b
	return m
}

// builtinOf returns the built-in matcher m is, if it is one.
func builtinOf(m Matcher) (builtin, bool) {
	if m == nil {
		return builtin{}, false
	}
	builtins.Lock()
	defer builtins.Unlock()
	b, ok := builtins.of[closure(m)]
	return b, ok
}

// closure is the identity of a func value: the pointer to its closure,
// which every copy of the value shares.
func closure(m Matcher) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&m))
}

// Subject is one thing the policy is decided on. A call is one subject, its
// own arguments, unless its tool's [Subjects] splits it. A shell command,
// say, splits into its subcommands. Each is decided on its own, and the
// strictest verdict wins (RFC 0001 §4.2).
type Subject struct {
	// Args is the subject as the tool's [Matcher] reads it.
	Args json.RawMessage
	// Tool, when set, decides the subject under another tool's rules, as a
	// shell redirect's target is held to the file tool's rules. Empty means
	// the tool that was called.
	Tool string
	// Text is how a prompt or a reason shows the subject: "rm -rf /".
	Text string
	// Constrain marks a subject that can only make the call stricter
	// (RFC 0001 §4.4). It is held to its tool's deny and ask rules, with
	// carve-outs and confinement applied, and to nothing else:
	//   - it never allows, and the default never applies to it;
	//   - when no deny or ask rule matches, it adds nothing to the fold.
	//
	// A skill tool that will read ".env" reports that read as a
	// constraint. So the call is asked about under "read(.env:*)", even
	// though the skill itself is allowed. When every subject a splitter
	// returns is a constraint, the call's own arguments are decided first
	// as an ordinary subject. It is an addition to the reference's
	// subject, which has no such notion.
	Constrain bool
	// Unseen, when set, says why the subject runs code no rule can read:
	// "eval runs a string made when it runs", say, or "LD_PRELOAD changes
	// what the command loads" (RFC 0001 §4.5). A rule matches the
	// subject's text, not the hidden code, so no rule and no default may
	// allow it:
	//   - a deny rule blocks it and an ask rule asks, as for any subject;
	//   - otherwise it is asked about with Unseen in the reason, whatever
	//     the allow rules and the default say;
	//   - a subject of the called tool, in a call that runs confined, is
	//     decided as if Unseen were empty. The sandbox bounds what the
	//     hidden code can do;
	//   - a subject naming another tool is not, as confinement says
	//     nothing about it.
	//
	// It is an addition to the reference's subject, which has no such
	// notion.
	Unseen string
}

// Subjects splits one call's arguments into the subjects the policy
// decides, after whatever normalisation the tool needs. A shell tool splits
// a command on its operators and strips wrappers; a file tool resolves its
// path. Most tools are one subject per call and register no splitter. The splitter is
// the product's; this package holds no shell parser. The nested module
// github.com/ChristopherDavenport/agentpolicy/shell is a splitter for a
// shell tool built on one.
//
// A split fails closed:
//   - an error blocks the call, with the error as the reason;
//   - so does a split that returns no subjects.
//
// A splitter reads the call with [Field]. When it returns Field's error,
// which wraps [ErrAmbiguousArgs], the engine reports it as it reports the
// ambiguities it finds itself.
type Subjects func(args json.RawMessage) ([]Subject, error)

// ToolMatcher is what a product registers for one tool in [Build]. It says
// how the tool's specifiers are matched and, when one call holds several
// subjects, how to split it.
type ToolMatcher struct {
	// Match reads the tool's specifiers. A tool without one cannot have
	// rules with specifiers, carve-outs included.
	Match Matcher
	// Subjects splits a call; nil for a tool whose call is one subject.
	Subjects Subjects
}
