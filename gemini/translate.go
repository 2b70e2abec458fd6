package gemini

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The engine's lists, which an [Entry] names.
const (
	ListAllow = "allow"
	ListAsk   = "ask"
	ListDeny  = "deny"
)

// regexPrefix marks a specifier that is a regular expression over the
// call's arguments as Gemini CLI serialises them, read by [Matchers].
const regexPrefix = "re:"

// toolNames maps Gemini CLI's tool names to the engine's, as the hook
// maps a Gemini CLI call; a name not here is kept as it is.
var toolNames = map[string]string{
	"run_shell_command":   "Bash",
	"read_file":           "Read",
	"read_many_files":     "Read",
	"write_file":          "Write",
	"replace":             "Edit",
	"web_fetch":           "WebFetch",
	"glob":                "Glob",
	"list_directory":      "Glob",
	"grep_search":         "Grep",
	"search_file_content": "Grep",
}

// Entry is one [[rule]] of a file and what it became.
type Entry struct {
	// Line is the line of its [[rule]] header; Text the rule as the file
	// writes it, its keys in the file's spelling, which names the rule
	// wherever it is reported.
	Line int
	Text string
	// List is the engine list its decision names; Priority its final
	// priority times 1000, tier*1000 + priority.
	List     string
	Priority int
	// Rules are the engine rules it contributes, and CarveOuts the
	// patterns it takes out of the stricter lists of every rule of lower
	// priority, as "!" rules of those lists.
	Rules     []agentpolicy.Rule
	CarveOuts map[string][]agentpolicy.Rule
	// Problem says why it is skipped, reaches more than it says or makes
	// its tool ask.
	Problem string
}

// text renders a rule as the file writes it, one line.
func (r Rule) text() string {
	var parts []string
	add := func(key string, v any) { parts = append(parts, key+" = "+strconv.Quote(fmt.Sprint(v))) }
	if r.ToolName != "" {
		add("toolName", r.ToolName)
	}
	if r.MCPName != "" {
		add("mcpName", r.MCPName)
	}
	list := func(key string, values []string) {
		if len(values) == 1 {
			add(key, values[0])
			return
		}
		quoted := make([]string, len(values))
		for i, v := range values {
			quoted[i] = strconv.Quote(v)
		}
		parts = append(parts, key+" = ["+strings.Join(quoted, ", ")+"]")
	}
	if len(r.CommandPrefix) > 0 {
		list("commandPrefix", r.CommandPrefix)
	}
	if r.CommandRegex != "" {
		add("commandRegex", r.CommandRegex)
	}
	if r.ArgsPattern != "" {
		add("argsPattern", r.ArgsPattern)
	}
	add("decision", r.Decision)
	parts = append(parts, "priority = "+strconv.Itoa(r.Priority))
	if len(r.Modes) > 0 {
		list("modes", r.Modes)
	}
	return strings.Join(parts, ", ")
}

// translate reads one rule of a file in its tier for the session.
func translate(r Rule, tier int, session Session) Entry {
	e := Entry{Line: r.Line, Text: r.text(), Priority: tier*1000 + min(max(r.Priority, 0), 999)}
	switch r.Decision {
	case Allow:
		e.List = ListAllow
	case Deny:
		e.List = ListDeny
	case AskUser:
		e.List = ListAsk
	default:
		return unreadable(e, r, fmt.Sprintf("the decision %q is not allow, deny or ask_user", r.Decision))
	}
	if r.Priority < 0 || r.Priority > 999 {
		e.Problem = fmt.Sprintf("the priority %d is outside 0..999, read as %d", r.Priority, e.Priority%1000)
	}
	if len(r.Modes) > 0 && !slices.Contains(r.Modes, session.Mode) {
		if session.Mode != "" || e.List == ListAllow {
			e.Problem = "applies only in the modes " + strings.Join(r.Modes, ", ") + ", not in this session's"
			return e
		}
	}
	if r.Interactive != nil && (session.Interactive == nil || *session.Interactive != *r.Interactive) {
		if session.Interactive != nil || e.List == ListAllow {
			e.Problem = "applies only in " + map[bool]string{true: "interactive", false: "headless"}[*r.Interactive] + " sessions, and this one is not known to be one"
			return e
		}
	}
	tool, err := toolOf(r)
	if err != nil {
		return unreadable(e, r, err.Error())
	}
	specs, err := specsOf(r, tool, e.List)
	if err != nil {
		return unreadable(e, r, err.Error())
	}
	if len(specs) == 0 {
		e.Rules = []agentpolicy.Rule{{Tool: tool, Note: r.DenyMessage}}
	}
	for _, spec := range specs {
		e.Rules = append(e.Rules, agentpolicy.Rule{Tool: tool, Spec: spec, Note: r.DenyMessage})
	}
	if strings.Contains(tool, "*") {
		if e.List == ListAllow {
			e.Rules = nil
			e.Problem = "an allow rule over every tool or every MCP tool names no tool the engine can allow; skipped"
		}
		return e
	}
	if _, ok := matched[tool]; !ok {
		// A tool with no matcher has bare rules only, which
		// [shadow] drops below a rule of higher priority.
		return e
	}
	e.CarveOuts = carveOuts(e.List, tool, specs)
	for _, rules := range e.CarveOuts {
		for _, rule := range rules {
			if err := checkGrammar(rule); err != nil {
				e.CarveOuts = nil
				e.Problem = "cannot be written as an exception to lower rules, so they still apply: " + err.Error()
			}
		}
	}
	for _, rule := range e.Rules {
		if err := checkGrammar(rule); err != nil {
			return unreadable(e, r, err.Error())
		}
	}
	return e
}

// unreadable is the entry of a rule that cannot be read as written: an
// allow rule is skipped, and any other makes its tool ask, since it may
// have been a deny.
func unreadable(e Entry, r Rule, why string) Entry {
	e.Rules, e.CarveOuts = nil, nil
	if e.List == ListAllow {
		e.Problem = why + "; the allow rule is skipped"
		return e
	}
	e.List = ListAsk
	e.Problem = why + "; its tool asks"
	if tool, err := toolOf(r); err == nil {
		e.Rules = []agentpolicy.Rule{{Tool: tool, Note: r.DenyMessage}}
	} else {
		e.Rules = []agentpolicy.Rule{{Tool: "*"}}
		e.Problem = why + "; every tool asks"
	}
	return e
}

// toolOf is the engine's name for the rule's tool: an MCP tool as
// mcp__server__tool, "*" every tool.
func toolOf(r Rule) (string, error) {
	name := r.ToolName
	if r.MCPName != "" {
		tool := strings.TrimPrefix(name, r.MCPName+"__")
		if tool == "" {
			tool = "*"
		}
		return "mcp__" + r.MCPName + "__" + tool, nil
	}
	if name == "" {
		return "", fmt.Errorf("toolName is required")
	}
	if server, tool, ok := strings.Cut(name, "__"); ok {
		return "mcp__" + server + "__" + tool, nil
	}
	if mapped, ok := toolNames[name]; ok {
		return mapped, nil
	}
	if strings.ContainsAny(name, "() \t\n") {
		return "", fmt.Errorf("the tool name %q is not a name", name)
	}
	return name, nil
}

// specsOf are the engine specifiers of the rule's pattern: none for a
// rule of the whole tool.
func specsOf(r Rule, tool, list string) ([]string, error) {
	set := 0
	for _, has := range []bool{len(r.CommandPrefix) > 0, r.CommandRegex != "", r.ArgsPattern != ""} {
		if has {
			set++
		}
	}
	if set > 1 {
		return nil, fmt.Errorf("a rule takes one of commandPrefix, commandRegex and argsPattern")
	}
	switch {
	case len(r.CommandPrefix) > 0:
		if tool != "Bash" {
			return nil, fmt.Errorf("commandPrefix reads a shell command, and %s is not the shell", r.ToolName)
		}
		var specs []string
		for _, p := range r.CommandPrefix {
			p = strings.Join(strings.Fields(p), " ")
			switch {
			case p == "":
				return nil, fmt.Errorf("an empty commandPrefix")
			case strings.Contains(p, "*") && list == ListAllow:
				return nil, fmt.Errorf("the commandPrefix %q holds a *, which the engine's pattern reads as any run of characters", p)
			case strings.HasPrefix(p, "!"):
				return nil, fmt.Errorf("the commandPrefix %q begins with \"!\", which the rule grammar reads as a carve-out", p)
			}
			if before, _, _ := strings.Cut(p, ":"); !strings.Contains(before, " ") {
				specs = append(specs, p, p+" *")
			} else {
				specs = append(specs, p+":*")
			}
		}
		return specs, nil
	case r.CommandRegex != "":
		if tool != "Bash" {
			return nil, fmt.Errorf("commandRegex reads a shell command, and %s is not the shell", r.ToolName)
		}
		return regexSpec(`"command":"` + r.CommandRegex)
	case r.ArgsPattern != "":
		return regexSpec(r.ArgsPattern)
	}
	return nil, nil
}

// regexSpec is the specifier of a regular expression, which Go's RE2
// must compile: a JavaScript pattern RE2 cannot read (a backreference, a
// lookaround) is reported by name.
func regexSpec(pattern string) ([]string, error) {
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("the regular expression %q does not compile in RE2: %v", pattern, err)
	}
	return []string{regexPrefix + pattern}, nil
}

// carveOuts are the "!" rules a rule of the list writes into the stricter
// lists: an allow rule's pattern out of deny and ask, an ask rule's out of
// deny. A rule of the whole tool carves out "*".
func carveOuts(list, tool string, specs []string) map[string][]agentpolicy.Rule {
	if len(specs) == 0 {
		specs = []string{"*"}
	}
	var rules []agentpolicy.Rule
	for _, s := range specs {
		rules = append(rules, agentpolicy.Rule{Tool: tool, Spec: "!" + s})
	}
	switch list {
	case ListAllow:
		return map[string][]agentpolicy.Rule{ListDeny: rules, ListAsk: rules}
	case ListAsk:
		return map[string][]agentpolicy.Rule{ListDeny: rules}
	}
	return nil
}

// matched are the tools [Matchers] gives a matcher, which can read a
// carve-out.
var matched = Matchers()

// shadow drops the rules of every entry that a rule of the whole tool
// with a higher final priority decides first, in Gemini CLI whatever they
// say: lower rules of a tool with no matcher could not be carved out.
func shadow(files []*File) {
	top := map[string]int{}
	for _, f := range files {
		for _, e := range f.Entries {
			if len(e.Rules) == 1 && e.Rules[0].Bare() && !e.Rules[0].Glob() {
				top[e.Rules[0].Tool] = max(top[e.Rules[0].Tool], e.Priority)
			}
		}
	}
	for _, f := range files {
		for i := range f.Entries {
			e := &f.Entries[i]
			if len(e.Rules) == 0 || e.Rules[0].Glob() {
				continue
			}
			if p, ok := top[e.Rules[0].Tool]; ok && p > e.Priority {
				e.Rules, e.CarveOuts = nil, nil
				e.Problem = "never decides: a rule for the whole tool has a higher priority"
			}
		}
	}
}

// checkGrammar reports a rule the engine's grammar would read otherwise
// than it was built.
func checkGrammar(r agentpolicy.Rule) error {
	parsed, err := agentpolicy.ParseRules(r.String())
	if err != nil {
		return err
	}
	if len(parsed) != 1 || parsed[0].Tool != r.Tool || parsed[0].Spec != r.Spec {
		return fmt.Errorf("the engine's grammar reads %s otherwise", r)
	}
	return nil
}
