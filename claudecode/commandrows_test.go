package claudecode

import "testing"

// commandRow is a row of a command table: the rules of the project's
// settings file, a command, and the decision it must get.
type commandRow struct {
	rules   lists
	command string
	want    string
}

// decideCommands decides each row's command as a call of tool in a fresh
// world whose project settings hold the row's rules.
func decideCommands(t *testing.T, tool string, rows []commandRow) {
	t.Helper()
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), r.rules.file())
		v := w.decide(tool, cmd(r.command))
		if got := outcome(v); got != r.want {
			t.Errorf("%+v on %q: got %s (%s), want %s", r.rules, r.command, got, v.Reason, r.want)
		}
	}
}
