package claudecode

import (
	"errors"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/bmatcuk/doublestar/v4"
)

// The three lists of a settings file's "permissions" object.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// fields are the top-level input fields of the built-in tools that take
// parameter rules (spec §2.4), the primary field first: a rule naming the
// primary field is ignored, as Claude Code ignores it.
var fields = map[string][]string{
	"Bash":         {"command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"},
	"PowerShell":   {"command", "timeout", "description", "run_in_background"},
	"Read":         {"file_path", "offset", "limit", "pages"},
	"Edit":         {"file_path", "old_string", "new_string", "replace_all"},
	"Write":        {"file_path", "content"},
	"MultiEdit":    {"file_path", "edits"},
	"NotebookEdit": {"notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"},
	"Glob":         {"path", "pattern"},
	"Grep":         {"path", "pattern", "glob", "output_mode", "type", "head_limit", "multiline"},
	"WebFetch":     {"url", "prompt"},
	"WebSearch":    {"query", "allowed_domains", "blocked_domains"},
	"Agent":        {"subagent_type", "description", "prompt", "model", "isolation", "run_in_background"},
	"Skill":        {"skill", "args"},
}

// translation is what one settings rule becomes.
type translation struct {
	rules []agentpolicy.Rule
	// family is "Read" or "Edit" for a path rule relative to the working
	// directory, the rules a later "!" of the same list may reach.
	family string
	// carve is the pattern of a "!" rule, with family naming the rules
	// it reaches.
	carve string
	// mcp is an allow rule over MCP tools that names no single tool, a
	// whole server or a glob after "mcp__<server>__", expanded over the
	// tool names a host gives [Settings.Policy].
	mcp string
}

// origin is what a rule's meaning depends on besides its text: the
// directory "/x" is anchored at, "" for the working directory.
type origin struct {
	slashAnchor string
}

// translate reads one settings rule of a list as Claude Code reads it
// (spec §2) and returns the engine's rules for it, or why it is skipped.
func translate(list, text string, o origin) (translation, error) {
	name, spec, err := splitRule(text)
	if err != nil {
		return translation{}, err
	}
	if spec == "*" && (list != Allow || bareStar(name)) {
		// Tool(*) is the bare tool (spec §2.1), as Claude Code reads
		// Bash(*), WebFetch(*), Agent(*) and Skill(*); in a deny or ask
		// list for every rule, the stricter reading there.
		spec = ""
	}
	switch {
	case strings.Contains(name, "*"):
		return translateGlob(list, name, spec)
	case strings.HasPrefix(name, "mcp__"):
		return translateMCP(list, name, spec)
	case name == editTool:
		return translation{}, errors.New("not a Claude Code tool")
	case name == "Edit" && list == Allow && (spec == "" || spec == "*"):
		// Claude Code lets a bare Edit, or Edit(*), approve the Edit tool
		// alone, where Edit(**) reaches Write too (spec §11).
		return one(editTool, ""), nil
	case spec == "":
		if name == "Task" {
			name = "Agent"
		}
		return one(name, ""), nil
	}
	if name == "Task" {
		name = "Agent"
	}
	if list != Allow {
		if t, ok, err := translateParameter(name, spec); ok || err != nil {
			return t, err
		}
	}
	switch name {
	case "Bash":
		switch {
		case list == Allow:
			return translateAllowCommand(spec), nil
		case quotes(spec):
			return translateQuoted(list, spec)
		}
		return translateBash(list, spec)
	case "PowerShell":
		return translatePowerShell(list, spec), nil
	case "Read", "Edit":
		return translatePath(list, name, spec, o)
	case "WebFetch":
		if !strings.HasPrefix(spec, "domain:") || strings.TrimSpace(spec[len("domain:"):]) == "" {
			return translation{}, errors.New(`a WebFetch specifier is "domain:<host>"`)
		}
		pattern := strings.TrimSpace(spec[len("domain:"):])
		if list != Allow {
			// A deny or ask rule names a host, however the URL spells
			// it (issue 31 §3); an allow rule stays Claude Code's text
			// comparison, which never approves more than it names.
			return one(name, "host:"+HostPattern(pattern)), nil
		}
		return one(name, "domain:"+pattern), nil
	case "Agent":
		return one(name, spec), nil
	case "Skill":
		return translateSkill(list, spec)
	case "Write", "NotebookEdit", "MultiEdit", "Glob", "Grep":
		return translation{}, errors.New("a path rule for " + name + " is never consulted by Claude Code; write Edit(...) or Read(...)")
	case "Cd":
		return translation{}, errors.New("a Cd rule governs the user's /cd command, never a model's tool call")
	case "WebSearch":
		return translation{}, errors.New("a WebSearch rule takes no specifier")
	}
	return translation{}, errors.New("only Bash, PowerShell, Read, Edit, WebFetch, Agent, Task and Skill take a specifier here")
}

// bareStar reports whether an allow rule Tool(*) is the bare tool: not for
// the path tools, whose "*" is a pattern (Edit(*) is the Edit tool alone),
// and not for an MCP name or a tool-name glob, whose specifier makes
// Claude Code skip the rule.
func bareStar(name string) bool {
	return name != "Read" && name != "Edit" && !strings.HasPrefix(name, "mcp__") && !strings.Contains(name, "*")
}

// splitRule splits "Tool" or "Tool(specifier)", the specifier running from
// the first "(" to the ")" that ends the text (spec §2.1).
func splitRule(text string) (name, spec string, err error) {
	text = strings.TrimSpace(text)
	open := strings.IndexByte(text, '(')
	if open < 0 {
		name = text
	} else {
		if !strings.HasSuffix(text, ")") {
			return "", "", errors.New("malformed Tool(content) rule")
		}
		name, spec = text[:open], text[open+1:len(text)-1]
		if spec == "" {
			return "", "", errors.New("empty specifier")
		}
	}
	if name == "" || strings.ContainsAny(name, " \t\r\n)") {
		return "", "", errors.New("malformed tool name")
	}
	return name, spec, nil
}

// one is a translation into a single rule.
func one(tool, spec string) translation {
	return translation{rules: []agentpolicy.Rule{{Tool: tool, Spec: spec}}}
}

// translateGlob reads a tool-name glob (spec §2.3): every list but allow
// takes one, and allow only after a literal "mcp__<server>__".
func translateGlob(list, name, spec string) (translation, error) {
	if spec != "" {
		return translation{}, errors.New("a tool-name glob takes no specifier")
	}
	if list != Allow {
		return one(name, ""), nil
	}
	rest, ok := strings.CutPrefix(name, "mcp__")
	server, tool, found := strings.Cut(rest, "__")
	if !ok || !found || server == "" || strings.Contains(server, "*") || tool == "" {
		return translation{}, errors.New(`an allow rule takes a tool-name glob only after "mcp__<server>__"`)
	}
	return translation{mcp: name}, nil
}

// translateMCP reads an MCP rule (spec §6.3): a whole server, or one of
// its tools; a specifier is skipped, since only the command line takes
// MCP parameter rules.
func translateMCP(list, name, spec string) (translation, error) {
	if spec != "" {
		return translation{}, errors.New("an MCP parameter rule is accepted only on the command line")
	}
	server, tool, found := strings.Cut(name[len("mcp__"):], "__")
	if server == "" || (found && tool == "") {
		return translation{}, errors.New("malformed MCP tool name")
	}
	if found {
		return one(name, ""), nil
	}
	if list == Allow {
		return translation{mcp: name + "__*"}, nil
	}
	return one(name+"__*", ""), nil
}

// translateParameter reads "param:value" as a parameter rule when param is
// a top-level input field of the tool (spec §2.4, inferred test).
func translateParameter(tool, spec string) (translation, bool, error) {
	param, value, ok := strings.Cut(spec, ":")
	param, value = strings.TrimSpace(param), strings.TrimSpace(value)
	names := fields[tool]
	if !ok || !slices.Contains(names, param) {
		return translation{}, false, nil
	}
	if param == names[0] && tool != "Agent" && tool != "Skill" {
		return translation{}, true, errors.New("a parameter rule cannot name " + tool + "'s " + param)
	}
	return one(tool, param+":"+value), true, nil
}

// isParameter reports whether the tool's matcher reads spec as a parameter
// rule: the text before the first ":" names an input field of the tool.
func isParameter(tool, spec string) bool {
	param, _, ok := strings.Cut(spec, ":")
	param = strings.TrimSpace(param)
	return ok && (slices.Contains(fields[tool], param) || (tool == "Bash" || tool == "PowerShell") && param == writtenField || tool == "Bash" && (param == readOnlyField || param == optionSetField))
}

// translateBash reads a deny or ask rule's command pattern (spec §4.1),
// matched against the command as the shell reads it. Claude Code's
// trailing " *" with no other star also matches the words before it
// alone, which is the engine's ":*". A pattern on a command with an option
// table is also read as an option set ([optionSetRule]).
func translateBash(list, spec string) (translation, error) {
	if head, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(head, "*") {
		spec = head + ":*"
	}
	if isParameter("Bash", spec) {
		return translation{}, errors.New("the command pattern reads as a parameter rule")
	}
	t := one("Bash", spec)
	if r, ok := optionSetRule(spec); ok && !quotes(spec) {
		t.rules = append(t.rules, r)
	}
	return t, nil
}

// translateSkill reads a skill pattern (spec §6.4): "name" is the skill
// alone in an allow rule and the skill with any arguments in a deny or ask
// rule, which fails closed both ways; "name *" is the skill with any
// arguments.
func translateSkill(list, spec string) (translation, error) {
	if head, ok := strings.CutSuffix(spec, ":*"); ok && list != Allow && !strings.Contains(head, "*") {
		// Claude Code reads a deny "gr:*" as every skill whose name
		// begins "gr" (recorded: it catches "greet").
		return one("Skill", head+"*"), nil
	}
	if head, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(head, "*") {
		spec = head + ":*"
	} else if list != Allow && !strings.Contains(spec, "*") {
		spec += ":*"
	}
	if isParameter("Skill", spec) {
		return translation{}, errors.New("the skill pattern reads as a parameter rule")
	}
	return one("Skill", spec), nil
}

// translatePath reads a Read or Edit path (spec §5) into the rules that
// carry it: a Read deny also refuses edits and writes of the path, and an
// Edit allow also grants reading it (spec §2.2).
func translatePath(list, name, spec string, o origin) (translation, error) {
	if carve, ok := strings.CutPrefix(spec, "!"); ok {
		if list == Allow {
			return translation{}, errors.New("a ! carve-out is honoured only in deny and ask")
		}
		if carve == "" {
			return translation{}, errors.New("empty carve-out")
		}
		return translation{family: name, carve: escapeSeparator(carve)}, nil
	}
	relative := !strings.HasPrefix(spec, "/") && !strings.HasPrefix(spec, "~/")
	p := spec
	if list != Allow && relative {
		p = strings.TrimPrefix(p, "./")
		if segment, ok := strings.CutSuffix(p, "/**"); ok && segment != "" && !strings.ContainsAny(segment, "/") {
			p = "**/" + p
		}
	}
	if strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && o.slashAnchor != "" {
		p = "/" + strings.TrimSuffix(o.slashAnchor, "/") + p
	}
	if readsAsParameter(p) {
		if strings.Contains(p, "/") {
			p = "./" + p
		} else {
			p = "**/" + p
		}
	}
	if !validPath(p) {
		if list == Allow {
			return translation{}, errors.New("not a valid pattern, so it approves nothing")
		}
		p = literalPath(p)
	}
	p = escapeSeparator(p)
	var t translation
	switch {
	case name == "Read" && list == Deny:
		t.rules = []agentpolicy.Rule{{Tool: name, Spec: p}, {Tool: "Edit", Spec: p}}
	case name == "Edit" && list == Allow:
		t.rules = []agentpolicy.Rule{{Tool: name, Spec: p}, {Tool: "Read", Spec: p}}
	default:
		t = one(name, p)
	}
	if relative {
		t.family = name
	}
	return t, nil
}

// readsAsParameter reports whether some file tool's matcher would read a
// path as a parameter rule, "offset:5", so it is written so none does.
func readsAsParameter(p string) bool {
	for _, tool := range []string{"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"} {
		if isParameter(tool, p) {
			return true
		}
	}
	return false
}

// validPath reports whether the glob part of a path specifier is one
// doublestar accepts.
func validPath(p string) bool {
	for _, prefix := range []string{"//", "~/", "/", "./"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			p = rest
			break
		}
	}
	return doublestar.ValidatePattern(escapeBraces(p))
}

// literalPath escapes every glob character of an unusable pattern, so a
// deny or ask rule still protects that exact path (spec §5.4).
func literalPath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if strings.IndexByte(`*?[]\{}`, p[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// escapeSeparator writes a literal " !" of a pattern so the path matcher
// does not read it as the start of an exception.
func escapeSeparator(p string) string {
	return strings.ReplaceAll(p, " !", ` \!`)
}
