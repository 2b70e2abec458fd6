package claudecode

import (
	"strings"
	"testing"
)

// TestBashPatterns is the table of spec §4.1, each row decided by the
// engine under a rule of every list.
func TestBashPatterns(t *testing.T) {
	rows := []matchRow{
		{rule: "Bash(npm run build)", tool: "Bash", args: cmd("npm run build"), match: true},
		{rule: "Bash(npm run build)", tool: "Bash", args: cmd("npm run build --watch"), match: false},
		{rule: "Bash(npm run *)", tool: "Bash", args: cmd("npm run test --watch"), match: true},
		{rule: "Bash(npm run *)", tool: "Bash", args: cmd("npm run"), match: true},
		{rule: "Bash(npm run *)", tool: "Bash", args: cmd("npm install"), match: false},
		{rule: "Bash(git log * main)", tool: "Bash", args: cmd("git log --oneline main"), match: true},
		{rule: "Bash(git log * main)", tool: "Bash", args: cmd("git log main"), match: false},
		{rule: "Bash(git * main)", tool: "Bash", args: cmd("git push origin main"), match: true},
		{list: Deny, rule: "Bash(git * main)", tool: "Bash", args: cmd("git -c core.fsmonitor=x diff main"), match: true},
		{list: Ask, rule: "Bash(git * main)", tool: "Bash", args: cmd("git -c core.fsmonitor=x diff main"), match: true},
		{rule: "Bash(git * main)", tool: "Bash", args: cmd("git log"), match: false},
		{rule: "Bash(* --version)", tool: "Bash", args: cmd("cargo --version"), match: true},
		{list: Deny, rule: "Bash(* --version)", tool: "Bash", args: cmd("node --version"), match: true},
		{rule: "Bash(* --version)", tool: "Bash", args: cmd("node -v"), match: false},
		{rule: "Bash(ls *)", tool: "Bash", args: cmd("ls -la"), match: true},
		{rule: "Bash(ls *)", tool: "Bash", args: cmd("ls"), match: true},
		{rule: "Bash(ls *)", tool: "Bash", args: cmd("lsof"), match: false},
		{rule: "Bash(ls*)", tool: "Bash", args: cmd("lsof"), match: true},
		{rule: "Bash(* --help *)", tool: "Bash", args: cmd("npm --help x"), match: true},
		{rule: "Bash(* --help *)", tool: "Bash", args: cmd("npm --help"), match: false},
		{rule: "Bash(ls:*)", tool: "Bash", args: cmd("ls"), match: true},
		{rule: "Bash(ls:*)", tool: "Bash", args: cmd("ls -la"), match: true},
		{rule: "Bash(ls:*)", tool: "Bash", args: cmd("lsof"), match: false},
		{rule: "Bash(npm run test:*)", tool: "Bash", args: cmd("npm run test:unit"), match: false},
		{rule: "Bash(npm run test:*)", tool: "Bash", args: cmd("npm run test --watch"), match: true},
		{rule: "Bash(git:* push)", tool: "Bash", args: cmd("git push"), match: false},
		{rule: "Bash", tool: "Bash", args: cmd("rm -rf build"), match: true},
		{rule: "Bash(*)", tool: "Bash", args: cmd("anything at all"), match: true},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
}

// TestBashCompound is the table of spec §4.3: every part of a compound
// command is decided, deny and ask reach nested commands, and an
// unparseable command is approved by nothing.
func TestBashCompound(t *testing.T) {
	rows := []commandRow{
		{lists{Allow: []string{"Bash(npm test *)"}}, "npm test && rm -rf x", "ask"},
		{lists{Allow: []string{"Bash(npm test *)", "Bash(rm *)"}}, "npm test && rm -rf x", "allow"},
		{lists{Ask: []string{"Bash(git clean *)"}}, "cd /tmp && git clean -f", "ask"},
		{lists{Ask: []string{"Bash(git clean *)"}, Allow: []string{"Bash(echo *)"}}, `echo "$(git clean -f)"`, "ask"},
		{lists{Deny: []string{"Bash(rm *)"}, Allow: []string{"Bash"}}, "for f in a b; do rm $f; done", "deny"},
		// Claude Code asks about a dangling &&, which no allow rule
		// approves.
		{lists{Allow: []string{"Bash(npm *)"}}, "npm test &&", "ask"},
		{lists{Allow: []string{"Bash(git status:*)"}}, "git status && rm -rf /", "ask"},
		{lists{Allow: []string{"Bash(git status:*)"}, Deny: []string{"Bash(rm:*)"}}, "git status; rm -rf /", "deny"},
	}
	decideCommands(t, "Bash", rows)
}

// TestBashWrappers is the table of spec §4.4, decided by the engine over
// the shell module's splitter.
func TestBashWrappers(t *testing.T) {
	rows := []matchRow{
		{list: Allow, rule: "Bash(npm test *)", tool: "Bash", args: cmd("timeout 30 npm test"), match: true},
		{list: Allow, rule: "Bash(npm test *)", tool: "Bash", args: cmd("NODE_ENV=test npm test"), match: true},
		{list: Deny, rule: "Bash(rm *)", tool: "Bash", args: cmd("FOO=bar rm -rf tmp/"), match: true},
		{list: Deny, rule: "Bash(grep *)", tool: "Bash", args: cmd("xargs grep pat"), match: true},
		{list: Allow, rule: "Bash(devbox run *)", tool: "Bash", args: cmd("devbox run rm -rf ."), match: true},
		{list: Allow, rule: "Bash(npm test *)", tool: "Bash", args: cmd("sudo npm test"), match: false},
		// Stricter than Claude Code (spec §4.5): a command named by a
		// path, or run through sh -c, is still held to the deny rule.
		{list: Deny, rule: "Bash(rm *)", tool: "Bash", args: cmd("/bin/rm -rf x"), match: true},
		{list: Deny, rule: "Bash(rm *)", tool: "Bash", args: cmd("bash -c 'rm -rf x'"), match: true},
		{list: Deny, rule: "Bash(git push *)", tool: "Bash", args: cmd("git 'push' origin"), match: true},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
	// Stricter than Claude Code, which allows the row it calls
	// dangerous: the shell module asks about a git option that makes git
	// run a command, whatever the allow rules say.
	w0 := newWorld(t)
	w0.write(w0.scopeFile(ScopeProject), lists{Allow: []string{"Bash(git * main)"}}.file())
	if v := w0.decide("Bash", cmd("git -c core.fsmonitor=x diff main")); outcome(v) != "ask" {
		t.Errorf("git -c core.fsmonitor=x diff main: got %s (%s), want ask", outcome(v), v.Reason)
	}
	// Claude Code asks about FOO=bar npm test under an allow rule, since
	// only known-safe variables are skipped; so does the importer.
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Bash(npm test *)"}}.file())
	for command, want := range map[string]string{
		"FOO=bar npm test":              "ask",
		"NODE_ENV=test LANG=C npm test": "allow",
		"NODE_ENV=test FOO=1 npm test":  "ask",
		`LANG="en US" npm test`:         "allow",
		"LANG=$(id) npm test":           "ask",
		// Claude Code removes no env, exec or sh -c before matching.
		"env npm test":       "ask",
		"exec npm test":      "ask",
		"sh -c 'npm test'":   "ask",
		"xargs -n1 npm test": "ask",
		"nohup npm test":     "allow",
		"/usr/bin/npm test":  "ask",
		"timeout 5 npm test": "allow",
		"nice -n 5 npm test": "allow",
		"command npm test":   "allow",
	} {
		if v := w.decide("Bash", cmd(command)); outcome(v) != want {
			t.Errorf("%s: got %s (%s), want %s", command, outcome(v), v.Reason, want)
		}
	}
	// A variable that changes what runs is not dropped.
	if v := w.decide("Bash", cmd("LD_PRELOAD=/tmp/x.so npm test")); outcome(v) == "allow" {
		t.Errorf("LD_PRELOAD=... npm test: allowed by %s", v.Reason)
	}
}

// TestBashRedirects decides a redirect's target under the file rules
// (spec §4.6).
func TestBashRedirects(t *testing.T) {
	rows := []commandRow{
		{lists{Allow: []string{"Bash(echo *)"}, Deny: []string{"Edit(.env)"}}, "echo x > .env", "deny"},
		{lists{Allow: []string{"Bash(echo *)"}, Deny: []string{"Read(./secrets/**)"}}, "echo x >> secrets/k", "deny"},
		{lists{Allow: []string{"Bash(cat *)"}, Deny: []string{"Read(.env)"}}, "cat < app/.env", "deny"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(out/**)"}}, "echo x > out/log.txt", "allow"},
		{lists{Allow: []string{"Bash(echo *)"}}, "echo x > out/log.txt", "ask"},
		{lists{Allow: []string{"Bash(echo *)"}}, "echo x 2>&1 >/dev/null", "allow"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(out/**)"}}, "echo x > out/../.env", "ask"},
		// After cd, a relative target is not under the directory the
		// rules are anchored at, so no allow rule approves it.
		{lists{Allow: []string{"Bash(echo *)", "Bash(cd *)", "Edit(out/**)"}}, "cd /etc && echo x > out/passwd", "ask"},
		{lists{Allow: []string{"Bash(echo *)", "Bash(cd *)", "Edit(//tmp/**)"}}, "cd /etc && echo x > /tmp/f", "allow"},
		{lists{Allow: []string{"Bash(echo *)", "Bash(cd *)"}, Deny: []string{"Edit(out/**)"}}, "cd sub && echo x > out/f", "deny"},
		// A target starting with ~ needs approval whatever the rules
		// allow (spec §4.6).
		{lists{Allow: []string{"Bash(echo *)", "Edit(~/notes/**)"}}, "echo x > ~/notes/a", "ask"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(//tmp/notes/**)"}}, "echo x > /tmp/notes/a", "allow"},
		// Read and Edit deny rules reach the files a command reads and
		// writes; a recursive search of a tree that may hold one asks,
		// naming the rule (issue 29 §6).
		{lists{Allow: []string{"Bash(cat *)"}, Deny: []string{"Read(.env)"}}, "cat -n app/.env", "deny"},
		{lists{Allow: []string{"Bash(tail *)"}, Ask: []string{"Read(~/.ssh/**)"}}, "tail -f ~/.ssh/id_rsa", "ask"},
		{lists{Allow: []string{"Bash(echo *)", "Bash(tee *)"}, Deny: []string{"Edit(//etc/**)"}}, "echo x | tee /etc/hosts", "deny"},
		{lists{Allow: []string{"Bash(cat *)"}, Deny: []string{"Read(.env)"}}, "cat README.md", "allow"},
		{lists{Allow: []string{"Bash(grep *)"}, Deny: []string{"Read(.env)"}}, "grep -r key .", "ask"},
		{lists{Allow: []string{"Bash(grep *)"}, Deny: []string{"Read(/secrets/**)"}}, "grep -r key src", "allow"},
	}
	decideCommands(t, "Bash", rows)
}

// TestBashLongCommand: a command over 10,000 characters is asked about
// whatever the allow rules say (spec §4.3).
func TestBashLongCommand(t *testing.T) {
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Bash(echo *)"}}.file())
	eng := w.engine(w.load())
	long := "echo " + strings.Repeat("a", maxCommand)
	if v := w.would(eng, "Bash", cmd(long)); outcome(v) != "ask" {
		t.Errorf("long command: got %s (%s), want ask", outcome(v), v.Reason)
	}
	if v := w.would(eng, "Bash", cmd("echo short")); outcome(v) != "allow" {
		t.Errorf("short command: got %s (%s), want allow", outcome(v), v.Reason)
	}
}

// TestParameterRules is spec §2.4: deny and ask rules on a tool's other
// input fields.
func TestParameterRules(t *testing.T) {
	rows := []matchRow{
		{list: Deny, rule: "Bash(run_in_background:true)", tool: "Bash", args: map[string]any{"command": "npm start", "run_in_background": true}, match: true},
		{list: Deny, rule: "Bash(run_in_background:true)", tool: "Bash", args: cmd("npm start"), match: false},
		{list: Deny, rule: "Bash(timeout:*)", tool: "Bash", args: map[string]any{"command": "npm start", "timeout": 60000}, match: true},
		{list: Deny, rule: "Agent(model:opus)", tool: "Agent", args: map[string]any{"subagent_type": "Explore", "model": "opus"}, match: true},
		{list: Deny, rule: "Agent(model:opus)", tool: "Agent", args: map[string]any{"subagent_type": "Explore", "model": "claude-opus-9"}, match: false},
		{list: Deny, rule: "Agent(model:*)", tool: "Agent", args: map[string]any{"subagent_type": "Explore"}, match: false},
		{list: Deny, rule: "Agent(model : op*)", tool: "Agent", args: map[string]any{"subagent_type": "Explore", "model": "opus"}, match: true},
		{list: Deny, rule: "Agent(isolation:worktree)", tool: "Agent", args: map[string]any{"subagent_type": "Plan", "isolation": "worktree"}, match: true},
		{list: Deny, rule: "Read(offset:5)", tool: "Read", args: map[string]any{"file_path": "<cwd>/a", "offset": 5}, match: true},
		// In an allow rule the same text is the tool's own specifier: a
		// file named "offset:5".
		{list: Allow, rule: "Read(offset:5)", tool: "Read", args: map[string]any{"file_path": "<cwd>/a", "offset": 5}, match: false},
		{list: Allow, rule: "Read(offset:5)", tool: "Read", args: file("<cwd>/x/offset:5"), match: true},
		// timeout is a Bash input field, so the allow rule's command
		// pattern is written so no matcher reads it as a parameter rule.
		{list: Allow, rule: "Bash(timeout:*)", tool: "Bash", args: cmd("timeout"), match: true},
	}
	for _, r := range rows {
		checkRow(t, r)
	}
	// An ask rule on a parameter asks even where an allow rule covers the
	// command.
	w := newWorld(t)
	w.write(w.scopeFile(ScopeProject), lists{Allow: []string{"Bash(ls:*)"}, Ask: []string{"Bash(dangerouslyDisableSandbox:true)"}}.file())
	if v := w.decide("Bash", map[string]any{"command": "ls", "dangerouslyDisableSandbox": true}); outcome(v) != "ask" || v.Rule == nil {
		t.Errorf("unsandboxed ls: got %s (%s), want the ask rule", outcome(v), v.Reason)
	}
	if v := w.decide("Bash", cmd("ls")); outcome(v) != "allow" {
		t.Errorf("ls: got %s (%s), want allow", outcome(v), v.Reason)
	}
	skipped := []struct{ list, rule string }{
		{Deny, "Bash(command:rm *)"},
		{Deny, "Read(file_path:/etc/*)"},
		{Deny, "WebFetch(url:*)"},
	}
	for _, r := range skipped {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), in(r.list, r.rule).file())
		s := w.load()
		if len(s.Problems()) != 1 {
			t.Errorf("%s %s: problems %v, want the rule skipped with one", r.list, r.rule, s.Problems())
		}
	}
}

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
	rows := []commandRow{
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
	decideCommands(t, "Bash", rows)
}
