// Package secret finds and redacts secrets in text and in the items of an
// openresponses turn: the machinery under package guard's Secrets, Redact
// and Deny, kept apart so that a program that needs only to find secrets,
// the agentpolicy hook, which is a process per tool call, neither imports
// guard nor pays for what guard builds when it loads.
//
// The package builds nothing when it loads. [Default], the finder of the
// default kinds, is built on its first call from the kinds' sources, and
// compiles a kind's expression only when a text holds one of its literals.
package secret
