package guard

import (
	"context"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Input is the subject of an input guard: what one model call is about to
// read, the request's input items and its instructions. [Chain.BeforeModelCall]
// builds it from the request; the instructions sit beside the items because
// that is where an AGENTS.md chain, a skill catalogue or a memory block enters
// the window.
type Input struct {
	Items        openresponses.Items
	Instructions string
}

// Output is the subject of a guard over a finished turn, as
// [Chain.ShouldStopAfterTurn] sees it: the response as the model produced it
// and whether the turn is Final, the run's answer rather than a turn of tool
// calls, so a guard over what the user will read can pass the rest.
type Output struct {
	Response *openresponses.Response
	Final    bool
}

// Message is the subject of an output guard: one assistant message as the
// stream completed it, before the transcript keeps it. [Chain.OutputGuard]
// builds it.
type Message struct {
	Message *openresponses.Message
}

// Verdict is a guard's answer about one subject.
//
// Action is [agentturn.Allow] or [agentturn.Block]; a chain refuses
// [agentturn.Defer], since there is nobody to hand content back to. Reason is
// the text the observer records and, on a Block, the text of the
// [BlockedError] or of the placeholder.
//
// An Allow may rewrite its subject. Items, when non-nil, replaces the items
// of an [Input] (an empty, non-nil list sends none) or, for a [Message], must
// hold exactly one *openresponses.Message that replaces it. Instructions,
// when non-nil, replaces an [Input]'s instructions, "" sending none. A
// rewrite of an [Output] is ignored: a finished turn is already in the
// transcript.
type Verdict struct {
	Action       agentturn.ToolAction
	Reason       string
	Items        openresponses.Items
	Instructions *string
}

// Guard is a named check over content. A [Chain] runs any value that has
// the two methods, so a product's own guard type, with its own options and
// state, goes into a chain as it is; [New] makes one from a function.
//
// Name is what a [BlockedError], a placeholder and the observer's verdict
// call the guard by. A chain reads it each time it reports, so it should not
// change.
//
// Check is called with the subject as a value of type [Input], [Output] or
// [Message], and must pass (return the zero [Verdict]) any other type, so
// that a guard written today keeps working in a chain that later hands it a
// kind of subject it never heard of. It must not modify the subject; a
// rewrite goes into the verdict, built on a copy (openresponses.Items.Clone).
// An error fails the model call or the run; an error wrapping
// [agentturn.ErrGuard] stops the run as a guard stop instead, and a
// [BlockedError] is read as a Block with its reason that stops the run,
// over an assistant message too. A chain may call
// Check from many runs at once.
type Guard interface {
	Name() string
	Check(ctx context.Context, subject any) (Verdict, error)
}

// New returns the [Guard] named name whose Check is check. Every guard of
// this package is built with it.
func New(name string, check func(ctx context.Context, subject any) (Verdict, error)) Guard {
	return funcGuard{name: name, check: check}
}

// funcGuard is the [Guard] [New] returns.
type funcGuard struct {
	name  string
	check func(ctx context.Context, subject any) (Verdict, error)
}

func (g funcGuard) Name() string { return g.name }

func (g funcGuard) Check(ctx context.Context, subject any) (Verdict, error) {
	return g.check(ctx, subject)
}
