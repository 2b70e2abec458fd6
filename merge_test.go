package agentpolicy

import (
	"errors"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

func TestDefaultWordsAndActions(t *testing.T) {
	for _, tc := range []struct {
		d      Default
		word   string
		action agentturn.ToolAction
		set    bool
	}{
		{Default{}, "unset", agentturn.Allow, false},
		{Allow(), "allow", agentturn.Allow, true},
		{Deny(), "deny", agentturn.Block, true},
		{Ask(), "ask", agentturn.Defer, true},
	} {
		if got := tc.d.String(); got != tc.word {
			t.Errorf("String() = %q, want %q", got, tc.word)
		}
		if action, set := tc.d.Action(); action != tc.action || set != tc.set {
			t.Errorf("%s: Action() = %d, %v, want %d, %v", tc.word, action, set, tc.action, tc.set)
		}
	}
}

func TestPolicyWithDefaultLeavesTheOriginal(t *testing.T) {
	p := Policy{Default: Ask()}
	q := p.WithDefault(Allow())
	if q.Default != Allow() || p.Default != Ask() {
		t.Errorf("WithDefault: got %s, original %s; want allow, ask", q.Default, p.Default)
	}
}

func TestMergeOrdersByRankStably(t *testing.T) {
	user := Source{Name: "user", Trusted: true, Rank: 1}
	project := Source{Name: "project", Trusted: true, Rank: 2}
	local := Source{Name: "local", Trusted: true, Rank: 1}
	managed := Source{Name: "managed", Trusted: true, Rank: 9}
	p, err := Merge(
		RuleSet{Source: user, Deny: []Rule{{Tool: "a"}}},
		RuleSet{Source: project, Deny: []Rule{{Tool: "b"}}},
		RuleSet{Source: local, Deny: []Rule{{Tool: "c"}}},
		RuleSet{Source: managed, Deny: []Rule{{Tool: "d"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{{Tool: "d", Source: managed}, {Tool: "b", Source: project}, {Tool: "a", Source: user}, {Tool: "c", Source: local}}
	if !reflect.DeepEqual(p.Deny, want) {
		t.Errorf("Deny = %v, want %v", p.Deny, want)
	}
	if wantSources := []Source{managed, project, user, local}; !reflect.DeepEqual(p.Sources, wantSources) {
		t.Errorf("Sources = %v, want %v", p.Sources, wantSources)
	}
}

func TestMergeStampsEveryRuleWithItsSource(t *testing.T) {
	user := Source{Name: "user", Path: "~/.settings.json", Hash: "h1", Trusted: true}
	stale := Source{Name: "stale"}
	p, err := Merge(RuleSet{Source: user,
		Allow: []Rule{{Tool: "read", Source: stale}},
		Deny:  []Rule{{Tool: "bash", Spec: "rm:*", Note: "never"}},
		Ask:   []Rule{{Tool: "edit"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Policy{
		Allow:   []Rule{{Tool: "read", Source: user}},
		Deny:    []Rule{{Tool: "bash", Spec: "rm:*", Note: "never", Source: user}},
		Ask:     []Rule{{Tool: "edit", Source: user}},
		Sources: []Source{user},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Merge = %+v, want %+v", p, want)
	}
}

func TestMergeWithholdsAnUntrustedSourcesAllowRules(t *testing.T) {
	repo := Source{Name: "repo", Rank: 1}
	user := Source{Name: "user", Trusted: true}
	p, err := Merge(
		RuleSet{Source: user, Allow: []Rule{{Tool: "read"}}},
		RuleSet{Source: repo, Allow: []Rule{{Tool: "bash", Spec: "make:*"}}, Deny: []Rule{{Tool: "fetch"}}, Ask: []Rule{{Tool: "edit"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Rule{{Tool: "read", Source: user}}; !reflect.DeepEqual(p.Allow, want) {
		t.Errorf("Allow = %v, want %v", p.Allow, want)
	}
	if want := []Rule{{Tool: "bash", Spec: "make:*", Source: repo}}; !reflect.DeepEqual(p.Withheld, want) {
		t.Errorf("Withheld = %v, want %v", p.Withheld, want)
	}
	if want := []Rule{{Tool: "fetch", Source: repo}}; !reflect.DeepEqual(p.Deny, want) {
		t.Errorf("Deny = %v, want %v (an untrusted source's deny applies)", p.Deny, want)
	}
	if want := []Rule{{Tool: "edit", Source: repo}}; !reflect.DeepEqual(p.Ask, want) {
		t.Errorf("Ask = %v, want %v (an untrusted source's ask applies)", p.Ask, want)
	}
	if want := []Source{repo, user}; !reflect.DeepEqual(p.Sources, want) {
		t.Errorf("Sources = %v, want every source, %v", p.Sources, want)
	}
}

func TestMergeLeavesTheDefaultUnset(t *testing.T) {
	p, err := Merge(RuleSet{Source: Source{Name: "user", Trusted: true}, Allow: []Rule{{Tool: "read"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, set := p.Default.Action(); set {
		t.Errorf("Default = %s, want unset", p.Default)
	}
	if _, err := Build(p, nil); !errors.Is(err, ErrNoDefault) {
		t.Errorf("Build(merged) = %v, want ErrNoDefault", err)
	}
}

func TestMergeRefusesUnnamedAndDuplicateSources(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []RuleSet
		want string
	}{
		{"unnamed", []RuleSet{{Source: Source{Name: "user"}}, {Source: Source{Trusted: true}}},
			"agentpolicy: merge: a source has no name"},
		{"duplicate", []RuleSet{{Source: Source{Name: "skill", Rank: 1}}, {Source: Source{Name: "skill", Rank: 2}}},
			`agentpolicy: merge: duplicate source "skill"; give each source its own name, "skill:<name>" for one skill of several`},
		// The two cases the corpus held before its runner stopped at a
		// Merge error.
		{"two sources with one name", []RuleSet{
			{Source: Source{Name: "skill", Rank: 1, Trusted: true}, Allow: []Rule{{Tool: "read"}}},
			{Source: Source{Name: "skill", Rank: 2, Trusted: true}, Allow: []Rule{{Tool: "edit"}}},
		}, `agentpolicy: merge: duplicate source "skill"; give each source its own name, "skill:<name>" for one skill of several`},
		{"a source without a name", []RuleSet{{Source: Source{Rank: 1, Trusted: true}, Allow: []Rule{{Tool: "read"}}}},
			"agentpolicy: merge: a source has no name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.sets...)
			if err == nil || err.Error() != tc.want {
				t.Errorf("Merge error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestMergeOfNothingIsAnEmptyPolicy(t *testing.T) {
	p, err := Merge()
	if err != nil || !reflect.DeepEqual(p, Policy{}) {
		t.Errorf("Merge() = %+v, %v; want the zero policy", p, err)
	}
}
