package shell

// WithWordsField adds to the subject of every command the words the
// program is given, as far as the splitter reads them, under the member
// name: {"command":"git commit -m fix it","words":["git","commit","-m","fix it"]}.
// The normalised command joins the words with single spaces, which cannot
// tell the word "fix it" from the two words "fix" and "it"; a matcher that
// needs word boundaries, as an argv prefix does, reads this member. A word
// made when the command runs is as written ("$f"). The subject of a
// command named by a path by its base name has the base name as its first
// word.
func WithWordsField(name string) Option {
	return func(c *config) { c.wordsField = name }
}

// markWords adds the words member to the last subject's Args when it is
// configured, the first word replaced by name when name is not empty.
func (s *splitter) markWords(words []word, name string) {
	if s.wordsField == "" {
		return
	}
	last := &s.subjects[len(s.subjects)-1]
	args := last.Args[: len(last.Args)-1 : len(last.Args)-1]
	args = append(args, ',')
	args = appendString(args, s.wordsField)
	args = append(args, ':', '[')
	for i, w := range words {
		if i > 0 {
			args = append(args, ',')
		}
		value := w.value
		if i == 0 && name != "" {
			value = name
		}
		args = appendString(args, value)
	}
	last.Args = append(args, "]}"...)
}
