package claudecode

import "slices"

// Equal reports whether s and o are the same settings: the same files read
// the same way, with the same entries, rules and problems, the same mode,
// additional directories, project and home. Settings are not changed once
// loaded, so a host that keeps what it built from s, its matchers or its
// engine, may use it for settings equal to s.
func (s *Settings) Equal(o *Settings) bool {
	if s == nil || o == nil {
		return s == o
	}
	return s.mode == o.mode && s.managedOnly == o.managedOnly && s.cwd == o.cwd && s.home == o.home &&
		s.local == o.local && slices.Equal(s.dirs, o.dirs) && slices.Equal(s.problems, o.problems) &&
		slices.EqualFunc(s.files, o.files, (*File).equal)
}

// equal reports whether two files were read the same way into the same
// entries and rules.
func (f *File) equal(o *File) bool {
	return f.Scope == o.Scope && f.Source == o.Source && f.DefaultMode == o.DefaultMode &&
		slices.Equal(f.AdditionalDirectories, o.AdditionalDirectories) &&
		slices.Equal(f.allow, o.allow) && slices.Equal(f.ask, o.ask) && slices.Equal(f.deny, o.deny) &&
		slices.Equal(f.mcp, o.mcp) && slices.EqualFunc(f.Entries, o.Entries, Entry.equal)
}

// equal reports whether two entries are the same rule string, read the
// same way.
func (e Entry) equal(o Entry) bool {
	return e.List == o.List && e.Index == o.Index && e.Text == o.Text && e.Problem == o.Problem &&
		e.family == o.family && slices.Equal(e.Rules, o.Rules)
}
