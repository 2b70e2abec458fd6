package classify

import (
	"encoding/json"
	"strings"
)

// answer is what the model said about a subject.
type answer struct {
	allow  bool
	reason string
}

// readAnswer reads the model's answer from its output text: the first JSON
// object in the text that has an "allow" member, wherever it sits, so prose
// or a code fence around it still reads. That object decides: its "allow"
// must be a JSON boolean and its "reason", when present, a string, each
// given once; otherwise, and when no object has "allow", the answer is
// unreadable and the caller fails closed. Member names are matched
// exactly, so {"Allow": true} is not an answer.
func readAnswer(text string) (answer, error) {
	for i := strings.IndexByte(text, '{'); i >= 0; i = nextBrace(text, i) {
		members, ok := object(text[i:])
		if !ok {
			continue
		}
		allow, ok := members["allow"]
		if !ok {
			continue
		}
		return decideAnswer(allow, members["reason"], text)
	}
	return answer{}, unreadable(text)
}

// nextBrace is the index of the next '{' of text after i, -1 when none.
func nextBrace(text string, i int) int {
	j := strings.IndexByte(text[i+1:], '{')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// object decodes the JSON object text begins with into its members, each
// member's values in the order given, ignoring what follows the object. It
// reports false when text does not begin with an object.
func object(text string) (map[string][]json.RawMessage, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	members := make(map[string][]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := tok.(string) // inside an object the decoder yields only string names
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		members[name] = append(members[name], value)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	return members, true
}

// decideAnswer reads the members of the object that answers: allow a
// boolean given once, reason absent or a string given once.
func decideAnswer(allow, reason []json.RawMessage, text string) (answer, error) {
	var a answer
	if len(allow) != 1 || !boolean(allow[0], &a.allow) {
		return answer{}, unreadable(text)
	}
	switch len(reason) {
	case 0:
	case 1:
		if json.Unmarshal(reason[0], &a.reason) != nil || string(reason[0]) == "null" {
			return answer{}, unreadable(text)
		}
	default:
		return answer{}, unreadable(text)
	}
	a.reason = strings.TrimSpace(a.reason)
	return a, nil
}

// boolean decodes raw into b when raw is true or false, and nothing else:
// null, a string and a number are not an answer.
func boolean(raw json.RawMessage, b *bool) bool {
	switch string(raw) {
	case "true":
		*b = true
	case "false":
		*b = false
	default:
		return false
	}
	return true
}
