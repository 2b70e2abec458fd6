package guard

import (
	"context"
	"regexp"

	"github.com/ChristopherDavenport/agentpolicy/internal/secret"
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
	// A pattern is named by its source, so the name of the first match is
	// the reason's pattern.
	named := make([]secret.Pattern, len(patterns))
	for i, re := range patterns {
		named[i] = secret.Pattern{Name: re.String(), Regexp: re}
	}
	f := secret.New(named)
	return New("deny", func(_ context.Context, subject any) (Verdict, error) {
		var found string
		switch sub := subject.(type) {
		case Input:
			found = f.First(sub.Instructions)
			if found == "" {
				found = f.FirstInItems(sub.Items, nil)
			}
		case Message:
			found = f.FirstInItems(messageItems(sub), nil)
		case Output:
			found = f.FirstInItems(outputItems(sub), nil)
		}
		if found == "" {
			return Verdict{}, nil
		}
		return Verdict{Action: agentturn.Block, Reason: denyReason(found)}, nil
	})
}
