package claudecode

import (
	"encoding/json"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// writtenField is the member [bashSubjects] adds to a command's subject
// when a policy needs it: the command as the model wrote it, quotes and
// all, without the assignments of safe variables before it, which an
// allow rule is matched against (spec §4.1). Claude Code matches an allow
// rule's text against the command's text, so "Bash(touch x.txt)" approves
// neither "touch  x.txt" nor "touch 'x.txt'", and a quoted allow rule,
// "Bash(echo "hello world")", approves the command it spells and no other
// spelling, which may split into other words.
const writtenField = "as_written"

// translateAllowCommand reads an allow rule's command pattern, or a
// quoted deny or ask rule's ([translateQuoted]): matched
// against the command as written, ":*" at its end read as " *" (spec
// §4.1). A pattern that looks like a parameter rule, "timeout:*", is a
// command pattern in an allow list.
func translateAllowCommand(spec string) translation {
	if head, ok := strings.CutSuffix(spec, ":*"); ok {
		spec = head + " *"
	}
	return one("Bash", writtenField+":"+spec)
}

// writtenLiteral is the text the normalised command of every command an
// allow pattern matches begins with, for the Bash index: the pattern up to
// its first character whose reading the shell changes (a star, a quote, a
// backslash, a brace, an expansion, a tilde, a blank other than one
// space), without the spaces that end it, since "npm test *" also
// matches "npm test".
func writtenLiteral(pattern string) string {
	if end := strings.IndexAny(pattern, "*'\"\\{$~`\t\n#"); end >= 0 {
		pattern = pattern[:end]
	}
	if end := strings.Index(pattern, "  "); end >= 0 {
		pattern = pattern[:end]
	}
	return strings.TrimRight(pattern, " ")
}

// quotes reports whether a command pattern holds quoting the shell
// removes, which the command's normalised text never holds.
func quotes(spec string) bool {
	return strings.ContainsAny(spec, `'"\`)
}

// translateQuoted reads a deny or ask rule's command pattern with quotes
// (spec §4.1): it catches the command however it is quoted, matched as
// the shell reads it, quotes removed and words joined by one space, as the
// splitter normalises the command; and, as Claude Code matches it, against
// the command as written. A pattern the shell cannot read as a command,
// Bash(git commit -m "WIP*) with its quote left open, is matched as
// written alone, as Claude Code matches it, never dropped.
func translateQuoted(list, spec string) (translation, error) {
	t, err := translateBash(list, spec)
	if err != nil {
		return t, err
	}
	if normal, ok := normaliseCommand(spec); ok && normal != spec {
		n, err := translateBash(list, normal)
		if err == nil {
			t.rules = append(t.rules, n.rules...)
		}
	}
	t.rules = append(t.rules, translateAllowCommand(spec).rules...)
	return t, nil
}

// splitPattern reads a command pattern as the shell reads a command.
var splitPattern = shell.Subjects(shell.WithField("command"))

// normaliseCommand is a command pattern as the shell splitter normalises
// a command: quotes and backslashes removed, words joined by one space.
// A pattern that is not one simple command, or hides code, has none.
func normaliseCommand(spec string) (string, bool) {
	args, _ := json.Marshal(map[string]string{"command": spec})
	subjects, err := splitPattern(args)
	if err != nil || len(subjects) == 0 {
		return "", false
	}
	first := subjects[0]
	for _, s := range subjects[1:] {
		if !s.Constrain {
			return "", false
		}
	}
	if first.Unseen != "" || first.Tool != "" {
		return "", false
	}
	command, ok, err := agentpolicy.Field(first.Args, "command")
	return command, ok && err == nil
}

// withWritten adds each command subject's text as written, without the
// assignments of safe variables before it, the member writtenField, for
// the allow rules to read.
func withWritten(subjects []agentpolicy.Subject) {
	for i := range subjects {
		s := &subjects[i]
		if s.Tool != "" || s.Constrain || len(s.Args) < 2 {
			continue
		}
		text := withoutSafeAssignments(s.Text)
		args := make([]byte, 0, len(s.Args)+len(writtenField)+len(text)+8)
		args = append(args, s.Args[:len(s.Args)-1]...)
		args = appendJSONString(append(args, `,"`+writtenField+`":`...), text)
		s.Args = append(args, '}')
	}
}

// appendJSONString appends s as a JSON string: as it is between quotes
// when it holds nothing to escape, as encoding/json writes it otherwise.
func appendJSONString(b []byte, s string) []byte {
	plain := !strings.ContainsFunc(s, func(r rune) bool {
		return r < ' ' || r == '"' || r == '\\' || r >= 0x7f
	})
	if !plain {
		quoted, _ := json.Marshal(s)
		return append(b, quoted...)
	}
	return append(append(append(b, '"'), s...), '"')
}

// matchCommand matches a command pattern against a command's whole text
// as Claude Code does (spec §4.1): without a "*" the two are equal; each
// "*" stands for any run of characters, and a run of blanks outside quotes
// in the text is read as one space (recorded from 2.1.328: Bash(touch x*)
// approves "touch  x.txt", Bash(touch x.txt) does not); and a pattern
// whose one "*" ends it after a space also matches the text before that
// space.
func matchCommand(pattern, text string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == text
	}
	text = collapseBlanks(text)
	if head, ok := strings.CutSuffix(pattern, " *"); ok && !strings.Contains(head, "*") && text == head {
		return true
	}
	return matchStars(pattern, text)
}

// collapseBlanks reads each run of spaces and tabs outside quotes as one
// space; text without such a run is returned as it is.
func collapseBlanks(text string) string {
	if !strings.Contains(text, "  ") && !strings.Contains(text, "\t") {
		return text
	}
	var b strings.Builder
	var quote byte
	blank := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(text):
			b.WriteByte(c)
			i++
			c = text[i]
		case c == ' ' || c == '\t':
			if !blank {
				b.WriteByte(' ')
			}
			blank = true
			continue
		}
		blank = false
		b.WriteByte(c)
	}
	return b.String()
}
