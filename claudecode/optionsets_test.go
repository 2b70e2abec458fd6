package claudecode

import (
	"strings"
	"testing"
)

// TestOptionSetRules: a deny or ask rule on a command with an option
// table matches its options in any order and spelling and its operands in
// order (issue 31 §3, stricter than Claude Code 2.1.328,
// divergences.json); each hostile spelling sits beside a harmless twin
// still allowed, and an allow rule stays an exact prefix.
func TestOptionSetRules(t *testing.T) {
	rows := []struct {
		deny, command, want string
	}{
		{"Bash(git branch -D*)", "git branch -D main", "deny"},
		{"Bash(git branch -D*)", "git branch -v -D main", "deny"},
		{"Bash(git branch -D*)", "git branch --delete --force main", "deny"},
		{"Bash(git branch -D*)", "git branch --del --forc main", "deny"},
		{"Bash(git branch -D*)", "git branch -fd main", "deny"},
		{"Bash(git branch -D*)", "git -C . branch -D main", "deny"},
		{"Bash(git branch -D*)", "git branch -d main", "allow"},
		{"Bash(git branch -D*)", "git branch -v main", "allow"},
		{"Bash(git branch -D*)", "git branch --format=-D", "allow"},
		{"Bash(git push --force*)", "git push origin main --force", "deny"},
		{"Bash(git push --force*)", "git push -f", "deny"},
		{"Bash(git push --force*)", "git push -uf origin main", "deny"},
		{"Bash(git push --force*)", "git push origin main", "allow"},
		{"Bash(git push --force*)", "git push -o force origin", "allow"},
		{"Bash(git push origin main *)", "git push --force origin main", "deny"},
		{"Bash(git push origin main *)", "git push main origin", "allow"},
		{"Bash(rm -r *)", "rm -fr build", "deny"},
		{"Bash(rm -r *)", "rm --recursive build", "deny"},
		{"Bash(rm -r *)", "rm -R build", "deny"},
		{"Bash(rm -r *)", "rm -f build", "allow"},
		{"Bash(rm -r *)", "rm -- -r", "allow"},
		{"Bash(git reset --hard*)", "git reset -q --hard HEAD~1", "deny"},
		{"Bash(git reset --hard*)", "git reset --har", "deny"},
		{"Bash(git reset --hard*)", "git reset --soft HEAD~1", "allow"},
		{"Bash(git clean -fd*)", "git clean -df", "deny"},
		{"Bash(git clean -fd*)", "git clean -d -x --force", "deny"},
		{"Bash(git clean -fd*)", "git clean -f", "allow"},
		{"Bash(git clean -fd*)", "git clean -e -fd -f", "allow"},
		{"Bash(git commit --no-verify*)", "git commit -n -m x", "deny"},
		{"Bash(git commit --no-verify*)", "git commit -anm x", "deny"},
		{"Bash(git commit --no-verify*)", "git commit -am x --no-verify", "deny"},
		{"Bash(git commit --no-verify*)", "git commit -m -n", "allow"},
		{"Bash(git commit --no-verify*)", "git commit -uno -m x", "allow"},
		{"Bash(git commit --no-verify*)", "git commit -m x", "allow"},
		{"Bash(rm -rf build)", "rm -f -r build", "deny"},
		{"Bash(rm -rf build)", "rm -rf build other", "allow"},
		{"Bash(rm -rf build)", "rm -rfv build", "allow"},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Bash"}, Deny: []string{r.deny}}.file())
		v := w.decide("Bash", cmd(r.command))
		if got := outcome(v); got != r.want {
			t.Errorf("deny %s, %q: got %s (%s), want %s", r.deny, r.command, got, v.Reason, r.want)
		}
	}
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Ask: []string{"Bash(git push --force*)"}, Allow: []string{"Bash(git push:*)"}}.file())
	if v := w.decide("Bash", cmd("git push -f")); outcome(v) != "ask" {
		t.Errorf("ask rule: got %s (%s), want ask", outcome(v), v.Reason)
	}
	w = newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Bash(git push origin main:*)"}}.file())
	if v := w.decide("Bash", cmd("git push main origin")); outcome(v) != "ask" {
		t.Errorf("allow rule: got %s (%s), want ask: an allow rule stays an exact prefix", outcome(v), v.Reason)
	}
}

// TestReadOptionSet: a word the table does not know leaves the command
// unread, so only the rule's text decides it.
func TestReadOptionSet(t *testing.T) {
	for _, c := range []string{"git branch --frob", "git --exec-path=x branch -D", "git branch -u", "rm -x a", "git branch --co", "cp -r a b", "git"} {
		if s, ok := readOptionSet(strings.Fields(c)); ok {
			t.Errorf("%q read as %+v", c, s)
		}
	}
	s, ok := readOptionSet(strings.Fields("git branch -vu origin/main --sort=name x"))
	if !ok || strings.Join(s.options, " ") != "verbose set-upstream-to=origin/main sort=name" || strings.Join(s.operands, " ") != "x" {
		t.Errorf("got %+v, %v", s, ok)
	}
}
