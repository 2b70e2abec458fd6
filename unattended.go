package agentpolicy

import (
	"context"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agentturn"
)

// Unattended returns the [Reviewer] of a run nobody watches, a CI job or a
// night run: it refuses every call the policy asked about and appends it
// to queue, so a person reviews it later and the run goes on without it.
// Given to [Engine.Answers], it makes every ask of the run a refusal the
// model reads, "Denied by policy: queued for a person to review; it did
// not run.", followed by the warning every refusal carries not to pursue
// the same outcome by another route, and the calls held for it are
// refused with it. Its refusals count toward the engine's [DenialBound]
// as any reviewer's do, so a model that keeps asking ends its run.
//
// The queue receives the verdict that deferred the call, with the call's
// run, turn, ID and tool, its arguments, the rule that asked and its
// reason, in the shape [Verdict.Record] writes: a journal.File opened on
// the queue's path keeps it as JSON lines, which journal.Verdicts reads
// back, and a verdict read so is what [Engine.GrantOver] answers with
// "always allow" in a later process. A call the engine does not remember
// is queued with the arguments the reviewer was given and a verdict whose
// reason is empty.
//
// A call the queue could not take is refused as a failed review, "The
// reviewer could not evaluate the call; the call did not run.", and the
// error names the queue's failure; a nil queue fails every review so.
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
