package agentpolicy

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// list names one of the policy's three lists; it indexes the compiled
// lists in precedence order.
type list int

const (
	denyList list = iota
	askList
	allowList
)

// compiled is one rule of one list, with what a decision needs of it made
// ready once: the matcher it is tested with and the texts it is cited by.
type compiled struct {
	rule Rule
	// match is the tool's matcher, nil for a bare rule, which matches
	// every subject of the tools it names.
	match Matcher
	// spec is what match is given: the specifier, or a carve-out's
	// pattern without its "!".
	spec string
	// token is R, the rule without its note, as a confinement reason
	// names the ask rule it skipped.
	token string
	// reason is the reason the rule gives when it fires.
	reason string
}

// entry is a rule as one tool's list holds it, with the carve-outs that
// may cancel it for that tool.
type entry struct {
	*compiled
	// anyTool marks a tool-name glob that still has to be tested
	// against the tool: the lists of a tool the policy never named.
	anyTool bool
	// carve are the carve-outs of the same list and tool whose source
	// does not rank below the rule's.
	carve []*compiled
}

// fires reports whether the rule matches the subject and no carve-out
// cancels the match.
func (en *entry) fires(tool string, args json.RawMessage) bool {
	if en.anyTool && !en.rule.MatchesTool(tool) {
		return false
	}
	if en.match != nil && !en.match(en.spec, args) {
		return false
	}
	for _, c := range en.carve {
		if c.match(c.spec, args) {
			return false
		}
	}
	return true
}

// toolRules is everything a decision reads for one tool: per list, the
// rules naming it and the tool-name globs matching it, in list order, and
// how the tool splits a call.
type toolRules struct {
	lists [3][]entry
	split Subjects
	// noRule is the default's reason for a subject of this tool.
	noRule string
	// reads marks a tool whose decisions read a subject's arguments: a
	// rule or carve-out of it has a matcher, or it has a splitter. Its
	// subjects must be unambiguous, see [checkArgs].
	reads bool
}

// snapshot is a policy compiled with the engine's matchers. It is never
// changed once built, so a decision reads it without a lock.
type snapshot struct {
	// policy is the policy as evaluated: aliases expanded, lists
	// copied.
	policy Policy
	tools  map[string]*toolRules
	// other serves a tool no rule and no matcher names: the tool-name
	// globs of the deny and ask lists, tested at decision time.
	other toolRules
}

// rulesFor returns what a decision reads for the tool.
func (s *snapshot) rulesFor(tool string) *toolRules {
	if tr, ok := s.tools[tool]; ok {
		return tr
	}
	return &s.other
}

// compile validates p against the engine's matchers and aliases and
// indexes it by tool, so a decision reads the rules of its own tool and
// the globs beside them, never every rule of the policy.
func (e *Engine) compile(p Policy) (*snapshot, error) {
	if !p.Default.set {
		return nil, ErrNoDefault
	}
	pol := Policy{Default: p.Default, Sources: slices.Clone(p.Sources), Withheld: slices.Clone(p.Withheld)}
	var err error
	if pol.Deny, err = e.expand(denyList, p.Deny); err != nil {
		return nil, err
	}
	if pol.Ask, err = e.expand(askList, p.Ask); err != nil {
		return nil, err
	}
	if pol.Allow, err = e.expand(allowList, p.Allow); err != nil {
		return nil, err
	}
	return e.index(pol), nil
}

// expand validates the rules of one list and replaces each rule whose name
// has an alias by one rule per tool the alias names.
func (e *Engine) expand(l list, rules []Rule) ([]Rule, error) {
	out := make([]Rule, 0, len(rules))
	for _, r := range rules {
		if err := validateRule(r); err != nil {
			return nil, err
		}
		if r.Glob() {
			if l == allowList {
				return nil, errGlobInAllow(r)
			}
			if r.Spec != "" {
				return nil, errGlobWithSpec(r)
			}
			out = append(out, r)
			continue
		}
		tools, ok := e.aliases[r.Tool]
		if !ok {
			tools = []string{r.Tool}
		}
		for _, tool := range tools {
			x := r
			x.Tool = tool
			if x.Spec != "" && e.matchers[tool].Match == nil {
				return nil, errNoMatcher(x, e.nearMiss(tool))
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// nearMiss is the smallest name of a registered matcher that differs from
// tool only in case, or "".
func (e *Engine) nearMiss(tool string) string {
	best := ""
	for name, tm := range e.matchers {
		if tm.Match != nil && name != tool && strings.EqualFold(name, tool) && (best == "" || name < best) {
			best = name
		}
	}
	return best
}

// index builds the snapshot of a validated policy: every tool a rule or a
// matcher names gets its lists, with the globs that match it merged in at
// their place in the list, and the carve-outs that reach each rule beside
// it.
func (e *Engine) index(pol Policy) *snapshot {
	s := &snapshot{policy: pol, tools: make(map[string]*toolRules)}
	toolOf := func(name string) *toolRules {
		tr, ok := s.tools[name]
		if !ok {
			tr = &toolRules{noRule: defaultReason(pol.Default, name)}
			s.tools[name] = tr
		}
		return tr
	}
	for _, name := range slices.Sorted(maps.Keys(e.matchers)) {
		toolOf(name).split = e.matchers[name].Subjects
	}
	lists := [3][]Rule{denyList: pol.Deny, askList: pol.Ask, allowList: pol.Allow}
	for _, rules := range lists {
		for _, r := range rules {
			if !r.Glob() {
				toolOf(r.Tool)
			}
		}
	}
	for l, rules := range lists {
		carve := make(map[string][]*compiled)
		for _, r := range rules {
			c := e.compileRule(list(l), r)
			_, carveOut := r.CarveOut()
			switch {
			case carveOut:
				carve[r.Tool] = append(carve[r.Tool], c)
			case r.Glob():
				s.other.lists[l] = append(s.other.lists[l], entry{compiled: c, anyTool: true})
				for name, tr := range s.tools {
					if r.MatchesTool(name) {
						tr.lists[l] = append(tr.lists[l], entry{compiled: c})
					}
				}
			default:
				tr := s.tools[r.Tool]
				tr.lists[l] = append(tr.lists[l], entry{compiled: c})
			}
		}
		for name, tr := range s.tools {
			for i := range tr.lists[l] {
				en := &tr.lists[l][i]
				for _, c := range carve[name] {
					if c.rule.Source.Rank >= en.rule.Source.Rank {
						en.carve = append(en.carve, c)
					}
				}
				tr.reads = tr.reads || en.match != nil || len(en.carve) > 0
			}
		}
	}
	for _, tr := range s.tools {
		tr.reads = tr.reads || tr.split != nil
	}
	return s
}

// compileRule readies one validated rule of a list.
func (e *Engine) compileRule(l list, r Rule) *compiled {
	c := &compiled{rule: r, token: r.String(), reason: ruleReason(l, cite(r))}
	if r.Spec != "" {
		c.match = e.matchers[r.Tool].Match
		c.spec = r.Spec
		if pattern, ok := r.CarveOut(); ok {
			c.spec = pattern
		}
	}
	return c
}
