package agentpolicy

import (
	"maps"
	"slices"
	"strings"
	"unsafe"
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
	// builtin is match when it is one of this package's, read without
	// calling it; its zero value marks a host's matcher.
	builtin builtin
	// index is the [Index] [WithIndex] gave for a host's match, nil
	// when there is none.
	index *Index
	// spec is what match is given: the specifier, or a carve-out's
	// pattern without its "!".
	spec string
	// literal is, for a built-in matcher, the text every value spec
	// matches begins with ([builtin.literal]), and for an indexed one its
	// [Index.Literal]: the rules of a long list are filed under it
	// ([prefixIndex]), and most rules of a built-in matcher a decision
	// tries are passed over on it alone.
	literal string
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
func (en *entry) fires(sub *reading) bool {
	if en.anyTool && !en.rule.MatchesTool(sub.tool) {
		return false
	}
	if en.match != nil && !en.matches(sub) {
		return false
	}
	for _, c := range en.carve {
		if c.matches(sub) {
			return false
		}
	}
	return true
}

// matches reports whether the rule's specifier, or the carve-out's
// pattern, matches the subject: a built-in matcher's over the member the
// subject has read once, a host's by calling it.
func (c *compiled) matches(sub *reading) bool {
	if c.builtin.lang == 0 {
		return c.match(c.spec, sub.args)
	}
	value, ok := sub.member(c.builtin.field)
	switch {
	case !ok || !strings.HasPrefix(value, c.literal):
		return false
	case c.literal == c.spec:
		// A specifier without a wildcard matches its text exactly.
		return len(value) == len(c.literal)
	case c.builtin.lang == prefixLanguage:
		// "<literal>:*" matches every value that begins with it.
		return true
	}
	return c.builtin.matches(c.spec, value)
}

// toolRules is everything a decision reads for one tool: per list, the
// rules naming it and the tool-name globs matching it, in list order, and
// how the tool splits a call.
type toolRules struct {
	lists [3][]entry
	// index files each list's rules by their literal prefix, nil for a
	// list with none to file.
	index [3]*prefixIndex
	split Subjects
	// noRule is the default's reason for a subject of this tool.
	noRule string
	// reads marks a tool whose decisions read a subject's arguments: a
	// rule or carve-out of it has a matcher, or it has a splitter. Its
	// subjects must be unambiguous, see [checkArgs].
	reads bool
	// field is the member the tool's built-in matcher reads, read in
	// the scan that checks a subject ([toolRules.read]); empty for a
	// tool whose matcher is a host's, or that has none.
	field string
}

// ruleIndex is a set of rules indexed by tool: per tool, the rules naming
// it and the tool-name globs matching it, each with the carve-outs that
// reach it. The policy is one; the grant sets of a scope are another.
type ruleIndex struct {
	tools map[string]*toolRules
	// other serves a tool the index does not name: the tool-name globs,
	// tested at decision time.
	other toolRules
}

// rulesFor returns what a decision reads for the tool.
func (ix *ruleIndex) rulesFor(tool string) *toolRules {
	if tr, ok := ix.tools[tool]; ok {
		return tr
	}
	return &ix.other
}

// snapshot is what a decision reads: the policy compiled with the engine's
// matchers, and the grant sets in force. It is never changed once built,
// so a decision reads it without a lock.
type snapshot struct {
	// policy is the policy as evaluated: aliases expanded, lists
	// copied, every grant of [Engine.Grant] and [Engine.GrantOver]
	// applied.
	policy Policy
	ruleIndex
	// grants are the grant sets in force under every scope; see
	// grant.go.
	grants *grantState
	// sets are the compiled rules of the grant sets a decision with
	// this snapshot consults: the unscoped sets', then those of one
	// scope; nil where there are none.
	sets [2]*ruleIndex
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
	// The expanded list's length: no alias is empty or a glob
	// ([checkAliases]), so a rule is one rule per tool its alias names.
	n := 0
	for _, r := range rules {
		n += max(len(e.aliases[r.Tool]), 1)
	}
	out := make([]Rule, 0, n)
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
// matcher names gets its lists, how it splits and its default's reason.
func (e *Engine) index(pol Policy) *snapshot {
	s := &snapshot{policy: pol, ruleIndex: e.indexRules(listsOf(pol), slices.Sorted(maps.Keys(e.matchers)), true)}
	for name, tr := range s.tools {
		e.finish(tr, name, pol.Default)
	}
	return s
}

// reindex returns the snapshot of pol, a policy that differs from the one
// s was built from in the rules of the named tools alone, none of them a
// glob: it compiles those tools' rules again and shares every other tool's
// with s, which is what keeps a grant at the cost of the rules it touches.
func (e *Engine) reindex(s *snapshot, pol Policy, names []string) *snapshot {
	part := e.indexRules(listsOf(pol), names, false)
	tools := maps.Clone(s.tools)
	for name, tr := range part.tools {
		e.finish(tr, name, pol.Default)
		tools[name] = tr
	}
	return &snapshot{policy: pol, ruleIndex: ruleIndex{tools: tools, other: s.other}}
}

// listsOf returns the policy's lists in precedence order.
func listsOf(p Policy) [3][]Rule {
	return [3][]Rule{denyList: p.Deny, askList: p.Ask, allowList: p.Allow}
}

// finish gives a tool's rules of the policy how the tool splits, the
// member its built-in matcher reads and the default's reason. A tool that
// splits reads its arguments, whatever its rules.
func (e *Engine) finish(tr *toolRules, name string, d Default) {
	m := e.matchers[name]
	tr.split = m.Subjects
	if b, ok := builtinOf(m.Match); ok {
		tr.field = b.field
	}
	tr.noRule = defaultReason(d, name)
	tr.reads = tr.reads || tr.split != nil
}

// indexRules indexes validated lists by tool: every tool of names gets its
// lists, with the globs that match it merged in at their place in the
// list, and the carve-outs that reach each rule beside it. With every set,
// so does every tool a rule names, and the tool-name globs are kept in
// other for the tools the index does not name; without it, a rule is
// compiled only when a tool of names needs it.
func (e *Engine) indexRules(lists [3][]Rule, names []string, every bool) ruleIndex {
	ix := ruleIndex{tools: make(map[string]*toolRules)}
	toolOf := func(name string) {
		if _, ok := ix.tools[name]; !ok {
			ix.tools[name] = &toolRules{}
		}
	}
	for _, name := range names {
		toolOf(name)
	}
	for _, rules := range lists {
		for _, r := range rules {
			if every && !r.Glob() {
				toolOf(r.Tool)
			}
		}
	}
	// What compileRule reads of a tool's matcher is found once per tool.
	known := make(map[string]matcherFacts)
	for l, rules := range lists {
		// The list's compiled rules are made slabSize at a time rather
		// than one each. reserve counts them; were it ever to count too
		// few, a slab of one would be made, never none.
		left := ix.reserve(list(l), rules, every)
		var slab []compiled
		ready := func(r Rule) *compiled {
			if len(slab) == 0 {
				slab = make([]compiled, max(min(left, slabSize), 1))
				left -= len(slab)
			}
			c := &slab[0]
			slab = slab[1:]
			m, ok := known[r.Tool]
			if !ok {
				m = e.matcherOf(r.Tool)
				known[r.Tool] = m
			}
			e.compileRule(c, list(l), r, m)
			return c
		}
		carve := make(map[*toolRules][]*compiled)
		for _, r := range rules {
			_, carveOut := r.CarveOut()
			var c *compiled
			ix.filing(r, every, func(tr *toolRules) {
				if c == nil {
					c = ready(r)
				}
				if carveOut {
					carve[tr] = append(carve[tr], c)
				} else {
					tr.lists[l] = append(tr.lists[l], entry{compiled: c, anyTool: tr == &ix.other})
				}
			})
		}
		for _, tr := range ix.tools {
			for i := range tr.lists[l] {
				en := &tr.lists[l][i]
				for _, c := range carve[tr] {
					if c.rule.Source.Rank >= en.rule.Source.Rank {
						en.carve = append(en.carve, c)
					}
				}
				tr.reads = tr.reads || en.match != nil || len(en.carve) > 0
			}
			tr.index[l] = indexPrefixes(tr.lists[l])
		}
	}
	return ix
}

// slabSize is how many compiled rules indexRules makes in one allocation:
// as many as 32 KiB holds, the largest object the Go runtime serves from
// its per-size caches. A larger one takes pages of its own from the heap,
// which a build of thousands of rules would take, and the runtime give
// back, each time.
const slabSize = (32 << 10) / int(unsafe.Sizeof(compiled{}))

// reserve sizes list l of each tool, and of other with every set, to the
// rules of the list that indexRules files there, so a list of thousands of
// rules is filled without growing, and returns how many rules of the list
// indexRules compiles: each rule filed anywhere, once. Both read the
// places off [ruleIndex.filing], so they cannot disagree.
func (ix *ruleIndex) reserve(l list, rules []Rule, every bool) int {
	counts := make(map[*toolRules]int, len(ix.tools)+1)
	compiled := 0
	for _, r := range rules {
		_, carveOut := r.CarveOut()
		filed := false
		ix.filing(r, every, func(tr *toolRules) {
			filed = true
			if !carveOut {
				counts[tr]++
			}
		})
		if filed {
			compiled++
		}
	}
	for tr, n := range counts {
		tr.lists[l] = make([]entry, 0, n)
	}
	return compiled
}

// filing calls at with the rules of each tool the rule r is filed with:
//
//   - a carve-out, with its tool's, whose rules it may reach;
//   - a tool-name glob, with each tool's it matches, and other's when
//     every is set, first;
//   - any other rule, with its tool's.
//
// A tool the index does not hold files nothing.
func (ix *ruleIndex) filing(r Rule, every bool, at func(tr *toolRules)) {
	_, carveOut := r.CarveOut()
	if !carveOut && r.Glob() {
		if every {
			at(&ix.other)
		}
		for name, tr := range ix.tools {
			if r.MatchesTool(name) {
				at(tr)
			}
		}
		return
	}
	if tr := ix.tools[r.Tool]; tr != nil {
		at(tr)
	}
}

// matcherFacts is what compileRule reads of a tool's matcher: the matcher,
// the built-in it is, if one, and the index a host gave it, if any.
type matcherFacts struct {
	match   Matcher
	builtin builtin
	index   *Index
}

// matcherOf returns what compileRule reads of the tool's matcher.
func (e *Engine) matcherOf(tool string) matcherFacts {
	m := matcherFacts{match: e.matchers[tool].Match}
	var ok bool
	if m.builtin, ok = builtinOf(m.match); !ok && m.match != nil {
		m.index = e.indexOf(m.match)
	}
	return m
}

// compileRule readies one validated rule of a list in c, m being what it
// reads of the matcher of the rule's tool.
func (e *Engine) compileRule(c *compiled, l list, r Rule, m matcherFacts) {
	cited := cite(r)
	*c = compiled{rule: r, reason: ruleReason(l, cited)}
	if strings.HasSuffix(c.reason, cited) {
		// The citation ends the reason and begins with the token, so
		// the token is read out of the reason rather than written
		// again: a policy of thousands of rules is as many texts fewer.
		c.token = c.reason[len(c.reason)-len(cited):][:r.tokenLen()]
	} else {
		c.token = r.String()
	}
	if r.Spec != "" {
		c.match, c.builtin, c.index = m.match, m.builtin, m.index
		c.spec = r.Spec
		if pattern, ok := r.CarveOut(); ok {
			c.spec = pattern
		}
		switch {
		case c.builtin.lang != 0:
			c.literal = c.builtin.literal(c.spec)
		case c.index != nil:
			c.literal = c.index.Literal(c.spec)
		}
	}
}
