package agentpolicy

import (
	"errors"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

func TestRecordOfADeferralCarriesTheCall(t *testing.T) {
	v := Verdict{RunID: "run_1", Turn: 2, CallID: "call_7", Tool: "bash", Action: agentturn.Defer,
		Reason: "held for approval: allowed by bash(git add:*)", By: ByPolicy, Held: true,
		Args: `{"command": "git add -A"}`, RunArgs: `{"command":"git add -A -n"}`,
		RunNote: "dry run first"}
	want := `{"run_id":"run_1","turn":2,"call_id":"call_7","tool":"bash","action":"defer",` +
		`"reason":"held for approval: allowed by bash(git add:*)","by":"policy","held":true,` +
		`"args":"{\"command\": \"git add -A\"}","run_args":"{\"command\":\"git add -A -n\"}","run_note":"dry run first"}`
	if _, data := v.Record(); string(data) != want {
		t.Errorf("record =\n%s\nwant\n%s", data, want)
	}
}

func TestParseRecordReadsBackWhatRecordWrote(t *testing.T) {
	for _, v := range []Verdict{
		{},
		{RunID: "run_1", Turn: 3, CallID: "call_7", Tool: "bash", Action: agentturn.Defer,
			Rule:   &Rule{Tool: "bash", Spec: "git push:*", Note: "pushes are reviewed", Source: Source{Name: "project", Hash: "sha256:ab"}},
			Reason: "approval required by bash(git push:*): pushes are reviewed", By: ByPolicy,
			Subject: "git push --force", Confined: "landlock", Args: `{"command":"git push --force"}`},
		{Tool: "bash", Action: agentturn.Block, Rule: &Rule{Tool: "Bash", Spec: "a(b)c"}, Reason: "denied by Bash(a(b)c)"},
		{Guard: "secrets", Action: agentturn.Block, Reason: "secret detected: jwt"},
		// Arguments are kept as text, byte for byte, JSON or not.
		{RunID: "r", CallID: "c", Tool: "t", Action: agentturn.Defer, Args: "not json <&> \u2028",
			RunArgs: `{}`, RunNote: "n", Held: true},
	} {
		_, data := v.Record()
		got, err := ParseRecord(data)
		if err != nil {
			t.Errorf("ParseRecord(%s): %v", data, err)
			continue
		}
		if !reflect.DeepEqual(got, v) {
			t.Errorf("ParseRecord(%s) =\n%+v\nwant\n%+v", data, got, v)
		}
	}
}

func TestParseRecordRefusesWhatIsNotARecord(t *testing.T) {
	for _, data := range []string{
		``,
		`[]`,
		`"allow"`,
		`{"action":"allow"} {"action":"allow"}`,
		`{"action":"allow"}x`,
		`{"action":"permit"}`,
		`{"action":""}`,
		`{}`,
		`{"action":"allow","parent":"call_1"}`,
		`{"action":"allow","Action":"block"}`,
		`{"action":"allow","action":"block"}`,
		`{"action":"allow","\u0061ction":"block"}`,
		`{"action":"allow","reason":"\ud800"}`,
		"{\"action\":\"allow\",\"reason\":\"\xff\"}",
		`{"action":"allow","turn":"1"}`,
		`{"action":"allow","args":{"command":"ls"}}`,
		`{"action":"allow","rule":"bash(a) read"}`,
		`{"action":"allow","rule":"bash(git push"}`,
		`{"action":"allow","rule":" read"}`,
		`{"action":"allow","rule":"Bash (ls)"}`,
		`{"action":"allow","source":"project"}`,
		`{"action":"allow","note":"why"}`,
		`{"action":"allow","source_hash":"sha256:ab"}`,
	} {
		if v, err := ParseRecord([]byte(data)); !errors.Is(err, ErrRecord) {
			t.Errorf("ParseRecord(%s) = %+v, %v; want ErrRecord", data, v, err)
		}
	}
}

func FuzzParseRecord(f *testing.F) {
	for _, seed := range []string{`{"action":"allow"}`, `{"run_id":"r","call_id":"c","tool":"bash","action":"defer","rule":"bash(x:*)","source":"s","args":"{}"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseRecord(data)
		if err != nil {
			return
		}
		// What reads as a verdict is one: written again, it reads the same.
		_, again := v.Record()
		w, err := ParseRecord(again)
		if err != nil || !reflect.DeepEqual(w, v) {
			t.Fatalf("%s read as %+v, written as %s, read again as %+v, %v", data, v, again, w, err)
		}
	})
}
