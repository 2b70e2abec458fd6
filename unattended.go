package agentpolicy

import (
	"context"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agentturn"
)

// Unattended returns the [Reviewer] of a run nobody watches, a CI job or a
// night run. It refuses every call the policy asked about. It appends the
// call's verdict to queue, for a person to review later; the run goes on
// without the call. RFC 0001 §17.2 is the full contract.
//
//   - The model reads "Denied by policy: queued for a person to review; it
//     did not run.", then the warning every refusal carries. The calls held
//     for it are refused with it.
//   - Its refusals count toward the [DenialBound], so a model that keeps
//     asking ends its run.
//   - The queue takes the deferring verdict in the shape [Verdict.Record]
//     writes; read back, it is what [Engine.GrantOver] answers with
//     "always allow" in a later process.
//   - A call the queue could not take is refused as a failed review; a nil
//     queue fails every review so.
func Unattended(queue Journal) Reviewer {
	return unattended{queue: queue}
}

// unattended is the Reviewer Unattended returns.
type unattended struct {
	queue Journal
}

// errNoQueue is the failure of every review of Unattended(nil).
var errNoQueue = errors.New("agentpolicy: the unattended reviewer has no queue")

// Review queues the call and refuses it.
func (u unattended) Review(ctx context.Context, info agentturn.ToolCallInfo, v Verdict) (Review, error) {
	if f, ok := u.queue.(JournalFunc); u.queue == nil || ok && f == nil {
		return Review{}, errNoQueue
	}
	if v.Args == "" {
		v.Args = string(info.Args)
	}
	if err := u.queue.Record(ctx, v); err != nil {
		return Review{}, fmt.Errorf("agentpolicy: cannot queue the call: %w", err)
	}
	return Review{Outcome: Refused, Reason: reasonQueued, By: ByPolicy}, nil
}
