package shell

import (
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// A command the splitter cannot read as bash does is not blocked: bash
// may run it, or part of it, so it is asked about, and whatever can still
// be read of it is held to the deny and ask rules.

// unreadable is the error of a script the parser cannot read as bash
// does, with why.
type unreadable struct{ why string }

func (u *unreadable) Error() string { return "agentpolicy/shell: " + u.why }

// readable is the error of a script whose text the parser reads otherwise
// than bash, nil when there is none: a carriage return, which the parser
// reads as space where bash keeps it in the word ("npm test\r").
func readable(src string) error {
	if strings.IndexByte(src, '\r') >= 0 {
		return &unreadable{"the command has a carriage return, which the parser and bash read differently"}
	}
	return nil
}

// parseError is the error of a script that does not parse.
func parseError(err error) error {
	return &unreadable{"the command does not parse: " + err.Error()}
}

// unread is the split of a command the parser cannot read as bash does:
// the command as written, unseen for why, so that it asks, and, as
// constraints, the subjects of the command repaired, so that a deny or
// ask rule for a command in it still holds: "rm -rf / &&" is denied by a
// rule for rm.
func (c *config) unread(command, why string) []agentpolicy.Subject {
	subjects := []agentpolicy.Subject{{Args: jsonObject(c.field, command), Text: command, Unseen: why}}
	s := splitter{config: c}
	if err := s.script(repaired(command), 0); err != nil {
		return subjects
	}
	for _, sub := range s.subjects {
		sub.Constrain = true
		subjects = append(subjects, sub)
	}
	return subjects
}

// repaired is the command as the parser can read it when it was cut
// short or carries carriage returns: each carriage return a space, and
// the blanks, backslashes and operators that end it dropped.
func repaired(command string) string {
	return strings.TrimRight(strings.ReplaceAll(command, "\r", " "), " \t\n\\;&|")
}
