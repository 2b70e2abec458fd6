package claudecode

import (
	"path/filepath"
	"strings"
	"testing"
)

// observedRow is a call decided under the project file's rules, with
// "../extra" an additional directory, as Claude Code 2.1.328 was observed
// to decide it (spec §11). Each hostile row sits beside a harmless twin.
type observedRow struct {
	rules lists
	tool  string
	args  map[string]any
	want  string
}

// checkObserved decides each row in a fresh world. "<extra>" in a path
// stands for the additional directory.
func checkObserved(t *testing.T, rows []observedRow) {
	t.Helper()
	for _, r := range rows {
		w := newWorld(t)
		content := map[string]any{"permissions": map[string]any{
			"additionalDirectories": []string{"../extra"},
			"allow":                 r.rules.Allow, "deny": r.rules.Deny, "ask": r.rules.Ask,
		}}
		w.write(w.scopeFile(ScopeProject), mustJSON(t, content))
		args := map[string]any{}
		for k, v := range r.args {
			if s, ok := v.(string); ok {
				v = strings.ReplaceAll(s, "<extra>", filepath.Join(w.root, "extra"))
			}
			args[k] = v
		}
		if v := w.decide(r.tool, args); outcome(v) != r.want {
			t.Errorf("%+v: %s %v: got %s (%s), want %s", r.rules, r.tool, r.args, outcome(v), v.Reason, r.want)
		}
	}
}

// TestObservedCase: path rules and protected names are compared without
// case, on Linux too; Bash rules are not.
func TestObservedCase(t *testing.T) {
	checkObserved(t, []observedRow{
		{lists{Deny: []string{"Read(.ENV)"}}, "Read", file("<cwd>/.env"), "deny"},
		{lists{Deny: []string{"Read(.ENV)"}}, "Read", file("<cwd>/.envy"), "allow"},
		{lists{Deny: []string{"Read(.env)"}}, "Read", file("<cwd>/app/.Env"), "deny"},
		{lists{Deny: []string{"Read(secrets/**)"}}, "Read", file("<cwd>/SECRETS/k"), "deny"},
		{lists{Deny: []string{"Read(secrets/**)"}}, "Read", file("<cwd>/public/k"), "allow"},
		{lists{Allow: []string{"Edit(**)"}}, "Edit", file("<cwd>/.Git/config"), "ask"},
		{lists{Allow: []string{"Edit(**)"}}, "Write", file("<cwd>/.CLAUDE/settings.json"), "ask"},
		{lists{Allow: []string{"Edit(**)"}}, "Edit", file("<cwd>/.github/x.yml"), "allow"},
		{lists{Deny: []string{"Bash(rm *)"}, Allow: []string{"Bash"}}, "Bash", cmd("RM -f x"), "allow"},
		{lists{Deny: []string{"Bash(rm *)"}, Allow: []string{"Bash"}}, "Bash", cmd("rm -f x"), "deny"},
	})
}

// TestObservedBareEdit: a bare Edit or Edit(*) allow rule approves the
// Edit tool alone; Edit(**) reaches Write too.
func TestObservedBareEdit(t *testing.T) {
	checkObserved(t, []observedRow{
		{lists{Allow: []string{"Edit"}}, "Write", file("<cwd>/a.txt"), "ask"},
		{lists{Allow: []string{"Edit"}}, "Edit", file("<cwd>/a.txt"), "allow"},
		{lists{Allow: []string{"Edit(*)"}}, "Write", file("<cwd>/a.txt"), "ask"},
		{lists{Allow: []string{"Edit(*)"}}, "Edit", file("<cwd>/a.txt"), "allow"},
		{lists{Allow: []string{"Edit(**)"}}, "Write", file("<cwd>/a.txt"), "allow"},
		{lists{Allow: []string{"Edit(/**)"}}, "Write", file("<cwd>/a.txt"), "allow"},
		{lists{Allow: []string{"Edit.tool"}}, "Edit", file("<cwd>/a.txt"), "ask"},
		{lists{Deny: []string{"Edit"}}, "Write", file("<cwd>/a.txt"), "deny"},
	})
}

// TestObservedAdditionalDirectories: relative Read and Edit deny rules
// reach the additional directories too; a "/"-anchored one does not.
func TestObservedAdditionalDirectories(t *testing.T) {
	checkObserved(t, []observedRow{
		{lists{Deny: []string{"Read(.env)"}}, "Read", file("<extra>/.env"), "deny"},
		{lists{Deny: []string{"Read(.env)"}}, "Read", file("<extra>/sub/.env"), "deny"},
		{lists{Deny: []string{"Read(.env)"}}, "Read", file("<extra>/notes.txt"), "allow"},
		{lists{Deny: []string{"Read(*.env)"}}, "Read", file("<extra>/a.env"), "deny"},
		{lists{Deny: []string{"Read(./.env)"}}, "Read", file("<extra>/.env"), "deny"},
		{lists{Deny: []string{"Read(secrets/**)"}}, "Read", file("<extra>/secrets/k"), "deny"},
		{lists{Deny: []string{"Read(secrets/**)"}}, "Read", file("<extra>/public/k"), "allow"},
		{lists{Deny: []string{"Read(/secrets/**)"}}, "Read", file("<extra>/secrets/k"), "allow"},
		{lists{Deny: []string{"Read(/secrets/**)"}}, "Read", file("<cwd>/secrets/k"), "deny"},
		{lists{Ask: []string{"Edit(docs/a.md)"}, Allow: []string{"Edit(//**)"}}, "Edit", file("<extra>/docs/a.md"), "ask"},
		{lists{Ask: []string{"Edit(docs/a.md)"}, Allow: []string{"Edit(//**)"}}, "Edit", file("<extra>/docs/b.md"), "allow"},
		{lists{Deny: []string{"Read(*.env)", "Read(!sample.env)"}}, "Read", file("<cwd>/sample.env"), "allow"},
		{lists{Deny: []string{"Read(*.env)", "Read(!sample.env)"}}, "Read", file("<extra>/prod.env"), "deny"},
	})
}

// TestObservedQuotedBashRules: a quoted allow rule approves the command it
// spells, and a quoted deny or ask rule catches the command however it is
// quoted.
func TestObservedQuotedBashRules(t *testing.T) {
	commit := lists{Allow: []string{`Bash(git commit -m "fix: *")`}}
	secret := lists{Deny: []string{`Bash(echo 'secret')`}, Allow: []string{"Bash(echo:*)"}}
	checkObserved(t, []observedRow{
		{lists{Allow: []string{`Bash(echo "hello world")`}}, "Bash", cmd(`echo "hello world"`), "allow"},
		{lists{Allow: []string{`Bash(echo "hello world")`}}, "Bash", cmd(`echo "hello world" && rm -f x`), "ask"},
		{lists{Allow: []string{`Bash(rm "a b")`}}, "Bash", cmd(`rm "a b"`), "allow"},
		// The same words unquoted are two files.
		{lists{Allow: []string{`Bash(rm "a b")`}}, "Bash", cmd(`rm a b`), "ask"},
		{commit, "Bash", cmd(`git commit -m "fix: the parser"`), "allow"},
		{commit, "Bash", cmd(`git commit -m "feat: the parser"`), "ask"},
		{commit, "Bash", cmd(`git commit -m "fix: $(rm -f x)"`), "ask"},
		{lists{Allow: []string{`Bash(npm run "build" *)`}}, "Bash", cmd(`npm run "build"`), "allow"},
		{lists{Allow: []string{`Bash(npm run "build" *)`}}, "Bash", cmd(`npm run "build" --watch`), "allow"},
		{lists{Allow: []string{`Bash(npm run "build" *)`}}, "Bash", cmd(`npm run "build"x`), "ask"},
		{lists{Allow: []string{`Bash(npm run "build":*)`}}, "Bash", cmd(`npm run "build" --watch`), "allow"},
		{lists{Allow: []string{`Bash(npm run "build":*)`}}, "Bash", cmd(`npm run "build"`), "allow"},
		{lists{Allow: []string{`Bash(npm run "build":*)`}}, "Bash", cmd(`npm run "build":x`), "ask"},
		{secret, "Bash", cmd(`echo 'secret'`), "deny"},
		{secret, "Bash", cmd(`echo secret`), "deny"},
		{secret, "Bash", cmd(`echo "secret"`), "deny"},
		{secret, "Bash", cmd(`echo s'ecr'et`), "deny"},
		{secret, "Bash", cmd(`echo public`), "allow"},
		{lists{Ask: []string{`Bash(git "push" *)`}, Allow: []string{"Bash(git:*)"}}, "Bash", cmd(`git push origin`), "ask"},
		{lists{Ask: []string{`Bash(git "push" *)`}, Allow: []string{"Bash(git:*)"}}, "Bash", cmd(`git 'push'`), "ask"},
		{lists{Ask: []string{`Bash(git "push" *)`}, Allow: []string{"Bash(git:*)"}}, "Bash", cmd(`git pull origin`), "allow"},
	})
}

// TestObservedReadOnlyCommands: Claude Code's read-only commands run with
// no rule, their files held to the working directories and the Read deny
// rules.
func TestObservedReadOnlyCommands(t *testing.T) {
	none := lists{}
	checkObserved(t, []observedRow{
		{none, "Bash", cmd("ls -la"), "allow"},
		{none, "Bash", cmd("cat a.txt"), "allow"},
		{none, "Bash", cmd("cat /etc/hostname"), "ask"},
		{none, "Bash", cmd("head -n 5 a.txt | wc -l"), "allow"},
		{none, "Bash", cmd("rm -f a.txt"), "ask"},
		{none, "Bash", cmd("ls > listing.txt"), "ask"},
		{lists{Deny: []string{"Read(.env)"}}, "Bash", cmd("cat .env"), "deny"},
		{lists{Deny: []string{"Read(.env)"}}, "Bash", cmd("wc -c .env"), "deny"},
		{lists{Deny: []string{"Read(.env)"}}, "Bash", cmd("wc -c a.txt"), "allow"},
		{lists{Ask: []string{"Bash(ls *)"}}, "Bash", cmd("ls -la"), "ask"},
	})
}

// TestObservedFileOperands: once an allow rule matches a command, the
// files it names are still held to the working directories, the protected
// paths and the Read and Edit deny rules; a redirect's target is an edit.
func TestObservedFileOperands(t *testing.T) {
	cp := lists{Allow: []string{"Bash(cp *)"}}
	touch := lists{Allow: []string{"Bash(touch *)"}}
	checkObserved(t, []observedRow{
		{cp, "Bash", cmd("cp a.txt b.txt"), "allow"},
		{cp, "Bash", cmd("cp a.txt <extra>/b.txt"), "allow"},
		{cp, "Bash", cmd("cp a.txt /tmp/elsewhere/b.txt"), "ask"},
		{cp, "Bash", cmd("cp /etc/hostname b.txt"), "ask"},
		{cp, "Bash", cmd("cp a.txt .claude/settings.local.json"), "ask"},
		{cp, "Bash", cmd("cp a.txt .git/hooks/pre-commit"), "ask"},
		{touch, "Bash", cmd("touch new.txt"), "allow"},
		{touch, "Bash", cmd("touch ../x.txt"), "ask"},
		{touch, "Bash", cmd("env touch ../x.txt"), "ask"},
		{touch, "Bash", cmd("FOO=bar touch ../x.txt"), "ask"},
		{touch, "Bash", cmd("touch .bashrc"), "ask"},
		// Stricter than Claude Code, which strips xargs: the files grep
		// reads are the words xargs reads, known only when it runs.
		{lists{Allow: []string{"Bash(grep *)"}}, "Bash", cmd("xargs grep pat"), "ask"},
		{lists{Allow: []string{"Bash(grep *)"}}, "Bash", cmd("grep pat a.txt"), "allow"},
		{lists{Allow: []string{"Bash(echo *)"}}, "Bash", cmd("echo x > out.txt"), "ask"},
		{lists{Allow: []string{"Bash(echo *)"}}, "Bash", cmd("echo x"), "allow"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(./**)"}}, "Bash", cmd("echo x > out.txt"), "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(.env)"}}, "Bash", cmd("cp .env leak.txt"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(.env)"}}, "Bash", cmd("grep X .env"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(.env)"}}, "Bash", cmd("sort .env"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(.env)"}}, "Bash", cmd("base64 .env"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(.env)"}}, "Bash", cmd("grep X a.txt"), "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(out.txt)"}}, "Bash", cmd("cp a.txt out.txt"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(out.txt)"}}, "Bash", cmd("mv b.txt out.txt"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(out.txt)"}}, "Bash", cmd("touch out.txt"), "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(out.txt)"}}, "Bash", cmd("touch other.txt"), "allow"},
	})
}

// TestObservedIssueTable is the table of issue 23: calls where the
// importer once decided more loosely or more strictly than Claude Code.
func TestObservedIssueTable(t *testing.T) {
	commit := "git commit -m \"$(cat <<'EOF'\nFix the parser.\n\nIt read too much.\nEOF\n)\""
	checkObserved(t, []observedRow{
		{lists{Deny: []string{"Read(**/.env*)"}}, "Read", file("<cwd>/.env"), "deny"},
		{lists{Allow: []string{"Bash(echo:*)"}, Deny: []string{"Bash(echo 'secret')"}}, "Bash", cmd("echo 'secret'"), "deny"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(./**)"}}, "Bash", cmd("echo '{}' > .claud?/settings.local.json"), "ask"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(./**)"}}, "Bash", cmd("echo '{}' > .claude/settings.local.json"), "ask"},
		{lists{Allow: []string{"Bash(echo *)", "Edit(./**)"}}, "Bash", cmd("echo '{}' > settings.local.json"), "allow"},
		{lists{Allow: []string{`Bash(echo "hello world")`}}, "Bash", cmd(`echo "hello world"`), "allow"},
		{lists{}, "Bash", cmd("ls -la"), "allow"},
		{lists{Allow: []string{"Bash(git log:*)"}}, "Bash", cmd("git log --oneline | head -20"), "allow"},
		{lists{Allow: []string{"Bash(git commit:*)"}}, "Bash", cmd(commit), "allow"},
		{lists{Allow: []string{"Bash(git commit:*)"}}, "Bash", cmd("git commit -m \"$(rm -f x)\""), "ask"},
	})
}

// TestObservedPrefixedReadOnly: a read-only command after a wrapper or an
// assignment asks, as Claude Code asks.
func TestObservedPrefixedReadOnly(t *testing.T) {
	checkObserved(t, []observedRow{
		{lists{}, "Bash", cmd("ls"), "allow"},
		{lists{}, "Bash", cmd("nice ls"), "ask"},
		{lists{}, "Bash", cmd("env ls"), "ask"},
		{lists{}, "Bash", cmd("FOO=bar ls"), "ask"},
		{lists{}, "Bash", cmd("NODE_ENV=x ls"), "ask"},
		{lists{}, "Bash", cmd("timeout 5 cat a.txt"), "allow"},
		{lists{}, "Bash", cmd("command ls"), "allow"},
		{lists{}, "Bash", cmd("timeout 5 cat /etc/hostname"), "ask"},
		{lists{}, "Bash", cmd("nohup ls"), "ask"},
		{lists{}, "Bash", cmd("ls && cat a.txt"), "allow"},
		{lists{}, "Agent", map[string]any{"subagent_type": "general-purpose", "prompt": "x", "description": "x"}, "allow"},
		{lists{Deny: []string{"Agent(general-purpose)"}}, "Agent", map[string]any{"subagent_type": "general-purpose", "prompt": "x", "description": "x"}, "deny"},
		{lists{Deny: []string{"Agent(*)"}}, "Agent", map[string]any{"subagent_type": "general-purpose", "prompt": "x", "description": "x"}, "deny"},
		{lists{Deny: []string{"Agent(Explore)"}}, "Agent", map[string]any{"subagent_type": "general-purpose", "prompt": "x", "description": "x"}, "allow"},
	})
}

// TestObservedOperators: a command in the background, a subshell and a
// here-document with an unquoted delimiter ask whatever allows them.
func TestObservedOperators(t *testing.T) {
	touch := lists{Allow: []string{"Bash(touch:*)"}}
	commit := lists{Allow: []string{"Bash(git commit:*)"}}
	checkObserved(t, []observedRow{
		{touch, "Bash", cmd("touch x.txt &"), "ask"},
		{touch, "Bash", cmd("touch x.txt && touch y.txt"), "allow"},
		{touch, "Bash", cmd("touch x.txt 2>&1"), "allow"},
		{touch, "Bash", cmd("(touch x.txt)"), "ask"},
		{touch, "Bash", cmd("touch '(x).txt'"), "allow"},
		{lists{}, "Bash", cmd("cat <<EOF\nhello\nEOF"), "ask"},
		{lists{}, "Bash", cmd("cat <<-EOF\n\thello\n\tEOF"), "ask"},
		{lists{}, "Bash", cmd("cat <<'EOF'\nhello (world) & more\nEOF"), "allow"},
		{commit, "Bash", cmd("git commit -m \"$(cat <<EOF\nFix.\nEOF\n)\""), "ask"},
		{commit, "Bash", cmd("git commit -m \"$(cat <<'EOF'\nFix (the parser) & more.\nEOF\n)\""), "allow"},
		{lists{Deny: []string{"Bash(rm:*)"}, Allow: []string{"Bash"}}, "Bash", cmd("(rm -f x) &"), "deny"},
	})
}

// TestObservedAllowAsWritten: an allow rule is matched against the command
// as written, after the wrappers and safe assignments Claude Code removes,
// so another spacing or quoting of the same words asks.
func TestObservedAllowAsWritten(t *testing.T) {
	exact := lists{Allow: []string{"Bash(touch x.txt)"}}
	star := lists{Allow: []string{"Bash(touch x*)"}}
	checkObserved(t, []observedRow{
		{exact, "Bash", cmd("touch x.txt"), "allow"},
		{exact, "Bash", cmd("touch  x.txt"), "ask"},
		{exact, "Bash", cmd("touch\tx.txt"), "ask"},
		{exact, "Bash", cmd(`touch "x.txt"`), "ask"},
		{exact, "Bash", cmd("timeout 5 touch x.txt"), "allow"},
		{exact, "Bash", cmd("LANG=C touch x.txt"), "allow"},
		{star, "Bash", cmd("touch x.txt"), "allow"},
		{star, "Bash", cmd("touch 'x.txt'"), "ask"},
		{star, "Bash", cmd("touch  x.txt"), "allow"},
		{lists{Allow: []string{"Bash(touch:*)"}}, "Bash", cmd("touch\tx.txt"), "allow"},
		{lists{Allow: []string{`Bash(touch "a b"*)`}}, "Bash", cmd(`touch "a  b"`), "ask"},
		{lists{Allow: []string{`Bash(touch "a b"*)`}}, "Bash", cmd(`touch "a b"`), "allow"},
		{lists{Allow: []string{"Bash(rm -f:*)"}}, "Bash", cmd("rm -f 'missing-a'"), "allow"},
		{lists{Allow: []string{"Bash(timeout:5)"}}, "Bash", cmd("timeout:5"), "allow"},
		{lists{Allow: []string{"Bash(timeout:*)"}}, "Bash", cmd("timeout 5 make"), "ask"},
		{lists{Allow: []string{"Bash(npm run test:*)"}}, "Bash", cmd("npm run test --watch"), "allow"},
		{lists{Allow: []string{"Bash(npm run test:*)"}}, "Bash", cmd("npm run test:unit"), "ask"},
	})
}

// TestObservedVariableName: a command named by a variable a literal
// assignment sets is read with the value, by the deny and ask rules.
func TestObservedVariableName(t *testing.T) {
	rm := lists{Deny: []string{"Bash(rm:*)"}, Allow: []string{"Bash"}}
	checkObserved(t, []observedRow{
		{rm, "Bash", cmd("x=rm; $x -f ./missing"), "deny"},
		{rm, "Bash", cmd("x=rm && ${x} -f ./missing"), "deny"},
		{rm, "Bash", cmd("x=ls; $x -la"), "ask"},
		{rm, "Bash", cmd("x=1; echo $x"), "allow"},
		{lists{Ask: []string{"Bash(git push:*)"}, Allow: []string{"Bash"}}, "Bash", cmd("g=git; $g push"), "ask"},
	})
}

// TestObservedMCPParentheses: an MCP allow rule with parentheses, a star
// included, is skipped, so it allows no tool of the server even when the
// host names the server's tools.
func TestObservedMCPParentheses(t *testing.T) {
	for rule, want := range map[string]string{"mcp__standin(*)": "ask", "mcp__standin__*(*)": "ask", "mcp__standin": "allow"} {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), lists{Allow: []string{rule}}.file())
		s := w.load()
		p, err := s.Policy("mcp__standin__echo")
		if err != nil {
			t.Fatal(err)
		}
		eng, err := s.Engine(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v := w.would(eng, "mcp__standin__echo", map[string]any{}); outcome(v) != want {
			t.Errorf("allow %s: mcp__standin__echo %s (%s), want %s", rule, outcome(v), v.Reason, want)
		}
	}
}
