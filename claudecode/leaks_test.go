package claudecode

import "testing"

// TestRedirectNeverReadOnly: a bare Edit allow rule approves the Edit tool
// alone, never a redirect's target, so a read-only command writing a file
// asks, as Claude Code 2.1.328 asks (recorded: redirect-read-only/*); its
// twins without a file written still run, and an Edit rule with a path
// still reaches the target.
func TestRedirectNeverReadOnly(t *testing.T) {
	rows := []struct {
		allow   string
		command string
		want    string
	}{
		{"Edit", "echo hi > out.txt", "ask"},
		{"Edit(*)", "cat a.txt >> out.txt", "ask"},
		{"Edit", "echo hi", "allow"},
		{"Edit", "echo hi > /dev/null", "allow"},
		{"Edit(**)", "echo hi > out.txt", "allow"},
		{"Edit(out.txt)", "echo hi > out.txt", "allow"},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), lists{Allow: []string{r.allow}}.file())
		v := w.decide("Bash", cmd(r.command))
		if got := outcome(v); got != r.want {
			t.Errorf("allow %s, %q: got %s (%s), want %s", r.allow, r.command, got, v.Reason, r.want)
		}
	}
}

// TestOpenQuoteRules: a deny or ask rule whose text the shell cannot read
// as a command, its quote left open before the final "*", is matched
// against the command as written, as Claude Code matches it (recorded:
// open-quote-*), and an allow rule of that shape approves what its text
// matches, the shell reader deciding the rest.
func TestOpenQuoteRules(t *testing.T) {
	rows := []struct {
		rules   lists
		command string
		want    string
	}{
		{lists{Deny: []string{`Bash(git commit -m "WIP*)`}, Allow: []string{"Bash(git commit:*)"}}, `git commit -m "WIP x"`, "deny"},
		{lists{Deny: []string{`Bash(git commit -m "WIP*)`}, Allow: []string{"Bash(git commit:*)"}}, `git commit -m "WIP"`, "deny"},
		{lists{Deny: []string{`Bash(git commit -m "WIP*)`}, Allow: []string{"Bash(git commit:*)"}}, `echo ok && git commit -m "WIP x"`, "deny"},
		{lists{Deny: []string{`Bash(git commit -m "WIP*)`}, Allow: []string{"Bash(git commit:*)"}}, `git commit -m "fix x"`, "allow"},
		{lists{Ask: []string{`Bash(git commit -m "WIP*)`}, Allow: []string{"Bash(git commit:*)"}}, `git commit -m "WIP x"`, "ask"},
		{lists{Ask: []string{`Bash(git commit -m "WIP*)`}, Allow: []string{"Bash(git commit:*)"}}, `git commit -m "fix x"`, "allow"},
		{lists{Deny: []string{`Bash(echo 'sec*)`}, Allow: []string{"Bash"}}, `echo 'secret'`, "deny"},
		{lists{Deny: []string{`Bash(echo 'sec*)`}, Allow: []string{"Bash"}}, `echo 'other'`, "allow"},
		{lists{Allow: []string{`Bash(git commit -m '*)`}}, `git commit -m 'fix bug'`, "allow"},
		{lists{Allow: []string{`Bash(git commit -m '*)`}}, `git commit -m 'fix bug'; touch x.txt`, "ask"},
		{lists{Allow: []string{`Bash(git commit -m '*)`}}, `git commit -m 'fix' -m "$(touch x.txt)"`, "ask"},
		{lists{Allow: []string{`Bash(git commit -m '*)`}}, `git commit -m 'fix bug' > out.txt`, "ask"},
		{lists{Allow: []string{`Bash(git commit -m ' *)`}}, `git commit -m ' fix bug'`, "allow"},
		{lists{Allow: []string{`Bash(git commit -m ' *)`}}, `git commit -m 'fix bug'`, "ask"},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), r.rules.file())
		v := w.decide("Bash", cmd(r.command))
		if got := outcome(v); got != r.want {
			t.Errorf("%+v on %q: got %s (%s), want %s", r.rules, r.command, got, v.Reason, r.want)
		}
	}
}
