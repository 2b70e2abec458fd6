package guard

import (
	"context"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Limit returns the guard "limit", which bounds the wire size of a subject:
// it blocks when N, the byte length of the JSON encoding of the subject's
// items, plus the length of the instructions for an [Input], is over
// maxBytes, with the reason "K is N bytes, over the M byte limit" (K
// "input", "message" or "output"). The items of a [Message] are the one
// message, encoded as a list of one; those of an [Output] are the
// response's output. A subject exactly at the limit passes.
//
// The size is computed from the items' fields, each string's length as
// encoding/json escapes it, without building the encoding, so a guard over
// a large window allocates nothing for it; only an item of a type this
// package does not know (a product's own, or one kept as raw bytes) is
// encoded to be measured, one at a time.
func Limit(maxBytes int) Guard {
	limit := int64(maxBytes)
	return New("limit", func(_ context.Context, subject any) (Verdict, error) {
		var kind string
		var items openresponses.Items
		var extra int64
		switch sub := subject.(type) {
		case Input:
			kind, items, extra = subjectInput, sub.Items, int64(len(sub.Instructions))
		case Message:
			kind, items = subjectMessage, messageItems(sub)
		case Output:
			kind, items = subjectOutput, outputItems(sub)
		default:
			return Verdict{}, nil
		}
		n, err := encodedSize(items)
		if err != nil {
			return Verdict{}, err
		}
		if n += extra; n > limit {
			return Verdict{Action: agentturn.Block, Reason: limitReason(kind, n, limit)}, nil
		}
		return Verdict{}, nil
	})
}
