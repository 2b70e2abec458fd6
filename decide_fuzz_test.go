package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// The vocabulary FuzzDecide builds policies and calls from: few enough
// names and specifiers that rules collide, carve-outs reach rules and globs
// match the called tools.
var (
	fuzzRuleTools = []string{"bash", "read", "mcp__x", "mcp__y", "mcp__*", "b*"}
	fuzzCallTools = []string{"bash", "read", "mcp__x", "mcp__y", "mcp__z", "zsh"}
	fuzzSpecs     = []string{"", "a:*", "ab:*", "a", "b:*", "!a:*", "!ab", "!b:*"}
	fuzzMatched   = map[string]bool{"bash": true, "read": true, "mcp__x": true}
)

// fuzzPolicy reads a policy from data, three bytes a rule: the list and
// the tool, the specifier and whether it has a note, the rank and the kind
// of source. A rule the engine would refuse is bent into one it accepts: a
// glob in the allow list moves to the ask list, and a glob or a tool with
// no matcher loses its specifier.
func fuzzPolicy(data []byte, dflt uint8) Policy {
	p := Policy{Default: []Default{Allow(), Deny(), Ask()}[dflt%3]}
	for i := 0; i+2 < len(data) && i < 3*12; i += 3 {
		c0, c1, c2 := data[i], data[i+1], data[i+2]
		r := Rule{Tool: fuzzRuleTools[int(c0/3)%len(fuzzRuleTools)], Spec: fuzzSpecs[int(c1)%len(fuzzSpecs)]}
		if c1&0x80 != 0 {
			r.Note = "because"
		}
		rank := int(c2 % 3)
		switch (c2 / 3) % 3 {
		case 0:
			r.Source = Source{Rank: rank}
		case 1:
			r.Source = Source{Name: fmt.Sprintf("trusted%d", rank), Trusted: true, Rank: rank}
		default:
			r.Source = Source{Name: fmt.Sprintf("repo%d", rank), Rank: rank}
		}
		fileFuzzRule(r, list(c0%3), &p.Deny, &p.Ask, &p.Allow)
	}
	return p
}

// fileFuzzRule appends r to list l of deny, ask and allow, bent into a rule
// the engine accepts: a glob in the allow list moves to the ask list, and a
// glob or a tool with no matcher loses its specifier.
func fileFuzzRule(r Rule, l list, deny, ask, allow *[]Rule) {
	if r.Glob() {
		r.Spec = ""
		if l == allowList {
			l = askList
		}
	}
	if !fuzzMatched[r.Tool] {
		r.Spec = ""
	}
	switch l {
	case denyList:
		*deny = append(*deny, r)
	case askList:
		*ask = append(*ask, r)
	default:
		*allow = append(*allow, r)
	}
}

// fuzzSplit splits a bash command on ";": a part "@x" is a subject of the
// read tool, "?x" a constraint, either followed by "!" one that hides
// code, and an empty command no subject at all.
func fuzzSplit(args json.RawMessage) ([]Subject, error) {
	var a struct{ Command string }
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if a.Command == "" {
		return nil, nil
	}
	var subjects []Subject
	for _, part := range strings.Split(a.Command, ";") {
		sub := Subject{Text: part}
		if rest, ok := strings.CutPrefix(part, "@"); ok {
			sub.Tool, part = "read", rest
		} else if rest, ok := strings.CutPrefix(part, "?"); ok {
			sub.Constrain, part = true, rest
		}
		if rest, ok := strings.CutPrefix(part, "!"); ok {
			sub.Unseen, part = "it hides code", rest
		}
		sub.Args = shellArgs(part)
		subjects = append(subjects, sub)
	}
	return subjects, nil
}

// naiveGlob is the tool-name test written the slow, obvious way.
func naiveGlob(pattern, name string) bool {
	if pattern == "" {
		return name == ""
	}
	if pattern[0] == '*' {
		for i := 0; i <= len(name); i++ {
			if naiveGlob(pattern[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	return name != "" && name[0] == pattern[0] && naiveGlob(pattern[1:], name[1:])
}

// naiveOutcome is the oracle's decision on one subject.
type naiveOutcome struct {
	none   bool
	action agentturn.ToolAction
	rule   string
	reason string
}

// naiveFires reports whether r fires for the subject: it names the tool,
// is no carve-out, its specifier matches, and no carve-out of the same list
// for the tool, of a rank not below the rule's, matches.
func naiveFires(rules []Rule, r Rule, matchers map[string]ToolMatcher, tool string, args json.RawMessage) bool {
	if _, carve := r.CarveOut(); carve || !naiveGlob(r.Tool, tool) {
		return false
	}
	if r.Spec != "" && !matchers[tool].Match(r.Spec, args) {
		return false
	}
	for _, c := range rules {
		if pattern, carve := c.CarveOut(); carve && c.Tool == tool && c.Source.Rank >= r.Source.Rank && matchers[tool].Match(pattern, args) {
			return false
		}
	}
	return true
}

// naiveCite is the rule as a reason cites it: with its note unless the
// note comes from a named source the user has not trusted.
func naiveCite(r Rule) string {
	if r.Note != "" && (r.Source.Name == "" || r.Source.Trusted) {
		return r.String() + ": " + r.Note
	}
	return r.String()
}

// naiveSubject decides one subject by scanning every list from its start:
// a rule fires when it names the tool, is no carve-out, its specifier
// matches, and no carve-out of the same list for the tool, of a rank not
// below the rule's, matches.
func naiveSubject(p Policy, matchers map[string]ToolMatcher, tool string, args json.RawMessage, confined, constrain bool, unseen string) naiveOutcome {
	fires := func(rules []Rule, r Rule) bool { return naiveFires(rules, r, matchers, tool, args) }
	for _, r := range p.Deny {
		if fires(p.Deny, r) {
			return naiveOutcome{action: agentturn.Block, rule: r.String(), reason: "denied by " + naiveCite(r)}
		}
	}
	skipped := ""
	for _, r := range p.Ask {
		if !fires(p.Ask, r) {
			continue
		}
		if confined && r.Spec == "" {
			if skipped == "" {
				skipped = r.String()
			}
			continue
		}
		return naiveOutcome{action: agentturn.Defer, rule: r.String(), reason: "approval required by " + naiveCite(r)}
	}
	if unseen != "" && !confined {
		return naiveOutcome{action: agentturn.Defer, reason: "approval required: " + unseen}
	}
	if constrain {
		return naiveOutcome{none: true}
	}
	if skipped != "" {
		return naiveOutcome{action: agentturn.Allow, rule: skipped, reason: "confined by box, so " + skipped + " does not ask"}
	}
	for _, r := range p.Allow {
		if fires(p.Allow, r) {
			return naiveOutcome{action: agentturn.Allow, rule: r.String(), reason: "allowed by " + naiveCite(r)}
		}
	}
	switch p.Default.String() {
	case "deny":
		return naiveOutcome{action: agentturn.Block, reason: fmt.Sprintf("no rule allows %s: denied by default", tool)}
	case "ask":
		return naiveOutcome{action: agentturn.Defer, reason: fmt.Sprintf("no rule allows %s: approval required by default", tool)}
	}
	return naiveOutcome{action: agentturn.Allow, reason: "allowed by default"}
}

// naiveDecide decides a call the way the specification reads: every
// subject, the first of the strictest kept, a compound block spelled out.
func naiveDecide(p Policy, matchers map[string]ToolMatcher, tool string, args json.RawMessage, confined bool) (naiveOutcome, string) {
	split := matchers[tool].Subjects
	if split == nil {
		return naiveSubject(p, matchers, tool, args, confined, false, ""), ""
	}
	subjects, err := split(args)
	if err == nil && len(subjects) == 0 {
		err = fmt.Errorf("splitter returned no subjects")
	}
	if err != nil {
		return naiveOutcome{action: agentturn.Block, reason: tool + " call could not be evaluated: " + err.Error()}, ""
	}
	ordinary := false
	for _, s := range subjects {
		ordinary = ordinary || !s.Constrain
	}
	if !ordinary {
		subjects = append([]Subject{{Args: args}}, subjects...)
	}
	rank := map[agentturn.ToolAction]int{agentturn.Allow: 0, agentturn.Defer: 1, agentturn.Block: 2}
	var best naiveOutcome
	winner := -1
	for i, s := range subjects {
		t, c := tool, confined
		if s.Tool != "" && s.Tool != tool {
			t, c = s.Tool, false
		}
		o := naiveSubject(p, matchers, t, s.Args, c, s.Constrain, s.Unseen)
		if !o.none && (winner < 0 || rank[o.action] > rank[best.action]) {
			best, winner = o, i
		}
	}
	text := subjects[winner].Text
	if best.action == agentturn.Block && len(subjects) > 1 && text != "" {
		var others []string
		for _, s := range subjects {
			dup := s.Text == text
			for _, o := range others {
				dup = dup || o == fmt.Sprintf("%q", s.Text)
			}
			if s.Text != "" && !dup {
				others = append(others, fmt.Sprintf("%q", s.Text))
			}
		}
		best.reason += fmt.Sprintf(" on %q; nothing in this command ran", text)
		if len(others) > 0 {
			last := others[len(others)-1]
			if len(others) == 1 {
				best.reason += ", including " + last
			} else {
				best.reason += ", including " + strings.Join(others[:len(others)-1], ", ") + " and " + last
			}
		}
	}
	return best, text
}

func FuzzDecide(f *testing.F) {
	f.Add([]byte{0, 1, 0, 3, 5, 0}, uint8(0), "a", uint8(0), false, false)
	f.Add([]byte{0, 1, 4, 0, 5, 4}, uint8(0), "ab", uint8(1), false, false)
	f.Add([]byte{1, 0, 0, 2, 1, 0, 12, 0, 1}, uint8(0), "a;b;@ab", uint8(2), true, true)
	f.Add([]byte{13, 0, 0, 1, 3, 7, 16, 0, 0}, uint8(4), "", uint8(1), true, false)
	f.Add([]byte{1, 1, 0, 2, 2, 0}, uint8(0), "?a", uint8(1), false, true)
	f.Add([]byte{2, 1, 0, 1, 3, 0}, uint8(0), "a;!ab;?!b;@!a", uint8(0), false, true)
	f.Add([]byte{2, 1, 0, 1, 0, 0}, uint8(0), "!a", uint8(2), true, true)
	f.Fuzz(func(t *testing.T, data []byte, toolIdx uint8, cmd string, dflt uint8, confined, split bool) {
		p := fuzzPolicy(data, dflt)
		matchers := map[string]ToolMatcher{}
		for tool := range fuzzMatched {
			matchers[tool] = ToolMatcher{Match: PrefixMatcher("command")}
		}
		if split {
			matchers["bash"] = ToolMatcher{Match: PrefixMatcher("command"), Subjects: fuzzSplit}
		}
		e, err := Build(p, matchers)
		if err != nil {
			t.Fatalf("Build(%+v): %v", p, err)
		}
		tool := fuzzCallTools[int(toolIdx)%len(fuzzCallTools)]
		info := callInfo(tool, shellArgs(cmd))
		if confined {
			info.Tool = confinedTool(tool, "box")
		}
		v, err := e.Would(context.Background(), info)
		if err != nil {
			t.Fatal(err)
		}
		want, subject := naiveDecide(p, matchers, tool, info.Args, confined)
		rule := ""
		if v.Rule != nil {
			rule = v.Rule.String()
		}
		if v.Action != want.action || rule != want.rule || v.Reason != want.reason || v.Subject != subject {
			t.Fatalf("policy %+v\ncall %s %s confined %v\nengine {%s %q %q %q}\noracle {%s %q %q %q}",
				p, tool, info.Args, confined, actionWord(v.Action), rule, v.Reason, v.Subject,
				actionWord(want.action), want.rule, want.reason, subject)
		}
		d, _ := e.Decide(context.Background(), info)
		if d.Action != v.Action || d.Reason != v.Reason || d.Subject != v.Subject {
			t.Fatalf("Decide %+v differs from Would %+v", d, v)
		}
	})
}
