// Package shell splits a shell command into the subjects an
// [agentpolicy.Engine] decides, one for every command that would run, so
// that a rule such as "bash(git status:*)" can never allow
// "git status && rm -rf /".
//
// [Subjects] parses the command with the bash dialect of mvdan.cc/sh, the
// parser Go's own shell tooling uses, and finds every command the shell
// would run: each part of a list or a pipeline, every command substitution
// and process substitution wherever it stands, the bodies of compound
// commands and functions, the command a wrapper such as sudo, env, timeout
// or xargs runs, the string given to sh -c, eval or trap, and the command
// find -exec runs. Each word is normalised as the shell would read it, so a
// deny rule for rm also denies each of
//
//	r''m -rf /
//	"rm" -rf /
//	\rm -rf /
//	$'\x72\x6d' -rf /
//	/bin/rm -rf /
//
// It decides by tables of what it knows to be safe. Some commands run code
// no rule can read: eval of a variable, a script piped into sh, a command
// named by an expansion, LD_PRELOAD or PATH set for a command or in the
// shell, a set or shopt option the splitter does not model, a script
// file an interpreter runs, a value
// read at run time that bash evaluates as arithmetic, xargs before a
// program that may take what it reads as options, a redirect to a path
// known only when it runs (a glob, a tilde, an expansion). Such a subject
// carries the reason in [agentpolicy.Subject.Unseen]; the engine lets a
// deny or ask rule decide it and otherwise asks, even under an allow
// default, unless the call runs confined. A command the parser cannot
// read as bash does asks the same way: one that does not parse, has a
// carriage return, or reads otherwise once its line continuations are
// joined, with what can be read of it held to the deny and ask rules.
//
// The package's README lists what is found, what is asked about and why,
// and the wrappers and effects it knows.
package shell
