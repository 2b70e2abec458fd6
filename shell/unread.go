package shell

import (
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// A command the splitter cannot read as bash does is not blocked: bash
// may run it, or part of it, so it is asked about, and what can still be
// read of it is held to the deny and ask rules.

// unreadable is the error of a script the parser cannot read as bash
// does: why, reading, the script as near to bash's reading as the
// splitter can make it, and also, the subjects of another reading.
type unreadable struct {
	why, reading string
	also         []agentpolicy.Subject
}

func (u *unreadable) Error() string { return "agentpolicy/shell: " + u.why }

// readable is the error of a script whose text the parser reads otherwise
// than bash, nil when there is none: a carriage return, which the parser
// reads as space where bash keeps it in the word ("npm test\r"), and a
// backslash that ends the script, which bash keeps as a character.
func readable(src string) error {
	if strings.IndexByte(src, '\r') >= 0 {
		return &unreadable{why: "the command has a carriage return, which the parser and bash read differently", reading: repaired(src)}
	}
	if trailing := len(src) - len(strings.TrimRight(src, "\\")); trailing%2 == 1 {
		// "eval 'tee' '\\'" runs tee with the argument \.
		return &unreadable{why: "the command ends in a backslash, which bash keeps and the parser drops", reading: repaired(src)}
	}
	return nil
}

// parseError is the error of a script src that does not parse.
func parseError(err error, src string) error {
	return &unreadable{why: "the command does not parse: " + err.Error(), reading: repaired(src)}
}

// repaired is a script as the parser can read it when it was cut short,
// carries carriage returns or line continuations the parser does not
// join: each carriage return a space, each continuation joined, and the
// blanks, backslashes and operators that end it dropped.
func repaired(src string) string {
	src = joinLines(strings.ReplaceAll(src, "\r", " "), nil)
	return strings.TrimRight(src, " \t\n\\;&|")
}

// unread adds the subjects of a script the parser cannot read as bash
// does: value, the script or the command that runs it, unseen for u's
// reason, so that the call asks, then, as constraints, the subjects of
// u's readings, so that a deny or ask rule for a command in them still
// holds: "rm -rf / &&" is denied by a rule for rm.
func (s *splitter) unread(value, text, why string, u *unreadable, depth int) {
	s.add(s.field, value, text, why, false, "")
	salvage := splitter{config: s.config, again: true, keyword: s.keyword}
	salvage.subjects = u.also
	if salvage.script(u.reading, depth) != nil {
		salvage.subjects = u.also
	}
	for _, sub := range salvage.subjects {
		sub.Constrain = true
		s.subjects = append(s.subjects, sub)
	}
}
