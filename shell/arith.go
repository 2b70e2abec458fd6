package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates some values as arithmetic: in $((…)), ((…)), let, a
// C-style for, an array subscript, a substring offset, ${!x}, the
// operands of [[ … -eq … ]] and the values of a variable declared with
// -i. A variable named there is read as an expression in turn, and the
// subscript of an array element named in it is expanded, so a value
// "a[$(rm -rf x)]" runs rm. What reaches arithmetic is allowed by a table
// of what is safe: number literals, bash's own numeric variables, nested
// arithmetic, and variables the same script sets, before they are read,
// to a literal number and to nothing else. Anything else, a value read
// from a file or a command, a variable from the environment, the output
// of a substitution, an array element, makes the command unseen.

// arithWhy is the reason arithmetic reading what is unseen.
func arithWhy(what string) string {
	return "bash evaluates " + what + " as arithmetic, a value known only when it runs, in which it runs command substitutions"
}

// numericVariables are the variables bash itself keeps as numbers.
var numericVariables = map[string]bool{
	"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"LINENO": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true, "EPOCHSECONDS": true,
}

// assigns reports whether an arithmetic operator assigns.
func assigns(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
		syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// arithmeticTest reports whether a [[ … ]] operator compares its operands
// as arithmetic.
func arithmeticTest(op syntax.BinTestOperator) bool {
	switch op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
		return true
	}
	return false
}

// arithName is the variable an arithmetic operand names bare, "x" in
// ((x = 1)), "" for anything else.
func arithName(x syntax.ArithmExpr) string {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && isName(l.Value) {
		return l.Value
	}
	return ""
}

// isNumber reports whether v is a number as arithmetic reads one, with
// no name in it: decimal, octal, hexadecimal or BASE#DIGITS, or empty,
// which arithmetic reads as 0.
func isNumber(v string) bool {
	v = strings.TrimLeft(v, "+-")
	if v == "" {
		return true
	}
	if v[0] < '0' || v[0] > '9' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(nameStart(c) || '0' <= c && c <= '9' || c == '#' || c == '@') {
			return false
		}
	}
	return true
}

// arithUnseen is why the arithmetic expression x, at its place in the
// script, hides code: the first value it reads that is known only when
// the command runs.
func (s *splitter) arithUnseen(x syntax.ArithmExpr) string {
	switch x := x.(type) {
	case nil:
		return ""
	case *syntax.BinaryArithm:
		if x.Op == syntax.Assgn && arithName(x.X) != "" {
			return s.arithUnseen(x.Y)
		}
		return firstOf(s.arithUnseen(x.X), s.arithUnseen(x.Y))
	case *syntax.UnaryArithm:
		return s.arithUnseen(x.X)
	case *syntax.ParenArithm:
		return s.arithUnseen(x.X)
	case *syntax.Word:
		return s.arithWordUnseen(x)
	}
	return arithWhy(s.text(x))
}

// arithWordUnseen is why a word bash evaluates as arithmetic hides code.
func (s *splitter) arithWordUnseen(w *syntax.Word) string {
	at := w.Pos().Offset()
	for _, p := range w.Parts {
		if why := s.arithPartUnseen(p, at); why != "" {
			return why
		}
	}
	return ""
}

// arithPartUnseen is why one part of an arithmetic word hides code.
func (s *splitter) arithPartUnseen(p syntax.WordPart, at uint) string {
	switch p := p.(type) {
	case *syntax.Lit:
		return s.arithTextUnseen(p.Value, at)
	case *syntax.SglQuoted:
		return s.arithTextUnseen(p.Value, at)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if why := s.arithPartUnseen(q, at); why != "" {
				return why
			}
		}
		return ""
	case *syntax.ArithmExp:
		// A number; its own expression is read where it stands.
		return ""
	case *syntax.ParamExp:
		if p.Param != nil && p.Length && p.Index == nil {
			return ""
		}
		if p.Param != nil && !p.Excl && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 &&
			s.known(p.Param.Value, at, true) {
			return ""
		}
	}
	return arithWhy(s.text(p))
}

// arithTextUnseen is why literal text in arithmetic hides code: a name
// in it that is not a known number.
func (s *splitter) arithTextUnseen(text string, at uint) string {
	for _, token := range arithTokens(text) {
		if !isNumber(token) && !s.known(token, at, true) {
			return arithWhy(token)
		}
	}
	return ""
}

// arithTokens are the numbers and names in literal arithmetic text.
func arithTokens(text string) []string {
	var tokens []string
	for i := 0; i < len(text); {
		c := text[i]
		if !nameStart(c) && !('0' <= c && c <= '9') {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && (nameStart(text[j]) || '0' <= text[j] && text[j] <= '9' || text[j] == '#' || text[j] == '@') {
			j++
		}
		tokens = append(tokens, text[i:j])
		i = j
	}
	return tokens
}

// paramUnseen is why a parameter expansion evaluates a run-time value as
// arithmetic: its subscript, its substring offsets, or an indirection
// ${!x}, which reads x's value as a name and evaluates its subscript.
func (s *splitter) paramUnseen(p *syntax.ParamExp) string {
	if p.Param == nil {
		return ""
	}
	at := p.Pos().Offset()
	if p.Excl && p.Names == 0 && p.Index == nil && !s.known(p.Param.Value, at, false) {
		return "${!" + p.Param.Value + "} reads the value of " + p.Param.Value + ", known only when it runs, as a variable name and evaluates its subscript, running command substitutions in it"
	}
	why := ""
	if p.Index != nil && !allElements(p.Index) {
		why = s.arithUnseen(p.Index)
	}
	if p.Slice != nil {
		why = firstOf(why, s.arithUnseen(p.Slice.Offset), s.arithUnseen(p.Slice.Length))
	}
	return why
}

// allElements reports whether a subscript is "@" or "*", all elements.
func allElements(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

// testUnseen is why a [[ … ]] test evaluates a run-time value as
// arithmetic: an operand of -eq, -ne, -lt, -le, -gt or -ge, or a
// subscript of -v.
func (s *splitter) testUnseen(t *syntax.TestClause) string {
	why := ""
	syntax.Walk(t.X, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryTest:
			if arithmeticTest(n.Op) {
				why = firstOf(why, s.testOperandUnseen(n.X), s.testOperandUnseen(n.Y))
			}
		case *syntax.UnaryTest:
			if w, ok := n.X.(*syntax.Word); ok && n.Op == syntax.TsVarSet {
				why = firstOf(why, subscriptUnseen(s.wordOf(w).value))
			}
		}
		return why == ""
	})
	return why
}

// testOperandUnseen is why an arithmetic operand of [[ … ]] hides code.
func (s *splitter) testOperandUnseen(x syntax.TestExpr) string {
	if w, ok := x.(*syntax.Word); ok {
		return s.arithWordUnseen(w)
	}
	return ""
}

// subscriptUnseen is why a variable name a builtin reads, "a[i]", hides
// code: a subscript that is not a literal number, which bash evaluates as
// arithmetic.
func subscriptUnseen(name string) string {
	open := strings.IndexByte(name, '[')
	if open <= 0 || !strings.HasSuffix(name, "]") || !isName(name[:open]) {
		return ""
	}
	sub := name[open+1 : len(name)-1]
	if sub == "@" || sub == "*" || sub != "" && strings.Trim(sub, "0123456789") == "" {
		return ""
	}
	return arithWhy("the subscript of " + name)
}

// nameReaders are the builtins that read arguments as variable names,
// evaluating the subscript of an array element as arithmetic.
var nameReaders = map[string]bool{
	"read": true, "mapfile": true, "readarray": true, "printf": true, "unset": true, "getopts": true,
	"wait": true, "test": true, "[": true, "declare": true, "typeset": true, "local": true, "export": true, "readonly": true,
}

// namesUnseen is why the arguments of a builtin that reads them as
// variable names hide code: an element whose subscript is not a literal
// number ("printf -v 'a[$i]' …").
func namesUnseen(base string, args []word) string {
	if !nameReaders[base] {
		return ""
	}
	for _, a := range args {
		name, _, _ := strings.Cut(a.value, "=")
		if why := subscriptUnseen(name); why != "" {
			return why
		}
	}
	return ""
}

// integerUnseen is why a declaration with -i, or an assignment to a
// variable declared so, hides code: bash evaluates the value as
// arithmetic.
func (s *splitter) integerUnseen(a *syntax.Assign) string {
	if a.Name == nil || a.Value == nil || !s.integers[a.Name.Value] {
		return ""
	}
	return s.arithWordUnseen(a.Value)
}

// declaration reads a declaration for arithmetic: it notes the variables
// given the integer attribute with -i and the elements of the
// associative arrays it sets with -A, and adds a subject for a quoted
// word naming an array element whose subscript is not a literal number
// ("declare 'a[$i]=1'"), which bash evaluates.
func (s *splitter) declaration(d *syntax.DeclClause) {
	integer, keyed := false, false
	for _, a := range d.Args {
		if keyed && a.Array != nil {
			if s.keyed == nil {
				s.keyed = map[*syntax.ArrayElem]bool{}
			}
			for _, e := range a.Array.Elems {
				s.keyed[e] = true
			}
		}
		if a.Name != nil || a.Value == nil {
			continue
		}
		w := s.wordOf(a.Value)
		if strings.HasPrefix(w.value, "-") && strings.Contains(w.value, "i") {
			integer = true
		}
		if strings.HasPrefix(w.value, "-") && strings.Contains(w.value, "A") && w.literal {
			keyed = true
		}
		if name, _, _ := strings.Cut(w.value, "="); !w.holdsCode {
			// One with a substitution in it has its own reason.
			s.addUnseen(a, subscriptUnseen(name))
		}
	}
	if !integer {
		return
	}
	if s.integers == nil {
		s.integers = map[string]bool{}
	}
	for _, a := range d.Args {
		if a.Name != nil {
			s.integers[a.Name.Value] = true
		}
	}
}
