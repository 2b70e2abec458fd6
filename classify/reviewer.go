package classify

import (
	"context"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Reviewer is an [agentpolicy.Reviewer] that asks a model whether a call the
// policy deferred may run, under a rubric the product writes, so
// [agentpolicy.Engine.Answers] can answer an unattended run's asks. Build
// one with [NewReviewer]; it is safe for concurrent use when its model is.
type Reviewer struct {
	c classifier
}

var _ agentpolicy.Reviewer = (*Reviewer)(nil)

// NewReviewer returns a [Reviewer] that asks model, under the name
// modelName, whether a call passes rubric, with the request [New]
// describes. [WithTimeout] bounds each review; [WithName] and
// [WithEveryTurn] do not apply to a reviewer.
func NewReviewer(model openresponses.Streamer, modelName, rubric string, opts ...Option) *Reviewer {
	return &Reviewer{c: newClassifier(model, modelName, rubric, buildOptions(opts))}
}

// Review asks the model about the call: its tool, the tool's description
// when the tool is known and has one, the arguments it runs with and the
// reason the policy gave in v, a line each. The model's allow approves the
// call and anything else refuses it, with the model's reason, By
// [agentpolicy.ByAgent].
//
// A model that does not answer within [WithTimeout], while ctx is still
// live, is an [agentpolicy.TimedOut] review with the reason
// "no answer within <d>", By ByAgent. A cancelled ctx, a model error and
// an answer it cannot read ([ErrUnreadableAnswer]) are errors, which
// [agentpolicy.Engine.Answers] answers with a refusal, so nothing runs
// that the model did not approve.
func (r *Reviewer) Review(ctx context.Context, info agentturn.ToolCallInfo, v agentpolicy.Verdict) (agentpolicy.Review, error) {
	asked, cancel := r.c.withTimeout(ctx)
	defer cancel()
	a, err := r.c.ask(asked, renderCall(info, v))
	switch {
	case err != nil && asked.Err() != nil && ctx.Err() == nil:
		return agentpolicy.Review{Outcome: agentpolicy.TimedOut, Reason: timedOutReason(r.c.timeout), By: agentpolicy.ByAgent}, nil
	case err != nil:
		return agentpolicy.Review{}, err
	case a.allow:
		return agentpolicy.Review{Outcome: agentpolicy.Approved, Reason: a.reason, By: agentpolicy.ByAgent}, nil
	}
	return agentpolicy.Review{Outcome: agentpolicy.Refused, Reason: a.reason, By: agentpolicy.ByAgent}, nil
}
