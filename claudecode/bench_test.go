package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// benchRules returns n rules of a settings file in the mix a real file
// holds: commands, paths under every anchor, domains.
func benchRules(prefix string, n int) lists {
	var l lists
	for i := 0; len(l.Allow)+len(l.Ask)+len(l.Deny) < n; i++ {
		l.Allow = append(l.Allow, fmt.Sprintf("Bash(%s-tool%d run *)", prefix, i), fmt.Sprintf("Read(src/%s%d/**)", prefix, i))
		l.Deny = append(l.Deny, fmt.Sprintf("Read(./secrets/%s%d/**)", prefix, i), fmt.Sprintf("WebFetch(domain:*.%s%d.example)", prefix, i))
		l.Ask = append(l.Ask, fmt.Sprintf("Bash(git push %s%d *)", prefix, i))
	}
	return l
}

// settingsTree writes the four settings files of a session, managed,
// user, project and local, each content(scope), into a temporary
// directory, and returns the options that load them, the project trusted
// and no file tracked by git.
func settingsTree(b *testing.B, content func(scope string) string) LoadOptions {
	root := b.TempDir()
	opts := LoadOptions{
		Project: filepath.Join(root, "project"), Home: filepath.Join(root, "home"),
		ConfigDir: filepath.Join(root, "home", ".claude"), ManagedDir: filepath.Join(root, "managed"),
		Trusted: true, Tracked: func(string) (bool, error) { return false, nil },
	}
	files := map[string]string{
		filepath.Join(opts.ManagedDir, "managed-settings.json"):       "managed",
		filepath.Join(opts.ConfigDir, "settings.json"):                "user",
		filepath.Join(opts.Project, ".claude", "settings.json"):       "project",
		filepath.Join(opts.Project, ".claude", "settings.local.json"): "local",
	}
	for path, scope := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content(scope)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return opts
}

// BenchmarkLoadAndBuild loads four settings files of 200 rules each and
// builds the engine from them with [Settings.Engine], which compiles every
// path rule to file it.
func BenchmarkLoadAndBuild(b *testing.B) {
	opts := settingsTree(b, func(scope string) string { return benchRules(scope[:1], 200).file() })
	b.ReportAllocs()
	for b.Loop() {
		s, err := Load(opts)
		if err != nil {
			b.Fatal(err)
		}
		p, err := s.Policy()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Engine(p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadDecision decides one Read call against 200 path rules, the
// allow rule that takes it last.
func BenchmarkReadDecision(b *testing.B) {
	var l lists
	for i := range 66 {
		l.Deny = append(l.Deny, fmt.Sprintf("Read(./secrets/s%d/**)", i))
		l.Ask = append(l.Ask, fmt.Sprintf("Read(~/private/p%d/*.txt)", i))
		l.Allow = append(l.Allow, fmt.Sprintf("Read(docs/d%d/**)", i))
	}
	l.Deny = append(l.Deny, "Read(*.pem)")
	l.Allow = append(l.Allow, "Read(src/**)")
	benchDecision(b, l, "Read", func(cwd string) string {
		return `{"file_path":"` + cwd + `/src/pkg/engine/decide.go"}`
	}, "allowed by Read(src/**)")
}

// BenchmarkBashDecision decides one compound Bash command of three
// commands against 200 command rules, each command allowed by the last
// allow rule.
func BenchmarkBashDecision(b *testing.B) {
	var l lists
	for i := range 66 {
		l.Deny = append(l.Deny, fmt.Sprintf("Bash(rm%d *)", i))
		l.Ask = append(l.Ask, fmt.Sprintf("Bash(git push origin b%d *)", i))
		l.Allow = append(l.Allow, fmt.Sprintf("Bash(tool%d run *)", i))
	}
	l.Deny = append(l.Deny, "Bash(curl *)")
	l.Allow = append(l.Allow, "Bash(go *)")
	benchDecision(b, l, "Bash", func(string) string {
		return `{"command":"go vet ./... && go test ./... && go build ./..."}`
	}, "allowed by Bash(as_written:go *)")
}

// benchDecision writes the lists as a project's settings file, of 200 rules
// at least, and decides one call of tool, whose arguments args writes from
// the project directory, with the engine [Settings.Engine] builds, whose
// matchers are indexed, and with the one built from [Settings.Matchers],
// which calls a matcher for every rule. Both must give the reason.
func benchDecision(b *testing.B, l lists, tool string, args func(cwd string) string, reason string) {
	w := &world{t: &testing.T{}}
	root := b.TempDir()
	w.cwd, w.home, w.managed = filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "managed")
	w.opts = LoadOptions{Project: w.cwd, Home: w.home, ConfigDir: filepath.Join(w.home, ".claude"), ManagedDir: w.managed, Trusted: true,
		Tracked: func(string) (bool, error) { return false, nil }}
	path := w.scopeFile(ScopeProject)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(l.file()), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := Load(w.opts)
	if err != nil {
		b.Fatal(err)
	}
	p, err := s.Policy()
	if err != nil {
		b.Fatal(err)
	}
	if n := len(p.Allow) + len(p.Ask) + len(p.Deny); n < 200 {
		b.Fatalf("%d rules", n)
	}
	indexed, err := s.Engine(p, Options{})
	if err != nil {
		b.Fatal(err)
	}
	called, err := agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases()))
	if err != nil {
		b.Fatal(err)
	}
	data := []byte(args(w.cwd))
	for _, eng := range []struct {
		name string
		e    *agentpolicy.Engine
	}{{"indexed", indexed}, {"called", called}} {
		b.Run(eng.name, func(b *testing.B) {
			if v := wouldRaw(b, eng.e, tool, data); outcome(v) != "allow" || v.Reason != reason {
				b.Fatalf("got %s (%s)", outcome(v), v.Reason)
			}
			b.ReportAllocs()
			for b.Loop() {
				wouldRaw(b, eng.e, tool, data)
			}
		})
	}
}

// hookRules is a settings file of n rules in the mix of the hook's speed
// target (issue 24), as cmd/agentpolicy's hook benchmark writes it: Bash
// patterns in allow and deny, Read and Edit paths, WebFetch domains,
// spread over the three lists.
func hookRules(tag string, n int) string {
	perms := map[string][]string{}
	for i := range n {
		var list, rule string
		switch i % 5 {
		case 0:
			list, rule = Allow, fmt.Sprintf("Bash(%s-tool-%d *)", tag, i)
		case 1:
			list, rule = Deny, fmt.Sprintf("Bash(%s-danger-%d:*)", tag, i)
		case 2:
			list, rule = Deny, fmt.Sprintf("Read(./%s/secret-%d/**)", tag, i)
		case 3:
			list, rule = Allow, fmt.Sprintf("Edit(./%s/src-%d/**)", tag, i)
		default:
			list, rule = Ask, fmt.Sprintf("WebFetch(domain:%s-%d.example.com)", tag, i)
		}
		perms[list] = append(perms[list], rule)
	}
	data, _ := json.MarshalIndent(map[string]any{"permissions": perms}, "", "  ")
	return string(data)
}

// BenchmarkLoadAndBuildHook is the work of one `agentpolicy hook` call
// before it decides: loading the four settings files of 200 rules each
// (managed, user, project, local; the project trusted, at the root of a
// git repository) and building the engine from their policy with
// [Settings.Matchers], as the hook builds it.
func BenchmarkLoadAndBuildHook(b *testing.B) {
	opts := settingsTree(b, func(scope string) string { return hookRules(scope, 200) })
	if err := os.Mkdir(filepath.Join(opts.Project, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	build := func() *agentpolicy.Engine {
		s, err := Load(opts)
		if err != nil {
			b.Fatal(err)
		}
		p, err := s.Policy()
		if err != nil {
			b.Fatal(err)
		}
		e, err := agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases()))
		if err != nil {
			b.Fatal(err)
		}
		return e
	}
	if n := len(build().Policy().Deny); n < 4*80 {
		b.Fatalf("%d deny rules, want the four files' 80 each and more", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		build()
	}
}
