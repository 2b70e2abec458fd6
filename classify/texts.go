package classify

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The texts a model, a host and a record read, in one place (the RFC's
// classify section).

// answerInstruction follows the rubric in every question's instructions.
const answerInstruction = `Answer with one JSON object and nothing else: {"allow": true or false, "reason": "one sentence"}.`

// verdictSchema is the strict JSON schema of the answer, sent as the text
// format named "verdict": allow and reason, both required, nothing else.
func verdictSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"allow":{"type":"boolean"},"reason":{"type":"string"}},"required":["allow","reason"],"additionalProperties":false}`)
}

// ErrUnreadableAnswer is the error, wrapped with the model's text, of a
// model whose answer holds no JSON object with a boolean "allow": a
// [Guard] fails the model call or the run on it and a [Reviewer]'s review
// fails, so the call does not run.
var ErrUnreadableAnswer = errors.New("agentpolicy/classify: unreadable answer")

// errNoModel is the error of a [Guard] or a [Reviewer] built without a
// model, which can allow nothing.
var errNoModel = errors.New("agentpolicy/classify: no model")

// unreadable is [ErrUnreadableAnswer] quoting text.
func unreadable(text string) error {
	return fmt.Errorf("%w: %q", ErrUnreadableAnswer, text)
}

// modelError is the error of a model that failed or did not answer; it
// wraps err, so a context's error is still found with errors.Is.
func modelError(err error) error {
	return fmt.Errorf("agentpolicy/classify: model: %w", err)
}

// timedOutReason is the reason of a [Reviewer] whose model gave no answer
// within d.
func timedOutReason(d time.Duration) string {
	return "no answer within " + d.String()
}
