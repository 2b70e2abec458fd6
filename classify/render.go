package classify

import (
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/guard"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// renderContent is the text a [Guard] asks about for a guard subject, and
// false for a subject it passes without asking: an empty one, a turn that
// is not final unless everyTurn, and a kind of subject it does not know.
//
// An input reads "input:" and a line per item, after "instructions:" and
// the instructions when it has any; a message and a finished turn read
// "output:" and a line per item (see [itemLine]). Every line ends in a
// newline, the last included.
func renderContent(subject any, everyTurn bool) (string, bool) {
	switch s := subject.(type) {
	case guard.Input:
		if len(s.Items) == 0 && s.Instructions == "" {
			return "", false
		}
		var b strings.Builder
		if s.Instructions != "" {
			b.WriteString("instructions:\n" + s.Instructions + "\n")
		}
		b.WriteString("input:\n")
		writeItems(&b, s.Items)
		return b.String(), true
	case guard.Message:
		if s.Message == nil {
			return "", false
		}
		return renderOutput(openresponses.Items{s.Message}), true
	case guard.Output:
		if s.Response == nil || len(s.Response.Output) == 0 || !(s.Final || everyTurn) {
			return "", false
		}
		return renderOutput(s.Response.Output), true
	}
	return "", false
}

func renderOutput(items openresponses.Items) string {
	var b strings.Builder
	b.WriteString("output:\n")
	writeItems(&b, items)
	return b.String()
}

// writeItems writes a line per item, each ended by a newline. A nil item
// and a reasoning item with no text, which the model cannot read and the
// guard cannot judge, have no line.
func writeItems(b *strings.Builder, items openresponses.Items) {
	for _, item := range items {
		if item == nil || emptyReasoning(item) {
			continue
		}
		b.WriteString(itemLine(item))
		b.WriteString("\n")
	}
}

// emptyReasoning reports a reasoning item with neither a summary nor a
// content to read, one whose reasoning is encrypted or absent.
func emptyReasoning(item openresponses.Item) bool {
	r, ok := item.(*openresponses.ReasoningItem)
	return ok && (r == nil || r.Summary.Text() == "" && r.Content.Text() == "")
}

// itemLine is one item as a line: "<role>: <text>" for a message,
// "function_call <name>: <arguments>", "function_call_output <call_id>:
// <text>", "reasoning: <summary>" for reasoning with a summary, and the
// item's type for anything else.
func itemLine(item openresponses.Item) string {
	switch it := item.(type) {
	case *openresponses.Message:
		if it != nil {
			return string(it.Role) + ": " + it.Text()
		}
	case *openresponses.FunctionCall:
		if it != nil {
			return "function_call " + it.Name + ": " + it.Arguments
		}
	case *openresponses.FunctionCallOutput:
		if it != nil {
			return "function_call_output " + it.CallID + ": " + it.Output.String()
		}
	case *openresponses.ReasoningItem:
		if it != nil {
			if summary := it.Summary.Text(); summary != "" {
				return "reasoning: " + summary
			}
		}
	}
	return item.ItemType()
}

// renderCall is the text a [Reviewer] asks about for a deferred call, a
// line each, each ended by a newline: "tool: N", "description: D" when the
// tool is known and has one, "arguments: A" (the arguments the call runs
// with) and "policy: R", the reason the policy deferred it, when it gave
// one.
func renderCall(info agentturn.ToolCallInfo, v agentpolicy.Verdict) string {
	var b strings.Builder
	b.WriteString("tool: " + toolName(info))
	if info.Tool != nil {
		if d := info.Tool.Description(); d != "" {
			b.WriteString("\ndescription: " + d)
		}
	}
	b.WriteString("\narguments: " + arguments(info))
	if v.Reason != "" {
		b.WriteString("\npolicy: " + v.Reason)
	}
	b.WriteString("\n")
	return b.String()
}

// toolName is the name of the tool the call asks for: the call's own, or
// the tool's when the call is missing.
func toolName(info agentturn.ToolCallInfo) string {
	switch {
	case info.Call != nil:
		return info.Call.Name
	case info.Tool != nil:
		return info.Tool.Name()
	}
	return ""
}

// arguments are the arguments the tool runs with, as the hook saw them;
// the call's own when the info carries none.
func arguments(info agentturn.ToolCallInfo) string {
	if len(info.Args) == 0 && info.Call != nil {
		return info.Call.Arguments
	}
	return string(info.Args)
}
