package claudecode

import (
	"strings"
	"testing"
)

// TestBashRecursiveReads holds a tree a command reads whole to the Read
// rules that name a path in it (issue 29 §6): it asks, naming the rule,
// unless the command's own exclusions leave out every path the rule
// names; an include filter that selects a denied file is denied; a tree
// no rule reaches stays read-only. Each attack sits beside a harmless
// twin.
func TestBashRecursiveReads(t *testing.T) {
	env := lists{Allow: []string{"Bash"}, Deny: []string{"Read(/.env)"}}
	anyEnv := lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}
	secrets := lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}
	home := lists{Allow: []string{"Bash", "Read(~/**)"}, Deny: []string{"Read(~/.ssh/**)"}}
	rows := []struct {
		rules   lists
		command string
		want    string
		names   string
	}{
		{env, "grep -r PASS", "ask", "Read.tree(/.env)"},
		{env, "grep -R PASS .", "ask", "Read.tree(/.env)"},
		{env, "grep -rn PASS src", "allow", ""},
		{anyEnv, "grep -rn PASS src", "ask", "Read.tree(.env)"},
		{env, "rg PASS", "ask", "Read.tree(/.env)"},
		{env, "rg -uu PASS", "ask", "Read.tree(/.env)"},
		{env, "rg foo docs", "allow", ""},
		{secrets, "rg PASS", "ask", "Read.tree(/secrets/**)"},
		{secrets, "grep -rn TODO src", "allow", ""},
		{secrets, "rg PASS secrets", "deny", "Read(/secrets/**)"},
		{lists{Allow: []string{"Bash"}, Ask: []string{"Read(/.env)"}}, "grep -r PASS .", "ask", "Read.tree(/.env)"},
		{lists{}, "grep -r x .", "allow", ""},
		{lists{}, "rg foo", "allow", ""},
		// Include filters: the files they select are read.
		{env, "grep -r --include=.env PASS .", "deny", "(/.env)"},
		{env, "grep -r --include='.e*' PASS .", "deny", "Read.glob(/.env)"},
		{env, "rg -g '.env*' PASS", "deny", "Read.glob(/.env)"},
		{env, "rg -g '*.go' PASS src", "allow", ""},
		{secrets, "grep -r --include='*.go' PASS src", "allow", ""},
		{secrets, "grep -r --include='*.go' PASS .", "ask", "Read.tree(/secrets/**)"},
		// Exclusions that leave out every path the rule names, whatever
		// its case, as the rules read paths.
		{anyEnv, "rg --iglob '!.env' PASS", "allow", ""},
		{anyEnv, "rg --glob-case-insensitive -g '!.env' PASS", "allow", ""},
		{secrets, "rg --iglob '!secrets' PASS", "allow", ""},
		{anyEnv, "rg -g '!.env' PASS", "ask", "Read.tree(.env)"},
		{anyEnv, "grep -r --exclude=.env PASS .", "ask", "Read.tree(.env)"},
		{anyEnv, "grep -r --exclude='.[eE][nN][vV]' --exclude-dir='.[eE][nN][vV]' PASS .", "allow", ""},
		{anyEnv, "grep -r --exclude='.[eE][nN][vV]' PASS .", "ask", "Read.tree(.env)"},
		{anyEnv, "rg --iglob '!*.go' PASS", "ask", "Read.tree(.env)"},
		// Other programs that read a tree whole: find running a command
		// on what it finds, tar -c, cp -r, zip -r, diff -r. Listing names
		// (ls -R, du -a, find without -exec) reads no file.
		{env, "find . -type f -exec cat {} +", "ask", "Read.tree(/.env)"},
		{env, "find -type f -exec cat {} +", "ask", "Read.tree(/.env)"},
		{env, "find . -name '*.go'", "allow", ""},
		{env, "tar -cf - .", "ask", "Read.tree(/.env)"},
		{env, "tar -cf - src", "allow", ""},
		{env, "tar --no-recursion -cf - .", "allow", ""},
		{env, "cp -r . backup", "ask", "Read.tree(/.env)"},
		{env, "cp -a . backup", "ask", "Read.tree(/.env)"},
		{env, "cp -r src backup", "allow", ""},
		{env, "cp . backup", "allow", ""},
		{env, "zip -r a.zip .", "ask", "Read.tree(/.env)"},
		{env, "zip -r a.zip src", "allow", ""},
		{env, "diff -r . other", "ask", "Read.tree(/.env)"},
		{env, "diff -r src other", "allow", ""},
		{env, "grep -d recurse PASS .", "ask", "Read.tree(/.env)"},
		{env, "grep -d skip PASS *.md", "ask", ""},
		{env, "rg --files", "allow", ""},
		{home, "grep -r PASS ~", "ask", ""},
		{home, "grep -r PASS $HOME", "ask", ""},
		{home, "grep -r PASS ~/.config", "allow", ""},
		{lists{Allow: []string{"Bash", "Read(~/**)"}, Deny: []string{"Read(~/notes/key)"}}, "grep -r PASS ~/notes", "ask", "Read.tree(~/notes/key)"},
		{lists{Allow: []string{"Bash", "Read(~/**)"}, Deny: []string{"Read(~/notes/key)"}}, "grep -r PASS $HOME/notes", "ask", "Read.tree(~/notes/key)"},
		{home, "grep -r PASS ~/notes", "allow", ""},
		{env, "git grep --untracked PASS", "ask", "Read.tree(/.env)"},
		{env, "git grep --no-index PASS src", "allow", ""},
		{env, "git diff --no-index . other", "ask", "Read.tree(/.env)"},
		{lists{Allow: []string{"Bash(rsync:*)"}, Deny: []string{"Read(/.env)"}}, "rsync -a . host:backup", "ask", "Read.tree(/.env)"},
		{lists{Allow: []string{"Bash(rsync:*)"}, Deny: []string{"Read(/.env)"}}, "rsync -a src host:backup", "allow", ""},
		{env, "ls -R", "allow", ""},
		{env, "du -a", "allow", ""},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), r.rules.file())
		v := w.decide("Bash", cmd(r.command))
		if got := outcome(v); got != r.want {
			t.Errorf("%+v on %q: got %s (%s), want %s", r.rules, r.command, got, v.Reason, r.want)
		}
		if r.names != "" && !strings.Contains(v.Reason, r.names) {
			t.Errorf("%q: the reason %q does not name %s", r.command, v.Reason, r.names)
		}
	}
}

// TestBashRecursiveWrites: a directory a command removes or re-modes
// whole ("rm -rf .", "chmod -R 777 .") is refused by an Edit deny rule
// whose directory lies in it, as the directory itself is; a tree that
// only a rule read at any depth may reach ("rm -rf build" under a deny
// of src/**, which Claude Code reads at any depth) is not held to it,
// nor to Claude Code's protected paths, which name no directory.
func TestBashRecursiveWrites(t *testing.T) {
	src := lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./src/**)"}}
	key := lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./secrets/k)"}}
	bash := lists{Allow: []string{"Bash"}}
	decideCommands(t, "Bash", []commandRow{
		{src, "rm -rf .", "deny"},
		{src, "rm -r ./", "deny"},
		{src, "chmod -R 777 .", "deny"},
		{src, "cd src && rm -rf ..", "deny"},
		{src, "rm -rf src", "deny"},
		{src, "rm -rf build", "allow"},
		{src, "rm -rf node_modules", "allow"},
		{src, "chmod -R g+w docs", "allow"},
		{src, "rm -f x", "allow"},
		{key, "rm -r secrets", "deny"},
		{key, "rm -rf .", "deny"},
		{key, "chown -R me: secrets", "deny"},
		{key, "rm -rf src", "allow"},
		{bash, "rm -rf build", "allow"},
		{bash, "chmod -R g+w src", "allow"},
	})
}

// TestBashUnknownDirectory holds a relative path under a directory known
// only when the command runs to the rules whose paths it can name there:
// "cd "$d" && cat id_rsa" is the pattern "/**/id_rsa", which a deny of
// ~/.ssh/** names; a path no rule can name still asks (issue 30 §7, §8).
func TestBashUnknownDirectory(t *testing.T) {
	ssh := lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}
	env := lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}
	claude := lists{Allow: []string{"Bash"}, Deny: []string{"Edit(.claude/**)"}}
	rows := []commandRow{
		{ssh, `cd "$d" && cat id_rsa`, "deny"},
		{ssh, `cd $(mktemp -d) && cat id_rsa`, "deny"},
		{ssh, `cd - && cat id_rsa`, "deny"},
		{ssh, `cd "$d" && cat ../.ssh/id_rsa`, "deny"},
		{ssh, `cd "$d" && ls`, "allow"},
		{env, `cd "$d" && cat .env`, "deny"},
		{env, `cd "$d" && cat ../.env`, "deny"},
		{env, `cd "$d" && cat .en?`, "deny"},
		{env, `cd "$d" && cat README.md`, "ask"},
		{env, `cd "$d" && cat '.en?'`, "ask"},
		{claude, `cd "$d" && echo x > settings.json`, "deny"},
		{claude, `cd "$d" && cp a .claude/x`, "deny"},
		// A rule naming a whole directory names every name in it: the
		// unknown directory may be that one.
		{claude, `cd "$d" && echo x > out.txt`, "deny"},
		{ssh, `cd "$d" && cat README.md`, "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./.env)"}}, `cd "$d" && echo x > out.txt`, "ask"},
		{lists{Allow: []string{"Bash"}}, "cd src && cat main.go", "allow"},
		{lists{Allow: []string{"Bash"}}, `cd "$d" && cat main.go`, "ask"},
	}
	decideCommands(t, "Bash", rows)
}
