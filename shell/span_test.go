package shell

import "testing"

// TestSpan checks the text of words as written, and of words the
// splitter made, which stand nowhere in the source.
func TestSpan(t *testing.T) {
	s := splitter{config: &config{field: "command"}, src: "xargs env echo"}
	for _, c := range []struct {
		words []word
		want  string
	}{
		{[]word{{value: "env", pos: 6, end: 9}, {value: "echo", pos: 10, end: 14}}, "env echo"},
		{[]word{{value: "echo", pos: 10, end: 14}, {value: "<input>"}}, "echo"},
		{[]word{{value: "rm"}, {value: "-f"}}, "rm -f"},
		{[]word{{value: "x", pos: 20, end: 22}}, "x"},
	} {
		if got := s.span(c.words); got != c.want {
			t.Errorf("span %v: %q, want %q", c.words, got, c.want)
		}
	}
}
