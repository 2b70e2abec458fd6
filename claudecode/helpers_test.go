package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// world is a home directory and a project directory for one test, with
// settings files written into them.
type world struct {
	t          *testing.T
	root       string
	cwd, home  string
	managed    string
	opts       LoadOptions
	matcherOpt Options
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{t: t, root: root, cwd: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), managed: filepath.Join(root, "managed")}
	for _, d := range []string{w.cwd, w.home, w.managed} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.opts = LoadOptions{Project: w.cwd, Home: w.home, ConfigDir: filepath.Join(w.home, ".claude"), ManagedDir: w.managed, Trusted: true,
		Tracked: func(string) (bool, error) { return false, nil }}
	return w
}

// lists are a settings file's permission lists.
type lists struct{ Allow, Ask, Deny []string }

// file returns the JSON of a settings file holding the lists.
func (l lists) file() string {
	perms := map[string][]string{}
	for name, rules := range map[string][]string{Allow: l.Allow, Ask: l.Ask, Deny: l.Deny} {
		if rules != nil {
			perms[name] = rules
		}
	}
	data, _ := json.Marshal(map[string]any{"permissions": perms})
	return string(data)
}

// write writes a file under the world, creating its directories.
func (w *world) write(path, content string) string {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return path
}

// scopeFile is where a scope's settings file lives in the world.
func (w *world) scopeFile(scope Scope) string {
	switch scope {
	case ScopeManaged:
		return filepath.Join(w.managed, "managed-settings.json")
	case ScopeUser:
		return filepath.Join(w.home, ".claude", "settings.json")
	case ScopeLocal:
		return filepath.Join(w.cwd, ".claude", "settings.local.json")
	default:
		return filepath.Join(w.cwd, ".claude", "settings.json")
	}
}

// load reads the world's settings.
func (w *world) load() *Settings {
	w.t.Helper()
	s, err := Load(w.opts)
	if err != nil {
		w.t.Fatalf("Load: %v", err)
	}
	return s
}

// engine builds the engine the README shows from the world's settings.
func (w *world) engine(s *Settings) *agentpolicy.Engine {
	w.t.Helper()
	p, err := s.Policy()
	if err != nil {
		w.t.Fatalf("Policy: %v", err)
	}
	eng, err := agentpolicy.Build(p, s.Matchers(w.matcherOpt), agentpolicy.WithAliases(s.Aliases()))
	if err != nil {
		w.t.Fatalf("Build: %v", err)
	}
	return eng
}

// buildWith builds the engine for a policy of the settings.
func buildWith(s *Settings, p agentpolicy.Policy) (*agentpolicy.Engine, error) {
	return agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases()))
}

// decide is the engine's verdict on one call, the rules given already
// written, by the engine the README shows. The call is decided again with
// every list padded with rules that match nothing, long enough for the
// engine to file, by the engine built from [Settings.Matchers] and by the
// one [Settings.Engine] builds, whose indexes then decide which rules are
// tried: the three must agree.
func (w *world) decide(tool string, args map[string]any) agentpolicy.Verdict {
	w.t.Helper()
	s := w.load()
	v := w.would(w.engine(s), tool, args)
	p, err := s.Policy()
	if err != nil {
		w.t.Fatalf("Policy: %v", err)
	}
	p = padded(p)
	called, err := agentpolicy.Build(p, s.Matchers(w.matcherOpt), agentpolicy.WithAliases(s.Aliases()))
	if err != nil {
		w.t.Fatalf("Build: %v", err)
	}
	indexed, err := s.Engine(p, w.matcherOpt)
	if err != nil {
		w.t.Fatalf("Engine: %v", err)
	}
	for name, eng := range map[string]*agentpolicy.Engine{"padded": called, "indexed": indexed} {
		if pv := w.would(eng, tool, args); pv.Action != v.Action || pv.Reason != v.Reason {
			w.t.Errorf("%s %v: the %s engine decides %s %q, the README's %s %q", tool, args, name, outcome(pv), pv.Reason, outcome(v), v.Reason)
		}
	}
	return v
}

// padded returns p with ten rules in every list of Bash, Read, Edit and
// Skill that match no call a test makes. The deny list has no Edit
// padding: a command that removes a whole tree, "rm -rf /", removes the
// padding's path too, which an Edit deny rule refuses.
func padded(p agentpolicy.Policy) agentpolicy.Policy {
	lists := []*[]agentpolicy.Rule{&p.Deny, &p.Ask, &p.Allow}
	for i := range 10 {
		for _, r := range []agentpolicy.Rule{
			{Tool: "Bash", Spec: fmt.Sprintf("zz-pad%d:*", i)},
			{Tool: "Read", Spec: fmt.Sprintf("//zz-pad%d/zz-pad", i)},
			{Tool: "Edit", Spec: fmt.Sprintf("//zz-pad%d/zz-pad", i)},
			{Tool: "Skill", Spec: fmt.Sprintf("zz-pad%d", i)},
		} {
			for _, l := range lists {
				if l == &p.Deny && r.Tool == "Edit" {
					continue
				}
				*l = append(*l, r)
			}
		}
	}
	return p
}

// would asks the engine about one call.
func (w *world) would(eng *agentpolicy.Engine, tool string, args map[string]any) agentpolicy.Verdict {
	w.t.Helper()
	for k, v := range args {
		if s, ok := v.(string); ok {
			args[k] = w.expand(s)
		}
	}
	data, err := json.Marshal(args)
	if err != nil {
		w.t.Fatal(err)
	}
	return wouldRaw(w.t, eng, tool, data)
}

// wouldRaw asks the engine about one call with raw arguments.
func wouldRaw(t testing.TB, eng *agentpolicy.Engine, tool string, data []byte) agentpolicy.Verdict {
	call := &openresponses.FunctionCall{CallID: "call_1", Name: tool, Arguments: string(data)}
	v, err := eng.Would(context.Background(), agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: data,
		Batch: []*openresponses.FunctionCall{call}})
	if err != nil {
		t.Fatalf("Would: %v", err)
	}
	return v
}

// expand writes the world's directories into a path written with <cwd>
// and ~.
func (w *world) expand(s string) string {
	s = strings.ReplaceAll(s, "<cwd>", w.cwd)
	if s == "~" || strings.HasPrefix(s, "~/") {
		s = w.home + s[1:]
	}
	return s
}

// outcome names a verdict's action the way the spec's tables do.
func outcome(v agentpolicy.Verdict) string {
	switch v.Action {
	case agentturn.Block:
		return "deny"
	case agentturn.Defer:
		return "ask"
	default:
		return "allow"
	}
}

// listOutcome is the outcome a rule of the list gives when it matches.
func listOutcome(list string) string {
	return map[string]string{Allow: "allow", Ask: "ask", Deny: "deny"}[list]
}

// in returns lists holding one rule in one list.
func in(list, rule string) lists {
	switch list {
	case Allow:
		return lists{Allow: []string{rule}}
	case Ask:
		return lists{Ask: []string{rule}}
	default:
		return lists{Deny: []string{rule}}
	}
}

// matchRow is a row of a spec table: a rule of a list, a call, and
// whether the rule decides the call.
type matchRow struct {
	list  string // Allow, Ask, Deny, or "" for every list
	scope Scope  // where the rule is written; "" is the project file
	rule  string
	tool  string
	args  map[string]any
	match bool
}

// checkRow asserts a row through Load, Build and the engine: a match is
// the list's outcome with the file's rule cited; a miss is a verdict no
// rule of the file gave, the default's or a [Settings.Builtin] rule's.
func checkRow(t *testing.T, r matchRow) {
	t.Helper()
	listsOf := []string{r.list}
	if r.list == "" {
		listsOf = []string{Allow, Ask, Deny}
	}
	for _, list := range listsOf {
		w := newWorld(t)
		scope := r.scope
		if scope == "" {
			scope = ScopeProject
		}
		w.write(w.scopeFile(scope), in(list, r.rule).file())
		args := map[string]any{}
		for k, v := range r.args {
			args[k] = v
		}
		v := w.decide(r.tool, args)
		fileRule := v.Rule != nil && !builtin(v.Rule.Source)
		if r.match && (!fileRule || outcome(v) != listOutcome(list)) {
			t.Errorf("%s %s on %s %v: got %s (%s), want the rule to decide %s", list, r.rule, r.tool, r.args, outcome(v), v.Reason, listOutcome(list))
		}
		if !r.match && fileRule {
			t.Errorf("%s %s on %s %v: got %s by %s, want the rule not to match", list, r.rule, r.tool, r.args, outcome(v), v.Rule)
		}
	}
}

// cmd is a Bash call's arguments.
func cmd(c string) map[string]any { return map[string]any{"command": c} }

// file is a file tool's arguments.
func file(p string) map[string]any { return map[string]any{"file_path": p} }

// fetch is a WebFetch call's arguments.
func fetch(u string) map[string]any { return map[string]any{"url": u, "prompt": "summarise"} }

// builtin reports whether a source is one of [Settings.Builtin]'s.
func builtin(src agentpolicy.Source) bool {
	return src.Name == ProtectedSource.Name || src.Name == WorkingDirectoriesSource.Name
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
