package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// installAgent is hook install --agent codex|gemini: it checks that the
// hook could decide with the flags given, then adds the hook, with the
// flags and --agent, to the agent's configuration for the scope.
func (h *hookFlags) installAgent(cmd *cobra.Command, flags settingsFlags, scope string, force bool) error {
	scope = agentScope(cmd, h.agent, scope)
	project, _ := cmd.Flags().GetString("project")
	// A policy the hook cannot load, or a journal it cannot write, denies
	// every call: say so now, as install does for Claude Code.
	if err := h.check(flags, cmd.ErrOrStderr()); err != nil {
		if !force {
			return fmt.Errorf("hook install: %w (nothing was installed; --force installs anyway)", err)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "agentpolicy: warning: installed under --force: %s\n", oneLine(err.Error()))
	}
	prefix, err := hookPrefix()
	if err != nil {
		return err
	}
	command, err := h.command(prefix.written, flags)
	if err != nil {
		return err
	}
	command += " --agent " + h.agent
	if err := h.installAgentFile(cmd, scope, project, prefix, command); err != nil {
		return err
	}
	prefix.note(cmd.ErrOrStderr())
	return nil
}

// installAgentFile writes the hook's command into the agent's file of
// the scope.
func (h *hookFlags) installAgentFile(cmd *cobra.Command, scope, project string, prefix hookPrefixes, command string) error {
	if h.agent == agentCodex {
		files, err := codexScopeFiles(scope, project)
		if err != nil {
			return err
		}
		return installCodex(cmd.OutOrStdout(), files, command)
	}
	path, err := geminiScopeFile(scope, project)
	if err != nil {
		return err
	}
	return installGemini(cmd.OutOrStdout(), path, prefix, command)
}

// uninstallAgent is hook uninstall --agent codex|gemini.
func uninstallAgent(cmd *cobra.Command, agent, scope string) error {
	scope = agentScope(cmd, agent, scope)
	project, _ := cmd.Flags().GetString("project")
	if agent == agentCodex {
		files, err := codexScopeFiles(scope, project)
		if err != nil {
			return err
		}
		return uninstallCodex(cmd.OutOrStdout(), files)
	}
	path, err := geminiScopeFile(scope, project)
	if err != nil {
		return err
	}
	prefix, err := hookPrefix()
	if err != nil {
		return err
	}
	return uninstallGemini(cmd.OutOrStdout(), path, prefix)
}

// agentScope is the scope --scope gives, or the agent's default when it
// was not given: Codex CLI's user config.toml, the project's
// .gemini/settings.json.
func agentScope(cmd *cobra.Command, agent, scope string) string {
	if cmd.Flags().Changed("scope") {
		return scope
	}
	if agent == agentCodex {
		return "user"
	}
	return "project"
}
