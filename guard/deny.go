package guard

import (
	"context"
	"regexp"
	"slices"

	"github.com/ChristopherDavenport/agentturn"
)

// Deny returns the guard "deny", which blocks a subject whose text matches
// one of patterns, with the reason `matched denied pattern "P"`, P the
// pattern's source exactly as written (its String), with no escaping. The
// pattern named is the one of the first match in reading order, the earlier
// pattern where several match at the same byte. It reads every text field of
// an [Input] (its instructions first), a [Message] and an [Output], and a
// function call's arguments as they are and then each of their JSON strings,
// keys and values, decoded as the tool will read it, each string a text of
// its own (so ^ matches at a value's start); with no patterns it passes
// everything.
//
// A pattern whose every match begins with one of a few literal strings is
// run only from where the text holds one (see [Pattern]), so a list of
// phrases is cheap to check against a large window.
func Deny(patterns ...*regexp.Regexp) Guard {
	patterns = slices.Clone(patterns)
	m := newMatcher(patterns)
	return New("deny", func(_ context.Context, subject any) (Verdict, error) {
		var found span
		ok := false
		read := func(text string) bool {
			found, ok = m.first(text)
			return !ok
		}
		switch sub := subject.(type) {
		case Input:
			if read(sub.Instructions) {
				eachText(sub.Items, nil, m.local, read)
			}
		case Message:
			eachText(messageItems(sub), nil, m.local, read)
		case Output:
			eachText(outputItems(sub), nil, m.local, read)
		}
		if !ok {
			return Verdict{}, nil
		}
		return Verdict{Action: agentturn.Block, Reason: denyReason(patterns[found.pattern].String())}, nil
	})
}
