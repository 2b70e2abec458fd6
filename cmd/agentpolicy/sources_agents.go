package main

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/codex"
	"github.com/ChristopherDavenport/agentpolicy/gemini"
	"github.com/spf13/pflag"
)

// agentSources are the other agents' own rule files, read beside Claude
// Code's settings so one engine decides under all of them: Codex CLI's
// Starlark .rules and Gemini CLI's policy TOML.
type agentSources struct {
	codexHome      string
	geminiHome     string
	geminiPolicies []string
	geminiAdminDir string
	geminiMode     string

	codex  *codex.Rules
	gemini *gemini.Rules
}

func (a *agentSources) register(pf *pflag.FlagSet) {
	pf.StringVar(&a.codexHome, "codex-home", "", "read Codex CLI's rules: DIR/rules/*.rules, and the project's .codex/rules when DIR/config.toml trusts it (a project's .codex/rules is read without the flag too)")
	pf.StringVar(&a.geminiHome, "gemini-home", "", "read Gemini CLI's policies: DIR/policies/*.toml, the user tier (default ~/.gemini when another --gemini flag is given)")
	pf.StringArrayVar(&a.geminiPolicies, "gemini-policy", nil, "a Gemini CLI policy file, read in the user tier in place of the user directory, as gemini --policy (repeatable)")
	pf.StringVar(&a.geminiAdminDir, "gemini-admin-dir", "", "the directory of Gemini CLI's admin-tier policies")
	pf.StringVar(&a.geminiMode, "gemini-mode", "", "Gemini CLI's approval mode (default, auto_edit, yolo, plan): a rule with modes applies only in those")
}

// load reads the rule files the flags name, and the project's Codex
// rules when it has any, as rule sets. A file its agent would refuse is an
// error, as a settings file Claude Code would reject is.
func (a *agentSources) load(project string) ([]agentpolicy.RuleSet, error) {
	var sets []agentpolicy.RuleSet
	if a.codexHome != "" || hasDir(filepath.Join(project, ".codex", "rules")) {
		rules, err := codex.Load(codex.LoadOptions{Home: a.codexHome, Project: project})
		if err != nil {
			return nil, err
		}
		a.codex = rules
		sets = append(sets, rules.RuleSets()...)
	}
	if a.geminiHome != "" || len(a.geminiPolicies) > 0 || a.geminiAdminDir != "" {
		rules, err := gemini.Load(gemini.LoadOptions{Home: a.geminiHome, AdminDir: a.geminiAdminDir, Policies: a.geminiPolicies, Session: gemini.Session{Mode: a.geminiMode}})
		if err != nil {
			return nil, err
		}
		a.gemini = rules
		sets = append(sets, rules.RuleSets()...)
	}
	return sets, nil
}

// hasDir reports whether dir is a directory.
func hasDir(dir string) bool {
	info, err := os.Stat(dir)
	return err == nil && info.IsDir()
}

// addAgents merges the other agents' rule sets into the loaded policy and
// gives every tool their rules name a matcher that reads them: Gemini's
// "re:" and "*" specifiers beside each tool's own.
func (p *loadedPolicy) addAgents(a *agentSources, project string) error {
	p.agents = a
	sets, err := a.load(project)
	if err != nil || len(sets) == 0 {
		return err
	}
	merged, err := agentpolicy.Merge(sets...)
	if err != nil {
		return err
	}
	for _, list := range [][]agentpolicy.Rule{merged.Deny, merged.Ask, merged.Allow, merged.Withheld} {
		for i := range list {
			list[i].Tool = exactTool(list[i])
		}
	}
	if a.codex != nil {
		markArgv(merged.Allow)
		markArgv(merged.Withheld)
		p.matchers["Bash"] = withWords(p.matchers["Bash"])
	}
	byRank := func(x, y agentpolicy.Rule) int { return cmp.Compare(y.Source.Rank, x.Source.Rank) }
	p.policy.Deny = sortedBy(append(p.policy.Deny, merged.Deny...), byRank)
	p.policy.Ask = sortedBy(append(p.policy.Ask, merged.Ask...), byRank)
	p.policy.Allow = sortedBy(append(p.policy.Allow, merged.Allow...), byRank)
	p.policy.Withheld = append(p.policy.Withheld, merged.Withheld...)
	p.policy.Sources = append(p.policy.Sources, merged.Sources...)
	p.agentFiles = merged.Sources
	if a.gemini == nil {
		return nil
	}
	for tool, m := range p.matchers {
		if m.Match != nil {
			m.Match = gemini.WithRegex(m.Match)
			p.matchers[tool] = m
		}
	}
	for _, list := range [][]agentpolicy.Rule{merged.Deny, merged.Ask, merged.Allow} {
		for _, r := range list {
			if _, ok := p.matchers[r.Tool]; !ok && !r.Bare() && !r.Glob() {
				p.matchers[r.Tool] = agentpolicy.ToolMatcher{Match: gemini.WithRegex(matchesNothing)}
			}
		}
	}
	return nil
}

// readExact names the Read tool alone: the name "Read" reaches Grep and
// Glob too, as Claude Code's Read rules do.
const readExact = "Read.exact"

// agentAliases are the names the other agents' rules are written under
// so that each reaches its own tool alone.
var agentAliases = map[string][]string{readExact: {"Read"}}

// exactTool is the name a Gemini CLI rule is decided under: a read_file
// rule governs Read alone and a replace rule Edit alone, where Claude
// Code's Read reaches Grep and Glob and its Edit reaches Write, tools
// Gemini CLI has rules of their own for. Any other rule keeps its name.
func exactTool(r agentpolicy.Rule) string {
	if !strings.HasPrefix(r.Source.Name, "gemini:") {
		return r.Tool
	}
	switch r.Tool {
	case "Read":
		return readExact
	case "Edit":
		return "Edit.tool"
	}
	return r.Tool
}

// matchesNothing is the own matcher of a tool Claude Code does not have.
func matchesNothing(string, json.RawMessage) bool { return false }

// sortedBy sorts rules stably, so the most authoritative come first as
// agentpolicy.Merge lists them.
func sortedBy(rules []agentpolicy.Rule, by func(x, y agentpolicy.Rule) int) []agentpolicy.Rule {
	slices.SortStableFunc(rules, by)
	return rules
}

// written is a rule of another agent's file as the file writes it, and
// whether it is one.
func (a *agentSources) written(r agentpolicy.Rule) (string, bool) {
	if a == nil {
		return "", false
	}
	if a.codex != nil && strings.HasPrefix(r.Source.Name, "codex:") {
		r.Spec = strings.TrimPrefix(r.Spec, argvPrefix)
		for _, f := range a.codex.Files() {
			if f.Source.Name != r.Source.Name {
				continue
			}
			for _, e := range f.Entries {
				if slices.ContainsFunc(e.Rules, func(er agentpolicy.Rule) bool { return er.Tool == r.Tool && er.Spec == r.Spec }) {
					return e.Text, true
				}
			}
		}
	}
	if a.gemini != nil && strings.HasPrefix(r.Source.Name, "gemini:") {
		for _, f := range a.gemini.Files() {
			if f.Path != r.Source.Path {
				continue
			}
			for _, e := range f.Entries {
				// The engine reports a rule under the tool its name
				// reaches: Read.exact as Read, Edit.tool as Edit.
				if slices.ContainsFunc(e.Rules, func(er agentpolicy.Rule) bool { return er.Tool == r.Tool && er.Spec == r.Spec }) {
					return e.Text, true
				}
			}
		}
	}
	return "", false
}
