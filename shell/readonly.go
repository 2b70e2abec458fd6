package shell

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

// markReadOnly adds the read-only member to the last subject's Args when
// it is configured and the command is known to be read-only.
func (s *splitter) markReadOnly(readOnly bool) {
	if !readOnly || s.readOnly == "" {
		return
	}
	last := &s.subjects[len(s.subjects)-1]
	args := last.Args[: len(last.Args)-1 : len(last.Args)-1]
	args = append(args, ',')
	args = appendString(args, s.readOnly)
	last.Args = append(args, ":true}"...)
}
