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

// maxOpenings is how many of the text's '{' readAnswer tries before it
// gives up. An answer that follows the instruction is the first object,
// or the second when the model wraps it; the bound keeps a long output
// full of unclosed objects from costing more than a few reads of the text.
const maxOpenings = 16

// readAnswer reads the model's answer from its output text: the first JSON
// object in the text that has an "allow" member, wherever it sits, so prose
// or a code fence around it still reads. That object decides: its "allow"
// must be a JSON boolean and its "reason", when present, a string, each
// given once; otherwise, and when none of the first [maxOpenings] objects
// the text opens has "allow", the answer is unreadable and the caller fails
// closed. Member names are matched exactly, so {"Allow": true} is not an
// answer.
func readAnswer(text string) (answer, error) {
	i := strings.IndexByte(text, '{')
	for tries := 0; i >= 0 && tries < maxOpenings; tries++ {
		if obj, ok := objectAt(text[i:]); ok && hasMember(obj, "allow") {
			return decideAnswer(obj, text)
		}
		i = nextBrace(text, i)
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

// objectAt is the JSON object text begins with, ignoring what follows it,
// and false when text does not begin with a whole, valid one.
func objectAt(text string) (json.RawMessage, bool) {
	var obj json.RawMessage
	if json.NewDecoder(strings.NewReader(text)).Decode(&obj) != nil {
		return nil, false
	}
	return obj, true
}

// hasMember reports whether the valid object obj has a member called name.
func hasMember(obj json.RawMessage, name string) bool {
	var members map[string]json.RawMessage
	_ = json.Unmarshal(obj, &members) // obj is a valid object
	_, ok := members[name]
	return ok
}

// decideAnswer reads the object that answers: allow a boolean given once,
// reason absent or a string given once.
func decideAnswer(obj json.RawMessage, text string) (answer, error) {
	members := membersOf(obj)
	allow, reason := members["allow"], members["reason"]
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

// membersOf lists the values of each member of the valid object obj in the
// order given, so a member given twice is seen twice: encoding/json keeps
// only the last, and {"allow": false, "allow": true} must not read as
// either.
func membersOf(obj json.RawMessage) map[string][]json.RawMessage {
	dec := json.NewDecoder(strings.NewReader(string(obj)))
	members := make(map[string][]json.RawMessage)
	_, _ = dec.Token() // the object's '{'
	for dec.More() {
		tok, _ := dec.Token()   // a member's name, obj being valid
		name, _ := tok.(string) // inside an object the decoder yields only string names
		var value json.RawMessage
		_ = dec.Decode(&value)
		members[name] = append(members[name], value)
	}
	return members
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
