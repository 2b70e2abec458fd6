// Package guard decides what may enter and leave an agent's window: content
// guards over what the model is about to read and over what it wrote, and a
// [Chain] that turns them into the loop's BeforeModelCall, OutputGuard and
// ShouldStopAfterTurn hooks (agentturn.Config).
//
// Most of what enters a window never passes a tool-call decision: an
// AGENTS.md chain read out of a checkout, a skill catalogue, a memory block,
// a tool's output. And what leaves it, an assistant message or a function
// call's arguments, can carry a secret. A host wires an input chain and an
// output chain:
//
//	input := guard.Chain{
//		Guards:   []guard.Guard{guard.Limit(1 << 20), guard.Redact(), guard.Deny(injection)},
//		Observer: record,
//	}
//	output := guard.Chain{Guards: []guard.Guard{guard.Redact()}, Observer: record}
//	cfg.BeforeModelCall = input.BeforeModelCall()
//	cfg.OutputGuard = output.OutputGuard()
//
// A [Guard] is anything with a name and a check over a subject: an [Input]
// (a request's items and instructions), a [Message] (an assistant message as
// the stream completed it) or an [Output] (a finished turn). [New] makes one
// from a function; a product's own guard type joins a chain as it is. Its
// [Verdict] allows, possibly rewriting the subject, or blocks with a reason.
// An input guard's rewrite changes what one model call reads, never the
// transcript; its Block stops the run as a guard stop before the model is
// called. An output guard's rewrite replaces the message before anything
// keeps it; its Block withholds the message behind a placeholder
// ([Withheld], "Withheld by G: <reason>") and the run goes on, or, with
// [Chain.Stop], stops the run. A guard over a finished turn can only stop
// the run, since the turn is in the transcript already; it is the place for
// a check no rewrite can answer, such as a secret in a function call's
// arguments. Every guard stop ends the run with a [BlockedError] wrapping
// agentturn.ErrGuard, so a policy stop is told from a failure.
//
// The package's guards read the same text fields of a subject, in reading
// order: an input's instructions first, then each item's: a message's text
// parts, a function call's arguments, a function call output's parts or
// text, a reasoning item's summary and content. Images and compactions carry
// no text. A function call's arguments are read as they are and as the
// tool will read them: each JSON string, key or value, decoded, so an
// escape such as \u0041 in a model's call hides nothing from a guard.
// [Limit] bounds the wire size, [Deny] matches patterns, [Secrets] blocks on
// a key or a token and [Redact] replaces one with "[REDACTED NAME]" before
// the model reads it, or before a message of the model's is kept. Both look
// for [DefaultSecrets], over a hundred kinds each named for a provider and
// its token and each beginning with a fixed literal, so clean text costs a
// scan for the literals and runs no expression; [GenericSecrets], which
// guesses from the words around a value, is opt-in. Over a finished turn
// Redact reads only the items an output guard never sees, so a chain that
// redacts output does not stop a run on a secret it already removed.
//
// Every verdict reaches the chain's Observer as an agentpolicy.Verdict, which
// a host records beside its session with agentpolicy.Verdict.Record. The
// package never calls a model or opens a socket.
package guard
