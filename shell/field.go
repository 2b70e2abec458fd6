package shell

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// field reads the string member name of the arguments, failing on
// arguments that are not one JSON object and on a member that repeats or
// is not a string. It stands in for agentpolicy.Field, the root package's
// one reading of a field, until that lands.
func field(args json.RawMessage, name string) (string, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(args))
	var members map[string]json.RawMessage
	if err := dec.Decode(&members); err != nil || members == nil || dec.More() {
		return "", false, errors.New("agentpolicy: ambiguous arguments: not one JSON object")
	}
	raw, ok := members[name]
	if !ok {
		return "", false, nil
	}
	if bytes.Count(args, []byte(`"`+name+`"`)) > 1 {
		return "", false, fmt.Errorf("agentpolicy: ambiguous arguments: %q appears twice", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("agentpolicy: ambiguous arguments: %q is not a string", name)
	}
	return s, true, nil
}
