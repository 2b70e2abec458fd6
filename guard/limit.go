package guard

import (
	"context"
	"encoding/json"

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
// The encoding is counted as it is written, item by item, and never kept,
// so a guard over a large window holds no more than one item's encoding.
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

// encodedSize is len(json.Marshal(items)), counted item by item through a
// writer that keeps nothing, so no more than one item's encoding is held at
// a time.
func encodedSize(items openresponses.Items) (int64, error) {
	if items == nil {
		return int64(len("null")), nil
	}
	c := counter{n: int64(len("[]"))}
	enc := json.NewEncoder(&c)
	for i, item := range items {
		if err := enc.Encode(item); err != nil {
			return 0, err
		}
		c.n-- // the newline the encoder ends each value with
		if i > 0 {
			c.n++ // the comma before it
		}
	}
	return c.n, nil
}

// counter is an io.Writer that only counts.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
