package claudecode

import (
	"strings"
	"testing"
)

// TestBashGlobOperands holds a glob operand to the deny and ask rules
// whose paths it can match, decided between the glob and the rule's
// pattern, not the disk (issue 29 §9): each attack beside a harmless twin
// that is allowed, a glob confined to the working directory given to a
// read-only command, or still asks, one that may leave it.
func TestBashGlobOperands(t *testing.T) {
	rows := []struct {
		rules   lists
		command string
		want    string
	}{
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .en?", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .e*", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .[e]nv", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .[!x]nv", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat *", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .git*", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "ls *.md", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat src/*.go", "allow"},
		// A rule names what is under the path too: "*" may be a directory
		// .env, as "*/x" may be one under it.
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat */.env", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .e*/x", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat src/.e*", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat .env.sample", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(.env)"}}, "cat */.env", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(**/.env)"}}, "head */.env", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(**/.env)"}}, "head *.md", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(**/.env)"}}, "head docs/*.md", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat secrets/*", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat secr*/api.key", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat s*", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat src/*", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat p*/*", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(*.pem)"}}, "cat keys/*.p?m", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(*.pem)"}}, "cat keys/*.txt", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cat ~/.ss?/id_rsa", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cat ~/.config/*", "ask"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cat ../*", "ask"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cat .*", "ask"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(//etc/shadow)"}}, "cat /etc/sha*", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(//etc/shadow)"}}, "cat /etc/host*", "ask"},
		{lists{Allow: []string{"Bash"}, Ask: []string{"Read(./.env)"}}, "cat .en?", "ask"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./.env)"}}, "cp x .en?", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./.env)"}}, "echo x > .en?", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Edit(./.env)"}}, "cp x *.md", "ask"},
		// A glob after a cd the splitter follows is read in the directory
		// it moves to: src/.en? can be src/.env, which the rule names at
		// any depth; src/*.md cannot.
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cd src && cat .en?", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/.env)"}}, "cd src && cat .en?", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/.env)"}}, "cd src && cat ../.en?", "deny"},
		// $PWD with a glob is not resolved, but its tail is held to the
		// deny rules anywhere ("/**/.en?").
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cd src && cat $PWD/../.en?", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(./.env)"}}, "cat '.en?'", "allow"},
	}
	for _, r := range rows {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), r.rules.file())
		v := w.decide("Bash", cmd(r.command))
		if got := outcome(v); got != r.want {
			t.Errorf("%+v on %q: got %s (%s), want %s", r.rules, r.command, got, v.Reason, r.want)
		}
		if r.want == "deny" && !strings.Contains(v.Reason, strings.Fields(r.command)[len(strings.Fields(r.command))-1]) {
			t.Errorf("%q: the reason %q does not name the glob", r.command, v.Reason)
		}
	}
}

// TestGlobMeets decides whether a shell glob and a rule's pattern can
// match one path, from the patterns alone.
func TestGlobMeets(t *testing.T) {
	p := Paths{Cwd: "/p", Home: "/h"}
	rows := []struct {
		glob, spec string
		want       bool
	}{
		{"/p/.en?", "./.env", true},
		{"/p/.[!x]nv", "./.env", true},
		{"/p/.[x]nv", "./.env", false},
		{"/p/*.md", ".env", false},
		{"/p/*.md", "./docs/**", false},
		{"/p/d*/*.md", "./docs/**", true},
		{"/p/x/*", "./docs/**", false},
		{"/p/a*b", "*c", false},
		{"/p/x*", "*.pem", true},
		{"/p/k/*.p?m", "*.pem", true},
		{"/p/**/id_rsa", "~/.ssh/**", false},
		{"/**/id_rsa", "~/.ssh/**", true},
		{"/p/*", "//etc/**", false},
		{"/e*/shadow", "//etc/shadow", true},
		{"/e*/passwd", "//etc/shadow", false},
		// A pattern doublestar cannot read is taken to meet: a maybe.
		{"/p/[", "./.env", true},
		{"/p/*", "[", false},
	}
	for _, r := range rows {
		g := p.anchored(r.spec)
		if got := g.meets(p.baseDir(g.base), r.glob); got != r.want {
			t.Errorf("%q and %q: meet %v, want %v", r.glob, r.spec, got, r.want)
		}
	}
	// Each pair of positions is tried once: a glob of many segments
	// against a rule of many "**" is decided at once.
	long := "/" + strings.Repeat("q*/", 4000) + "x"
	g := p.anchored("//**/a/**/b/**/c/**/d/**/.env")
	if g.meets(p.baseDir(g.base), long) {
		t.Errorf("a glob of q* segments met a rule naming a, b, c, d and .env")
	}
}
