package classify

import (
	"context"

	"github.com/ChristopherDavenport/agentpolicy/guard"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Guard is a content guard that asks a model whether content passes a
// rubric the product writes: a prompt injection in a tool's output, a
// message that leaks what it should not. It is a [guard.Guard] for a
// [guard.Chain], over an input ([guard.Input]), an assistant message
// ([guard.Message]) or a finished turn ([guard.Output]). Build one with
// [New]; it is safe for concurrent use when its model is.
type Guard struct {
	name      string
	everyTurn bool
	c         classifier
}

var _ guard.Guard = (*Guard)(nil)

// New returns a [Guard] that asks model, under the name modelName, whether
// a subject passes rubric. Each question is one request: the request given
// with [WithRequest] (none by default), with Model set to modelName,
// Instructions the trimmed rubric, a blank line and an instruction to answer
// with one JSON object {"allow": …, "reason": …}, the subject rendered as
// the one user input, a strict JSON-schema text format named "verdict",
// Store false and no PreviousResponseID, so a question never continues
// another.
//
// The guard is named "classify" unless [WithName] names it, and asks about
// the final turn only, the run's answer, unless [WithEveryTurn].
func New(model openresponses.Streamer, modelName, rubric string, opts ...Option) *Guard {
	o := buildOptions(opts)
	return &Guard{name: o.name, everyTurn: o.everyTurn, c: newClassifier(model, modelName, rubric, o)}
}

// Name returns the guard's name, as a chain's BlockedError, placeholder
// and observer call it.
func (g *Guard) Name() string { return g.name }

// Check asks the model about subject and allows it, or blocks it, with the
// model's reason. The subject is rendered as text (see the RFC's classify
// section): an input as "input:" and a line per item, after its
// instructions; a message and a finished turn as "output:" and a line per
// item. It passes without asking an empty subject, a turn that is not final
// unless [WithEveryTurn], and any subject that is not a [guard.Input],
// [guard.Message] or [guard.Output].
//
// It fails closed: a cancelled context, a model error, a model that does
// not answer within [WithTimeout] and an answer it cannot read
// ([ErrUnreadableAnswer]) are errors, which fail the model call or the run
// rather than let the content through.
func (g *Guard) Check(ctx context.Context, subject any) (guard.Verdict, error) {
	text, ok := renderContent(subject, g.everyTurn)
	if !ok {
		return guard.Verdict{}, nil
	}
	ctx, cancel := g.c.withTimeout(ctx)
	defer cancel()
	a, err := g.c.ask(ctx, text)
	if err != nil {
		return guard.Verdict{}, err
	}
	if !a.allow {
		return guard.Verdict{Action: agentturn.Block, Reason: a.reason}, nil
	}
	return guard.Verdict{Action: agentturn.Allow, Reason: a.reason}, nil
}
