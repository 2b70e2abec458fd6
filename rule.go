package agentpolicy

import (
	"bytes"
	"strings"
)

// Rule is one token of the rule grammar. It is a tool name on its own,
// "read", or a tool name with a specifier in parentheses,
// "bash(git status:*)". A skill's allowed-tools line is written in this
// grammar. So a skill parser can map its own rule type onto it field by
// field, without either module importing the other (RFC 0001 §2).
//
// The grammar gives a specifier no meaning except one: a specifier that
// begins with "!" is a carve-out (see [Rule.CarveOut]). Everything else
// about a specifier is the business of the tool's [Matcher].
// [ParseRules] builds rules from text; a product may also build them by
// hand, and [Build] checks those the way the grammar would.
type Rule struct {
	// Tool names the tool the rule governs, or is a glob over tool names
	// such as "mcp__*" (see [Rule.Glob]).
	Tool string
	// Spec is the text between the parentheses, "" when the rule names
	// the tool alone.
	Spec string
	// Source says where the rule came from. A rule the product built
	// itself has the zero Source.
	Source Source
	// Note explains why the rule exists, in the words of whoever wrote
	// it: "outbound network is proxied; use fetch". The grammar has no
	// place for it, so [ParseRules] leaves it empty. A product's settings
	// parser fills it from a comment or a field beside the rule.
	//
	// A verdict's reason puts it after the rule: "denied by bash(curl:*):
	// outbound network is proxied; use fetch". The model reads that for a
	// refused call; a prompt shows it for an asked one. The note of a
	// named source the user has not trusted stays out of the reason. So a
	// repository cannot speak to the model in the harness's voice. The
	// note remains on [Verdict.Rule] for the record and the front. Two rules that differ only in their notes are the
	// same rule to [Engine.GrantOver].
	Note string
}

// Source is where a set of rules came from: a settings file, a skill, the
// session. [Merge] stamps it on every rule of a [RuleSet], so a verdict can
// say whose rule fired.
//
// Name identifies the source; no two sources of a [Merge] may share one.
// It keys a grant set ([Engine.GrantSet]). It names the file a product
// persists its own rules into ([Engine.PolicyOf]). Path and Hash let a
// session record which policy was in force ([Engine.Sources]); a verdict's
// record names the rule's source and hash.
//
// Trusted decides whether the source's allow rules apply (RFC 0001 §5).
// An untrusted source is, say, a repository's settings before the user
// trusts the folder. Its allow rules are withheld. Its deny and ask rules
// apply at once, since those only restrict. A Source built by hand is untrusted until it
// says otherwise.
//
// Rank orders sources by authority, higher first:
//   - [Merge] lists the most authoritative rules first, so a verdict cites
//     them;
//   - a carve-out cancels only a rule of a source it does not rank below;
//   - a grant answers only an ask rule of a source it does not rank below
//     ([Engine.GrantOver]);
//   - a grant set's allow rules shadow only such ask rules
//     ([Engine.GrantSet]).
//
// Rank never changes the precedence between lists: deny comes before ask
// before allow, whatever the sources.
type Source struct {
	Name    string
	Path    string
	Hash    string
	Trusted bool
	Rank    int
}

// String renders the rule as the grammar writes it: the tool name, or the
// tool name with the specifier in parentheses. [ParseRules] reads the text
// back into the same tool and specifier. The source and the note are not
// part of the grammar and are not rendered.
func (r Rule) String() string {
	if r.Spec == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Spec + ")"
}

// tokenLen is the length of [Rule.String]'s text, told without writing it.
func (r Rule) tokenLen() int {
	if r.Spec == "" {
		return len(r.Tool)
	}
	return len(r.Tool) + len("(") + len(r.Spec) + len(")")
}

// Bare reports whether the rule names its tool without a specifier, which
// makes it govern every call of the tool.
func (r Rule) Bare() bool {
	return r.Spec == ""
}

// CarveOut reports whether the rule is a carve-out, a specifier beginning
// with "!". It returns the pattern after the "!"; for any other rule it
// returns "" and false.
//
// A carve-out matches nothing by itself. It cancels the match of another
// rule when its pattern matches the subject, if that rule is:
//   - in the same list;
//   - for the same tool;
//   - from a source the carve-out does not rank below.
//
// The tool's [Matcher] reads the pattern as it reads any specifier.
func (r Rule) CarveOut() (pattern string, ok bool) {
	if pattern, ok = strings.CutPrefix(r.Spec, "!"); !ok {
		return "", false
	}
	return pattern, true
}

// Glob reports whether the rule's tool name is a pattern over tool names
// rather than one tool's own name: "mcp__*" for every tool of every MCP
// server. Deny and ask lists honour a glob; [Build] refuses one in the allow
// list and one with a specifier, since a glob names no tool whose matcher
// could read the specifier.
func (r Rule) Glob() bool {
	return strings.IndexByte(r.Tool, '*') >= 0
}

// MatchesTool reports whether the rule governs the named tool:
//   - the names are equal, or
//   - the rule's name is a glob that matches the whole tool name, each "*"
//     standing for any run of characters, empty included, anywhere.
//
// Case is significant: a policy that named "Bash" for a tool
// called "bash" should fail loudly at [Build], not match by a guess.
// Matching takes time linear in the tool name.
//
// The engine decides with this method; a product that shows the model a
// tool list calls it too, so the two can never disagree.
func (r Rule) MatchesTool(tool string) bool {
	return globMatch(r.Tool, tool, false)
}

// globMatch reports whether value matches pattern, where each "*" in the
// pattern stands for any run of bytes and every other byte for itself.
// With boundary set, the pattern need only match a prefix of value that a
// space follows, the rest of value being free: GlobMatcher's trailing
// ":*". Nothing folds case.
//
// The cost is linear in value for a fixed pattern. The literal before the
// first star anchors at the start and, without boundary, the literal after
// the last star anchors at the end; each literal between stars is taken at
// its leftmost occurrence after the previous one. Taking the leftmost one
// is never wrong, since a later one leaves less of the value for the
// literals still to come, so nothing is ever retried.
func globMatch[T string | []byte](pattern string, value T, boundary bool) bool {
	head, rest, starred := strings.Cut(pattern, "*")
	if !starred {
		if !boundary {
			return string(value) == pattern
		}
		return len(value) > len(head) && string(value[:len(head)]) == head && value[len(head)] == ' '
	}
	if len(value) < len(head) || string(value[:len(head)]) != head {
		return false
	}
	value = value[len(head):]
	if !boundary {
		last := strings.LastIndexByte(rest, '*')
		tail := rest[last+1:]
		if len(value) < len(tail) || string(value[len(value)-len(tail):]) != tail {
			return false
		}
		value = value[:len(value)-len(tail)]
		rest = rest[:max(last, 0)]
	}
	for {
		seg, more, starred := strings.Cut(rest, "*")
		i := indexLiteral(value, seg, boundary && !starred)
		if i < 0 {
			return false
		}
		if !starred {
			return true
		}
		value = value[i+len(seg):]
		rest = more
	}
}

// indexLiteral returns the position of the leftmost occurrence of seg in
// s, one a space follows when spaced is set, or -1 when there is none.
func indexLiteral[T string | []byte](s T, seg string, spaced bool) int {
	if seg == "" && !spaced {
		return 0
	}
	first := byte(' ')
	if seg != "" {
		first = seg[0]
	}
	for i := 0; ; i++ {
		j := indexByte(s[i:], first)
		if j < 0 {
			return -1
		}
		i += j
		end := i + len(seg)
		if end > len(s) || (spaced && end == len(s)) {
			return -1
		}
		if string(s[i:end]) == seg && (!spaced || s[end] == ' ') {
			return i
		}
	}
}

// indexByte is strings.IndexByte or bytes.IndexByte, whichever fits s, so
// the search for a literal's first byte runs at the speed of either.
func indexByte[T string | []byte](s T, c byte) int {
	if b, ok := any(s).([]byte); ok {
		return bytes.IndexByte(b, c)
	}
	return strings.IndexByte(string(s), c)
}
