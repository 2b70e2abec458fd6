package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/cedar-policy/cedar-go"
)

// The annotations a translated policy carries: every one names the rule it
// was translated from, and one from the ask list is marked, since Cedar has
// no third answer and an ask is a forbid the caller reads back.
const (
	ruleAnnotation = "rule"
	askAnnotation  = "ask"
)

// Cedar is a policy translated into Cedar and the means to decide a call
// with it as the engine does. A rule of tool T becomes a policy over the
// action Action::"T": deny a forbid, ask a forbid annotated @ask, allow a
// permit; a specifier "x:*" becomes the condition
// context.command == "x" || context.command like "x *", and any other the
// condition context.command == "spec". The policies keep the order of the
// lists, deny, ask then allow, in their IDs, so the rule Decide names is the
// first of the list that decided, as the engine's is.
type Cedar struct {
	policies *cedar.PolicySet
	fallback agentturn.ToolAction
}

// NewCedar translates p. It refuses what it cannot translate faithfully: a
// specifier holding a wildcard other than a trailing ":*", a tool-name glob
// and a carve-out.
func NewCedar(p agentpolicy.Policy) (*Cedar, error) {
	text, err := CedarText(p)
	if err != nil {
		return nil, err
	}
	list, err := cedar.NewPolicyListFromBytes("policy.cedar", []byte(text))
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/bench: the translated policy does not parse: %w", err)
	}
	set := cedar.NewPolicySet()
	for i, policy := range list {
		set.Add(cedar.PolicyID(fmt.Sprintf("r%06d", i)), policy)
	}
	fallback, ok := p.Default.Action()
	if !ok {
		return nil, agentpolicy.ErrNoDefault
	}
	return &Cedar{policies: set, fallback: fallback}, nil
}

// CedarText is the policy in Cedar's language, one policy per rule in the
// order deny, ask, allow.
func CedarText(p agentpolicy.Policy) (string, error) {
	var b strings.Builder
	for _, l := range []struct {
		rules  []agentpolicy.Rule
		effect string
		ask    bool
	}{{p.Deny, "forbid", false}, {p.Ask, "forbid", true}, {p.Allow, "permit", false}} {
		for _, r := range l.rules {
			cond, err := condition(r)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "@%s(%s)\n", ruleAnnotation, quote(r.String()))
			if l.ask {
				fmt.Fprintf(&b, "@%s(\"\")\n", askAnnotation)
			}
			fmt.Fprintf(&b, "%s (principal, action == Action::%s, resource)%s;\n", l.effect, quote(r.Tool), cond)
		}
	}
	return b.String(), nil
}

// condition is the when clause of the rule's policy, empty for a bare rule.
func condition(r agentpolicy.Rule) (string, error) {
	if _, carve := r.CarveOut(); carve || r.Glob() {
		return "", fmt.Errorf("agentpolicy/bench: %s has no Cedar translation", r)
	}
	if r.Bare() {
		return "", nil
	}
	prefix, isPrefix := strings.CutSuffix(r.Spec, ":*")
	if strings.Contains(prefix, "*") {
		return "", fmt.Errorf("agentpolicy/bench: %s has no Cedar translation: a wildcard inside the specifier", r)
	}
	if !isPrefix {
		return " when { context.command == " + quote(r.Spec) + " }", nil
	}
	return " when { context.command == " + quote(prefix) +
		` || context.command like "` + escape(prefix) + ` *" }`, nil
}

// quote is s as a Cedar string literal.
func quote(s string) string {
	return `"` + escape(s) + `"`
}

// escape is s as it is written inside a Cedar string literal or like
// pattern. It has no "*" to escape, since condition refuses a specifier
// holding one.
var escape = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace

// Decide answers the call of tool with the JSON arguments args: the
// arguments' string members become the request's context, as the engine's
// matchers read them, and the policies that decided are read back by their
// annotations. A forbid without @ask blocks, one with it defers, a permit
// allows, and with none of them the policy's default decides.
func (c *Cedar) Decide(tool string, args json.RawMessage) (Answer, error) {
	ctx, err := cedarContext(args)
	if err != nil {
		return Answer{}, err
	}
	// PolicySet.IsAuthorized, deprecated in v1.9.1, is this call.
	decision, diag := cedar.Authorize(c.policies, nil, cedar.Request{
		Principal: cedar.NewEntityUID("Agent", "agent"),
		Action:    cedar.NewEntityUID("Action", cedar.String(tool)),
		Resource:  cedar.NewEntityUID("Tool", cedar.String(tool)),
		Context:   ctx,
	})
	if len(diag.Reasons) == 0 {
		return Answer{Action: c.fallback}, nil
	}
	var allow, deny, ask cedar.PolicyID
	for _, r := range diag.Reasons {
		_, asks := c.policies.Get(r.PolicyID).Annotations()[askAnnotation]
		switch {
		case decision == cedar.Allow:
			allow = first(allow, r.PolicyID)
		case asks:
			ask = first(ask, r.PolicyID)
		default:
			deny = first(deny, r.PolicyID)
		}
	}
	switch {
	case allow != "":
		return c.answer(agentturn.Allow, allow), nil
	case deny != "":
		return c.answer(agentturn.Block, deny), nil
	default:
		return c.answer(agentturn.Defer, ask), nil
	}
}

// first is the earlier of two policy IDs, "" standing for none.
func first(a, b cedar.PolicyID) cedar.PolicyID {
	if a == "" || b < a {
		return b
	}
	return a
}

func (c *Cedar) answer(action agentturn.ToolAction, id cedar.PolicyID) Answer {
	return Answer{Action: action, Rule: string(c.policies.Get(id).Annotations()[ruleAnnotation])}
}

// cedarContext is the record of the arguments' members: strings as Cedar
// strings, booleans as booleans. A member of another kind, which no matcher
// of the policy reads, is left out.
func cedarContext(args json.RawMessage) (cedar.Record, error) {
	var members map[string]any
	if err := json.Unmarshal(args, &members); err != nil {
		return cedar.Record{}, fmt.Errorf("agentpolicy/bench: arguments: %w", err)
	}
	if members == nil {
		return cedar.Record{}, errors.New("agentpolicy/bench: arguments are not an object")
	}
	record := make(cedar.RecordMap, len(members))
	for k, member := range members {
		switch v := member.(type) {
		case string:
			record[cedar.String(k)] = cedar.String(v)
		case bool:
			record[cedar.String(k)] = cedar.Boolean(v)
		}
	}
	return cedar.NewRecord(record), nil
}
