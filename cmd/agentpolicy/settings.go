package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/spf13/cobra"
)

// settingsFlags are the loading flags, one implementation for every
// command that decides (explain, lint, test, queue, hook, and hook
// install, which carries them into the hook's command line): which
// settings files to read, as Claude Code finds them, and the rule files a
// team enforces over them. A new source of rules is a field and a flag
// here, read in load, so every command previews what the hook enforces.
type settingsFlags struct {
	project    string
	settings   []string
	userDir    string
	managedDir string
	trust      bool
	// policies are rule files read as managed settings are: what the hook
	// enforces, and what explain, lint and test preview.
	policies []string
	// verbose lists the files read on standard error.
	verbose bool
	// mode is the hook's: the mode the session runs in.
	mode claudecode.Mode
	// dir is where a call's relative paths start, the shell's current
	// directory; "" is the project.
	dir string
	// agents are Codex CLI's and Gemini CLI's rule files (sources_agents.go).
	agents agentSources
	// engines, when set, keeps the engines built, for a caller that only
	// asks them what they would decide (the resident hook process).
	engines *engineCache
}

func (f *settingsFlags) register(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&f.project, "project", ".", "the project directory: its .claude/settings.json, and its local settings at the git root")
	pf.StringArrayVar(&f.policies, "policy", nil, "a rule file in Claude Code's settings format, enforced as managed settings are, as the hook enforces it (repeatable)")
	pf.StringArrayVar(&f.settings, "settings", nil, "an extra settings file or inline JSON, as Claude Code's --settings (repeatable)")
	pf.StringVar(&f.userDir, "user-dir", "", "the user's settings directory (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	pf.StringVar(&f.managedDir, "managed-dir", "", "the managed settings directory (default the system's, /etc/claude-code on Linux)")
	pf.BoolVar(&f.trust, "trust", false, "a flag, no value: trust the project, so its allow rules apply (Claude Code's trust dialog)")
	pf.BoolVarP(&f.verbose, "verbose", "v", false, "list the settings files read, on standard error")
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
	// agentFiles are the sources of the other agents' rule files read.
	agentFiles []agentpolicy.Source
}

// load reads the settings files the flags name and builds the engine. A
// file Claude Code would reject, not JSON or not shaped as settings, is an
// error here, since every answer would be about a policy that is not the
// one in force.
//
// A --project that is not a directory is an error, never an empty
// project, and so is a --policy rule the engine cannot use: a policy
// missing a rule is not the policy meant, and the hook refuses every call
// over it.
func (f *settingsFlags) load() (*loadedPolicy, error) {
	if f.project != "" && !isDir(f.project) {
		return nil, fmt.Errorf("--project %s: no such directory", f.project)
	}
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
	if err := f.checkPolicies(s); err != nil {
		return nil, err
	}
	// A file tool's call is decided on the path asked for and on the file
	// its symbolic links lead to, as Claude Code decides it: a link in a
	// cloned repository to ~/.ssh/id_rsa is read as what it points to.
	p := &loadedPolicy{settings: s, matchers: s.Matchers(claudecode.Options{Links: hostFiles, Dir: f.dir})}
	if p.policy, err = s.Policy(); err != nil {
		return nil, err
	}
	if err := p.addAgents(&f.agents, f.project); err != nil {
		return nil, err
	}
	if f.engines != nil {
		p.engine, err = f.engines.engine(p, f.dir)
	} else {
		p.engine, err = p.build(p.matchers)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// checkPolicies refuses a --policy file holding a rule the engine cannot
// use, naming the file, the line and the rule.
func (f *settingsFlags) checkPolicies(s *claudecode.Settings) error {
	policies := make([]string, len(f.policies))
	for i, path := range f.policies {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		policies[i] = abs
	}
	for _, pr := range s.Problems() {
		if slices.Contains(policies, pr.Path) {
			return unusableRule(pr)
		}
	}
	return nil
}

// fileRead is one settings file a command read: what it is and where.
type fileRead struct {
	Source string `json:"source"`
	Path   string `json:"path"`
}

// filesRead are the settings files read, most authoritative first.
func (p *loadedPolicy) filesRead() []fileRead {
	var out []fileRead
	for _, f := range p.settings.Files() {
		out = append(out, fileRead{Source: sourceLabel(f.Source.Name), Path: relPath(f.Source.Path)})
	}
	for _, s := range p.agentFiles {
		out = append(out, fileRead{Source: sourceLabel(s.Name), Path: relPath(s.Path)})
	}
	return out
}

// reportFiles lists the files read on w, under --verbose.
func (f *settingsFlags) reportFiles(w io.Writer, p *loadedPolicy) {
	if !f.verbose {
		return
	}
	files := p.filesRead()
	if len(files) == 0 {
		fmt.Fprintln(w, "read: no settings file")
	}
	for _, fr := range files {
		fmt.Fprintf(w, "read: %s, %s\n", fr.Source, fr.Path)
	}
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

// describeSource names the file a rule came from, "project settings,
// .claude/settings.json", or the built-in check that made the rule.
func describeSource(src agentpolicy.Source) string {
	switch {
	case src.Path != "":
		return sourceLabel(src.Name) + ", " + relPath(src.Path)
	case src.Name != "":
		return sourceLabel(src.Name)
	}
	return "built in"
}

// sourceLabel is a source's name in a user's words: "managed settings",
// "policy settings" for a --policy file, "command-line settings" for a
// --settings value, "user settings", "project settings", "local
// settings", "built-in check" for Claude Code's own rules.
func sourceLabel(name string) string {
	base, _, _ := strings.Cut(name, "#")
	switch {
	case strings.HasPrefix(base, "managed"):
		return "managed settings"
	case base == "settings":
		return "command-line settings"
	case strings.HasPrefix(base, "local"):
		return "local settings"
	case name == claudecode.WorkingDirectoriesSource.Name || name == claudecode.ProtectedSource.Name:
		return "built-in check"
	case strings.HasPrefix(base, "codex:"):
		return "Codex CLI rules"
	case strings.HasPrefix(base, "gemini:"):
		return "Gemini CLI policy"
	}
	return base + " settings"
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
