package shell

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Bash deletes a backslash-newline, a line continuation, as it reads its
// input, before it looks for "$(", a here-document's delimiter or an
// operator, everywhere but in single quotes, ANSI-C strings, comments and
// the bodies of here-documents with a quoted delimiter. The parser reads
// some continuations as part of the token they stand in instead, so
// "echo "$\<newline>(rm x)"" is text to it and a command substitution to
// bash. A script with continuations is read twice, as written and with
// its continuations joined as bash joins them, and when the two readings
// find different subjects the script is not read as either.

// whyContinued is why a script whose readings disagree is unseen.
const whyContinued = "line continuations make bash read the command otherwise than the parser"

// continued checks that the subjects the walk of f, parsed from src,
// added from start on are those of src with its continuations joined;
// when they are not, it keeps them as constraints only and returns why,
// with the joined script as the other reading to hold to the rules.
func (s *splitter) continued(f *syntax.File, src string, start, depth int) error {
	if s.again || !strings.Contains(src, "\\\n") {
		return nil
	}
	joined := joinLines(src, kept(f))
	if joined == src {
		return nil
	}
	other := splitter{config: s.config, again: true, keyword: s.keyword, startup: s.startupAround()}
	err := other.script(joined, depth)
	if errors.Is(err, errDeep) {
		return err
	}
	if err == nil && sameSubjects(s.subjects[start:], other.subjects) {
		return nil
	}
	asWritten := slices.Clone(s.subjects[start:])
	s.subjects = s.subjects[:start]
	return &unreadable{why: whyContinued, reading: joined, also: asWritten}
}

// span is a part of a script, from start up to end.
type span struct{ start, end uint }

// kept are the parts of f where bash keeps a backslash-newline as it
// is: single-quoted and ANSI-C strings and the bodies of here-documents
// with a quoted delimiter, in order. Comments are left out: the parser
// reads continuations in them differently when it keeps them, so a
// comment that ends in a backslash makes the readings differ and asks.
func kept(f *syntax.File) []span {
	var spans []span
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			spans = append(spans, span{n.Pos().Offset(), n.End().Offset()})
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Hdoc != nil && quotedDelimiter(n.Word) {
				spans = append(spans, span{n.Hdoc.Pos().Offset(), n.Hdoc.End().Offset()})
			}
		}
		return true
	})
	slices.SortFunc(spans, func(a, b span) int { return int(a.start) - int(b.start) })
	return spans
}

// joinLines is src with every line continuation outside the kept spans
// removed: a newline after an odd run of backslashes, since an even run
// is escaped backslashes.
func joinLines(src string, keep []span) string {
	var b bytes.Buffer
	b.Grow(len(src))
	for i := 0; i < len(src); {
		if src[i] != '\\' {
			b.WriteByte(src[i])
			i++
			continue
		}
		j := i
		for j < len(src) && src[j] == '\\' {
			j++
		}
		for len(keep) > 0 && keep[0].end <= uint(j-1) {
			keep = keep[1:]
		}
		inKept := len(keep) > 0 && keep[0].start <= uint(j-1)
		if j < len(src) && src[j] == '\n' && (j-i)%2 == 1 && !inKept {
			b.WriteString(src[i : j-1])
			i = j + 1
			continue
		}
		b.WriteString(src[i:j])
		i = j
	}
	return b.String()
}

// sameSubjects reports whether two readings find the same subjects: the
// same tools, arguments and marks, wherever their texts stand.
func sameSubjects(a, b []agentpolicy.Subject) bool {
	return slices.EqualFunc(a, b, func(x, y agentpolicy.Subject) bool {
		return x.Tool == y.Tool && bytes.Equal(x.Args, y.Args) && x.Constrain == y.Constrain && (x.Unseen == "") == (y.Unseen == "")
	})
}
