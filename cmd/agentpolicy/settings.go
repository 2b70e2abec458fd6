package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/spf13/cobra"
)

// settingsFlags say which settings files to read, as Claude Code finds
// them: the flags every command that decides takes.
type settingsFlags struct {
	project    string
	settings   []string
	userDir    string
	managedDir string
	trust      bool
	// policies and mode are the hook's: rule files read as managed
	// settings, and the mode the session runs in.
	policies []string
	mode     claudecode.Mode
	// agents are Codex CLI's and Gemini CLI's rule files (sources_agents.go).
	agents agentSources
}

func (f *settingsFlags) register(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&f.project, "project", ".", "the project directory: its .claude/settings.json, and its local settings at the git root")
	pf.StringArrayVar(&f.settings, "settings", nil, "an extra settings file or inline JSON, as Claude Code's --settings (repeatable)")
	pf.StringVar(&f.userDir, "user-dir", "", "the user's settings directory (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	pf.StringVar(&f.managedDir, "managed-dir", "", "the managed settings directory (default the system's, /etc/claude-code on Linux)")
	pf.BoolVar(&f.trust, "trust", false, "trust the project, so its allow rules apply (Claude Code's trust dialog)")
	f.agents.register(pf)
}

// loadedPolicy is the settings read and the engine built from them.
type loadedPolicy struct {
	settings *claudecode.Settings
	policy   agentpolicy.Policy
	matchers map[string]agentpolicy.ToolMatcher
	engine   *agentpolicy.Engine
	// agents are the other agents' rule files read beside the settings.
	agents *agentSources
}

// load reads the settings files the flags name and builds the engine. A
// file Claude Code would reject, not JSON or not shaped as settings, is an
// error here, since every answer would be about a policy that is not the
// one in force.
func (f *settingsFlags) load() (*loadedPolicy, error) {
	s, err := claudecode.Load(claudecode.LoadOptions{
		Project:    f.project,
		ConfigDir:  f.userDir,
		ManagedDir: f.managedDir,
		Settings:   f.settings,
		Trusted:    f.trust,
		Policies:   f.policies,
		Mode:       f.mode,
	})
	if err != nil {
		return nil, err
	}
	// A file tool's call is decided on the path asked for and on the file
	// its symbolic links lead to, as Claude Code decides it: a link in a
	// cloned repository to ~/.ssh/id_rsa is read as what it points to.
	p := &loadedPolicy{settings: s, matchers: s.Matchers(claudecode.Options{Links: hostFiles})}
	if p.policy, err = s.Policy(); err != nil {
		return nil, err
	}
	if err := p.addAgents(&f.agents, f.project); err != nil {
		return nil, err
	}
	if p.engine, err = p.build(p.matchers); err != nil {
		return nil, err
	}
	return p, nil
}

// build builds an engine of its own from the loaded policy with the given
// matchers, for a question that changes the engine or how it splits.
func (p *loadedPolicy) build(matchers map[string]agentpolicy.ToolMatcher) (*agentpolicy.Engine, error) {
	return agentpolicy.Build(p.policy, matchers, agentpolicy.WithAliases(p.settings.Aliases()), agentpolicy.WithAliases(agentAliases))
}

// written is a rule as its settings file writes it, "Bash(git push *)",
// where the engine reads "Bash(git push:*)", and "Edit(docs/**)" for the
// Write rule it became: the text of the file's entry the rule came from,
// or the rule itself when no entry gave it.
func (p *loadedPolicy) written(r agentpolicy.Rule) string {
	if text, ok := p.agents.written(r); ok {
		return text
	}
	aliases := p.settings.Aliases()
	for _, f := range p.settings.Files() {
		if f.Source.Name != r.Source.Name {
			continue
		}
		for _, e := range f.Entries {
			for _, er := range e.Rules {
				if er.Spec == r.Spec && (er.Tool == r.Tool || slices.Contains(aliases[er.Tool], r.Tool)) {
					return e.Text
				}
			}
		}
	}
	return r.String()
}

// describeSource names the file a rule came from.
func describeSource(src agentpolicy.Source) string {
	switch {
	case src.Path != "":
		return fmt.Sprintf("%s settings, %s", src.Name, relPath(src.Path))
	case src.Name != "":
		return src.Name + " settings"
	}
	return "built in"
}

// relPath is path relative to the working directory when it lies below
// it, so what the command prints reads the same on every machine.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}
