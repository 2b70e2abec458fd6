package agenttool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Decode decodes a call's raw arguments into T; empty arguments (or null)
// read as {}. A failure reads "invalid arguments: …".
func Decode[T any](raw json.RawMessage) (T, error) {
	var v T
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return v, fmt.Errorf("invalid arguments: %w", err)
	}
	return v, nil
}

// checkRequired refuses arguments that are not a JSON object or lack a
// required property.
func checkRequired(raw json.RawMessage, required []string) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &object); err != nil || object == nil {
		return errors.New("invalid arguments: the arguments must be a JSON object")
	}
	for _, name := range required {
		if _, ok := object[name]; !ok {
			return fmt.Errorf("invalid arguments: missing required property %q", name)
		}
	}
	return nil
}
