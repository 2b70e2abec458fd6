package main

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// agentFindings are lint's findings on the other agents' rule files: a
// rule that could not be read as written, a Codex prefix the splitter
// never lets allow anything, and a Gemini CLI regular expression that
// matches more than its author likely meant. Index is the rule's line.
func (p *loadedPolicy) agentFindings() []finding {
	a := p.agents
	if a == nil {
		return nil
	}
	var out []finding
	if a.codex != nil {
		split := p.matchers["Bash"].Subjects
		for _, f := range a.codex.Files() {
			for _, e := range f.Entries {
				l := located{File: relPath(f.Source.Path), List: e.List, Index: e.Line, Text: e.Text}
				out = append(out, problemFinding(l, e.Problem, len(e.Rules) > 0)...)
				if e.List == "allow" && len(e.Rules) > 0 && split != nil {
					if wrapper := strippedWrapper(split, e.Rules[0]); wrapper != "" {
						out = append(out, l.finding(sevError, "wrapper_prefix",
							"never allows a command: the splitter decides the command "+wrapper+" runs, not "+wrapper+" itself, so the prefix matches only a subject no allow rule reaches",
							"allow the command it runs instead: prefix_rule(pattern = [<the program after the wrapper>, ...])"))
					}
				}
			}
		}
	}
	if a.gemini != nil {
		for _, f := range a.gemini.Files() {
			for _, e := range f.Entries {
				l := located{File: relPath(f.Path), List: e.List, Index: e.Line, Text: e.Text}
				out = append(out, problemFinding(l, e.Problem, len(e.Rules) > 0)...)
				if e.List == "allow" {
					for _, r := range e.Rules {
						if why := broadRegex(r); why != "" {
							out = append(out, l.finding(sevWarning, "broad_regex", why,
								`end the expression where the command or value ends: (?:\s|"|$) after a command, "`+" after a value"))
							break
						}
					}
				}
			}
		}
	}
	return out
}

// problemFinding is an entry's problem as a finding: an error for a rule
// that does nothing, a warning for one that reaches more than it says or
// makes its tool ask.
func problemFinding(l located, problem string, applies bool) []finding {
	switch {
	case problem == "":
		return nil
	case !applies:
		return []finding{l.finding(sevError, "untranslatable", "never fires: "+problem, "write it in a form the module's README lists")}
	}
	return []finding{l.finding(sevWarning, "wider", problem, "write it in a form the module's README lists")}
}

// strippedWrapper is the command a Codex allow rule's prefix names when
// the splitter reads it as a wrapper, deciding the command it runs
// rather than the prefix: "timeout 5 make" for a prefix the splitter
// sees only as a constraint. It is "" for a prefix the splitter decides
// as itself.
func strippedWrapper(split agentpolicy.Subjects, r agentpolicy.Rule) string {
	prefix, ok := strings.CutSuffix(r.Spec, ":*")
	if !ok {
		prefix = strings.TrimSuffix(r.Spec, " *")
	}
	args, _ := json.Marshal(map[string]string{"command": prefix + " true"})
	subjects, err := split(args)
	if err != nil {
		return ""
	}
	for _, s := range subjects {
		if s.Tool != "" {
			continue
		}
		command, _, _ := agentpolicy.Field(s.Args, "command")
		if (command == prefix+" true" || strings.HasPrefix(command, prefix+" ")) && s.Constrain {
			return prefix
		}
	}
	return ""
}

// broadRegex says how an allow rule's regular expression matches more
// than it likely means, "" when it does not seem to: ".*" reaches across
// the arguments' JSON, other arguments and quotes included; an expression
// that is a plain literal matches any text that merely begins with it,
// "git status" taking "git statusx".
func broadRegex(r agentpolicy.Rule) string {
	pattern, ok := strings.CutPrefix(r.Spec, "re:")
	if !ok {
		return ""
	}
	if strings.Contains(pattern, ".*") || strings.Contains(pattern, ".+") {
		return "the regular expression " + pattern + " has a .* or .+, which runs across the arguments' JSON: other arguments, quotes and escapes included"
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return ""
	}
	if literal, complete := re.LiteralPrefix(); complete {
		return "the regular expression " + pattern + " is searched for, not matched whole: it takes any arguments that merely hold " + literal + ", a command that continues its last word included"
	}
	return ""
}
