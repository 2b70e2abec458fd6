package guard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy/internal/secret"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// The words a [BlockedError] uses for its subject.
const (
	subjectInput   = "input"
	subjectMessage = "message"
	subjectOutput  = "output"
)

// BlockedError is the error a [Chain] returns when a guard blocks content
// the run cannot go on without: an input, a message under [Chain.Stop], or a
// finished turn. It wraps [agentturn.ErrGuard], so the loop ends the run as a
// guard stop (stopped, cause guard) with the error on RunEnd.Err, and a host
// tells a policy stop from a failure with errors.Is or errors.As.
type BlockedError struct {
	// Guard is the name of the guard that blocked.
	Guard string
	// Subject is what was blocked: "input", "message" or "output".
	Subject string
	// Reason is the guard's reason.
	Reason string
}

// Error reads "agentpolicy/guard: G blocked the S: R".
func (e *BlockedError) Error() string {
	return "agentpolicy/guard: " + e.Guard + " blocked the " + e.Subject + ": " + e.Reason
}

// Unwrap returns [agentturn.ErrGuard].
func (e *BlockedError) Unwrap() error { return agentturn.ErrGuard }

// Withheld is the placeholder a [Chain] puts in place of an assistant message
// a guard blocked, unless the chain sets its own: an assistant message
// reading "Withheld by G: <reason>" that keeps the original's ID, status and
// phase, so the transcript and a front that follows the message by its ID
// stay whole while the words are gone. original may be nil.
func Withheld(original *openresponses.Message, guard, reason string) *openresponses.Message {
	m := openresponses.AssistantText("Withheld by " + guard + ": " + reason)
	if original != nil {
		m.ID, m.Status, m.Phase = original.ID, original.Status, original.Phase
	}
	return m
}

// guardError is what a chain returns for a guard that failed: the guard's
// own error, wrapped so that errors.Is still finds [agentturn.ErrGuard] and
// any sentinel of the guard's.
func guardError(name string, err error) error {
	return fmt.Errorf("agentpolicy/guard: %s: %w", name, err)
}

// errDefer is the error for a guard that answered Defer, which content
// cannot be: there is no pending call to hand back.
func errDefer(name string) error {
	return errors.New("agentpolicy/guard: " + name + ": Defer is not valid for content")
}

// errAction is the error for a guard whose action is none of the three.
func errAction(name string, action agentturn.ToolAction) error {
	return fmt.Errorf("agentpolicy/guard: %s: action %d is not valid for content", name, int(action))
}

// errRewrite is the error for a guard that rewrote a message into anything
// but one message.
func errRewrite(name string) error {
	return errors.New("agentpolicy/guard: " + name + ": a rewrite of a message must be one message")
}

// limitReason is [Limit]'s reason: "K is N bytes, over the M byte limit".
func limitReason(subject string, n, limit int64) string {
	return subject + " is " + strconv.FormatInt(n, 10) + " bytes, over the " + strconv.FormatInt(limit, 10) + " byte limit"
}

// denyReason is [Deny]'s reason. It quotes the pattern's source as written,
// not escaped, so a reader finds the very expression of the host's list.
func denyReason(pattern string) string {
	return `matched denied pattern "` + pattern + `"`
}

// secretReason is [Secrets]' reason, and [Redact]'s over a finished turn.
func secretReason(name string) string {
	return secret.Detected(name)
}

// redactedReason is [Redact]'s reason: how many secrets it replaced and
// their kinds in the order first seen.
func redactedReason(count int, names []string) string {
	if count == 1 {
		return "redacted 1 secret: " + names[0]
	}
	return "redacted " + strconv.Itoa(count) + " secrets: " + strings.Join(names, ", ")
}
