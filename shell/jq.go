package shell

import "strings"

// jq: a filter, which runs no program, and the files it reads. Its
// options are read exactly as jq 1.6 and 1.7 read them: long options
// are never abbreviated, short ones cluster, and --arg and its kin take
// two words.

// jqBare are jq's options that take no value, one a line, its short
// letter beside its long name.
var jqBare = words(`
	n null-input
	R raw-input
	s slurp
	c compact-output
	r raw-output
	raw-output0
	j join-output
	a ascii-output
	S sort-keys
	C color-output
	M monochrome-output
	tab
	unbuffered
	stream
	stream-errors
	seq
	e exit-status
	b binary
	h help
	V version
	build-configuration
	0 nul-output
	args
	jsonargs
`)

// jqValues are jq's options that take words after them: how many, and
// which of them, counted from one, is a file it reads (0 for none).
var jqValues = map[string]struct{ words, file int }{
	"indent":       {1, 0},
	"f":            {1, 1},
	"from-file":    {1, 1},
	"L":            {1, 1},
	"library-path": {1, 1},
	"arg":          {2, 0},
	"argjson":      {2, 0},
	"slurpfile":    {2, 2},
	"rawfile":      {2, 2},
}

// jqEffects reads jq's command line: its operands after the filter are
// files it reads, unless --args or --jsonargs made them values; a filter
// from -f makes every operand a file. A filter that imports or includes
// a module reads files the splitter does not follow.
func jqEffects(args []word) effects {
	var e effects
	// operands are the words that are no option, each marked when
	// --args or --jsonargs before it made it a value.
	var operands []word
	var values []bool
	fromFile, valuesAfter := false, false
	operand := func(w word) {
		operands, values = append(operands, w), append(values, valuesAfter)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		var names []string
		switch {
		case !a.literal || a.pattern:
			if strings.HasPrefix(v, "-") || !a.literal {
				e.unseen = firstOf(e.unseen, "the word "+v+" may be an option of jq, known only when it runs")
			}
			operand(a)
			continue
		case v == "--":
			for _, w := range args[i+1:] {
				operand(w)
			}
			i = len(args)
			continue
		case strings.HasPrefix(v, "--"):
			names = []string{v[2:]}
		case len(v) > 1 && v[0] == '-':
			for _, c := range v[1:] {
				names = append(names, string(c))
			}
		default:
			operand(a)
			continue
		}
		for _, name := range names {
			if jqBare[name] {
				valuesAfter = valuesAfter || name == "args" || name == "jsonargs"
				continue
			}
			takes, ok := jqValues[name]
			if !ok || len(names) > 1 && name != names[len(names)-1] {
				e.unseen = firstOf(e.unseen, "jq "+v+" is not an option the splitter knows")
				break
			}
			if takes.file > 0 && i+takes.file < len(args) {
				e.reads = append(e.reads, args[i+takes.file])
			}
			fromFile = fromFile || name == "f" || name == "from-file"
			i += takes.words
		}
	}
	if !fromFile && len(operands) > 0 {
		filter := operands[0]
		operands, values = operands[1:], values[1:]
		if strings.Contains(filter.value, "import") || strings.Contains(filter.value, "include") {
			e.unseen = firstOf(e.unseen, "jq's filter loads a module, which the splitter does not read")
		}
	}
	if fromFile {
		e.unseen = firstOf(e.unseen, "jq -f reads a filter that may load modules the splitter does not read")
	}
	for i, w := range operands {
		if !values[i] {
			e.reads = append(e.reads, w)
		}
	}
	e.readOnly = e.unseen == "" && allKnown(args)
	return e
}
