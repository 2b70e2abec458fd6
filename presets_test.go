package agentpolicy

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

func TestPresetsAreBareRulesWithAnAskDefault(t *testing.T) {
	tools := Tools{Read: []string{"read", "grep"}, Edit: []string{"edit"}, Execute: []string{"bash"}}
	rules := func(names ...string) []Rule {
		var out []Rule
		for _, n := range names {
			out = append(out, Rule{Tool: n})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		got  Policy
		want Policy
	}{
		{"Suggest", Suggest(tools), Policy{Allow: rules("read", "grep"), Ask: rules("edit", "bash"), Default: Ask()}},
		{"AutoEdit", AutoEdit(tools), Policy{Allow: rules("read", "grep", "edit"), Ask: rules("bash"), Default: Ask()}},
		{"FullAuto", FullAuto(tools), Policy{Allow: rules("read", "grep", "edit", "bash"), Default: Ask()}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}

func TestPresetsDecide(t *testing.T) {
	tools := Tools{Read: []string{"read"}, Edit: []string{"edit"}, Execute: []string{"bash"}}
	ctx := context.Background()
	decide := func(p Policy, tool string, confined bool) agentturn.ToolAction {
		e := mustBuild(t, p, nil)
		info := callInfo(tool, json.RawMessage(`{}`))
		if confined {
			info.Tool = confinedTool(tool, "sandbox")
		}
		v, _ := e.Would(ctx, info)
		return v.Action
	}
	for _, tc := range []struct {
		preset   string
		p        Policy
		tool     string
		confined bool
		want     agentturn.ToolAction
	}{
		{"Suggest", Suggest(tools), "read", false, agentturn.Allow},
		{"Suggest", Suggest(tools), "edit", false, agentturn.Defer},
		{"Suggest", Suggest(tools), "bash", false, agentturn.Defer},
		{"Suggest", Suggest(tools), "bash", true, agentturn.Allow},
		{"Suggest", Suggest(tools), "plugin", false, agentturn.Defer},
		{"AutoEdit", AutoEdit(tools), "edit", false, agentturn.Allow},
		{"AutoEdit", AutoEdit(tools), "bash", false, agentturn.Defer},
		{"AutoEdit", AutoEdit(tools), "bash", true, agentturn.Allow},
		{"AutoEdit", AutoEdit(tools), "plugin", true, agentturn.Defer},
		{"FullAuto", FullAuto(tools), "bash", false, agentturn.Allow},
		{"FullAuto", FullAuto(tools), "plugin", false, agentturn.Defer},
		{"FullAuto with an allow default", FullAuto(tools).WithDefault(Allow()), "plugin", false, agentturn.Allow},
	} {
		if got := decide(tc.p, tc.tool, tc.confined); got != tc.want {
			t.Errorf("%s: %s (confined %v) = %s, want %s", tc.preset, tc.tool, tc.confined, actionWord(got), actionWord(tc.want))
		}
	}
}
