package shell

import (
	"reflect"
	"strings"

	"github.com/benhoyt/goawk/lexer"
	"github.com/benhoyt/goawk/parser"
)

// awk, a reader a policy may allow whose program can run a command:
// the program is parsed with goawk's parser and its syntax tree read for
// what runs a command, system(), a pipe to or from a command, and for the
// files it writes and reads besides its operands.

// awkOptions are the options of awk, gawk, mawk and nawk. A program in a
// file (-f, -E, -i), a library (-l) and mawk's -W make it hide code; the
// options that write a profile or a dump write a file of their choosing.
var awkOptions = flagSet(byEffect{
	inert: `
		F: field-separator:
		v: assign:
		e: source:
		b characters-as-bytes
		c traditional
		C copyright
		g gen-pot
		h help
		L:: lint::
		M bignum
		n non-decimal-data
		N use-lc-numeric
		O optimize
		P posix
		r re-interval
		s no-optimize
		S sandbox
		t lint-old
		V version
	`,
	runs: `
		f: file:
		E: exec:
		i: include:
		l: load:
		W:
	`,
	changes: `
		d:: dump-variables::
		D:: debug::
		o:: pretty-print::
		p:: profile::
	`,
})

// awkEffects reads awk's command line: its program, given as the first
// operand or with -e, and the files it reads.
func awkEffects(base string, args []word) effects {
	p := awkOptions.parseFlags(base, args, true)
	e := effects{unseen: p.opaque}
	if g, ok := p.first(runs); ok {
		e.unseen = firstOf(e.unseen, base+" "+g.written+" runs a program the splitter cannot read")
	}
	if g, ok := p.first(changes); ok {
		e.unseen = firstOf(e.unseen, base+" "+g.written+" writes a file")
	}
	var programs []word
	fromFile := false
	assigned := awkAssigned(p)
	for _, g := range p.options {
		switch g.name {
		case "e", "source":
			programs = append(programs, g.value)
		case "f", "file", "E", "exec", "i", "include":
			// A program file: read, and its code hidden.
			e.reads = append(e.reads, g.value)
			fromFile = true
		}
	}
	files := p.operands
	if len(programs) == 0 && !fromFile && len(files) > 0 {
		programs, files = files[:1], files[1:]
	}
	for _, prog := range programs {
		why, reads, writes := awkProgram(base, prog, assigned)
		e.unseen = firstOf(e.unseen, why)
		e.reads, e.writes = append(e.reads, reads...), append(e.writes, writes...)
	}
	for _, f := range files {
		// An operand NAME=VALUE assigns a variable before the next file.
		if !isAssignment(f.value) {
			e.reads = append(e.reads, f)
		}
	}
	e.readOnly = e.unseen == "" && len(e.writes) == 0 && allKnown(args)
	return e
}

// awkProgram is why an awk program runs a command or reads or writes a
// file no rule can see, with the files it names as string literals that
// getline reads and print writes.
func awkProgram(base string, program word, assigned map[string][]word) (why string, reads, writes []word) {
	if !program.literal {
		return base + " runs a program made when it runs", nil, nil
	}
	prog, err := parser.ParseProgram([]byte(program.value), nil)
	if err != nil {
		return base + "'s program is not awk the splitter reads: " + err.Error(), nil, nil
	}
	w := awkWalk{base: base, at: program, assigned: assigned}
	w.value(reflect.ValueOf(prog.Program), 0)
	return w.why, w.reads, w.writes
}

// awkWalk reads a goawk syntax tree, whose node types are internal to
// goamk, by reflection: by the names of the nodes and their fields.
type awkWalk struct {
	base          string
	at            word
	why           string
	reads, writes []word
	// assigned are the values the command line gives each variable
	// (-v NAME=VALUE, an operand NAME=VALUE).
	assigned map[string][]word
}

// maxAwkDepth bounds how deep the walk follows the tree.
const maxAwkDepth = 512

// value walks one value of the tree.
func (w *awkWalk) value(v reflect.Value, depth int) {
	if w.why != "" {
		return
	}
	if depth > maxAwkDepth {
		w.why = w.base + "'s program nests too deeply to be read"
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			w.value(v.Elem(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			w.value(v.Index(i), depth+1)
		}
	case reflect.Struct:
		w.node(v)
		for i := range v.NumField() {
			w.value(v.Field(i), depth+1)
		}
	}
}

// node reads one node of the tree for what it does.
func (w *awkWalk) node(v reflect.Value) {
	switch v.Type().Name() {
	case "CallExpr":
		if lexer.Token(v.FieldByName("Func").Int()) == lexer.F_SYSTEM {
			w.why = w.base + "'s program runs a command with system()"
		}
	case "PrintStmt", "PrintfStmt":
		dest := v.FieldByName("Dest")
		switch {
		case dest.IsNil():
		case lexer.Token(v.FieldByName("Redirect").Int()) == lexer.PIPE:
			w.why = w.base + "'s program pipes its output to a command"
		default:
			w.file(dest, &w.writes, "writes")
		}
	case "GetlineExpr":
		if !v.FieldByName("Command").IsNil() {
			w.why = w.base + "'s program runs a command for getline"
		} else if file := v.FieldByName("File"); !file.IsNil() {
			w.file(file, &w.reads, "reads")
		}
	case "NamedFieldExpr":
		w.why = w.base + "'s program has @, which gawk reads as a directive or an indirect call"
	case "VarExpr", "ArrayExpr":
		w.argv(v.FieldByName("Name"))
	case "IndexExpr":
		w.argv(v.FieldByName("Array"))
	}
}

// argv hides the program when it names ARGV or ARGC, through which it
// may read files other than its operands.
func (w *awkWalk) argv(name reflect.Value) {
	if name.IsValid() && name.Kind() == reflect.String && (name.String() == "ARGV" || name.String() == "ARGC") {
		w.why = w.base + "'s program names " + name.String() + ", which changes the files it reads"
	}
}

// file adds the file a print or getline names when it is a string
// literal; one made when the program runs hides which file it is.
func (w *awkWalk) file(expr reflect.Value, to *[]word, does string) {
	str := expr.Elem()
	if str.Kind() == reflect.Pointer {
		str = str.Elem()
	}
	if str.Type().Name() != "StrExpr" || str.FieldByName("Regex").Bool() {
		if str.Type().Name() == "VarExpr" {
			// A variable the command line sets may hold another value
			// by then, but the file it names is one it may read.
			*to = append(*to, w.assigned[str.FieldByName("Name").String()]...)
		}
		w.why = w.base + "'s program " + does + " a file named when it runs"
		return
	}
	path := w.at
	path.value = str.FieldByName("Value").String()
	path.pattern = false
	*to = append(*to, path)
}

// awkAssigned are the values an awk command line gives its variables,
// by -v and by operands NAME=VALUE, each a word of its own.
func awkAssigned(p parsed) map[string][]word {
	assigned := map[string][]word{}
	give := func(w word) {
		name, value, ok := strings.Cut(w.value, "=")
		if ok && w.literal && isName(name) {
			w.value = value
			assigned[name] = append(assigned[name], w)
		}
	}
	for _, g := range p.options {
		if g.name == "v" || g.name == "assign" {
			give(g.value)
		}
	}
	for _, w := range p.operands {
		give(w)
	}
	return assigned
}

// isAwkName reports whether base names an awk.
func isAwkName(base string) bool {
	return base == "awk" || base == "gawk" || base == "mawk" || base == "nawk" || strings.HasPrefix(base, "original-awk")
}
