package codex

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// maxSteps bounds the Starlark a rules file may run, so a file with an
// endless loop is refused rather than hanging the host that loads it.
const maxSteps = 10_000_000

// fileOptions is the Starlark dialect Codex 0.171.0 reads rules in:
// statements at the top level (a for loop writing rules), names assigned
// twice, while loops and sets.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}

// Decisions a prefix_rule or network_rule may take, as Codex spells them.
const (
	Allow     = "allow"
	Prompt    = "prompt"
	Forbidden = "forbidden"
)

// PrefixRule is one prefix_rule call as Codex evaluated it.
type PrefixRule struct {
	// Pattern is the argv prefix: one entry per word, each the
	// alternatives that word may be (a plain string is one alternative).
	Pattern [][]string
	// Decision is allow, prompt or forbidden.
	Decision string
	// Justification is the rule's own reason, "" when it gave none.
	Justification string
	// Line is the line of the call in its file, Text the call as the
	// file writes it.
	Line int
	Text string
}

// NetworkRule is one network_rule call.
type NetworkRule struct {
	// Host is the host the rule governs, Protocol one of http, https,
	// socks5_tcp and socks5_udp.
	Host, Protocol string
	// Decision is allow, prompt or forbidden; Justification the rule's
	// reason, "" when it gave none.
	Decision, Justification string
	// Line is the line of the call in its file, Text the call as the
	// file writes it.
	Line int
	Text string
}

// evaluation collects what a file's calls declare, in call order.
type evaluation struct {
	file     *syntax.File
	src      []byte
	prefixes []PrefixRule
	networks []NetworkRule
	hosts    map[string][]string
	// calls are the texts of the file's calls, read on the first call.
	calls map[[2]int32]string
}

// evaluate runs a rules file's Starlark with Codex's three functions, as
// Codex does, and returns what it declared. Every error Codex refuses a
// file for (a decision it does not know, an empty pattern, an example that
// does not hold) is an error here too.
func evaluate(name string, src []byte) (*evaluation, error) {
	f, err := fileOptions.Parse(name, src, 0)
	if err != nil {
		return nil, err
	}
	ev := &evaluation{file: f, src: src, hosts: map[string][]string{}}
	thread := &starlark.Thread{Name: name, Print: func(*starlark.Thread, string) {}}
	thread.SetMaxExecutionSteps(maxSteps)
	predeclared := starlark.StringDict{
		"prefix_rule":     starlark.NewBuiltin("prefix_rule", ev.prefixRule),
		"network_rule":    starlark.NewBuiltin("network_rule", ev.networkRule),
		"host_executable": starlark.NewBuiltin("host_executable", ev.hostExecutable),
	}
	_, prog, err := starlark.SourceProgramOptions(fileOptions, name, src, predeclared.Has)
	if err != nil {
		return nil, err
	}
	if _, err := prog.Init(thread, predeclared); err != nil {
		var ee *starlark.EvalError
		if errors.As(err, &ee) {
			return nil, errors.New(ee.Backtrace())
		}
		return nil, err
	}
	return ev, nil
}

// call is where a builtin was called from: its line and its text.
func (ev *evaluation) call(thread *starlark.Thread) (int, string) {
	pos := thread.CallFrame(1).Pos
	if ev.calls == nil {
		ev.calls = callTexts(ev.file, ev.src)
	}
	return int(pos.Line), ev.calls[[2]int32{pos.Line, pos.Col}]
}

// callTexts is the text of every call of the file, by the line and column
// of its opening parenthesis, where Starlark places the call.
func callTexts(f *syntax.File, src []byte) map[[2]int32]string {
	lines := strings.Split(string(src), "\n")
	texts := map[[2]int32]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			start, end := c.Span()
			texts[[2]int32{c.Lparen.Line, c.Lparen.Col}] = spanText(lines, start, end)
		}
		return true
	})
	return texts
}

// spanText is the source between two positions, its lines joined by
// single spaces.
func spanText(lines []string, start, end syntax.Position) string {
	if int(end.Line) > len(lines) || start.Line < 1 {
		return ""
	}
	var parts []string
	for l := start.Line; l <= end.Line; l++ {
		line := lines[l-1]
		from, to := 0, len(line)
		if l == start.Line {
			from = min(int(start.Col)-1, len(line))
		}
		if l == end.Line {
			to = min(int(end.Col)-1, len(line))
		}
		parts = append(parts, strings.TrimSpace(line[from:max(from, to)]))
	}
	return strings.Join(parts, " ")
}

// prefixRule is Codex's prefix_rule(pattern, decision, justification,
// match, not_match).
func (ev *evaluation) prefixRule(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pattern *starlark.List
	var decision, justification starlark.Value = starlark.String(Allow), starlark.None
	var match, notMatch *starlark.List
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "pattern", &pattern, "decision?", &decision,
		"justification?", &justification, "match?", &match, "not_match?", &notMatch); err != nil {
		return nil, err
	}
	r := PrefixRule{}
	var err error
	if r.Pattern, err = patternOf(pattern); err != nil {
		return nil, err
	}
	if r.Decision, err = decisionOf(decision); err != nil {
		return nil, err
	}
	if r.Justification, err = justificationOf(justification); err != nil {
		return nil, err
	}
	for _, ex := range examples(match) {
		argv, err := exampleOf(ex)
		if err != nil {
			return nil, err
		}
		if !matchesPrefix(r.Pattern, argv) {
			return nil, fmt.Errorf("the example %s does not match the rule", ex)
		}
	}
	for _, ex := range examples(notMatch) {
		argv, err := exampleOf(ex)
		if err != nil {
			return nil, err
		}
		if matchesPrefix(r.Pattern, argv) {
			return nil, fmt.Errorf("the example %s is not to match the rule, and does", ex)
		}
	}
	r.Line, r.Text = ev.call(thread)
	ev.prefixes = append(ev.prefixes, r)
	return starlark.None, nil
}

// patternOf reads a pattern: a non-empty list whose entries are strings or
// non-empty lists of strings.
func patternOf(list *starlark.List) ([][]string, error) {
	if list.Len() == 0 {
		return nil, errors.New("invalid pattern element: pattern cannot be empty")
	}
	out := make([][]string, 0, list.Len())
	for v := range list.Elements() {
		switch v := v.(type) {
		case starlark.String:
			out = append(out, []string{string(v)})
		case *starlark.List:
			if v.Len() == 0 {
				return nil, errors.New("invalid pattern element: pattern alternatives cannot be empty")
			}
			var alts []string
			for a := range v.Elements() {
				s, ok := a.(starlark.String)
				if !ok {
					return nil, fmt.Errorf("invalid pattern element: an alternative must be a string (got %s)", a.Type())
				}
				alts = append(alts, string(s))
			}
			out = append(out, alts)
		default:
			return nil, fmt.Errorf("invalid pattern element: pattern element must be a string or list of strings (got %s)", v.Type())
		}
	}
	return out, nil
}

// decisionOf reads a decision: allow, prompt or forbidden, nothing else.
func decisionOf(v starlark.Value) (string, error) {
	s, ok := v.(starlark.String)
	if ok {
		switch string(s) {
		case Allow, Prompt, Forbidden:
			return string(s), nil
		}
	}
	return "", fmt.Errorf("invalid decision: %s", v)
}

// justificationOf reads an optional justification, which may not be empty.
func justificationOf(v starlark.Value) (string, error) {
	if v == starlark.None {
		return "", nil
	}
	s, ok := v.(starlark.String)
	if !ok {
		return "", fmt.Errorf("invalid rule: justification must be a string (got %s)", v.Type())
	}
	if strings.TrimSpace(string(s)) == "" {
		return "", errors.New("invalid rule: justification cannot be empty")
	}
	return string(s), nil
}

// examples are a match or not_match list's entries, none for an absent one.
func examples(list *starlark.List) []starlark.Value {
	if list == nil {
		return nil
	}
	return slices.Collect(list.Elements())
}

// exampleOf reads one example: a command line Codex splits as a POSIX
// shell would, or a list of words.
func exampleOf(v starlark.Value) ([]string, error) {
	switch v := v.(type) {
	case starlark.String:
		if strings.TrimSpace(string(v)) == "" {
			return nil, errors.New("invalid example: example cannot be an empty string")
		}
		return shellWords(string(v))
	case *starlark.List:
		var argv []string
		for w := range v.Elements() {
			s, ok := w.(starlark.String)
			if !ok {
				return nil, fmt.Errorf("invalid example: a word must be a string (got %s)", w.Type())
			}
			argv = append(argv, string(s))
		}
		if len(argv) == 0 {
			return nil, errors.New("invalid example: example cannot be empty")
		}
		return argv, nil
	}
	return nil, fmt.Errorf("invalid example: an example is a string or a list of strings (got %s)", v.Type())
}

// matchesPrefix reports whether argv begins with the pattern: one word for
// each of its entries, each among that entry's alternatives.
func matchesPrefix(pattern [][]string, argv []string) bool {
	if len(argv) < len(pattern) {
		return false
	}
	for i, alts := range pattern {
		if !slices.Contains(alts, argv[i]) {
			return false
		}
	}
	return true
}

// networkProtocols are the protocols a network_rule may name.
var networkProtocols = []string{"http", "https", "socks5_tcp", "socks5_udp"}

// networkRule is Codex's network_rule(host, protocol, decision,
// justification).
func (ev *evaluation) networkRule(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var host, protocol string
	var decision, justification starlark.Value = starlark.String(Allow), starlark.None
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "host", &host, "protocol", &protocol,
		"decision?", &decision, "justification?", &justification); err != nil {
		return nil, err
	}
	if !slices.Contains(networkProtocols, protocol) {
		return nil, fmt.Errorf("invalid rule: network_rule protocol must be one of %s (got %s)", strings.Join(networkProtocols, ", "), protocol)
	}
	if strings.TrimSpace(host) == "" {
		return nil, errors.New("invalid rule: network_rule host cannot be empty")
	}
	r := NetworkRule{Host: host, Protocol: protocol}
	var err error
	if r.Decision, err = decisionOf(decision); err != nil {
		return nil, err
	}
	if r.Justification, err = justificationOf(justification); err != nil {
		return nil, err
	}
	r.Line, r.Text = ev.call(thread)
	ev.networks = append(ev.networks, r)
	return starlark.None, nil
}

// hostExecutable is Codex's host_executable(name, paths): the absolute
// paths a bare program name's rules also reach.
func (ev *evaluation) hostExecutable(thread *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var paths *starlark.List
	if err := starlark.UnpackArgs(fn.Name(), args, kwargs, "name", &name, "paths", &paths); err != nil {
		return nil, err
	}
	if name == "" || strings.ContainsRune(name, '/') {
		return nil, fmt.Errorf("invalid rule: host_executable name must be a bare executable name (got %s)", name)
	}
	for v := range paths.Elements() {
		p, ok := v.(starlark.String)
		if !ok {
			return nil, fmt.Errorf("invalid rule: host_executable paths must be strings (got %s)", v.Type())
		}
		if !path.IsAbs(string(p)) {
			return nil, fmt.Errorf("invalid rule: host_executable paths must be absolute (got %s)", p)
		}
		if path.Base(string(p)) != name {
			return nil, fmt.Errorf("invalid rule: host_executable path `%s` must have basename `%s`", p, name)
		}
		if !slices.Contains(ev.hosts[name], string(p)) {
			ev.hosts[name] = append(ev.hosts[name], string(p))
		}
	}
	return starlark.None, nil
}
