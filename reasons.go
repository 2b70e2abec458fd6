package agentpolicy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// The texts a model, a front or a record reads, in one place, so the
// contract can be read and changed here. The reasons are plain
// concatenations: the cited form of every rule is built once, when the
// policy is compiled, and a decision only picks it up.

// Errors returned by [Build], [Engine.SetPolicy] and the grants. Every
// error the package produces begins with "agentpolicy:"; these are wrapped
// with the detail that names the rule, and matched with errors.Is.
var (
	// ErrNoDefault is returned when the policy's Default was left unset.
	ErrNoDefault = errors.New("agentpolicy: policy default is not set; use Allow(), Deny() or Ask()")
	// ErrNoMatcher is returned when a rule has a specifier and its tool
	// has no matcher, so the rule could never match. The error names
	// the rule.
	ErrNoMatcher = errors.New("agentpolicy: no matcher for the rule's tool")
	// ErrToolGlob is returned for a rule whose tool name is a glob the
	// engine will not honour. The error names the rule. Such a glob is:
	//   - one in the allow list, where the reference refuses it too;
	//   - one with a specifier, since a glob names no matcher.
	ErrToolGlob = errors.New("agentpolicy: tool-name glob")
)

// errNoMatcher names the rule and, when a registered matcher's name
// differs from the rule's tool only in case, the name that was probably
// meant.
func errNoMatcher(r Rule, nearMiss string) error {
	if nearMiss != "" {
		return fmt.Errorf("%w: %s; did you mean %s?", ErrNoMatcher, r, nearMiss)
	}
	return fmt.Errorf("%w: %s", ErrNoMatcher, r)
}

func errGlobInAllow(r Rule) error {
	return fmt.Errorf("%w: %s is not honoured in the allow list", ErrToolGlob, r)
}

func errGlobWithSpec(r Rule) error {
	return fmt.Errorf("%w: %s takes no specifier", ErrToolGlob, r)
}

var (
	errIndexIncomplete = errors.New("agentpolicy: index: a matcher, its Key and its Literal are all needed")
	errIndexBuiltin    = errors.New("agentpolicy: index: a built-in matcher is indexed by the engine")
	errIndexUnused     = errors.New("agentpolicy: index: no tool has the indexed matcher")
)

var errAliasUnnamed = errors.New("agentpolicy: alias: an entry has no rule name")

func errAliasGlob(name string) error {
	return fmt.Errorf("agentpolicy: alias %q: a rule name with a glob names no tool", name)
}

func errAliasEmpty(name string) error {
	return fmt.Errorf("agentpolicy: alias %q: names no tool", name)
}

func errAliasTarget(name, target string) error {
	return fmt.Errorf("agentpolicy: alias %q: %q is not a tool name", name, target)
}

var errMergeUnnamed = errors.New("agentpolicy: merge: a source has no name")

func errMergeDuplicate(name string) error {
	return fmt.Errorf("agentpolicy: merge: duplicate source %q; give each source its own name, %q for one skill of several",
		name, name+":<name>")
}

// cite is C of the contract: the rule as a reason names it, followed by its
// note unless the note comes from a named source the user has not trusted,
// whose text the model must not read in the harness's voice.
func cite(r Rule) string {
	if r.Note == "" || (r.Source.Name != "" && !r.Source.Trusted) {
		return r.String()
	}
	return r.String() + ": " + r.Note
}

// ruleReason is the reason a rule of the list gives when it matches.
func ruleReason(l list, cited string) string {
	switch l {
	case denyList:
		return "denied by " + cited
	case askList:
		return "approval required by " + cited
	default:
		return "allowed by " + cited
	}
}

const reasonAllowedByDefault = "allowed by default"

// defaultReason is the reason the default gives for a subject of the tool
// no rule matched.
func defaultReason(d Default, tool string) string {
	switch d.action {
	case agentturn.Block:
		return "no rule allows " + tool + ": denied by default"
	case agentturn.Defer:
		return "no rule allows " + tool + ": approval required by default"
	default:
		return reasonAllowedByDefault
	}
}

// unseenReason says why a subject that hides code from the rules is asked
// about: why is the subject's [Subject.Unseen].
func unseenReason(why string) string {
	return "approval required: " + why
}

// confinedReason says why a confined call was not asked about: by names
// what confines it, rule is the bare ask rule it skipped, without its note.
func confinedReason(by, rule string) string {
	if by == "" {
		return "confined, so " + rule + " does not ask"
	}
	return "confined by " + by + ", so " + rule + " does not ask"
}

// errNoSubjects is the splitter's empty answer, reported as its error.
var errNoSubjects = errors.New("splitter returned no subjects")

// unevaluable is the reason a call is blocked with when it could not be
// split, its arguments are ambiguous, or its context was done before it
// was decided. An ambiguity reads the same whether the engine or a
// splitter found it.
func unevaluable(tool string, err error) string {
	var amb *ambiguousError
	if errors.As(err, &amb) {
		return tool + " call could not be evaluated: ambiguous arguments: " + amb.problem
	}
	return tool + " call could not be evaluated: " + err.Error()
}

// compoundReason is the reason of a split call one subject blocked: it
// names the subject and tells the model that nothing of the command ran,
// listing the other subjects' texts, each once, so the model does not read
// the other halves as having run.
func compoundReason(reason, winner string, others []string) string {
	var b strings.Builder
	b.WriteString(reason)
	b.WriteString(" on ")
	b.WriteString(strconv.Quote(winner))
	b.WriteString("; nothing in this command ran")
	for i, text := range others {
		switch {
		case i == 0:
			b.WriteString(", including ")
		case i == len(others)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(text))
	}
	return b.String()
}

// actionWord is the record's word for an action.
func actionWord(a agentturn.ToolAction) string {
	switch a {
	case agentturn.Allow:
		return "allow"
	case agentturn.Block:
		return "block"
	case agentturn.Defer:
		return "defer"
	default:
		return "action(" + strconv.Itoa(int(a)) + ")"
	}
}

// actionOf is the action a record's word names, see [ParseRecord].
func actionOf(word string) (agentturn.ToolAction, bool) {
	for _, a := range []agentturn.ToolAction{agentturn.Allow, agentturn.Block, agentturn.Defer} {
		if actionWord(a) == word {
			return a, true
		}
	}
	return 0, false
}

// ErrUnanswered is returned by [Engine.Release], with the answers it
// built, when a call the run left pending has no answer. The caller did
// not answer it and the engine did not hold it, so resuming with the
// answers would fail. The error names every such call. [Engine.Answers]
// completes through Release and returns it the same way.
var ErrUnanswered = errors.New("agentpolicy: pending call has no answer")

// errUnanswered names the pending calls nobody answered, each as
// unansweredCall wrote it.
func errUnanswered(calls []string) error {
	return fmt.Errorf("%w: %s", ErrUnanswered, strings.Join(calls, ", "))
}

// unansweredCall is how ErrUnanswered names a call: its ID and its tool.
func unansweredCall(callID, tool string) string {
	return callID + " (" + tool + ")"
}

// heldReason is the reason of a call the policy allows, deferred because
// another call of its batch asks.
func heldReason(allow string) string {
	return "held for approval: " + allow
}

// heldAllow is the allow reason a held call's reason quotes, see
// heldReason.
func heldAllow(held string) string {
	return strings.TrimPrefix(held, "held for approval: ")
}

// releasedReason is the reason of a held call released with its batch.
func releasedReason(allow string) string {
	return "released: " + allow
}

// reasonNotReleased is the reason of a held call an answer that ended the
// turn left unreleased, and textNotReleased is what the model reads for
// it. reasonHeldRefused and textHeldRefused are the same for a held call
// [Engine.Answers] did not release because a reviewer did not approve a
// call of its run.
const (
	reasonNotReleased = "not released: the turn was stopped"
	textNotReleased   = "The call was held for an approval and the turn was stopped; the call did not run."
	reasonHeldRefused = "not released: a call of its turn was not approved"
	textHeldRefused   = "The call was held for the approval of another call of its turn, which was not approved; the call did not run."
)

// ErrAmbiguousArgs is wrapped by the error [Field] returns when a call's
// arguments do not say one thing (RFC 0001 §3.1). Two decoders could read
// different values from them. So a policy that reads one value may allow a
// call whose tool acts on another.
//
// The engine blocks a call whose arguments its rules would read
// ambiguously, as one it could not evaluate. The reason names the
// problem.
var ErrAmbiguousArgs = errors.New("agentpolicy: ambiguous arguments")

// ambiguousError is an ambiguity [Field] or the engine found. A verdict's
// reason quotes "ambiguous arguments: " and the problem, without the
// package's prefix, as it quotes no other error's.
type ambiguousError struct {
	problem string
}

func (e *ambiguousError) Error() string { return ErrAmbiguousArgs.Error() + ": " + e.problem }

func (e *ambiguousError) Unwrap() error { return ErrAmbiguousArgs }

// The problems that make arguments ambiguous.
var (
	errNotObject     error = &ambiguousError{"not a JSON object"}
	errNotOneObject  error = &ambiguousError{"not one JSON object"}
	errUnexpectedEnd error = &ambiguousError{"invalid JSON: unexpected end"}
)

// The faults that make JSON text invalid beyond its syntax.
const (
	faultUTF8      = "invalid UTF-8"
	faultSurrogate = "unpaired surrogate escape"
)

func errTwice(key string) error {
	return &ambiguousError{strconv.Quote(key) + " appears twice"}
}

func errAlsoAs(key, other string) error {
	return &ambiguousError{strconv.Quote(key) + " also as " + strconv.Quote(other)}
}

func errNotString(key string) error {
	return &ambiguousError{strconv.Quote(key) + " is not a string"}
}

// errInvalidAt is the error for JSON text that is invalid at byte pos:
// for the fault, or for its syntax when fault is empty.
func errInvalidAt(fault string, pos int) error {
	if fault == "" {
		fault = "invalid JSON"
	}
	return &ambiguousError{fault + " at byte " + strconv.Itoa(pos)}
}

// The reviewer's answers and the engine's own answers to the calls
// [Engine.Answers] is given, contract section 7.

// errNoReviewer is what [Engine.Answers] returns for a nil reviewer.
var errNoReviewer = errors.New("agentpolicy: no reviewer")

const (
	// textDoNotPursue follows every refusal the model reads from a
	// reviewer or a replay the policy denies.
	textDoNotPursue = "Do not pursue the same outcome through a workaround, indirect execution or policy circumvention."
	// textCutOff opens what the model reads for a call that may have run
	// and was not run again.
	textCutOff         = "The call was cut off before it finished and may have run; it was not run again."
	textTimedOut       = "The reviewer did not answer in time; the call did not run."
	textTimedOutCutOff = "The reviewer did not answer in time."
	textFailed         = "The reviewer could not evaluate the call; the call did not run."
	textFailedCutOff   = "The reviewer could not evaluate the call."
	textNeverStarted   = "The call was cut off before it started; it did not run."
	textRejected       = "The call was refused before it ran; it did not run"
	reasonTimedOut     = "reviewer timed out"
	reasonUndispatched = "not started: decided on resume"
	reasonRanElsewhere = "ran elsewhere"
	reasonNeverStarted = "not run: the call never started"
	reasonRejected     = "not run: the call was refused before it ran"
	reasonDenied       = "denied by reviewer"
	reasonApproved     = "approved by reviewer"
)

// reviewReason is the reason of a review's verdict: base, followed by
// ": " and the reviewer's reason as given when that holds more than
// spaces and a full stop.
func reviewReason(base, r string) string {
	if trimReason(r) == "" {
		return base
	}
	return base + ": " + r
}

// failedReason is the reason of a review that failed with err.
func failedReason(err error) string {
	return "reviewer failed: " + err.Error()
}

// notReviewedReason is the reason of a call that may have run and is
// refused without a review, why the loop lists it pending.
func notReviewedReason(why agentturn.PendingReason) string {
	return "not reviewed: " + string(why)
}

// trimReason is a reason as the model reads it: without surrounding
// spaces and without one trailing full stop, so the text that follows it
// punctuates it once.
func trimReason(r string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(r), "."))
}

// withReason is base, followed by ": r" when r is not empty.
func withReason(base, r string) string {
	if r == "" {
		return base
	}
	return base + ": " + r
}

// deniedText is what the model reads for a refusal by w, "reviewer" or
// "policy", with the refusing reason r, trimmed.
func deniedText(w, r string) string {
	if r == "" {
		return "Denied by " + w + ". " + textDoNotPursue
	}
	return "Denied by " + w + ": " + r + ". " + textDoNotPursue
}

// cutOffText is what the model reads for a call that may have run and
// was not run again, text saying why.
func cutOffText(text string) string {
	return textCutOff + " " + text
}

// rejectedText is what the model reads for a call refused before it ran,
// with the record's reason r, trimmed, when it gives one.
func rejectedText(r string) string {
	if r == "" {
		return textRejected + "."
	}
	return textRejected + ": " + r + "."
}

// replayReason is the reason of a cut-off call the policy lets run again.
func replayReason(replay agenttool.Replay, policy string) string {
	return "run again: replay " + replay.String() + "; " + policy
}

// rewriteReason is the reason of a cut-off call whose arguments who, "a
// hook" or "the reviewer", rewrote to ones its tool does not say may run
// again.
func rewriteReason(who string, replay agenttool.Replay) string {
	return "not run again: " + who + " rewrote the arguments, and replay is " + replay.String() + " for the rewrite"
}

// The texts of the grants, contract §6. G is a grant as given, before
// alias expansion; R a rule as Rule.String writes it.

func errGrantCarveOut(r Rule) error {
	return fmt.Errorf("agentpolicy: cannot grant a carve-out: %s", r)
}

// The reasons GrantOver refuses with, and GrantSet's.
const (
	refusedNotDeferred = "nothing to grant over: the call was not deferred"
	refusedHeld        = "nothing to grant over: the call was held for another call's approval"
)

func refusedOverDeny(r Rule) string {
	return "cannot grant over a deny rule: " + r.String()
}

func refusedOtherTool(g, r Rule) string {
	return "grant " + g.String() + " does not name the tool of " + r.String()
}

func refusedOutranked(r Rule) string {
	if r.Source.Name == "" {
		return r.String() + " outranks the grant"
	}
	return r.String() + " from " + r.Source.Name + " outranks the grant"
}

func refusedGone(r Rule) string {
	return r.String() + " is no longer in the ask list"
}

func refusedUntrusted(source string) string {
	return "withheld: the source " + source + " is not trusted"
}

func refusedDenied(deny Rule) string {
	return "denied by " + deny.String() + ": a grant never beats a deny"
}

// The reasons of the grant journal's verdicts.

func grantedReason(g Rule) string {
	return "granted " + g.String()
}

func grantedOverReason(g, r Rule) string {
	return "granted " + g.String() + " over " + r.String()
}

func grantedByReason(g Rule, source string) string {
	return "granted " + g.String() + " by " + sourceName(source)
}

func notGrantedReason(g Rule, why string) string {
	return "not granted " + g.String() + ": " + why
}

func revokedByReason(source string) string {
	return "revoked the rules granted by " + sourceName(source)
}

func revokedScopeReason(scope string) string {
	if scope == "" {
		return "revoked the rules granted without a scope"
	}
	return "revoked the rules granted under " + scope
}

// sourceName is how the journal names a grant's source: its name, or "the
// product" for a source with none.
func sourceName(name string) string {
	if name == "" {
		return "the product"
	}
	return name
}

// errNilJournal is what a nil JournalFunc given to [WithJournal] fails
// every record with.
var errNilJournal = errors.New("agentpolicy: the journal is a nil JournalFunc")

// unrecordedReason is the reason of an allow the journal could not record,
// refused: it names the failure first and keeps what was decided, the
// allow's own reason, so the record and the model both read what would
// have run, when it has one: a reviewer's approval has none. See
// [WithJournal].
func unrecordedReason(allow string) string {
	return withReason("refused: the decision could not be recorded", allow)
}

// ErrUnrecorded is wrapped by the error of a grant the [WithJournal]
// journal could not record, with the journal's error: the grant is not
// made. refusedUnrecorded is the reason the refusal gives,
// "not granted G: the grant could not be recorded".
var ErrUnrecorded = errors.New("agentpolicy: the grant could not be recorded")

const refusedUnrecorded = "the grant could not be recorded"

// reasonQueued is the reason of an [Unattended] refusal, which the model
// reads as "Denied by policy: queued for a person to review; it did not
// run."
const reasonQueued = "queued for a person to review; it did not run"

// reasonNotRecorded is the reason of a call [Engine.Answers] refuses
// because its restored deferral recorded other arguments, and
// textNotRecorded what the model reads for it.
const (
	reasonNotRecorded = "not reviewed: the call's arguments are not the ones its deferral recorded"
	textNotRecorded   = "The call's arguments are not the ones the policy decided; the call did not run."
)
