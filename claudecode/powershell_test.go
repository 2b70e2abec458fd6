package claudecode

import (
	"strings"
	"testing"
)

// TestPowerShellRules: PowerShell rules are read for the PowerShell tool,
// without case and through the aliases, by a reader that fails closed:
// plain words and quoted literals are decided by the rules, anything else
// asks whatever the allow rules say, and every hostile command sits beside
// a harmless twin that is still allowed.
func TestPowerShellRules(t *testing.T) {
	allow := lists{Allow: []string{"PowerShell(Get-ChildItem *)", "PowerShell(git status:*)", "PowerShell(Write-Output 'hi')"}}
	deny := lists{Allow: []string{"PowerShell"}, Deny: []string{"PowerShell(Remove-Item *)", "PowerShell(git push --force*)"}}
	rows := []commandRow{
		{allow, "Get-ChildItem -Recurse src", "allow"},
		{allow, "get-childitem", "allow"},
		{allow, "Get-ChildItem 'my dir'", "allow"},
		{allow, `Get-ChildItem "my dir"`, "allow"},
		{allow, "git status", "allow"},
		{allow, "git status --short", "allow"},
		{allow, "Write-Output 'hi'", "allow"},
		{allow, "Get-ChildItem; Remove-Item x", "ask"},
		{allow, "Get-ChildItem | Remove-Item", "ask"},
		{allow, "Get-ChildItem && Remove-Item x", "ask"},
		{allow, "Get-ChildItem $env:USERPROFILE", "ask"},
		{allow, `Get-ChildItem "$(Remove-Item x)"`, "ask"},
		{allow, "Get-ChildItem `\nRemove-Item x", "ask"},
		{allow, "Get-ChildItem (Remove-Item x)", "ask"},
		{allow, "Get-ChildItem > out.txt", "ask"},
		{allow, "Get-ChildItem 2>err.txt", "ask"},
		{allow, "Get-ChildItem {Remove-Item x}", "ask"},
		{allow, "Get-ChildItem @args", "ask"},
		{allow, "Get-ChildItem \u2018x\u2019", "ask"},
		{allow, "Get-ChildItem\nRemove-Item x", "ask"},
		{allow, "Get-ChildItem 'x''y'", "ask"},
		{allow, "Get-ChildItem --% & calc", "ask"},
		{allow, "Remove-Item x", "ask"},
		{allow, "gci", "ask"}, // an allow rule approves what it names as written
		{deny, "Remove-Item x", "deny"},
		{deny, "remove-item x", "deny"},
		{deny, "rm x", "deny"},
		{deny, "del 'x'", "deny"},
		{deny, `Microsoft.PowerShell.Management\Remove-Item x`, "deny"},
		{deny, "Get-ChildItem; Remove-Item x", "deny"},
		{deny, "Get-ChildItem | rm", "deny"},
		{deny, "& 'rm' x", "deny"},
		{deny, "iex 'del x'", "deny"},
		{deny, "Get-ChildItem $(ri x)", "deny"},
		{deny, "Get-ChildItem; Get-Item x", "ask"},
		{deny, "Write-Output 'rm x.txt'", "deny"},
		{deny, "Write-Output 'removed x.txt'", "allow"},
		{deny, "iex 'Get-Item x'", "ask"},
		{lists{Allow: []string{"PowerShell(iex *)"}}, "iex 'Get-Item x'", "ask"},
		{deny, "git push --force", "deny"},
		{deny, "Get-ChildItem x", "allow"},
		{deny, "git push", "allow"},
		{lists{Deny: []string{"PowerShell(Get-Content:*)"}, Allow: []string{"PowerShell"}}, "cat secret.txt", "deny"},
		{lists{Deny: []string{"PowerShell(rm 'x.txt')"}, Allow: []string{"PowerShell"}}, "Remove-Item x.txt", "deny"},
		{lists{Deny: []string{"PowerShell(rm 'x.txt')"}, Allow: []string{"PowerShell"}}, "rm 'x.txt'", "deny"},
		{lists{Deny: []string{"PowerShell(rm 'x.txt')"}, Allow: []string{"PowerShell"}}, "rm 'y.txt'", "allow"},
		{lists{Deny: []string{`PowerShell(echo "$x*)`}, Allow: []string{"PowerShell"}}, `echo "$x y"`, "deny"},
		{lists{Deny: []string{"PowerShell(Timeout:*)"}, Allow: []string{"PowerShell"}}, "timeout 5", "deny"},
		{lists{Deny: []string{"PowerShell(Timeout:*)"}, Allow: []string{"PowerShell"}}, "timeout", "deny"},
		{lists{Deny: []string{"PowerShell(run_in_background:true)"}, Allow: []string{"PowerShell"}}, "Get-ChildItem", "allow"},
	}
	decideCommands(t, "PowerShell", rows)
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"PowerShell"}, Deny: []string{"PowerShell(run_in_background:true)"}}.file())
	if v := w.decide("PowerShell", map[string]any{"command": "Get-ChildItem", "run_in_background": true}); outcome(v) != "deny" {
		t.Errorf("a parameter rule: got %s (%s), want deny", outcome(v), v.Reason)
	}
}

// FuzzPowerShellWords: a command the reader reads as words holds none of
// the characters that make PowerShell run more than one command with
// literal arguments.
func FuzzPowerShellWords(f *testing.F) {
	for _, s := range []string{"Get-ChildItem 'a b'", `git commit -m "x"`, "ls; rm x", "a`b", "a $x", "x > y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		words, why := powerShellWords(command)
		if why != "" {
			return
		}
		var quote rune
		for _, r := range command {
			switch {
			case quote == 0 && (r == '\'' || r == '"'):
				quote = r
			case quote != 0 && r == quote:
				quote = 0
			case quote == '"' && (r == '$' || r == '`'),
				quote == 0 && strings.ContainsRune(";|&$`(){}<>@\n\r#", r),
				r >= 0x80:
				t.Fatalf("%q read as words %q", command, words)
			}
		}
		if len(words) == 0 || quote != 0 {
			t.Fatalf("%q read as words %q", command, words)
		}
	})
}
