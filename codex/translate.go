package codex

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The engine's lists, which an [Entry] names.
const (
	ListAllow = "allow"
	ListAsk   = "ask"
	ListDeny  = "deny"
)

// maxPrefixes bounds the argv prefixes one rule's alternatives expand to.
// A deny or ask rule past it is cut to its first words, which reach more
// commands; an allow rule past it is skipped.
const maxPrefixes = 1024

// listOf is the engine's list of a Codex decision: prompt asks, forbidden
// denies.
func listOf(decision string) string {
	switch decision {
	case Forbidden:
		return ListDeny
	case Prompt:
		return ListAsk
	}
	return ListAllow
}

// translatePrefix writes one prefix_rule as the engine's Bash rules, each
// matching a command the shell splitter finds whose words begin with one
// of the rule's prefixes. hosts are the host_executable paths, by program
// name, that a rule's first word also reaches, as Codex resolves them.
//
// A deny or ask rule is never narrower than Codex's: a word it cannot
// write exactly ([unwritable]) makes it stop before that word, reaching
// every command that begins with the words before, and the error says so
// beside the rules. An allow rule is never wider: one it cannot write
// exactly is skipped, with the reason as the error and no rules.
func translatePrefix(r PrefixRule, hosts map[string][]string) ([]agentpolicy.Rule, error) {
	list := listOf(r.Decision)
	pattern := slices.Clone(r.Pattern)
	first := slices.Clone(pattern[0])
	for _, name := range pattern[0] {
		first = append(first, hosts[name]...)
	}
	pattern[0] = first
	n, cut := len(pattern), ""
	for i, alts := range pattern {
		why := unwritable(alts)
		if i == 0 && why == "" && slices.ContainsFunc(alts, func(a string) bool { return strings.HasPrefix(a, "!") }) {
			why = "begins with \"!\", which the rule grammar reads as a carve-out"
		}
		if why != "" {
			if list == ListAllow {
				return nil, fmt.Errorf("the word %d of the pattern %s, so the allow rule is skipped", i+1, why)
			}
			n, cut = i, fmt.Sprintf("the word %d of the pattern %s, so the rule reaches every command that begins with the words before it", i+1, why)
			break
		}
	}
	for count := 1; n > 0; n-- {
		count = 1
		for _, alts := range pattern[:n] {
			count *= len(alts)
			if count > maxPrefixes {
				break
			}
		}
		if count <= maxPrefixes {
			break
		}
		if list == ListAllow {
			return nil, fmt.Errorf("the pattern's alternatives make more than %d prefixes, so the allow rule is skipped", maxPrefixes)
		}
		cut = fmt.Sprintf("the pattern's alternatives make more than %d prefixes, so the rule reaches every command that begins with its first %d words", maxPrefixes, n-1)
	}
	if n == 0 {
		// Nothing of the pattern can be written: every command is
		// reached, the strictest reading of a deny or ask rule.
		return []agentpolicy.Rule{{Tool: "Bash", Note: r.Justification}}, reaches(cut)
	}
	var rules []agentpolicy.Rule
	for prefix := range prefixes(pattern[:n]) {
		for _, spec := range specsOf(prefix) {
			rules = append(rules, agentpolicy.Rule{Tool: "Bash", Spec: spec, Note: r.Justification})
		}
	}
	return rules, reaches(cut)
}

// reaches is the note of a deny or ask rule written wider than Codex's:
// an error that [entry] keeps beside the rules as the entry's problem.
func reaches(why string) error {
	if why == "" {
		return nil
	}
	return wider(why)
}

// wider is the problem of a rule that reaches more than it says; its
// rules still apply.
type wider string

func (w wider) Error() string { return string(w) }

// unwritable says why a word's alternatives cannot be written exactly as a
// pattern of the engine's Bash language, "" when they can. The language
// reads "*" as any run of characters and a blank as a word break, the
// splitter shows an empty word as ”, and the rule grammar holds only
// balanced parentheses; so a word must be non-empty and free of blanks,
// stars and parentheses. A deny or ask rule stops before such a word,
// reaching every command that begins with the words before it, so it
// never reaches less than Codex's; an allow rule with one is skipped.
func unwritable(alts []string) string {
	for _, a := range alts {
		switch {
		case a == "":
			return "is empty, which the split command shows as ''"
		case strings.ContainsAny(a, " \t\n"):
			return fmt.Sprintf("%q holds a blank, which the engine's pattern reads as a word break", a)
		case strings.Contains(a, "*"):
			return fmt.Sprintf("%q holds a *, which the engine's pattern reads as any run of characters", a)
		case strings.ContainsAny(a, "()"):
			return fmt.Sprintf("%q holds a parenthesis, which the rule grammar cannot hold", a)
		}
	}
	return ""
}

// prefixes yields every argv prefix the pattern's alternatives make.
func prefixes(pattern [][]string) func(func([]string) bool) {
	return func(yield func([]string) bool) {
		prefix := make([]string, len(pattern))
		var walk func(i int) bool
		walk = func(i int) bool {
			if i == len(pattern) {
				return yield(slices.Clone(prefix))
			}
			for _, a := range pattern[i] {
				if a == "" {
					a = "''"
				}
				prefix[i] = a
				if !walk(i + 1) {
					return false
				}
			}
			return true
		}
		walk(0)
	}
}

// specsOf writes one argv prefix in the engine's Bash language: the words
// joined by spaces and followed by ":*", a word boundary, so "git status"
// reaches "git status" and "git status -s" but not "git statusx". A
// pattern whose text before its first ":" is one word is written as the
// two patterns "w" and "w *" instead, which mean the same, so that a
// Claude Code engine does not read "timeout:*" as a rule over Bash's
// timeout argument.
func specsOf(prefix []string) []string {
	joined := strings.Join(prefix, " ")
	if before, _, _ := strings.Cut(joined, ":"); !strings.Contains(before, " ") {
		return []string{joined, joined + " *"}
	}
	return []string{joined + ":*"}
}

// translateNetwork writes one network_rule as a WebFetch rule over its
// host. Codex's rule governs its network proxy; the engine's nearest
// subject is a fetched URL's host. An allow rule for a protocol other
// than http or https reaches no fetch and is skipped.
func translateNetwork(r NetworkRule) ([]agentpolicy.Rule, error) {
	if listOf(r.Decision) == ListAllow && r.Protocol != "http" && r.Protocol != "https" {
		return nil, errors.New("an allow rule for " + r.Protocol + " reaches no fetched URL, so it is skipped")
	}
	if strings.ContainsAny(r.Host, "() \t\n") {
		return nil, fmt.Errorf("the host %q is not a host name", r.Host)
	}
	return []agentpolicy.Rule{{Tool: "WebFetch", Spec: "domain:" + r.Host, Note: r.Justification}}, nil
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
