package agentpolicy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Journal is where the engine records its verdicts before they take
// effect: an audit trail a product keeps beside its sessions (RFC 0001
// §17). An observer hears of a decision after it was made. A journal is
// written before the decision is returned, and its error counts. An allow
// it could not record is refused: a call that left no trail must not run.
// The journal package holds one that appends to a file.
//
// Record is called once per verdict:
//   - from many goroutines at once when runs share the engine, so an
//     implementation must be safe for concurrent use;
//   - never under a lock a decision takes, so a slow journal slows only
//     what it records;
//   - for grants and revocations, under the lock that orders the changes
//     to the policy, so the journal's order is the order they took effect.
//
// So a journal must not call the engine back to change its policy or its
// grants. See [WithJournal].
type Journal interface {
	Record(ctx context.Context, v Verdict) error
}

// JournalFunc adapts a function to [Journal].
type JournalFunc func(context.Context, Verdict) error

// Record calls f.
func (f JournalFunc) Record(ctx context.Context, v Verdict) error {
	return f(ctx, v)
}

// WithJournal has the engine record in j every verdict it makes, before
// the verdict takes effect: decisions, releases, answers, grants and
// revocations. [Engine.Would] decides nothing and records nothing. A
// deferring verdict carries what answering it needs, so [Engine.Restore]
// reads a journal too. RFC 0001 §17 is the full contract.
//
// When j fails, the engine fails closed and does not retry:
//   - an allow becomes a block by policy, with the reason
//     "refused: the decision could not be recorded: <the allow's reason>";
//   - a block or a defer stands as decided, since it lets nothing run;
//   - a reviewer's approval is answered as a blocked call, and the calls
//     held for it are refused;
//   - a grant is not made; a revocation is made all the same.
//
// The last WithJournal given is the one written; nil writes none. A nil
// JournalFunc records nothing, so every allow is refused: a product that
// forgot to set it finds out at its first call.
func WithJournal(j Journal) Option {
	if f, ok := j.(JournalFunc); ok && f == nil {
		j = JournalFunc(func(context.Context, Verdict) error { return errNilJournal })
	}
	return func(e *Engine) { e.jnl = j }
}

// journal records *v before it takes effect and leaves in *v the verdict
// that does: v as it was, or, when v allows and could not be recorded, the
// block that refuses it. The error is the journal's, nil without one.
// Every path that makes a verdict take effect goes through here before it
// tells the observers, and one that allows something carries the verdict
// left out, so nothing is allowed that was not recorded.
func (e *Engine) journal(ctx context.Context, v *Verdict) error {
	if e.jnl == nil {
		return nil
	}
	err := e.jnl.Record(ctx, *v)
	if err == nil || v.Action != agentturn.Allow {
		return err
	}
	v.Action, v.By, v.Reason = agentturn.Block, ByPolicy, unrecordedReason(v.Reason)
	return err
}

// unrecordedAnswer is the answer to a pending call whose approval the
// journal could not record: an output the model reads as it reads a
// blocked call's, "Error: " and the reason, naming the policy as its
// decider.
func unrecordedAnswer(callID string, v Verdict) agentturn.Answer {
	out := openresponses.NewFunctionCallOutput(callID, "Error: "+v.Reason)
	return agentturn.Output(out).WithBy(ByPolicy).WithReason(v.Reason)
}

// journalAll records the verdicts of one change to the policy, a grant or
// a revocation, in order, through [Engine.journal], and returns the first
// error, wrapped in [ErrUnrecorded]: a grant is made only when every
// verdict that says so was recorded. It is called with e.mu held, which no
// decision takes, so the journal's order is the order the changes took
// effect in.
func (e *Engine) journalAll(ctx context.Context, vs []Verdict) error {
	for _, v := range vs {
		if err := e.journal(ctx, &v); err != nil {
			return fmt.Errorf("%w: %w", ErrUnrecorded, err)
		}
	}
	return nil
}

// refused records a grant set's refusal of a rule, which makes nothing
// take effect and so stands whether or not the journal takes it, and
// tells the observers. A refused Grant or GrantOver is not journaled: its
// caller reads the refusal from what it returns.
func (e *Engine) refused(ctx context.Context, v Verdict) {
	_ = e.journal(ctx, &v)
	e.notify(ctx, v)
}

// DefaultArgsBound is how many bytes of a call's arguments a journal keeps
// in a record unless told otherwise: 64 KiB. That is more than any command
// line or edit a person reads. It is little enough that a 20 MB Write costs
// a journal no more than a short call. See [Verdict.CutArgs].
const DefaultArgsBound = 64 << 10

// CutArgs returns v with its Args cut to at most bound bytes, for a
// journal that keeps a call's input up to a bound.
//   - The cut falls at the start of a UTF-8 sequence, so the text kept is
//     what it was up to there.
//   - ArgsBytes and ArgsSHA256 then say how long the whole was and what it
//     was. A reader knows the record holds a head, and which input it came
//     from.
//   - Args no longer than bound, a bound of zero or less, and a verdict cut
//     already are returned as they are.
//   - RunArgs is kept whole: it is set only where the engine's hooks
//     rewrote a call.
//
// A cut verdict is not the call's input: [Engine.Restore] finds its
// arguments differ from the call's and does not release it, and a queue
// does not grant a rule from it.
func (v Verdict) CutArgs(bound int) Verdict {
	if bound <= 0 || len(v.Args) <= bound || v.ArgsBytes != 0 {
		return v
	}
	sum := sha256.Sum256([]byte(v.Args))
	cut := bound
	for cut > 0 && !utf8.RuneStart(v.Args[cut]) {
		cut--
	}
	v.ArgsBytes, v.ArgsSHA256 = len(v.Args), hex.EncodeToString(sum[:])
	v.Args = v.Args[:cut]
	return v
}
