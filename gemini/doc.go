// Package gemini reads the policies Gemini CLI users already have, the
// TOML files of ~/.gemini/policies (the user tier), an administrator's
// directory (the admin tier) and --policy files, into agentpolicy rule
// sets, so one engine decides Gemini CLI's tool calls, named as the
// engine names tools, under the same rules as Claude Code's and Codex's.
//
// Gemini CLI lets the matching rule of highest priority win; the engine
// decides deny before ask before allow. [Load] expresses a priority order
// in the engine's terms: every rule goes to its decision's list, under a
// source ranked by its final priority, and a rule that outranks a
// stricter one carves its pattern out of the stricter list for every
// source ranked below it, so the higher rule decides what it matches, as
// in Gemini CLI. See the README.
package gemini
