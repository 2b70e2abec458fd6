package gemini

import (
	"strings"
	"testing"
)

// rule is a [[rule]] table.
func rule(fields string) string { return "[[rule]]\n" + fields + "\n" }

// TestPriorityOrder: the rule of highest final priority decides what it
// matches, whatever the lists' precedence; where Gemini CLI leaves the
// order open (equal priorities) the stricter rule decides.
func TestPriorityOrder(t *testing.T) {
	shell := `toolName = "run_shell_command"` + "\n"
	for _, c := range []struct {
		name, policy string
		cases        map[string]string
	}{
		{"a higher allow over a lower deny of the whole tool",
			rule(shell+`decision = "deny"`+"\npriority = 1") + rule(shell+`commandPrefix = "git status"`+"\ndecision = \"allow\"\npriority = 2"),
			map[string]string{"git status": ListAllow, "git push": ListDeny, "git status; git push": ListDeny}},
		{"a higher deny over a lower allow",
			rule(shell+`decision = "allow"`+"\npriority = 1") + rule(shell+`commandPrefix = "rm"`+"\ndecision = \"deny\"\npriority = 2"),
			map[string]string{"ls": ListAllow, "rm x": ListDeny}},
		{"a higher allow over a lower ask",
			rule(shell+`commandPrefix = "git"`+"\ndecision = \"ask_user\"\npriority = 1") + rule(shell+`commandPrefix = "git log"`+"\ndecision = \"allow\"\npriority = 5"),
			map[string]string{"git log": ListAllow, "git push": ListAsk}},
		{"a higher ask over a lower deny",
			rule(shell+`commandPrefix = "git"`+"\ndecision = \"deny\"\npriority = 1") + rule(shell+`commandPrefix = "git push"`+"\ndecision = \"ask_user\"\npriority = 5"),
			map[string]string{"git push": ListAsk, "git pull": ListDeny}},
		{"a lower allow does not reach past a higher deny",
			rule(shell+`commandPrefix = "git"`+"\ndecision = \"allow\"\npriority = 1") + rule(shell+`commandPrefix = "git push"`+"\ndecision = \"deny\"\npriority = 5") +
				rule(shell+`commandPrefix = "git push --dry-run"`+"\ndecision = \"allow\"\npriority = 3"),
			map[string]string{"git push --dry-run": ListDeny, "git pull": ListAllow}},
		{"equal priorities: the stricter decides",
			rule(shell+`commandPrefix = "git"`+"\ndecision = \"deny\"\npriority = 5") + rule(shell+`commandPrefix = "git status"`+"\ndecision = \"allow\"\npriority = 5"),
			map[string]string{"git status": ListDeny}},
		{"a priority out of range is clamped",
			rule(shell+`decision = "deny"`+"\npriority = 2000") + rule(shell+`commandPrefix = "ls"`+"\ndecision = \"allow\"\npriority = 999"),
			map[string]string{"ls": ListDeny}},
	} {
		eng, _ := engineOf(t, "", c.policy)
		for command, want := range c.cases {
			if got := decide(t, eng, "Bash", command); got != want {
				t.Errorf("%s: %s: got %s, want %s", c.name, command, got, want)
			}
		}
	}
}

// TestRedirects: a command with a redirect gets the default, though
// write_file and the command are allowed; its twin without one runs.
func TestRedirects(t *testing.T) {
	eng, _ := engineOf(t, "", rule(`toolName = "run_shell_command"`+"\ncommandPrefix = \"ls\"\ndecision = \"allow\"")+
		rule(`toolName = "write_file"`+"\ndecision = \"allow\"")+rule(`toolName = "read_file"`+"\ndecision = \"allow\""))
	for command, want := range map[string]string{"ls": ListAllow, "ls > out.txt": ListAsk, "ls < in.txt": ListAsk, "ls 2>/dev/null": ListAllow} {
		if got := decide(t, eng, "Bash", command); got != want {
			t.Errorf("%s: got %s, want %s", command, got, want)
		}
	}
}

// TestTiers: the admin tier outranks any user priority (5 > 4.999).
func TestTiers(t *testing.T) {
	admin, err := Parse("admin.toml", []byte(rule(`toolName = "run_shell_command"`+"\ndecision = \"deny\"\npriority = 0")), TierAdmin)
	if err != nil {
		t.Fatal(err)
	}
	user, err := Parse("user.toml", []byte(rule(`toolName = "run_shell_command"`+"\ncommandPrefix = \"ls\"\ndecision = \"allow\"\npriority = 999")), TierUser)
	if err != nil {
		t.Fatal(err)
	}
	rules := New(Session{}, []*File{admin, user}, []string{"gemini:admin", "gemini:user"})
	policy, err := rules.Policy(ask())
	if err != nil {
		t.Fatal(err)
	}
	eng := build(t, policy)
	if got := decide(t, eng, "Bash", "ls"); got != ListDeny {
		t.Errorf("ls: got %s, want the admin's deny", got)
	}
}

// TestUnreadable: a pattern RE2 cannot compile is reported by name; a
// deny or ask rule with one makes its tool ask, an allow rule with one is
// skipped. So is a decision Gemini CLI does not know.
func TestUnreadable(t *testing.T) {
	for _, c := range []struct {
		fields, list, problem string
		rules                 int
	}{
		{`toolName = "run_shell_command"` + "\ncommandRegex = \"(?<=x)y\"\ndecision = \"deny\"", ListAsk, `"\"command\":\"(?<=x)y" does not compile`, 1},
		{`toolName = "read_file"` + "\nargsPattern = \"\\\\1\"\ndecision = \"allow\"", ListAllow, "skipped", 0},
		{`toolName = "run_shell_command"` + "\ndecision = \"block\"", ListAsk, `"block" is not allow`, 1},
		{`toolName = "read_file"` + "\ncommandPrefix = \"x\"\ndecision = \"deny\"", ListAsk, "not the shell", 1},
		{`toolName = "run_shell_command"` + "\ncommandPrefix = \"x\"\ncommandRegex = \"y\"\ndecision = \"deny\"", ListAsk, "one of", 1},
		{`toolName = "run_shell_command"` + "\ncommandRegex = \"git (status|log)\"\ndecision = \"deny\"", ListDeny, "", 1},
	} {
		f, err := Parse("t.toml", []byte(rule(c.fields)), TierUser)
		if err != nil {
			t.Fatal(err)
		}
		e := New(Session{}, []*File{f}, []string{"gemini:t"}).Files()[0].Entries[0]
		if e.List != c.list || len(e.Rules) != c.rules || (c.problem == "") != (e.Problem == "") || !strings.Contains(e.Problem, c.problem) {
			t.Errorf("%s: got %s %v %q", c.fields, e.List, e.Rules, e.Problem)
		}
	}
}

// TestModes: a rule for other modes does not apply; in an unknown mode its
// deny applies and its allow does not.
func TestModes(t *testing.T) {
	policy := rule(`toolName = "run_shell_command"`+"\ncommandPrefix = \"ls\"\ndecision = \"allow\"\nmodes = [\"yolo\"]") +
		rule(`toolName = "run_shell_command"`+"\ncommandPrefix = \"rm\"\ndecision = \"deny\"\nmodes = [\"yolo\"]")
	for mode, want := range map[string][2]string{"yolo": {ListAllow, ListDeny}, "default": {ListAsk, ListAsk}, "": {ListAsk, ListDeny}} {
		eng, _ := engineOf(t, mode, policy)
		if got := [2]string{decide(t, eng, "Bash", "ls"), decide(t, eng, "Bash", "rm x")}; got != want {
			t.Errorf("mode %q: got %v, want %v", mode, got, want)
		}
	}
}

// TestInteractive: a rule for interactive sessions does not apply in a
// headless one; in an unknown one its deny applies and its allow does not.
func TestInteractive(t *testing.T) {
	policy := rule(`toolName = "run_shell_command"`+"\ncommandPrefix = \"ls\"\ndecision = \"allow\"\ninteractive = true") +
		rule(`toolName = "run_shell_command"`+"\ncommandPrefix = \"rm\"\ndecision = \"deny\"\ninteractive = true")
	yes, no := true, false
	for _, c := range []struct {
		interactive *bool
		want        [2]string
	}{{&yes, [2]string{ListAllow, ListDeny}}, {&no, [2]string{ListAsk, ListAsk}}, {nil, [2]string{ListAsk, ListDeny}}} {
		f, err := Parse("t.toml", []byte(policy), TierUser)
		if err != nil {
			t.Fatal(err)
		}
		rules := New(Session{Interactive: c.interactive}, []*File{f}, []string{"gemini:t"})
		p, err := rules.Policy(ask())
		if err != nil {
			t.Fatal(err)
		}
		eng := build(t, p)
		if got := [2]string{decide(t, eng, "Bash", "ls"), decide(t, eng, "Bash", "rm x")}; got != c.want {
			t.Errorf("interactive %v: got %v, want %v", c.interactive, got, c.want)
		}
	}
}

// TestParseErrors: a file that is not TOML, or has keys a policy file
// does not, is refused whole, beside its twin that parses.
func TestParseErrors(t *testing.T) {
	for bad, good := range map[string]string{
		"[[rule]\ntoolName = 1":                          rule(`toolName = "x"` + "\ndecision = \"deny\""),
		rule(`toolName = "x"` + "\ndecison = \"deny\""):  rule(`toolName = "x"` + "\ndecision = \"deny\""),
		rule(`toolName = "x"` + "\ncommandPrefix = 3"):   rule(`toolName = "x"` + "\ncommandPrefix = [\"a\"]"),
		rule(`toolNAme = "x"` + "\ndecision = \"deny\""): rule(`toolName = "x"` + "\ndecision = \"deny\""),
		"[[Rule]]\ntoolName = \"x\"":                     rule(`toolName = "x"`),
	} {
		if _, err := Parse("t.toml", []byte(bad), TierUser); err == nil {
			t.Errorf("%q parses", bad)
		}
		if _, err := Parse("t.toml", []byte(good), TierUser); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}
