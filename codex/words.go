package codex

import (
	"errors"
	"strings"
)

// errExampleSyntax is the error of an example string a POSIX shell could
// not split: an unclosed quote or a trailing backslash.
var errExampleSyntax = errors.New("invalid example: example string has invalid shell syntax")

// shellWords splits an example command line into words as a POSIX shell
// splits a line of plain words: blanks separate words, single quotes keep
// everything, double quotes keep everything but a backslash before one of
// `$"\` or a newline, and a backslash outside quotes keeps the next
// character. Nothing is expanded.
func shellWords(line string) ([]string, error) {
	var words []string
	var b strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord = append(words, b.String()), false
				b.Reset()
			}
			continue
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errExampleSyntax
			}
			b.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("$`\"\\\n", line[j+1]) >= 0 {
					j++
				}
				b.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, errExampleSyntax
			}
			i = j
		case c == '\\':
			if i+1 >= len(line) {
				return nil, errExampleSyntax
			}
			i++
			b.WriteByte(line[i])
		default:
			b.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, nil
}
