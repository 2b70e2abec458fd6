package agentpolicy

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
)

// namedTools returns a tool for every name, in order.
func namedTools(names ...string) []agenttool.Tool {
	tools := make([]agenttool.Tool, len(names))
	for i, name := range names {
		tools[i] = agenttool.NewFunc(name, "", json.RawMessage(`{"type":"object"}`), nil)
	}
	return tools
}

// toolNames returns the names of the tools, in order.
func toolNames(tools []agenttool.Tool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name()
	}
	return names
}

func TestRemoves(t *testing.T) {
	managed := Source{Name: "managed", Trusted: true, Rank: 9}
	user := Source{Name: "user", Trusted: true, Rank: 1}
	p := Policy{
		Deny: []Rule{
			{Tool: "fetch", Note: "use the proxy", Source: user},
			{Tool: "bash", Spec: "rm:*"},
			{Tool: "mcp__*", Source: managed},
			{Tool: "read", Source: user},
			{Tool: "read", Spec: "!README.md", Source: user},
			{Tool: "edit", Source: managed},
			{Tool: "edit", Spec: "!notes.md", Source: user},
			{Tool: "mcp__fs", Spec: "!tmp/:*", Source: managed},
		},
		Ask:     []Rule{{Tool: "web"}},
		Default: Allow(),
	}
	matchers := map[string]ToolMatcher{
		"bash":    {Match: PrefixMatcher("command")},
		"read":    {Match: PrefixMatcher("path")},
		"edit":    {Match: PrefixMatcher("path")},
		"mcp__fs": {Match: PrefixMatcher("path")},
	}
	e := mustBuild(t, p, matchers)
	for _, tc := range []struct {
		tool string
		rule string
		ok   bool
	}{
		{"fetch", "fetch", true},
		{"bash", "", false},             // a specifier denies some calls only
		{"mcp__github", "mcp__*", true}, // a glob removes a tool no rule names
		{"read", "", false},             // a carve-out of equal rank reaches the bare deny
		{"edit", "edit", true},          // a carve-out of a lower rank does not
		{"mcp__fs", "", false},          // a carve-out reaches the glob for its tool
		{"web", "", false},              // an ask does not remove
		{"grep", "", false},
	} {
		rule, ok := e.Removes(tc.tool)
		if ok != tc.ok || (ok && rule.String() != tc.rule) {
			t.Errorf("Removes(%q) = %v, %v; want %q, %v", tc.tool, rule, ok, tc.rule, tc.ok)
		}
	}
	if rule, _ := e.Removes("fetch"); rule.Source != user || rule.Note != "use the proxy" {
		t.Errorf("Removes(fetch) = %+v, want the rule with its source and note", rule)
	}
}

func TestFilterKeepsOrder(t *testing.T) {
	e := mustBuild(t, Policy{Deny: parseOrFail(t, "fetch mcp__* bash(rm:*)"), Default: Ask()}, shellMatchers())
	got := toolNames(e.Filter(namedTools("read", "fetch", "bash", "mcp__a", "edit", "mcp__b", "grep")))
	if want := []string{"read", "bash", "edit", "grep"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Filter = %v, want %v", got, want)
	}
}

func TestToolProviderFollowsBaseAndPolicy(t *testing.T) {
	e := mustBuild(t, Policy{Deny: parseOrFail(t, "fetch"), Default: Ask()}, nil)
	calls := 0
	list := namedTools("read", "fetch")
	provider := e.ToolProvider(func(context.Context) []agenttool.Tool {
		calls++
		return list
	})
	ctx := context.Background()
	if got := toolNames(provider(ctx)); !reflect.DeepEqual(got, []string{"read"}) {
		t.Errorf("first turn: %v, want [read]", got)
	}
	list = namedTools("read", "fetch", "mcp__new")
	if err := e.SetPolicy(Policy{Deny: parseOrFail(t, "mcp__*"), Default: Ask()}); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(provider(ctx)); !reflect.DeepEqual(got, []string{"read", "fetch"}) {
		t.Errorf("second turn: %v, want [read fetch]", got)
	}
	if calls != 2 {
		t.Errorf("base consulted %d times for 2 turns, want 2", calls)
	}
}

// TestToolProviderWithNoBase offers no tools when it is given no list to
// filter, rather than failing the turn the loop consults it for.
func TestToolProviderWithNoBase(t *testing.T) {
	e := mustBuild(t, Policy{Default: Ask()}, nil)
	if got := e.ToolProvider(nil)(context.Background()); len(got) != 0 {
		t.Errorf("ToolProvider(nil) offered %d tools, want none", len(got))
	}
}
