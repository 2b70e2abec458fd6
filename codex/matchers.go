package codex

import (
	"encoding/json"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// Matchers returns the matchers an engine built from Codex's rules alone
// decides with, by the engine's tool names:
//
//	policy, err := rules.Policy()
//	eng, err := agentpolicy.Build(policy, codex.Matchers())
//
// Bash reads the member "command" and is split by the shell module: each
// command a compound line runs is decided on its own, the most
// restrictive verdict winning as Codex takes the most restrictive rule, and
// a redirect's target is a call of Edit (a write) or Read (a read) with
// the path in "file_path", which no Codex rule allows; the files a
// command names as operands are the command's business, as Codex's rules
// see only its words. WebFetch reads the
// host of the member "url" as Claude Code's importer does.
//
// A host deciding Claude Code's rules too builds with the Claude Code
// importer's matchers instead: they read the same Bash patterns over the
// same split.
func Matchers() map[string]agentpolicy.ToolMatcher {
	return map[string]agentpolicy.ToolMatcher{
		"Bash": {Match: agentpolicy.GlobMatcher("command"),
			Subjects: shell.Subjects(shell.WithWriteTool("Edit", "file_path"), shell.WithReadTool("Read", "file_path"),
				shell.WithOperandTools("", "", ""))},
		"Edit":     {Match: agentpolicy.GlobMatcher("file_path")},
		"Read":     {Match: agentpolicy.GlobMatcher("file_path")},
		"WebFetch": {Match: claudecode.DomainMatcher("url"), Subjects: urlSubjects},
	}
}

// urlSubjects refuses a fetch whose URL has no host the importer can read,
// so no rule is asked about a host two parsers could read differently.
func urlSubjects(args json.RawMessage) ([]agentpolicy.Subject, error) {
	raw, ok, err := agentpolicy.Field(args, "url")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoURL
	}
	if _, err := claudecode.URLHost(raw); err != nil {
		return nil, err
	}
	return []agentpolicy.Subject{{Args: args, Text: raw}}, nil
}
