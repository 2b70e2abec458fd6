package shell

import (
	"bytes"

	"github.com/ChristopherDavenport/agentpolicy"
)

// WithReadOnlyField marks the subject of every command the tables know
// to be read-only with the member name set to true in its Args:
// {"command":"ls -la","read_only":true}. A command is read-only when it
// is named by its bare name, is in the table of read-only commands, was
// given only options the table knows to change nothing, holds no word
// made when it runs, and hides no code. A subject without the member is
// not known to be read-only. The files such a command reads are still
// subjects of their own under [WithReadTool].
func WithReadOnlyField(name string) Option {
	return func(c *config) { c.readOnly = name }
}

// WithRunnerField marks the subject of every command a project or
// package runner finds and runs ("prettier --check ." of "npx prettier
// --check .") with the member name set to true in its Args. Such a
// command is a constraint, which only deny and ask rules read: the
// runner's own line is the command an allow rule approves. An importer
// that makes other constraints subjects in full (a wrapper its agent
// does not strip) tells these apart by the member.
func WithRunnerField(name string) Option {
	return func(c *config) { c.runner = name }
}

// markReadOnly adds the read-only member to the last subject's Args when
// it is configured and the command is known to be read-only.
func (s *splitter) markReadOnly(readOnly bool) {
	if !readOnly || s.readOnly == "" {
		return
	}
	markTrue(&s.subjects[len(s.subjects)-1], s.readOnly)
}

// hasTrue reports whether markTrue added the member name to a subject's
// Args: a runner run by a runner ("npx npx prettier") marks its command
// once.
func hasTrue(sub agentpolicy.Subject, name string) bool {
	return bytes.Contains(sub.Args, append(appendString([]byte{','}, name), ":true"...))
}

// markTrue adds the member name, set to true, to a subject's Args.
func markTrue(sub *agentpolicy.Subject, name string) {
	args := sub.Args[: len(sub.Args)-1 : len(sub.Args)-1]
	args = append(args, ',')
	args = appendString(args, name)
	sub.Args = append(args, ":true}"...)
}
