// Package claudecode reads the permission settings Claude Code users
// already keep, managed, user, project, local and --settings files, into
// one [agentpolicy] engine that decides Claude Code's own tool calls as
// those files say:
//
//	s, err := claudecode.Load(claudecode.LoadOptions{Project: dir, Trusted: trusted})
//	policy, err := s.Policy()
//	eng, err := s.Engine(policy, claudecode.Options{})
//
// [Settings.Engine] is agentpolicy.Build with [Settings.Matchers] and
// [Settings.Aliases], and the index of every path matcher
// ([agentpolicy.WithIndex]), so a file tool's decision calls the matcher
// only for the path rules whose directory the path is in.
//
// [Load] reads every scope of the settings in Claude Code's order and
// translates each rule string as Claude Code reads it: command patterns
// for Bash, gitignore-style paths for Read and Edit with their anchors,
// domains for WebFetch, MCP server and tool names, subagents and skills,
// parameter rules, and the "!" carve-outs of a deny or ask list. A rule it
// cannot translate is skipped and reported, as Claude Code skips it, with
// its file, list and index, so a linter can point at it ([Settings.Files],
// [Settings.Problems]).
//
// [PathMatcher] and [DomainMatcher] are the matchers of Read and Edit paths
// and of WebFetch domains, usable on their own by a host that writes its
// own rules in the same language. Bash commands are split by the shell
// module, so a rule decides every command a compound line runs.
//
// Where this package decides differently from Claude Code, the README in
// this directory says so and why; it is stricter wherever it cannot be
// exact.
package claudecode
