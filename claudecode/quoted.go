package claudecode

import (
	"encoding/json"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// writtenField is the member [bashSubjects] adds to a command's subject
// when a policy needs it: the command as the model wrote it, quotes and
// all, which a quoted allow rule is matched against (spec §4.1). Claude
// Code matches a rule's text against the command's text, so a quoted
// allow rule, "Bash(echo "hello world")", approves the command it spells
// and no other spelling, which may split into other words.
const writtenField = "as_written"

// quotes reports whether a command pattern holds quoting the shell
// removes, which the command's normalised text never holds.
func quotes(spec string) bool {
	return strings.ContainsAny(spec, `'"\`)
}

// translateQuoted reads a command pattern with quotes (spec §4.1). An
// allow rule approves the command written exactly so, a "*" standing for
// any run of its text. A deny or ask rule catches the command however it
// is quoted: it is matched as written and as the shell reads it, quotes
// removed and words joined by one space, as the splitter normalises the
// command.
func translateQuoted(list, spec string) (translation, error) {
	if list == Allow {
		if head, ok := strings.CutSuffix(spec, ":*"); ok {
			spec = head + " *"
		}
		return one("Bash", writtenField+":"+spec), nil
	}
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

// withWritten adds each command subject's text as written, the member
// writtenField, for the quoted allow rules to read.
func withWritten(subjects []agentpolicy.Subject) {
	for i := range subjects {
		s := &subjects[i]
		if s.Tool != "" || s.Constrain || len(s.Args) < 2 {
			continue
		}
		text, _ := json.Marshal(s.Text)
		args := make([]byte, 0, len(s.Args)+len(writtenField)+len(text)+4)
		args = append(args, s.Args[:len(s.Args)-1]...)
		args = append(append(append(args, `,"`+writtenField+`":`...), text...), '}')
		s.Args = args
	}
}

// matchCommand matches a command pattern against a command's whole text
// as Claude Code does (spec §4.1): without a "*" the two are equal; each
// "*" stands for any run of characters; and a pattern whose one "*" ends
// it after a space also matches the text before that space.
func matchCommand(pattern, text string) bool {
	if head, ok := strings.CutSuffix(pattern, " *"); ok && !strings.Contains(head, "*") && text == head {
		return true
	}
	return matchStars(pattern, text)
}
