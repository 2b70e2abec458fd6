package classify

import (
	"time"

	"github.com/ChristopherDavenport/openresponses"
)

// Option configures a [Guard] built with [New] or a [Reviewer] built with
// [NewReviewer].
type Option func(*options)

type options struct {
	name      string
	timeout   time.Duration
	base      openresponses.Request
	everyTurn bool
}

func buildOptions(opts []Option) options {
	o := options{name: "classify"}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithName names a [Guard], as a guard chain's BlockedError, placeholder
// and observer call it; the default is "classify". A [Reviewer] has no
// name: the verdicts it leads to name their decider with Review.By.
func WithName(name string) Option {
	return func(o *options) { o.name = name }
}

// WithTimeout bounds each question to the model to d; zero or less, the
// default, leaves it to the caller's context. A [Guard] whose model does not
// answer in time fails, as a model error does. A [Reviewer] whose model does
// not answer in time, while the caller's context is still live, answers
// [agentpolicy.TimedOut], so the call does not run and the record says why.
// A model that ignores its context is not waited for past d.
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// WithRequest is the request every question starts from, for the settings
// a model server wants: temperature, reasoning effort, a service tier,
// metadata. The fields a question sets are replaced (see [New]); the others
// are sent as given, tools included, so a base that offers tools invites a
// call where an answer is wanted, which reads as an unreadable answer.
func WithRequest(base openresponses.Request) Option {
	return func(o *options) { o.base = base }
}

// WithEveryTurn makes a [Guard] over a finished turn (guard.Output) ask
// about every turn, not only the final one, the run's answer. A turn of
// tool calls is the place for a check of a function call's arguments.
func WithEveryTurn() Option {
	return func(o *options) { o.everyTurn = true }
}
