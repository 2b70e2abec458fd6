package guard

import (
	"context"
	"errors"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Chain runs guards in order over content and becomes the loop's hooks:
// [Chain.BeforeModelCall] over what the model is about to read,
// [Chain.OutputGuard] over each assistant message as it completes, and
// [Chain.ShouldStopAfterTurn] over a finished turn. Each guard sees the
// subject as the guards before it left it; the first Block ends the chain.
//
// A hook keeps the chain's fields as they were when it was made: assigning a
// field afterwards changes no hook made before.
type Chain struct {
	// Guards run in order.
	Guards []Guard
	// Observer, when set, is handed every verdict of every guard, once and
	// in order, as an [agentpolicy.Verdict] naming the run (from the
	// context), the turn where the hook knows it, the guard, the action
	// and the reason. A Defer is reported as the guard gave it, though the
	// hook fails on it. A guard's [BlockedError] is that guard's Block,
	// with the error's Reason; any other error wrapping
	// [agentturn.ErrGuard] is reported as that guard's Block with the
	// error's text as the reason; any other error decides nothing and is
	// not reported.
	Observer func(context.Context, agentpolicy.Verdict)
	// Placeholder builds the message that replaces an assistant message a
	// guard blocked, from the message as the guards before the blocking
	// one left it (so a placeholder that keeps part of it never reads text
	// a guard ahead of it redacted), the guard's name and its reason. Nil
	// means [Withheld]; so does a Placeholder that returns nil.
	Placeholder func(original *openresponses.Message, guard, reason string) *openresponses.Message
	// Stop makes a blocked assistant message stop the run, as a guard stop
	// with the message withheld, instead of putting a placeholder in its
	// place, so neither the message nor the reason reaches the caller.
	Stop bool
}

// BeforeModelCall returns the hook for agentturn.Config.BeforeModelCall.
// It runs the guards over the request's [Input], its items and
// instructions, each guard seeing the previous one's rewrite. When a guard
// rewrote the input, with an Allow carrying Items or Instructions, the
// request is changed for this call only: the loop builds the next request
// from its transcript, which keeps what was said. A Block returns a
// [BlockedError] for "input", which the loop ends the run on as a guard stop
// before the model is called. A guard that fails with a [BlockedError], a
// chain used as a guard, blocks as if it had answered Block with the
// error's reason. Any other error of a guard returns
// "agentpolicy/guard: G: <err>", which stops the run as a guard stop when it
// wraps [agentturn.ErrGuard] and fails it otherwise. A Defer, which content
// cannot be, fails it with "agentpolicy/guard: G: Defer is not valid for
// content".
func (c Chain) BeforeModelCall() func(context.Context, *openresponses.Request) error {
	return func(ctx context.Context, req *openresponses.Request) error {
		in := Input{Items: req.Input, Instructions: req.Instructions}
		rewrote := false
		for _, g := range c.Guards {
			v, _, err := c.check(ctx, 0, g, in)
			if err != nil {
				return err
			}
			if v.Action == agentturn.Block {
				return &BlockedError{Guard: g.Name(), Subject: subjectInput, Reason: v.Reason}
			}
			if v.Items != nil {
				in.Items, rewrote = v.Items, true
			}
			if v.Instructions != nil {
				in.Instructions, rewrote = *v.Instructions, true
			}
		}
		if rewrote {
			req.Input, req.Instructions = in.Items, in.Instructions
		}
		return nil
	}
}

// OutputGuard returns the hook for agentturn.Config.OutputGuard. It runs
// the guards over each assistant message as the stream completes it,
// before the transcript keeps it, as a [Message]. A guard may rewrite the
// message with an Allow whose Items hold exactly one message; the next guard
// sees the rewrite and the loop keeps it. A Block puts the placeholder in the
// message's place and the run goes on, or, with [Chain.Stop], returns a
// [BlockedError] for "message", which the loop ends the run on as a guard
// stop with the message withheld. A guard that fails with a
// [BlockedError] stops the run so whatever Stop says, with the error's
// reason, as in the published module: it asked for a stop, not a
// placeholder. The hook returns nil when no guard changed the message.
// Other errors and Defer are as for [Chain.BeforeModelCall].
func (c Chain) OutputGuard() func(context.Context, agentturn.OutputInfo) (*openresponses.Message, error) {
	return func(ctx context.Context, info agentturn.OutputInfo) (*openresponses.Message, error) {
		ctx = withRunID(ctx, info.RunID)
		msg := info.Message
		changed := false
		for _, g := range c.Guards {
			v, stop, err := c.check(ctx, info.Turn, g, Message{Message: msg})
			if err != nil {
				return nil, err
			}
			if v.Action == agentturn.Block {
				if c.Stop || stop {
					return nil, &BlockedError{Guard: g.Name(), Subject: subjectMessage, Reason: v.Reason}
				}
				return c.placeholder(msg, g.Name(), v.Reason), nil
			}
			if v.Items != nil {
				rewritten, ok := oneMessage(v.Items)
				if !ok {
					return nil, errRewrite(g.Name())
				}
				msg, changed = rewritten, true
			}
		}
		if !changed {
			return nil, nil
		}
		return msg, nil
	}
}

// ShouldStopAfterTurn returns the hook for
// agentturn.Config.ShouldStopAfterTurn. It runs the guards over the finished
// turn as an [Output]: the response as the model produced it, and Final.
// The turn is already in the transcript, so a guard can only stop the run:
// a Block returns true and a [BlockedError] for "output", which the loop
// ends the run on as a guard stop; a rewrite is ignored. Errors and Defer
// are as for [Chain.BeforeModelCall], returned with false: a guard that
// failed decided nothing, so the loop ends the run on the error rather
// than as a stop the chain asked for, and an error that wraps
// [agentturn.ErrGuard] still reads as a guard stop there.
func (c Chain) ShouldStopAfterTurn() func(context.Context, agentturn.TurnInfo) (bool, error) {
	return func(ctx context.Context, info agentturn.TurnInfo) (bool, error) {
		ctx = withRunID(ctx, info.RunID)
		out := Output{Response: info.Response, Final: info.Final}
		for _, g := range c.Guards {
			v, _, err := c.check(ctx, info.Turn, g, out)
			if err != nil {
				return false, err
			}
			if v.Action == agentturn.Block {
				return true, &BlockedError{Guard: g.Name(), Subject: subjectOutput, Reason: v.Reason}
			}
		}
		return false, nil
	}
}

// BeforeModelCall is [Chain.BeforeModelCall] of a chain of guards with no
// observer.
func BeforeModelCall(guards ...Guard) func(context.Context, *openresponses.Request) error {
	return Chain{Guards: guards}.BeforeModelCall()
}

// OutputGuard is [Chain.OutputGuard] of a chain of guards with no observer.
func OutputGuard(guards ...Guard) func(context.Context, agentturn.OutputInfo) (*openresponses.Message, error) {
	return Chain{Guards: guards}.OutputGuard()
}

// ShouldStopAfterTurn is [Chain.ShouldStopAfterTurn] of a chain of guards
// with no observer.
func ShouldStopAfterTurn(guards ...Guard) func(context.Context, agentturn.TurnInfo) (bool, error) {
	return Chain{Guards: guards}.ShouldStopAfterTurn()
}

// check runs one guard and tells the observer what it decided. It returns
// a verdict whose action is Allow or Block, or the error the hook returns.
// A [BlockedError] is the guard's Block, with the error's reason, and stop
// set: the guard asked for the run to stop, not for a placeholder.
func (c Chain) check(ctx context.Context, turn int, g Guard, subject any) (v Verdict, stop bool, err error) {
	v, err = g.Check(ctx, subject)
	var blocked *BlockedError
	switch {
	case errors.As(err, &blocked):
		v, stop, err = Verdict{Action: agentturn.Block, Reason: blocked.Reason}, true, nil
	case err != nil:
		if errors.Is(err, agentturn.ErrGuard) {
			c.observe(ctx, turn, g.Name(), agentturn.Block, err.Error())
		}
		return Verdict{}, false, guardError(g.Name(), err)
	}
	switch v.Action {
	case agentturn.Allow, agentturn.Block:
		c.observe(ctx, turn, g.Name(), v.Action, v.Reason)
		return v, stop, nil
	case agentturn.Defer:
		c.observe(ctx, turn, g.Name(), v.Action, v.Reason)
		return Verdict{}, false, errDefer(g.Name())
	}
	return Verdict{}, false, errAction(g.Name(), v.Action)
}

func (c Chain) observe(ctx context.Context, turn int, guard string, action agentturn.ToolAction, reason string) {
	if c.Observer == nil {
		return
	}
	c.Observer(ctx, agentpolicy.Verdict{
		RunID:  agentturn.RunIDFromContext(ctx),
		Turn:   turn,
		Guard:  guard,
		Action: action,
		Reason: reason,
	})
}

// placeholder is the chain's placeholder for a blocked message.
func (c Chain) placeholder(msg *openresponses.Message, guard, reason string) *openresponses.Message {
	if c.Placeholder != nil {
		if p := c.Placeholder(msg, guard, reason); p != nil {
			return p
		}
	}
	return Withheld(msg, guard, reason)
}

// oneMessage is the message a rewrite of a message must consist of.
func oneMessage(items openresponses.Items) (*openresponses.Message, bool) {
	if len(items) != 1 {
		return nil, false
	}
	m, ok := items[0].(*openresponses.Message)
	return m, ok && m != nil
}

// withRunID puts the hook's run ID on ctx when the loop did not, so the
// observer and the guards find it there.
func withRunID(ctx context.Context, runID string) context.Context {
	if runID == "" || agentturn.RunIDFromContext(ctx) != "" {
		return ctx
	}
	return agentturn.ContextWithRunID(ctx, runID)
}
