package corpus

// This file runs decisions.json, the decision half of the conformance
// corpus, as the RFC's corpus section describes it; it is meant to be read
// as an example of how any implementation drives the file.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// decisionFile is decisions.json: the default matcher table and the cases.
type decisionFile struct {
	Matchers map[string]corpusMatcher `json:"matchers"`
	Cases    []decisionCase           `json:"cases"`
}

// corpusMatcher says how a tool is matched: "prefix" or "glob" over one
// field, or no matcher when Match is empty, and whether it splits.
type corpusMatcher struct {
	Match string `json:"match"`
	Field string `json:"field"`
	Split bool   `json:"split"`
}

type decisionCase struct {
	Name string `json:"name"`
	// Matchers replaces the file's table when present; {} is no matchers.
	Matchers   map[string]corpusMatcher `json:"matchers"`
	Aliases    map[string][]string      `json:"aliases"`
	Policy     corpusPolicy             `json:"policy"`
	BuildError string                   `json:"build_error"`
	Grants     []corpusGrant            `json:"grants"`
	Calls      []corpusCall             `json:"calls"`
	Batch      []corpusCall             `json:"batch"`
	Offer      *struct {
		Tools []string `json:"tools"`
		Want  []string `json:"want"`
	} `json:"offer"`
}

type corpusPolicy struct {
	Sources []corpusSource `json:"sources"`
	Allow   string         `json:"allow"`
	Deny    string         `json:"deny"`
	Ask     string         `json:"ask"`
	Default string         `json:"default"`
}

type corpusSource struct {
	Name    string            `json:"name"`
	Rank    int               `json:"rank"`
	Trusted bool              `json:"trusted"`
	Allow   string            `json:"allow"`
	Deny    string            `json:"deny"`
	Ask     string            `json:"ask"`
	Notes   map[string]string `json:"notes"`
}

// corpusGrant is a grant set applied after Build with GrantSet, under the
// grant scope Scope names ("" for none, an extension of contract §11), and
// what it must grant and refuse; an absent list is an empty one.
type corpusGrant struct {
	Scope  string `json:"scope"`
	Source struct {
		Name    string `json:"name"`
		Rank    int    `json:"rank"`
		Trusted bool   `json:"trusted"`
	} `json:"source"`
	Allow   string   `json:"allow"`
	Deny    string   `json:"deny"`
	Ask     string   `json:"ask"`
	Granted []string `json:"granted"`
	Refused []struct {
		Rule   string `json:"rule"`
		Reason string `json:"reason"`
	} `json:"refused"`
}

type corpusCall struct {
	// Scope is the grant scope the call is decided under, "" for none (an
	// extension of contract §11).
	Scope string          `json:"scope"`
	Tool  string          `json:"tool"`
	Args  json.RawMessage `json:"args"`
	// RawArgs, in place of Args, is the arguments' text exactly as the
	// model sent it: a duplicate key, an escape or text that is not one
	// object, which a corpus reader's own decoder might not keep.
	RawArgs       *string          `json:"raw_args"`
	Subjects      *[]corpusSubject `json:"subjects"`
	SubjectsError string           `json:"subjects_error"`
	// Confined is present for a call that runs confined, naming what
	// confines it ("" for nothing named).
	Confined *string `json:"confined"`
	Want     struct {
		Action   string `json:"action"`
		Held     bool   `json:"held"`
		Rule     string `json:"rule"`
		Source   string `json:"source"`
		Reason   string `json:"reason"`
		Subject  string `json:"subject"`
		Confined string `json:"confined"`
	} `json:"want"`
}

type corpusSubject struct {
	Args      json.RawMessage `json:"args"`
	Text      string          `json:"text"`
	Tool      string          `json:"tool"`
	Constrain bool            `json:"constrain"`
	Unseen    string          `json:"unseen"`
}

// decisionCases are the cases of decisions.json, each run with the file's
// matcher table unless it has its own.
func decisionCases(dir string) ([]Case, error) {
	var file decisionFile
	if err := load(dir, "decisions.json", &file); err != nil {
		return nil, err
	}
	cases := make([]Case, len(file.Cases))
	for i, c := range file.Cases {
		cases[i] = Case{File: "decisions.json", Name: c.Name, run: func(t T) { runDecisionCase(t, file.Matchers, c) }}
	}
	return cases, nil
}

// runDecisionCase builds the case's engine, applies its grants and decides
// its calls, its batch and its offer.
func runDecisionCase(t T, table map[string]corpusMatcher, c decisionCase) {
	if c.Matchers != nil {
		table = c.Matchers
	}
	calls := append(slices.Clone(c.Calls), c.Batch...)
	var verdicts []agentpolicy.Verdict
	observe := agentpolicy.WithObserver(func(_ context.Context, v agentpolicy.Verdict) { verdicts = append(verdicts, v) })
	tools := corpusTools(t, calls, table)
	lookup := agentpolicy.WithTools(func(name string) (agenttool.Tool, bool) {
		tool, ok := tools[name]
		return tool, ok
	})
	policy := corpusBuildPolicy(t, c.Policy)
	e, err := agentpolicy.Build(policy, corpusMatchers(t, table, calls), observe, lookup, agentpolicy.WithAliases(c.Aliases))
	if c.BuildError != "" {
		if kind := buildErrorKind(err); kind != c.BuildError {
			t.Fatalf("build error %v is %q, want %q", err, kind, c.BuildError)
		}
		return
	}
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	for i, g := range c.Grants {
		applyCorpusGrant(t, e, i, g)
	}

	batches := make([][]corpusCall, 0, len(c.Calls)+1)
	for _, call := range c.Calls {
		batches = append(batches, []corpusCall{call})
	}
	if len(c.Batch) > 0 {
		batches = append(batches, c.Batch)
	}
	id := 0
	for i, batch := range batches {
		items := make([]*openresponses.FunctionCall, len(batch))
		for j, call := range batch {
			id++
			items[j] = &openresponses.FunctionCall{CallID: fmt.Sprintf("call_%d", id), Name: call.Tool, Arguments: string(corpusArgs(t, call))}
		}
		for j, call := range batch {
			info := agentturn.ToolCallInfo{RunID: "run_1", Turn: i + 1, Call: items[j], Tool: tools[call.Tool],
				Args: corpusArgs(t, call), Batch: items, Index: j}
			verdicts = verdicts[:0]
			ctx := agentpolicy.ContextWithGrantScope(context.Background(), call.Scope)
			d, err := e.Decide(ctx, info)
			if err != nil {
				t.Fatalf("%s: Decide: %v", items[j].CallID, err)
			}
			checkCorpusCall(t, info, call, d, verdicts)
			again, err := e.Decide(ctx, info)
			if err != nil || !reflect.DeepEqual(again, d) {
				t.Errorf("%s: decided again: %+v, %v; first %+v", items[j].CallID, again, err, d)
			}
		}
	}
	if c.Offer != nil {
		got := []string{}
		for _, tool := range e.Filter(namedTools(c.Offer.Tools)) {
			got = append(got, tool.Name())
		}
		if want := append([]string{}, c.Offer.Want...); !reflect.DeepEqual(got, want) {
			t.Errorf("offer: Filter(%v) = %v, want %v", c.Offer.Tools, got, want)
		}
	}
}

// applyCorpusGrant activates the i-th grant set of a case and compares
// what it granted and refused, as rule strings and reasons, with what the
// case wants.
func applyCorpusGrant(t T, e *agentpolicy.Engine, i int, g corpusGrant) {
	t.Helper()
	set := agentpolicy.RuleSet{
		Source: agentpolicy.Source{Name: g.Source.Name, Rank: g.Source.Rank, Trusted: g.Source.Trusted},
		Allow:  corpusRules(t, g.Allow),
		Deny:   corpusRules(t, g.Deny),
		Ask:    corpusRules(t, g.Ask),
	}
	granted, refused := e.GrantSet(agentpolicy.ContextWithGrantScope(context.Background(), g.Scope), set)
	got := []string{}
	for _, r := range granted {
		if r.Source != set.Source {
			t.Errorf("grant %d: %s is stamped %+v, want the set's source", i, r, r.Source)
		}
		got = append(got, r.String())
	}
	if want := append([]string{}, g.Granted...); !reflect.DeepEqual(got, want) {
		t.Errorf("grant %d: granted %q, want %q", i, got, want)
	}
	got = []string{}
	for _, r := range refused {
		got = append(got, r.Rule.String()+": "+r.Reason)
	}
	want := []string{}
	for _, r := range g.Refused {
		want = append(want, r.Rule+": "+r.Reason)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grant %d: refused %q, want %q", i, got, want)
	}
}

// checkCorpusCall compares the decision and the one verdict the observer
// saw with what the call wants.
func checkCorpusCall(t T, info agentturn.ToolCallInfo, call corpusCall, d *agentturn.ToolDecision, verdicts []agentpolicy.Verdict) {
	t.Helper()
	id := info.Call.CallID
	if len(verdicts) != 1 {
		t.Fatalf("%s: the observer saw %d verdicts, want 1", id, len(verdicts))
	}
	v := verdicts[0]
	rule, source := "", ""
	if v.Rule != nil {
		rule, source = v.Rule.String(), v.Rule.Source.Name
	}
	w := call.Want
	got := fmt.Sprintf("action %s held %v rule %q source %q reason %q subject %q confined %q",
		actionWord(v), v.Held, rule, source, v.Reason, v.Subject, v.Confined)
	want := fmt.Sprintf("action %s held %v rule %q source %q reason %q subject %q confined %q",
		w.Action, w.Held, w.Rule, w.Source, w.Reason, w.Subject, w.Confined)
	if got != want {
		t.Errorf("%s %s %s:\n got %s\nwant %s", id, call.Tool, info.Args, got, want)
	}
	if d == nil || d.Action != v.Action || d.Reason != v.Reason || d.By != agentpolicy.ByPolicy {
		t.Errorf("%s: decision %+v does not carry the verdict's action and reason by policy", id, d)
	}
	if v.RunID != "run_1" || v.Turn != info.Turn || v.CallID != id || v.Tool != call.Tool {
		t.Errorf("%s: verdict names run %q turn %d call %q tool %q", id, v.RunID, v.Turn, v.CallID, v.Tool)
	}
}

// corpusBuildPolicy merges the case's sources and appends the host's own
// lists, with no source, after the merged ones. A Merge error stops the
// case: build_error is for Build, and Merge's own refusals are Go tests.
func corpusBuildPolicy(t T, cp corpusPolicy) agentpolicy.Policy {
	sets := make([]agentpolicy.RuleSet, len(cp.Sources))
	for i, s := range cp.Sources {
		sets[i] = agentpolicy.RuleSet{
			Source: agentpolicy.Source{Name: s.Name, Rank: s.Rank, Trusted: s.Trusted},
			Allow:  withNotes(corpusRules(t, s.Allow), s.Notes),
			Deny:   withNotes(corpusRules(t, s.Deny), s.Notes),
			Ask:    withNotes(corpusRules(t, s.Ask), s.Notes),
		}
	}
	p, err := agentpolicy.Merge(sets...)
	if err != nil {
		t.Fatalf("the case's sources do not merge: %v", err)
	}
	p.Allow = append(p.Allow, corpusRules(t, cp.Allow)...)
	p.Deny = append(p.Deny, corpusRules(t, cp.Deny)...)
	p.Ask = append(p.Ask, corpusRules(t, cp.Ask)...)
	switch cp.Default {
	case "allow":
		p.Default = agentpolicy.Allow()
	case "deny":
		p.Default = agentpolicy.Deny()
	case "ask":
		p.Default = agentpolicy.Ask()
	case "":
	default:
		t.Fatalf("unknown default %q", cp.Default)
	}
	return p
}

// corpusRules parses a list the case writes in the grammar.
func corpusRules(t T, s string) []agentpolicy.Rule {
	rules, err := agentpolicy.ParseRules(s)
	if err != nil {
		t.Fatalf("the case's rules %q do not parse: %v", s, err)
	}
	return rules
}

// withNotes gives each rule the note the source's notes hold for it.
func withNotes(rules []agentpolicy.Rule, notes map[string]string) []agentpolicy.Rule {
	for i := range rules {
		rules[i].Note = notes[rules[i].String()]
	}
	return rules
}

// buildErrorKind names the corpus's kind of a build error.
func buildErrorKind(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, agentpolicy.ErrNoDefault):
		return "no_default"
	case errors.Is(err, agentpolicy.ErrNoMatcher):
		return "no_matcher"
	case errors.Is(err, agentpolicy.ErrToolGlob):
		return "tool_glob"
	default:
		return "invalid_rule"
	}
}

// corpusMatchers builds the table's matchers; a splitting tool answers
// from the calls' subjects, looked up by the called tool and its compacted
// arguments.
func corpusMatchers(t T, table map[string]corpusMatcher, calls []corpusCall) map[string]agentpolicy.ToolMatcher {
	matchers := make(map[string]agentpolicy.ToolMatcher, len(table))
	for tool, m := range table {
		var tm agentpolicy.ToolMatcher
		switch m.Match {
		case "prefix":
			tm.Match = agentpolicy.PrefixMatcher(m.Field)
		case "glob":
			tm.Match = agentpolicy.GlobMatcher(m.Field)
		case "":
		default:
			t.Fatalf("tool %s: unknown matcher %q", tool, m.Match)
		}
		if m.Split {
			tm.Subjects = corpusSplitter(t, tool, calls)
		}
		matchers[tool] = tm
	}
	return matchers
}

func corpusSplitter(t T, tool string, calls []corpusCall) agentpolicy.Subjects {
	type answer struct {
		subjects []agentpolicy.Subject
		err      error
	}
	answers := map[string]answer{}
	for _, call := range calls {
		if call.Tool != tool {
			continue
		}
		var a answer
		if call.SubjectsError != "" {
			a.err = errors.New(call.SubjectsError)
		} else if call.Subjects != nil {
			a.subjects = []agentpolicy.Subject{}
			for _, s := range *call.Subjects {
				a.subjects = append(a.subjects, agentpolicy.Subject{Args: compactJSON(t, s.Args), Text: s.Text, Tool: s.Tool, Constrain: s.Constrain, Unseen: s.Unseen})
			}
		}
		answers[string(corpusArgs(t, call))] = a
	}
	return func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		a, ok := answers[string(args)]
		if !ok || (a.subjects == nil && a.err == nil) {
			return nil, fmt.Errorf("the case gives no subjects for %s %s", tool, args)
		}
		return a.subjects, a.err
	}
}

// corpusTools returns a tool for every name the case mentions, each
// answering its confinement from the calls' confined, by compacted
// arguments.
func corpusTools(t T, calls []corpusCall, table map[string]corpusMatcher) map[string]agenttool.Tool {
	confined := map[string]map[string]*string{}
	note := func(tool string) {
		if confined[tool] == nil {
			confined[tool] = map[string]*string{}
		}
	}
	for tool := range table {
		note(tool)
	}
	for _, call := range calls {
		note(call.Tool)
		confined[call.Tool][string(corpusArgs(t, call))] = call.Confined
		if call.Subjects != nil {
			for _, s := range *call.Subjects {
				if s.Tool != "" {
					note(s.Tool)
				}
			}
		}
	}
	tools := map[string]agenttool.Tool{}
	for name, byArgs := range confined {
		tools[name] = agenttool.NewFunc(name, "", json.RawMessage(`{"type":"object"}`), nil,
			agenttool.WithConfined(func(_ context.Context, args json.RawMessage) (bool, string) {
				if by := byArgs[string(args)]; by != nil {
					return true, *by
				}
				return false, ""
			}))
	}
	return tools
}

// corpusArgs is the call's arguments as the engine is handed them: its
// raw_args as written, or its args compacted.
func corpusArgs(t T, call corpusCall) json.RawMessage {
	if call.RawArgs == nil {
		return compactJSON(t, call.Args)
	}
	if call.Args != nil {
		t.Fatalf("a %s call has both args and raw_args", call.Tool)
	}
	return json.RawMessage(*call.RawArgs)
}

// compactJSON is the arguments without insignificant space, the key the
// splitter and the confinement look a call up by.
func compactJSON(t T, raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`{}`)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("arguments %s are not JSON: %v", raw, err)
	}
	return b.Bytes()
}

// namedTools is a tool for each name, for the offer.
func namedTools(names []string) []agenttool.Tool {
	tools := make([]agenttool.Tool, len(names))
	for i, name := range names {
		tools[i] = agenttool.NewFunc(name, "", json.RawMessage(`{"type":"object"}`), nil)
	}
	return tools
}

// actionWord is the verdict's action in the record's words, contract §8.
func actionWord(v agentpolicy.Verdict) string {
	_, data := v.Record()
	var rec struct {
		Action string `json:"action"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return "unrecorded: " + err.Error()
	}
	return rec.Action
}
