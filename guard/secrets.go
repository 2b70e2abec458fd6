package guard

import (
	"context"
	"regexp"
	"slices"

	"github.com/ChristopherDavenport/agentpolicy/internal/secret"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Pattern is a kind of secret: the Name a reason and a redaction call it by
// and the Regexp that finds one. Matches are found left to right without
// overlap; where patterns of a list match at the same byte the earlier one
// wins, and empty matches are ignored. A Regexp whose every match begins
// with one of a few literal strings ("AKIA", "ghp_") is run only from where
// the text holds one, which is what keeps [Secrets] and [Redact] fast over a
// large window; one that may begin anywhere, or begins with an assertion
// such as \b, is run over all of the text, each search after a match
// starting where the match ended and reading that point as the start of
// the text.
//
// MinEntropy, when above zero, is the placeholder test: it keeps only the
// matches whose secret, the Regexp's first group when it has one, else the
// whole match, holds at least that many bits of Shannon entropy per byte
// and no placeholder word (placeholder, example, sample, changeme,
// redacted, your_key and the like in any case, or a run of six x's in one
// case). A rejected
// match is passed over whole: the search for the pattern goes on from its
// end (so a long run of one character costs one search, not one per
// byte). Every kind of [DefaultSecrets] sets it, so "sk_test_placeholder"
// and "AKIAIOSFODNN7EXAMPLE" pass; the kinds of [GenericSecrets] use it to
// tell a key from a word.
type Pattern struct {
	Name       string
	Regexp     *regexp.Regexp
	MinEntropy float64
}

// DefaultSecrets is the kinds of secret [Secrets] and [Redact] look for when
// given none: over a hundred kinds of key and token, each named for its
// provider and token (aws_access_key, anthropic_api_key, stripe_secret_key,
// gitlab_pat, …) and written from the provider's documented format, with a
// fixed prefix ("sk-ant-api03-", "glpat-", "dop_v1_") wherever the format has
// one, then private_key (a PEM "-----BEGIN … PRIVATE KEY-----" block through
// its END line, or the BEGIN line alone when no END follows before the next
// "--") and jwt (eyJ and three dot-separated base64url segments of 10 or
// more). The README's kinds table lists every kind, in this order, with the
// shape of its tokens.
//
// The order decides the name where two kinds match at the same byte: the
// earlier kind wins, so the narrower kinds come first (the Anthropic keys
// before openai_key, grafana_api_key before jwt). Every default kind begins
// with a literal, so none runs over text that lacks its prefix. No kind is a
// "key = high-entropy string" guess: those are [GenericSecrets], which a
// product opts into.
//
// A product adds kinds of its own by passing append(guard.DefaultSecrets,
// mine...) to Secrets or Redact, or by assigning the variable before it
// builds its guards: a guard reads the list once, when it is built, and
// keeps a copy, so a change made afterwards reaches only the guards built
// after it. The regexps are shared and safe for concurrent use, and so is
// what a guard readies from the list: every guard built while the variable
// holds what the package set shares one matcher, so only the first costs
// anything to build.
var DefaultSecrets = defaultSecrets()

// builtIn is [DefaultSecrets] as the package sets it.
var builtIn = slices.Clone(DefaultSecrets)

// defaultSecrets compiles the default kinds.
func defaultSecrets() []Pattern {
	kinds := secret.DefaultPatterns()
	out := make([]Pattern, len(kinds))
	for i, k := range kinds {
		out[i] = Pattern(k)
	}
	return out
}

// newSecretMatcher copies patterns, or [DefaultSecrets] as it is now when
// there are none, so a later change to either slice changes no guard. The
// guards built while DefaultSecrets is as the package left it share one
// finder, [secret.Default], so building one costs nothing after the first.
func newSecretMatcher(patterns []Pattern) *secret.Finder {
	if len(patterns) == 0 {
		if slices.Equal(DefaultSecrets, builtIn) {
			return secret.Default()
		}
		patterns = DefaultSecrets
	}
	kinds := make([]secret.Pattern, len(patterns))
	for i, p := range patterns {
		kinds[i] = secret.Pattern(p)
	}
	return secret.New(kinds)
}

// Secrets returns the guard "secrets", which blocks a subject holding a
// secret of one of the patterns, [DefaultSecrets] when none are given, with
// the reason "secret detected: NAME" for the first one in reading order. It
// reads every text field of an [Input] (its instructions first), a
// [Message] and an [Output], and a function call's arguments both as they
// are and as the tool will read them, each JSON string decoded, so an
// escape such as \u0041 hides no key. On an input it stops the run before
// the model reads the secret; on a message the chain withholds it; over a
// finished turn it stops the run.
func Secrets(patterns ...Pattern) Guard {
	s := newSecretMatcher(patterns)
	return New("secrets", func(_ context.Context, subject any) (Verdict, error) {
		var name string
		switch sub := subject.(type) {
		case Input:
			name = s.First(sub.Instructions)
			if name == "" {
				name = s.FirstInItems(sub.Items, nil)
			}
		case Message:
			name = s.FirstInItems(messageItems(sub), nil)
		case Output:
			name = s.FirstInItems(outputItems(sub), nil)
		}
		if name == "" {
			return Verdict{}, nil
		}
		return Verdict{Action: agentturn.Block, Reason: secretReason(name)}, nil
	})
}

// Redact returns the guard "redact", which replaces each secret of the
// patterns, [DefaultSecrets] when none are given, with "[REDACTED NAME]"
// before the model reads it, or before a message of the model's is kept.
//
// Over an [Input] it rewrites the instructions and every text field of a
// deep copy of the items (the caller's items, which are the transcript's,
// are never modified), so the model reads the redacted text while the
// transcript keeps what was said. Over a [Message] it rewrites a copy of the
// message. A function call's arguments are redacted as the tool will read
// them: a secret in a JSON string, escaped or not, is replaced in the
// decoded value and the string written again as JSON, so valid arguments
// stay valid and nothing in them decodes back to the secret; a secret
// outside every string is replaced in the raw text, which leaves the
// arguments invalid, so a tool refuses them rather than act on it. The
// verdict is an Allow with the reason "redacted 1 secret: NAME" or "redacted
// N secrets: A, B", N counting the secrets and the names their kinds in the
// order first seen; a subject without a secret passes unchanged.
//
// Over an [Output], a finished turn already in the transcript, it cannot
// rewrite: it reads only the items an output guard never sees (function
// calls' arguments, reasoning, anything but assistant messages, which
// [Chain.OutputGuard] redacted as they completed) and blocks on the first
// secret there with the reason "secret detected: NAME", so a chain that
// redacts output does not stop a run on a secret it already removed.
func Redact(patterns ...Pattern) Guard {
	s := newSecretMatcher(patterns)
	return New("redact", func(_ context.Context, subject any) (Verdict, error) {
		switch sub := subject.(type) {
		case Input:
			return redactInput(s, sub), nil
		case Message:
			return redactMessage(s, sub), nil
		case Output:
			if name := s.FirstInItems(outputItems(sub), isAssistantMessage); name != "" {
				return Verdict{Action: agentturn.Block, Reason: secretReason(name)}, nil
			}
		}
		return Verdict{}, nil
	})
}

// redactInput is [Redact]'s verdict over an input.
func redactInput(s *secret.Finder, in Input) Verdict {
	var t secret.Tally
	var v Verdict
	if text := s.Redact(in.Instructions, &t); t.Count > 0 {
		v.Instructions = &text
	}
	if s.FirstInItems(in.Items, nil) != "" {
		v.Items = s.RedactItems(in.Items, &t)
	}
	if t.Count > 0 {
		v.Reason = redactedReason(t.Count, t.Names)
	}
	return v
}

// redactMessage is [Redact]'s verdict over a message.
func redactMessage(s *secret.Finder, m Message) Verdict {
	items := messageItems(m)
	if s.FirstInItems(items, nil) == "" {
		return Verdict{}
	}
	var t secret.Tally
	return Verdict{Items: s.RedactItems(items, &t), Reason: redactedReason(t.Count, t.Names)}
}

// messageItems is a message subject as items, none for a nil message.
func messageItems(m Message) openresponses.Items {
	if m.Message == nil {
		return nil
	}
	return openresponses.Items{m.Message}
}

// outputItems is the items of a finished turn, none for a turn without a
// response.
func outputItems(o Output) openresponses.Items {
	if o.Response == nil {
		return nil
	}
	return o.Response.Output
}

// isAssistantMessage reports whether item is what an output guard sees,
// an assistant message; [Redact] over a finished turn reads the rest.
func isAssistantMessage(item openresponses.Item) bool {
	m, ok := item.(*openresponses.Message)
	return ok && m.Role == openresponses.RoleAssistant
}
