package journal

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

func TestReadVerdictsNamesTheLineThatIsNotAVerdict(t *testing.T) {
	good := `{"run_id":"run_1","call_id":"call_1","tool":"bash","action":"defer","rule":"bash(git push:*)","args":"{}"}` + "\n"
	for _, tc := range []struct {
		name, text string
		is         error
		msg        string
	}{
		{"an unknown action", good + `{"action":"permit"}` + "\n" + good, agentpolicy.ErrRecord,
			`agentpolicy/journal: line 2: agentpolicy: not a verdict record: action "permit"`},
		{"a member twice", good + good + `{"action":"allow","action":"defer"}` + "\n", agentpolicy.ErrRecord,
			`agentpolicy/journal: line 3: agentpolicy: not a verdict record: member "action" twice`},
		{"a torn last line", good + `{"action":"defer","run_id":"ru`, ErrTorn,
			"agentpolicy/journal: torn last line: line 2 ends without a newline after 30 bytes"},
		{"a line that is not JSON", good + "x\n", ErrCorrupt, `agentpolicy/journal: line is not a record: line 2: "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs, err := ReadVerdicts(strings.NewReader(tc.text))
			if !errors.Is(err, tc.is) || err.Error() != tc.msg {
				t.Errorf("ReadVerdicts = %v, want %q", err, tc.msg)
			}
			if len(vs) == 0 || vs[0].Action != agentturn.Defer || vs[0].Rule.String() != "bash(git push:*)" {
				t.Errorf("ReadVerdicts returned %+v before the line, want the verdicts it read", vs)
			}
		})
	}
}

func TestVerdictsNamesAPathItCannotRead(t *testing.T) {
	_, err := Verdicts(filepath.Join(t.TempDir(), "missing.jsonl"))
	if err == nil || !strings.HasPrefix(err.Error(), "agentpolicy/journal: cannot read the journal: open ") {
		t.Errorf("Verdicts = %v", err)
	}
}
