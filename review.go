package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/ChristopherDavenport/agentturn"
)

// Reviewer answers a deferred call without a human. It may be an
// auto-review by another model, a rule of the product's, a front that asks
// a person, or a test double. It receives the call as the hook saw it and the verdict that
// deferred it, and says who answered through [Review.By]. A model-backed one
// lives in the classify package; the engine never calls a model itself.
// [Engine.Answers] is what consults it.
type Reviewer interface {
	Review(ctx context.Context, info agentturn.ToolCallInfo, v Verdict) (Review, error)
}

// ReviewerFunc adapts a function to [Reviewer].
type ReviewerFunc func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error)

// Review calls f.
func (f ReviewerFunc) Review(ctx context.Context, info agentturn.ToolCallInfo, v Verdict) (Review, error) {
	return f(ctx, info, v)
}

// Review is a reviewer's answer to one deferred call.
type Review struct {
	Outcome Outcome
	// Reason is shown to the model on a refusal, trimmed of one trailing
	// full stop. The verdict records it as given, after "denied by
	// reviewer: " or "approved by reviewer: ".
	Reason string
	// Args, for an approval, replaces the arguments the tool receives.
	// nil keeps the call's own. [Engine.Answers] decides them again under
	// the policy. It refuses a rewrite a deny rule matches. It refuses one
	// of a call that may have run, unless its tool says it is safe to run.
	Args json.RawMessage
	// Note is what the reviewer tells the model with the result, on an
	// approval or a refusal. The loop appends it after the outputs as a
	// user message, so the model reads the result and the note together.
	Note string
	// By names who answered, for the record:
	//   - [ByAgent] for a model, as the classify package's reviewer sets;
	//   - [ByHuman] for a person a reviewer asked on the front's behalf;
	//   - [ByPolicy] for a reviewer that applies a rule of the product's,
	//     which the model then reads as "Denied by policy".
	//
	// Empty is read as ByAgent, since a Reviewer answers where a human
	// would. [Engine.Answers] puts it on the verdict and on the answer, as
	// agentturn.Answer.By. The engine's own fail-closed answers, a timeout
	// and a review that failed, are ByPolicy.
	By string
}

// Outcome is a reviewer's answer to a deferred call. The zero value is
// [Refused], so a [Review] left unset refuses the call.
type Outcome int

const (
	// Refused answers the call with a refusal the model reads.
	Refused Outcome = iota
	// Approved runs the call, with [Review.Args] in place of the model's
	// arguments when set.
	Approved
	// TimedOut means the reviewer gave no answer in time. The call does
	// not run, and the record says why, distinct from a refusal.
	TimedOut
)

// String returns "refused", "approved" or "timed_out".
func (o Outcome) String() string {
	switch o {
	case Approved:
		return "approved"
	case TimedOut:
		return "timed_out"
	default:
		return "refused"
	}
}

// DenialBound is when [Engine.Answers] stops letting the model try
// again: after Consecutive refusals in a row, or Total refusals within the
// last Window reviews. A zero Consecutive or Total means no bound on that
// axis, and a zero Window counts every review since
// [Engine.ResetReviews] (RFC 0001 §15.4).
//
// Every answer a reviewer gives that is not an approval counts as a
// refusal: a timeout, a failed review and a reviewer that panicked
// included. The answers the engine makes on its own do not count. The
// count is the engine's, shared by every run it serves. [WithDenialBound]
// sets the bound.
type DenialBound struct {
	Consecutive int
	Total       int
	Window      int
}

// DefaultDenialBound is Codex's: three consecutive refusals, or ten within
// the last fifty reviews.
var DefaultDenialBound = DenialBound{Consecutive: 3, Total: 10, Window: 50}

// ErrDenialBound is returned by [Engine.Answers], with the answers, when the
// [DenialBound] was reached.
var ErrDenialBound = errors.New("agentpolicy: reviewer denial bound reached")

// reviewLog is the count the denial bound reads: the refusals in a row
// and those among the last Window reviews.
type reviewLog struct {
	mu    sync.Mutex
	bound DenialBound
	// inARow counts the refusals since the last approval.
	inARow int
	// window holds the last Window reviews, true for a refusal, as a
	// ring whose oldest entry is at next once it is full.
	window []bool
	next   int
	// refusals counts the refusals in window, or since the reset when
	// the window is unbounded.
	refusals int
}

// add counts the reviews of one call to [Engine.Answers], true for an
// approval, in order, and reports whether the bound is reached. The
// reviews of one call are counted together, so concurrent calls each
// read a count that holds all of their own reviews.
func (l *reviewLog) add(approvals []bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, approved := range approvals {
		refused := !approved
		l.inARow++
		if approved {
			l.inARow = 0
		}
		if n := l.bound.Window; n > 0 {
			if len(l.window) < n {
				l.window = append(l.window, refused)
			} else {
				if l.window[l.next] {
					l.refusals--
				}
				l.window[l.next] = refused
				l.next = (l.next + 1) % n
			}
		}
		if refused {
			l.refusals++
		}
	}
	b := l.bound
	return b.Consecutive > 0 && l.inARow >= b.Consecutive || b.Total > 0 && l.refusals >= b.Total
}

// reset forgets every review.
func (l *reviewLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inARow, l.window, l.next, l.refusals = 0, l.window[:0], 0, 0
}
