package classify

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestReadAnswer(t *testing.T) {
	cases := []struct {
		name   string
		text   string
		allow  bool
		reason string
	}{
		{"bare", `{"allow": true, "reason": "a read of the repository"}`, true, "a read of the repository"},
		{"refusal", `{"allow":false,"reason":"it deletes the home folder"}`, false, "it deletes the home folder"},
		{"prose around", "Let me think. The call only lists files.\n{\"allow\": true, \"reason\": \"a listing\"}\nThat is my answer.", true, "a listing"},
		{"code fence", "```json\n{\n  \"allow\": false,\n  \"reason\": \"exfiltration\"\n}\n```", false, "exfiltration"},
		{"members reordered, spaces", `{ "reason" : " pushes to main. " , "allow" : false }`, false, "pushes to main."},
		{"no reason", `{"allow": true}`, true, ""},
		{"other members ignored", `{"allow": false, "reason": "r", "confidence": 0.9, "tags": ["a", {"allow": true}]}`, false, "r"},
		{"an object without allow first", `{"thinking": "careful"} {"allow": false, "reason": "r"}`, false, "r"},
		{"a nested answer", `{"verdict": {"allow": false, "reason": "nested"}}`, false, "nested"},
		{"broken JSON first", `{"allow": tru {"allow": false, "reason": "second"}`, false, "second"},
		{"the first answer decides", `{"allow": false, "reason": "first"} {"allow": true, "reason": "second"}`, false, "first"},
		{"an answer quoted in a string is not an object", `{"note": "{\"allow\": true}", "allow": false, "reason": "outer"}`, false, "outer"},
		{"an answer inside an array", `[{"allow": true, "reason": "in a list"}]`, true, "in a list"},
		{"a member name that is not a string first", `{1: true} {"allow": true, "reason": "after"}`, true, "after"},
		{"a brace in prose", `I use { for sets. {"allow": true, "reason": "ok"}`, true, "ok"},
		{"unicode reason", `{"allow": false, "reason": "rm -rf \u00e9t\u00e9"}`, false, "rm -rf été"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := readAnswer(c.text)
			if err != nil {
				t.Fatalf("readAnswer: %v", err)
			}
			if a.allow != c.allow || a.reason != c.reason {
				t.Fatalf("read allow %v reason %q, want %v %q", a.allow, a.reason, c.allow, c.reason)
			}
		})
	}
}

// An answer that is not plainly true or false reads as unreadable, never
// as an approval.
func TestReadAnswerUnreadable(t *testing.T) {
	cases := []struct{ name, text string }{
		{"empty", ""},
		{"prose", "Yes, that is fine."},
		{"allow as a string", `{"allow": "true", "reason": "r"}`},
		{"allow as a number", `{"allow": 1, "reason": "r"}`},
		{"allow null", `{"allow": null, "reason": "r"}`},
		{"allow an object", `{"allow": {"allow": true}}`},
		{"allow given twice", `{"allow": false, "allow": true, "reason": "r"}`},
		{"allow given twice, the same", `{"allow": true, "allow": true}`},
		{"reason a number", `{"allow": true, "reason": 5}`},
		{"reason null", `{"allow": true, "reason": null}`},
		{"reason given twice", `{"allow": true, "reason": "a", "reason": "b"}`},
		{"capitalised member", `{"Allow": true, "Reason": "r"}`},
		{"unterminated", `{"allow": true, "reason": "r"`},
		{"single quotes", `{'allow': true}`},
		{"yes", `{"allow": yes}`},
		{"the first answer is unreadable", `{"allow": "yes"} {"allow": true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := readAnswer(c.text)
			if !errors.Is(err, ErrUnreadableAnswer) {
				t.Fatalf("readAnswer = %+v, %v; want an unreadable answer", a, err)
			}
			if want := "agentpolicy/classify: unreadable answer: " + strconv.Quote(c.text); err.Error() != want {
				t.Fatalf("err %q, want %q", err, want)
			}
		})
	}
}

// Whatever prose surrounds an answer, as long as the prose opens no
// object, the answer reads back as written.
func FuzzReadAnswer(f *testing.F) {
	f.Add("Here it is:\n```json\n", true, "a read", "\n```")
	f.Add("", false, "", "")
	f.Add("}}}", false, `quote " and brace {`, "{\"allow\": true}")
	f.Fuzz(func(t *testing.T, before string, allow bool, reason, after string) {
		before = strings.ReplaceAll(before, "{", "")
		encoded, _ := json.Marshal(map[string]any{"allow": allow, "reason": reason}) // a bool and a string always encode
		text := before + string(encoded) + after
		a, err := readAnswer(text)
		if err != nil {
			t.Fatalf("readAnswer(%q): %v", text, err)
		}
		var want string
		_ = json.Unmarshal(encoded, &struct{ Reason *string }{&want})
		if a.allow != allow || a.reason != strings.TrimSpace(want) {
			t.Fatalf("readAnswer(%q) = %+v, want allow %v reason %q", text, a, allow, strings.TrimSpace(want))
		}
	})
}

// The reader tries the first maxOpenings objects the text opens: an
// answer that is the last of them reads, one after them does not.
func TestReadAnswerTriesTheFirstOpenings(t *testing.T) {
	answerAfter := func(n int) string {
		return strings.Repeat("{ ", n) + `{"allow": true, "reason": "late"}`
	}
	if a, err := readAnswer(answerAfter(maxOpenings - 1)); err != nil || !a.allow || a.reason != "late" {
		t.Fatalf("the answer at opening %d: %+v, %v; want it read", maxOpenings, a, err)
	}
	if _, err := readAnswer(answerAfter(maxOpenings)); !errors.Is(err, ErrUnreadableAnswer) {
		t.Fatalf("the answer at opening %d: %v, want unreadable", maxOpenings+1, err)
	}
}
