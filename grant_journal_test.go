package agentpolicy

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// pushVerdict is what the engine decides for a push under gitPolicy: a
// deferral the ask rule raised.
func pushVerdict(t *testing.T, e *Engine) Verdict {
	t.Helper()
	v, err := e.Would(context.Background(), callInfo("bash", shellArgs("git push origin main")))
	if err != nil || v.Action != agentturn.Defer || v.Rule == nil {
		t.Fatalf("a push was decided %+v, %v; want a deferral by an ask rule", v, err)
	}
	return v
}

// grantState is what a grant changes, for comparing before and after.
type engineGrants struct {
	policy Policy
	sets   []RuleSet
}

func stateOf(e *Engine) engineGrants {
	return engineGrants{policy: e.Policy(), sets: e.Grants()}
}

func TestAGrantTheJournalCannotRecordIsNotMade(t *testing.T) {
	local := Source{Name: "local", Trusted: true, Rank: 1}
	skill := Source{Name: "skill", Trusted: true, Rank: 1}
	rule := func(s string, src Source) Rule {
		r := parseOrFail(t, s)[0]
		r.Source = src
		return r
	}
	for _, tc := range []struct {
		name string
		// room is how many verdicts the journal takes before it fails.
		room  int
		grant func(ctx context.Context, e *Engine) (refused []string)
		// refusals are the reasons the observers see: a GrantSet's
		// refusals, and nothing of a Grant's or a GrantOver's.
		refusals []string
	}{
		{"Grant", 0, func(ctx context.Context, e *Engine) []string {
			err := e.Grant(ctx, rule("bash(make:*)", local))
			if !errors.Is(err, ErrUnrecorded) || !errors.Is(err, errJournalFull) {
				t.Errorf("Grant returned %v, want ErrUnrecorded wrapping the journal's error", err)
			}
			if err != nil && err.Error() != "agentpolicy: the grant could not be recorded: journal full" {
				t.Errorf("Grant's error reads %q", err)
			}
			return nil
		}, nil},
		{"Grant of an alias whose second rule is not recorded", 1, func(ctx context.Context, e *Engine) []string {
			if err := e.Grant(ctx, rule("Read(src/*)", local)); !errors.Is(err, ErrUnrecorded) {
				t.Errorf("Grant returned %v, want ErrUnrecorded", err)
			}
			return nil
		}, nil},
		{"GrantOver", 0, func(ctx context.Context, e *Engine) []string {
			ok, reason := e.GrantOver(ctx, pushVerdict(t, e), rule("bash(git push origin main)", local))
			if ok || reason != "the grant could not be recorded" {
				t.Errorf("GrantOver returned %v, %q", ok, reason)
			}
			return nil
		}, nil},
		{"GrantSet", 0, func(ctx context.Context, e *Engine) []string {
			granted, refused := e.GrantSet(ctx, RuleSet{Source: skill,
				Allow: parseOrFail(t, "bash(make:*) mcp(x)"), Deny: parseOrFail(t, "bash(curl:*)")})
			if granted != nil {
				t.Errorf("GrantSet activated %v", granted)
			}
			var reasons []string
			for _, r := range refused {
				reasons = append(reasons, r.Rule.String()+": "+r.Reason)
			}
			return reasons
		}, []string{
			"not granted mcp(x): agentpolicy: no matcher for the rule's tool: mcp(x)",
			"not granted bash(make:*): the grant could not be recorded",
			"not granted bash(curl:*): the grant could not be recorded",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &filling{room: tc.room}
			rec := &recorder{}
			matchers := shellMatchers()
			matchers["grep"] = ToolMatcher{Match: PrefixMatcher("pattern")}
			e := mustBuild(t, gitPolicy(t), matchers, WithJournal(j), WithObserver(rec.observe),
				WithAliases(map[string][]string{"Read": {"read", "grep"}}))
			ctx := context.Background()
			if tc.name == "GrantSet" {
				// An earlier set of the same source stays in force.
				j.room = 9
				if _, refused := e.GrantSet(ctx, RuleSet{Source: skill, Allow: parseOrFail(t, "bash(go test:*)")}); refused != nil {
					t.Fatal(refused)
				}
				j.room = len(j.recorded) + tc.room
			}
			before := stateOf(e)
			rec.take()
			refused := tc.grant(ctx, e)
			if after := stateOf(e); !reflect.DeepEqual(after, before) {
				t.Errorf("the engine changed:\n%+v\nwant\n%+v", after, before)
			}
			var reasons []string
			for _, v := range rec.take() {
				if v.Action != agentturn.Block {
					t.Errorf("the observers saw %+v, a grant that was not made", v)
				}
				reasons = append(reasons, v.Reason)
			}
			if !reflect.DeepEqual(reasons, tc.refusals) {
				t.Errorf("the observers saw %q, want %q", reasons, tc.refusals)
			}
			if tc.name == "GrantSet" && !reflect.DeepEqual(refused, []string{
				"mcp(x): agentpolicy: no matcher for the rule's tool: mcp(x)",
				"bash(make:*): the grant could not be recorded",
				"bash(curl:*): the grant could not be recorded",
			}) {
				t.Errorf("GrantSet refused %q", refused)
			}
			if v, _ := e.Would(ctx, callInfo("bash", shellArgs("make all"))); v.Action == agentturn.Allow {
				t.Errorf("a call only the grant would allow was allowed: %+v", v)
			}
		})
	}
}

func TestAGrantIsRecordedBeforeItIsMade(t *testing.T) {
	local := Source{Name: "local", Trusted: true, Rank: 1}
	var e *Engine
	var seen []string
	j := JournalFunc(func(ctx context.Context, v Verdict) error {
		// What a decision reads while the grant is being recorded.
		got, _ := e.Would(ctx, callInfo("bash", shellArgs("git push origin main")))
		seen = append(seen, v.Reason+" / "+got.Reason)
		return nil
	})
	e = mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(j))
	g := parseOrFail(t, "bash(git push origin main)")[0]
	g.Source = local
	if ok, reason := e.GrantOver(context.Background(), pushVerdict(t, e), g); !ok {
		t.Fatal(reason)
	}
	want := []string{"granted bash(git push origin main) over bash(git push:*) / approval required by bash(git push:*)"}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("the journal saw %q, want %q", seen, want)
	}
	if v, _ := e.Would(context.Background(), callInfo("bash", shellArgs("git push origin main"))); v.Action != agentturn.Allow {
		t.Errorf("after the grant a push was decided %+v", v)
	}
}

func TestARevocationIsMadeWhenTheJournalFails(t *testing.T) {
	for _, scoped := range []bool{false, true} {
		j := &filling{room: 100}
		e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(j))
		ctx := ContextWithGrantScope(context.Background(), "conversation_1")
		skill := Source{Name: "skill", Trusted: true, Rank: 1}
		if _, refused := e.GrantSet(ctx, RuleSet{Source: skill, Allow: parseOrFail(t, "bash(make:*)")}); refused != nil {
			t.Fatal(refused)
		}
		j.room = len(j.recorded)
		n := 0
		if scoped {
			n = e.RevokeScope(ctx)
		} else {
			n = e.Revoke(ctx, "skill")
		}
		if n != 1 || len(e.Grants()) != 0 {
			t.Errorf("scoped %v: revoked %d rules, %d sets left; want the set gone", scoped, n, len(e.Grants()))
		}
		if len(j.refused) != 1 || j.refused[0].Action != agentturn.Block {
			t.Errorf("scoped %v: the journal was asked to record %+v, want the revocation", scoped, j.refused)
		}
	}
}

// Under concurrent grants and a journal that fails every other record,
// the grants in force are exactly those the journal recorded.
func TestConcurrentGrantsInForceAreTheRecordedOnes(t *testing.T) {
	var mu sync.Mutex
	n := 0
	recorded := map[string]bool{}
	j := JournalFunc(func(_ context.Context, v Verdict) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n%2 == 0 {
			return errJournalFull
		}
		if v.Action == agentturn.Allow && strings.HasPrefix(v.Reason, "granted ") {
			recorded[v.Rule.String()] = true
		}
		return nil
	})
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(j))
	local := Source{Name: "local", Trusted: true, Rank: 1}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for i := range 25 {
				r := Rule{Tool: "bash", Spec: fmt.Sprintf("make t%d-%d", w, i), Source: local}
				err := e.Grant(ctx, r)
				if err != nil && !errors.Is(err, ErrUnrecorded) {
					t.Error(err)
				}
				if _, err := e.Decide(ctx, callInfo("bash", shellArgs("make t0-0"))); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	inForce := map[string]bool{}
	for _, r := range e.PolicyOf("local").Allow {
		inForce[r.String()] = true
	}
	if !reflect.DeepEqual(inForce, recorded) || len(inForce) == 0 || len(inForce) == 200 {
		t.Errorf("%d grants in force, %d recorded; want the same, some and not all", len(inForce), len(recorded))
	}
}

// TestARefusedGrantIsNotJournaled refuses a Grant and a GrantOver, for a
// rule that could never fire, over a call that was not deferred, and for a
// journal that could not record the grant, and checks that none of the
// refusals reaches an observer or the journal: only a grant made is
// journaled. The journal is offered the grant it could not record, and
// nothing after it.
func TestARefusedGrantIsNotJournaled(t *testing.T) {
	local := Source{Name: "local", Trusted: true, Rank: 1}
	for _, tc := range []struct {
		name  string
		room  int
		grant func(ctx context.Context, e *Engine)
		// offered is how many verdicts the journal is offered.
		offered int
	}{
		{"Grant of a rule with no matcher", 9, func(ctx context.Context, e *Engine) {
			if err := e.Grant(ctx, Rule{Tool: "fetch", Spec: "https:*", Source: local}); !errors.Is(err, ErrNoMatcher) {
				t.Errorf("Grant = %v, want ErrNoMatcher", err)
			}
		}, 0},
		{"Grant the journal could not record", 0, func(ctx context.Context, e *Engine) {
			if err := e.Grant(ctx, Rule{Tool: "bash", Spec: "make:*", Source: local}); !errors.Is(err, ErrUnrecorded) {
				t.Errorf("Grant = %v, want ErrUnrecorded", err)
			}
		}, 1},
		{"GrantOver a call that was not deferred", 9, func(ctx context.Context, e *Engine) {
			v := Verdict{RunID: "run_1", CallID: "call_1", Tool: "bash", Action: agentturn.Allow}
			if ok, _ := e.GrantOver(ctx, v, Rule{Tool: "bash", Spec: "ls:*", Source: local}); ok {
				t.Error("GrantOver granted over an allowed call")
			}
		}, 0},
		{"GrantOver the journal could not record", 0, func(ctx context.Context, e *Engine) {
			if ok, _ := e.GrantOver(ctx, pushVerdict(t, e), Rule{Tool: "bash", Spec: "git push origin main", Source: local}); ok {
				t.Error("GrantOver granted what the journal could not record")
			}
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &filling{room: tc.room}
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(j), WithObserver(rec.observe))
			tc.grant(context.Background(), e)
			if vs := rec.take(); len(vs) != 0 {
				t.Errorf("the observers saw %+v, want nothing of a grant refused", vs)
			}
			if n := len(j.recorded) + len(j.refused); n != tc.offered {
				t.Errorf("the journal was offered %d verdicts (%+v, %+v), want %d", n, j.recorded, j.refused, tc.offered)
			}
		})
	}
}

// TestAGrantSetJournalsOnlyWhatItGranted: a set's deny and ask rules
// restrict and grant nothing, so the journal and the observers read a
// grant for its allow rules alone, though all three lists are in force.
func TestAGrantSetJournalsOnlyWhatItGranted(t *testing.T) {
	j := &filling{room: 9}
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithJournal(j), WithObserver(rec.observe))
	ctx := context.Background()
	granted, refused := e.GrantSet(ctx, RuleSet{Source: skillSrc,
		Allow: parseOrFail(t, "bash(make:*)"), Deny: parseOrFail(t, "bash(curl:*)"), Ask: parseOrFail(t, "bash(git status:*)")})
	if len(granted) != 1 || granted[0].String() != "bash(make:*)" || refused != nil {
		t.Fatalf("GrantSet = %v, %v; want bash(make:*) granted", granted, refused)
	}
	want := []string{"allow granted bash(make:*) by skill:commit"}
	var journaled, observed []string
	for _, v := range j.recorded {
		journaled = append(journaled, actionWord(v.Action)+" "+v.Reason)
	}
	for _, v := range rec.take() {
		observed = append(observed, actionWord(v.Action)+" "+v.Reason)
	}
	if !reflect.DeepEqual(journaled, want) || !reflect.DeepEqual(observed, want) {
		t.Errorf("the journal recorded %q and the observers saw %q, want %q", journaled, observed, want)
	}
	for cmd, action := range map[string]agentturn.ToolAction{
		"make all": agentturn.Allow, "curl example.com": agentturn.Block, "git status": agentturn.Defer,
	} {
		if v, _ := e.Would(ctx, callInfo("bash", shellArgs(cmd))); v.Action != action {
			t.Errorf("%s was decided %v, want %v: the set's three lists are in force", cmd, v.Action, action)
		}
	}
}
