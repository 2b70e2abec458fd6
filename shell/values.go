package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What a script sets its variables to, as far as its text shows: a
// variable set only to literals, or by arithmetic, before it is read, and
// named nowhere else a command could set it, holds a value known before
// the command runs. Arithmetic reads such a variable safely, and a
// command named by one is held to the rules for the command it names.

// assigned is what a script sets a variable to: where it first does,
// whether every value it gives it is a number, and whether each is a
// number or a plain name; value is the literal, when every assignment
// gives the same one.
type assigned struct {
	at             uint
	number, simple bool
	value          string
	one            bool
}

// varValues is what a script sets its variables to: the variables set
// only to literals or by arithmetic, and the tainted ones, set some other
// way or named anywhere a command might set them (read x, printf -v x, a
// nameref, an eval string).
type varValues struct {
	set     map[string]assigned
	tainted map[string]bool
	// given are the literals the script gives each variable anywhere,
	// by assignment, as an array's element or as a for loop's item,
	// tainted or not: the values a word made of it may take
	// (possible.go), some of them.
	given map[string][]string
	// copies are the variables the script gives a positional parameter's
	// value ("f=$1", "for f in "$@"", "for f"), each beside the
	// parameter: they may take each value it may (givePositional).
	copies [][2]string
	// startup are the values the script gives BASH_ENV and ENV, literal
	// or not: files a shell it starts runs first (startup.go).
	startup []*syntax.Word
}

// assignedValues reads the variables of the script being walked, once.
func (s *splitter) assignedValues() *varValues {
	if s.vars == nil {
		s.vars = scanValues(s.tree, s)
		s.givePositional(s.vars)
		for _, c := range s.vars.copies {
			for _, value := range s.vars.given[c[1]] {
				if len(s.vars.given[c[0]]) < maxPossible {
					s.vars.given[c[0]] = appendNew(s.vars.given[c[0]], value)
				}
			}
		}
	}
	return s.vars
}

// known reports whether the variable name holds, at offset at, a value
// arithmetic reads safely: a number, or when number is not set, a plain
// name too.
func (s *splitter) known(name string, at uint, number bool) bool {
	v := s.assignedValues()
	if numericVariables[name] {
		return !v.tainted[name]
	}
	a, ok := v.set[name]
	return ok && !v.tainted[name] && a.at <= at && (a.number || a.simple && !number)
}

// literalValue is the one literal the script has set the variable name
// to by offset at, and ok when there is one.
func (s *splitter) literalValue(name string, at uint) (string, bool) {
	v := s.assignedValues()
	a, ok := v.set[name]
	if !ok || !a.one || v.tainted[name] || a.at > at {
		return "", false
	}
	return a.value, true
}

// scanValues reads which variables f sets, and how.
func scanValues(f *syntax.File, s *splitter) *varValues {
	v := &varValues{set: map[string]assigned{}, tainted: map[string]bool{}, given: map[string][]string{}}
	give := func(name string, w *syntax.Word) {
		if read := s.wordOf(w); read.literal && !read.pattern && len(v.given[name]) < maxPossible {
			v.given[name] = appendNew(v.given[name], read.value)
		}
		if param := positionalParam(w); param != "" {
			v.copies = append(v.copies, [2]string{name, param})
		}
	}
	// Lits that name a variable being read or set are not mentions.
	skip := map[*syntax.Lit]bool{}
	skipArith := func(x syntax.Node) {
		if w, ok := x.(*syntax.Word); ok {
			for _, p := range w.Parts {
				if l, ok := p.(*syntax.Lit); ok {
					skip[l] = true
				}
			}
		}
	}
	// record notes an assignment of a literal value, or, when computed is
	// set, of a number arithmetic computes.
	record := func(name string, at uint, value string, computed bool) {
		number := computed || isNumber(value)
		b := assigned{at: at, number: number, simple: number || isName(value), value: value, one: !computed}
		if a, ok := v.set[name]; ok {
			b = assigned{at: min(a.at, at), number: a.number && b.number, simple: a.simple && b.simple,
				value: a.value, one: a.one && b.one && a.value == value}
		}
		v.set[name] = b
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Param != nil {
				skip[n.Param] = true
			}
			skipArith(n.Index)
			if n.Slice != nil {
				skipArith(n.Slice.Offset)
				skipArith(n.Slice.Length)
			}
		case *syntax.Assign:
			skipArith(n.Index)
			if n.Name == nil {
				break
			}
			skip[n.Name] = true
			if n.Array != nil {
				for _, elem := range n.Array.Elems {
					if elem.Value != nil {
						give(n.Name.Value, elem.Value)
					}
				}
			}
			if n.Append && n.Index == nil && n.Value != nil && slices.Contains(startupVariables, n.Name.Value) {
				// "BASH_ENV+=f" names f when the variable was empty.
				v.startup = append(v.startup, n.Value)
			}
			if n.Index != nil || n.Append || n.Array != nil || n.Naked {
				v.tainted[n.Name.Value] = true
				break
			}
			if n.Value != nil {
				give(n.Name.Value, n.Value)
				if slices.Contains(startupVariables, n.Name.Value) {
					v.startup = append(v.startup, n.Value)
				}
			}
			value := ""
			if n.Value != nil {
				w := s.wordOf(n.Value)
				if !w.literal {
					if computesNumber(n.Value.Parts) {
						record(n.Name.Value, n.End().Offset(), "", true)
					} else {
						v.tainted[n.Name.Value] = true
					}
					break
				}
				value = w.value
			}
			record(n.Name.Value, n.End().Offset(), value, false)
		case *syntax.ArrayElem:
			skipArith(n.Index)
		case *syntax.BinaryArithm:
			skipArith(n.X)
			skipArith(n.Y)
			if name := arithName(n.X); name != "" && assigns(n.Op) {
				record(name, n.End().Offset(), "", true)
			}
		case *syntax.UnaryArithm:
			skipArith(n.X)
			if name := arithName(n.X); name != "" && (n.Op == syntax.Inc || n.Op == syntax.Dec) {
				record(name, n.End().Offset(), "", true)
			}
		case *syntax.ParenArithm:
			skipArith(n.X)
		case *syntax.ArithmExp:
			skipArith(n.X)
		case *syntax.ArithmCmd:
			skipArith(n.X)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				skipArith(x)
			}
		case *syntax.CStyleLoop:
			skipArith(n.Init)
			skipArith(n.Cond)
			skipArith(n.Post)
		case *syntax.BinaryTest:
			if arithmeticTest(n.Op) {
				skipArith(n.X)
				skipArith(n.Y)
			}
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				skip[it.Name] = true
				if !it.InPos.IsValid() {
					// "for f; do": the loop runs over "$@".
					v.copies = append(v.copies, [2]string{it.Name.Value, "@"})
				}
				number := true
				for _, w := range it.Items {
					give(it.Name.Value, w)
					read := s.wordOf(w)
					number = number && read.literal && isNumber(read.value)
				}
				if number && len(it.Items) > 0 {
					record(it.Name.Value, it.Items[0].Pos().Offset(), "", true)
				} else {
					v.tainted[it.Name.Value] = true
				}
			}
		case *syntax.Stmt:
			for name, values := range s.readValues(n) {
				for _, value := range values {
					if len(v.given[name]) < maxPossible {
						v.given[name] = appendNew(v.given[name], value)
					}
				}
			}
		case *syntax.SglQuoted:
			taintNames(v.tainted, n.Value)
		case *syntax.Lit:
			if !skip[n] {
				taintNames(v.tainted, taintOptionNames(v.tainted, n.Value))
			}
		}
		return true
	})
	return v
}

// computesNumber reports whether a word's parts are only arithmetic
// expansions and digits, so its value is a number: "$((i+1))".
func computesNumber(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ArithmExp:
		case *syntax.Lit:
			if strings.Trim(p.Value, "0123456789") != "" {
				return false
			}
		case *syntax.DblQuoted:
			if !computesNumber(p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// taintOptionNames marks the names a cluster of short options may give
// joined to an option that takes one, "x" in "printf -vx …", and returns
// the text after the cluster. The letters of a lone option, "-v", name
// no variable.
func taintOptionNames(tainted map[string]bool, text string) string {
	if len(text) < 2 || text[0] != '-' || text[1] == '-' {
		return text
	}
	end := 1
	for end < len(text) && (nameStart(text[end]) || '0' <= text[end] && text[end] <= '9') {
		end++
	}
	for k := 2; k < end; k++ {
		if nameStart(text[k]) {
			tainted[text[k:end]] = true
		}
	}
	return text[end:]
}

// taintNames marks every name in text as set some way the script does
// not show.
func taintNames(tainted map[string]bool, text string) {
	for i := 0; i < len(text); {
		if !nameStart(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && (nameStart(text[j]) || '0' <= text[j] && text[j] <= '9') {
			j++
		}
		tainted[text[i:j]] = true
		i = j
	}
}

// nameStart reports whether c may start a variable name.
func nameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isName reports whether v is a variable name.
func isName(v string) bool {
	if v == "" || !nameStart(v[0]) {
		return false
	}
	for i := 1; i < len(v); i++ {
		if !nameStart(v[i]) && !('0' <= v[i] && v[i] <= '9') {
			return false
		}
	}
	return true
}

// namedBy are the commands a command's name may expand to, each as the
// words that stand in its place, when the name is one plain expansion,
// "$x", "${x}" or either in double quotes: "rm" in "x=rm; $x -f f", of a
// variable the script set to one literal before; each value the words
// after a shell's -c string give a positional parameter, "$1" or "$0",
// or a variable the script copies one to ("c=$1", "for c"); and those
// words from the second on for "$@" and "$*". A rule for the command it
// names then holds.
func (s *splitter) namedBy(name word) [][]word {
	if name.literal || name.end <= name.pos {
		return nil
	}
	text := s.src[name.pos:name.end]
	quoted := len(text) > 1 && text[0] == '"' && text[len(text)-1] == '"'
	if quoted {
		text = text[1 : len(text)-1]
	}
	variable, ok := strings.CutPrefix(text, "$")
	if braced, ok := strings.CutPrefix(variable, "{"); ok {
		variable, ok = strings.CutSuffix(braced, "}")
		if !ok {
			return nil
		}
	}
	if !ok {
		return nil
	}
	var given []string
	switch {
	case variable == "@" || variable == "*":
		if len(s.positional) < 2 || !allLiteral(s.positional[1:]) {
			return nil
		}
		// Quoted, "$*" joins them into one word, which names no
		// command; read as "$@", a rule for the first still holds.
		return [][]word{s.stood(values(s.positional[1:]), name, quoted)}
	case isPositional(variable):
		given = s.assignedValues().given[variable]
	case isName(variable):
		if value, ok := s.literalValue(variable, name.pos); ok {
			given = []string{value}
		} else if s.copiesPositional(variable) {
			given = s.assignedValues().given[variable]
		}
	}
	var out [][]word
	for _, v := range given {
		if words := s.stood([]string{v}, name, quoted); len(words) > 0 {
			out = append(out, words)
		}
	}
	return out
}

// positionalParam is the positional parameter w is, "1" for "$1" or
// "${1}", "@" for "$@" and "$*", quoted or not, and "" when it is none.
func positionalParam(w *syntax.Word) string {
	parts := w.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	if len(parts) != 1 {
		return ""
	}
	p, ok := parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 {
		return ""
	}
	switch name := p.Param.Value; {
	case name == "*":
		return "@"
	case name == "@" || isPositional(name):
		return name
	}
	return ""
}

// positionalWords are the words a command's word that is one positional
// parameter, "$1", $0, "${2}" or "$@", stands for in a shell's -c string,
// and ok when they are known: the parameter is among the literal words
// after the string, the script runs no command that may change them
// (set, shift, source, eval, one named when it runs) and the word is in
// no function, whose parameters are its own; unquoted, the value holds
// no blank and no glob character, which would split or expand it.
func (s *splitter) positionalWords(w *syntax.Word) ([]word, bool) {
	param := positionalParam(w)
	if param == "" || len(s.positional) == 0 || !s.keepsPositional(w) {
		return nil, false
	}
	_, quoted := w.Parts[0].(*syntax.DblQuoted)
	if p, ok := w.Parts[0].(*syntax.ParamExp); ok && p.Param.Value == "*" || quoted && strings.Contains(s.text(w), "*") {
		// "$*" joins the parameters into one word.
		return nil, false
	}
	var params []word
	if param == "@" {
		params = s.positional[1:]
	} else if n, _ := strconv.Atoi(param); n < len(s.positional) {
		params = s.positional[n : n+1]
	} else {
		return nil, false
	}
	out := make([]word, 0, len(params))
	for _, p := range params {
		if !p.literal || p.pattern || !quoted && (p.value == "" || strings.ContainsAny(p.value, " \t\n*?[")) {
			return nil, false
		}
		out = append(out, word{value: p.value, literal: true, pos: w.Pos().Offset(), end: w.End().Offset()})
	}
	return out, true
}

// keepsPositional reports whether the positional parameters hold, where
// w stands, the words the shell was given: no command of the script may
// change them and w is in no function.
func (s *splitter) keepsPositional(w *syntax.Word) bool {
	keeps := true
	syntax.Walk(s.tree, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Pos().Offset() <= w.Pos().Offset() && w.End().Offset() <= n.End().Offset() {
				keeps = false
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				name := s.wordOf(n.Args[0])
				if param := positionalParam(n.Args[0]); param != "" && !name.literal {
					// A command a parameter names: the word it is.
					name = s.positionalName(param)
				}
				keeps = keeps && name.literal && !changesPositional(name.value)
			}
		}
		return keeps
	})
	return keeps
}

// positionalName is the word the positional parameter param names a
// command by, as the shell was given it: $N the Nth, "$@" the first
// after $0; a word not literal when there is none.
func (s *splitter) positionalName(param string) word {
	n := 1
	if param != "@" {
		n, _ = strconv.Atoi(param)
	}
	if n < len(s.positional) {
		return s.positional[n]
	}
	return word{}
}

// changesPositional reports whether the command name may set the
// positional parameters of the shell that runs it.
func changesPositional(name string) bool {
	switch name {
	case "set", "shift", "source", ".", "eval", "builtin", "command", "exec":
		return true
	}
	return false
}

// copiesPositional reports whether the script gives the variable name
// a positional parameter's value.
func (s *splitter) copiesPositional(name string) bool {
	for _, c := range s.assignedValues().copies {
		if c[0] == name {
			return true
		}
	}
	return false
}

// isPositional reports whether v names a positional parameter, $0 to $9
// or ${10} and on.
func isPositional(v string) bool {
	_, err := strconv.Atoi(v)
	return err == nil && v[0] != '-' && v[0] != '+'
}

// stood are values as the words that stand where name does: each one
// word when quoted, split at blanks otherwise.
func (s *splitter) stood(values []string, name word, quoted bool) []word {
	var words []word
	for _, v := range values {
		fields := []string{v}
		if !quoted {
			fields = strings.Fields(v)
		}
		for _, f := range fields {
			words = append(words, word{value: f, literal: true, pos: name.pos, end: name.end})
		}
	}
	return words
}

// runNamed adds, as constraints, the subjects of a command named by a
// variable the script set to a literal or by a positional parameter, with
// the name replaced by each value it may take, so that a deny or ask
// rule for "rm" holds for "x=rm; $x -f f" and "sh -c '"$1" f' _ rm". The
// command itself stays unseen: no rule allows it.
func (s *splitter) runNamed(cmd command, depth int) error {
	for _, named := range s.namedBy(cmd.words[0]) {
		start := len(s.subjects)
		words := append(named, cmd.words[1:]...)
		if err := s.run(command{words: words, text: cmd.text, unseen: cmd.unseen}, depth+1); err != nil {
			return err
		}
		for i := range s.subjects[start:] {
			s.subjects[start+i].Constrain = true
		}
	}
	return nil
}

// givePositional gives the parameters of a shell's -c string the literal
// words after it as values they may take: $0 the first, $N (which shift
// may move) each from the Nth on, "$@" and "$*" each after the first.
func (s *splitter) givePositional(v *varValues) {
	for n, w := range s.positional {
		if !w.literal || w.pattern {
			continue
		}
		names := []string{"0"}
		if n > 0 {
			names = []string{"@", "*"}
			for m := 1; m <= n && m <= 9; m++ {
				names = append(names, strconv.Itoa(m))
			}
		}
		for _, name := range names {
			if len(v.given[name]) < maxPossible {
				v.given[name] = appendNew(v.given[name], w.value)
			}
		}
	}
}
