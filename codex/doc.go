// Package codex reads the rules Codex CLI users already have, the
// Starlark .rules files of $CODEX_HOME/rules and a trusted project's
// .codex/rules, into agentpolicy rule sets, so one engine decides a
// command under Codex's rules, Claude Code's settings and a team's
// policy together.
//
// [Load] evaluates every file with a real Starlark interpreter exposing
// Codex's prefix_rule, host_executable and network_rule; a file Codex
// would refuse (an unknown decision, a match example the rule does not
// match) is refused here too. Each prefix_rule becomes Bash rules over the
// commands the shell splitter finds: "prompt" asks, "forbidden" denies
// with the rule's justification as the reason, and "allow" allows. Codex
// takes the most restrictive of every rule that matches, and so does the
// engine's deny, ask, allow precedence. See the README for where the
// engine's reading differs from `codex execpolicy check`.
package codex
