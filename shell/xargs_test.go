package shell

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// xargsCases are inputs and options of xargs, each read by the splitter
// and by the real xargs (GNU findutils).
var xargsCases = []struct {
	input          string
	options, after []string
}{
	{"a b\nc\n", nil, nil},
	{"a  b\t c", nil, nil},
	{"\"a b\" c\n", nil, nil},
	{"'a \"b' c\n", nil, nil},
	{"\"a\\b\" c\n", nil, nil},
	{"a\\ b c\n", nil, nil},
	{"a\\\nb\n", nil, nil},
	{"a\\", nil, nil},
	{"a \"\" '' b\n", nil, nil},
	{"#a b\n", nil, nil},
	{".e\"nv\"\n", nil, nil},
	{"", nil, nil},
	{"\n", nil, nil},
	{"", []string{"-r"}, nil},
	{"a b c d e\n", []string{"-n2"}, nil},
	{"a b c d e\n", []string{"--max-args=1"}, nil},
	{"a b\nc d\ne\n", []string{"-L1"}, nil},
	{"a b \nc d\ne\n", []string{"-L", "1"}, nil},
	{"a\n\nb c\n", []string{"-L1"}, nil},
	{"a b\nc\nd\n", []string{"-L2"}, nil},
	{"a b\nc\n", []string{"-l"}, nil},
	{"a _ b\n", []string{"-E", "_"}, nil},
	{"a \"_\" b\n", []string{"-E_"}, nil},
	{"a _x b\n", []string{"-E", "_"}, nil},
	{"a\n_ b\nc\n", []string{"-L1", "-E", "_"}, nil},
	{"a b\x00c\x00", []string{"-0"}, nil},
	{"a\x00\x00b", []string{"-0"}, nil},
	{"a _ b", []string{"-0", "-E", "_"}, nil},
	{"a\nb\n", []string{"-d", "\\n"}, nil},
	{"a\n\nb", []string{"-d", "\\n"}, nil},
	{"a,b,.env\n", []string{"-d", ","}, nil},
	{"a b\tc\n", []string{"-d", "\\t"}, nil},
	{"a\nb\nc\n", []string{"-d", "\\n", "-L2"}, nil},
	{"a_b", []string{"-d", "_", "-0"}, nil},
	{"  a b\n c\n", []string{"-I{}"}, []string{"x{}y", "{}"}},
	{"\"a b\" c\nd\\ e\n", []string{"-I", "@@"}, []string{"@@"}},
	{"a\n\n b \n", []string{"-I{}"}, []string{"{}"}},
	{"a\nb\n", []string{"-i"}, []string{"{}"}},
	{"a\nb\n", []string{"--replace=@"}, []string{"<@>"}},
	{"a\n_\nb\n", []string{"-I{}", "-E", "_"}, []string{"{}"}},
}

// TestXargsSplitsAsXargs holds the splitter's reading of xargs's input
// to the real xargs: each case's input, given to the real xargs, runs a
// shell that prints the words it gets, one line per command xargs runs,
// and the splitter's command lines must be the same.
func TestXargsSplitsAsXargs(t *testing.T) {
	printer := []string{"sh", "-c", `for a; do printf '[%s]' "$a"; done; echo`, "sh"}
	for _, c := range xargsCases {
		cmd := exec.Command("xargs", append(append(c.options[:len(c.options):len(c.options)], printer...), c.after...)...)
		cmd.Stdin = strings.NewReader(c.input)
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("xargs %q <<< %q: %v", c.options, c.input, err)
		}

		var words []word
		for _, o := range c.options {
			words = append(words, word{value: o, literal: true})
		}
		p := lookup("xargs").flags.parseFlags("xargs", words, false)
		if p.opaque != "" {
			t.Fatalf("xargs %q: %s", c.options, p.opaque)
		}
		in, stdin := xargsRead(p)
		items, read := in.items(c.input)
		if !stdin || !read || !in.exact {
			t.Errorf("xargs %q <<< %q: read as known only when it runs", c.options, c.input)
			continue
		}
		var initial []word
		for _, a := range append(printer[:len(printer):len(printer)], c.after...) {
			initial = append(initial, word{value: a, literal: true})
		}
		var got strings.Builder
		for _, run := range in.runs(initial, items) {
			for _, w := range run[len(printer):] {
				fmt.Fprintf(&got, "[%s]", w.value)
			}
			got.WriteString("\n")
		}
		if got.String() != string(want) {
			t.Errorf("xargs %q <<< %q:\n got %q\nwant %q", c.options, c.input, got.String(), want)
		}
	}
}

// TestXargsInputUnknown holds inputs and options xargs reads otherwise
// than the splitter models to a reading known only when it runs.
func TestXargsInputUnknown(t *testing.T) {
	for _, c := range []struct {
		input   string
		options []string
	}{
		{"a\"b c\n", nil},
		{"'a\nb'\n", nil},
		{"a b\n", []string{"-s", "5"}},
		{"a b\n", []string{"-x"}},
		{"a b\n", []string{"-n1", "-L1"}},
		{"a b\n", []string{"-d", "ab"}},
		{"a b\n", []string{"-n", "0"}},
	} {
		var words []word
		for _, o := range c.options {
			words = append(words, word{value: o, literal: true})
		}
		in, _ := xargsRead(lookup("xargs").flags.parseFlags("xargs", words, false))
		if _, read := in.items(c.input); read && in.exact {
			t.Errorf("xargs %q <<< %q: read as known", c.options, c.input)
		}
	}
}

// TestPrintfTextAsPrintf holds the text the splitter reads printf to
// print into a pipe to what bash's printf prints.
func TestPrintfTextAsPrintf(t *testing.T) {
	for _, c := range [][]string{
		{"%s\\0", ".env"},
		{"%s\\0", "a", "b"},
		{"%s\\n", "a.txt", ".env"},
		{"%s %s\\n", "a", "b", "c"},
		{"x%sy\\t%%\\n", "a", "b"},
		{"a\\\\b\\n"},
		{"%s"},
		{"plain"},
		{"\\'\\\"\\a\\b\\f\\r\\v"},
	} {
		want, err := exec.Command("bash", append([]string{"-c", `printf "$@"`, "bash"}, c...)...).Output()
		if err != nil {
			t.Fatalf("printf %q: %v", c, err)
		}
		got, ok := printfText(c[0], c[1:])
		if !ok || got != string(want) {
			t.Errorf("printf %q: read %q (%v), bash prints %q", c, got, ok, want)
		}
	}
	for _, format := range []string{"%d", "%b", "\\0101", "\\x41", "%5s", "a\\"} {
		if got, ok := printfText(format, []string{"1"}); ok {
			t.Errorf("printf %q: read as %q, want known only when it runs", format, got)
		}
	}
}
