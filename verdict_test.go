package agentpolicy

import (
	"encoding/json"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

func TestVerdictRecordZeroIsAllow(t *testing.T) {
	ns, data := Verdict{}.Record()
	if ns != "agentpolicy:verdict" {
		t.Errorf("namespace = %q, want agentpolicy:verdict", ns)
	}
	if string(data) != `{"action":"allow"}` {
		t.Errorf("record = %s, want {\"action\":\"allow\"}", data)
	}
}

func TestVerdictRecordMembersInOrder(t *testing.T) {
	v := Verdict{
		RunID:  "run_1",
		Turn:   3,
		CallID: "call_7",
		Tool:   "bash",
		Guard:  "secrets",
		Action: agentturn.Defer,
		Rule: &Rule{Tool: "bash", Spec: "git push:*", Note: "pushes are reviewed",
			Source: Source{Name: "project", Path: "/repo/.settings.json", Hash: "sha256:ab", Trusted: true, Rank: 2}},
		Reason:   "approval required by bash(git push:*): pushes are reviewed",
		By:       ByPolicy,
		Held:     true,
		Subject:  "git push --force",
		Confined: "landlock+seccomp",
	}
	want := `{"run_id":"run_1","turn":3,"call_id":"call_7","tool":"bash","guard":"secrets","action":"defer",` +
		`"rule":"bash(git push:*)","source":"project","source_hash":"sha256:ab","note":"pushes are reviewed",` +
		`"reason":"approval required by bash(git push:*): pushes are reviewed","by":"policy","held":true,` +
		`"subject":"git push --force","confined":"landlock+seccomp"}`
	if _, data := v.Record(); string(data) != want {
		t.Errorf("record =\n%s\nwant\n%s", data, want)
	}
}

func TestVerdictRecordOmitsEmptyMembers(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    Verdict
		want string
	}{
		{"block by default", Verdict{Tool: "fetch", Action: agentturn.Block, Reason: "no rule allows fetch: denied by default", By: ByPolicy},
			`{"tool":"fetch","action":"block","reason":"no rule allows fetch: denied by default","by":"policy"}`},
		{"rule without a source", Verdict{Action: agentturn.Allow, Rule: &Rule{Tool: "read"}, Reason: "allowed by read"},
			`{"action":"allow","rule":"read","reason":"allowed by read"}`},
		{"untrusted note kept on the record", Verdict{Action: agentturn.Block,
			Rule:   &Rule{Tool: "bash", Spec: "curl:*", Note: "use fetch", Source: Source{Name: "repo"}},
			Reason: "denied by bash(curl:*)"},
			`{"action":"block","rule":"bash(curl:*)","source":"repo","note":"use fetch","reason":"denied by bash(curl:*)"}`},
		{"guard verdict", Verdict{Guard: "limit", Action: agentturn.Block, Reason: "input is 9 bytes, over the 8 byte limit"},
			`{"guard":"limit","action":"block","reason":"input is 9 bytes, over the 8 byte limit"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, data := tc.v.Record(); string(data) != tc.want {
				t.Errorf("record = %s, want %s", data, tc.want)
			}
		})
	}
}

func TestVerdictRecordWritesTextAsItReads(t *testing.T) {
	v := Verdict{Action: agentturn.Block, Subject: `a && b > "c"`, Reason: "<x>"}
	_, data := v.Record()
	want := `{"action":"block","reason":"<x>","subject":"a && b > \"c\""}`
	if string(data) != want {
		t.Errorf("record = %s, want %s", data, want)
	}
	var back map[string]any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("record is not JSON: %v", err)
	}
}

func TestActionWords(t *testing.T) {
	for action, want := range map[agentturn.ToolAction]string{
		agentturn.Allow: "allow", agentturn.Block: "block", agentturn.Defer: "defer",
	} {
		if got := actionWord(action); got != want {
			t.Errorf("actionWord(%d) = %q, want %q", action, got, want)
		}
	}
}
