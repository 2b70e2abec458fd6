package openresponses

import (
	"encoding/json"
	"fmt"
)

// marshalTyped encodes v (a type without methods, so no recursion) and puts a
// "type" member in front of its members, the shape every item, part and tool
// has on the wire.
func marshalTyped(typ string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(typ)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(head)+9)
	out = append(out, `{"type":`...)
	out = append(out, head...)
	if len(body) > 2 {
		out = append(out, ',')
		out = append(out, body[1:]...)
		return out, nil
	}
	return append(out, '}'), nil
}

// typeOf reads the "type" member of a JSON object.
func typeOf(data []byte) (string, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("openresponses: %w", err)
	}
	return head.Type, nil
}
