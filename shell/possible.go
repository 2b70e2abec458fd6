package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The values a word may take: a path made of variables the script sets
// to literals ("f=.env; cat $f", "for f in .env; do cat $f; done",
// "cat ${f:-.env}") is known only when it runs, since the variable may
// hold another value by then (one from the environment, one a command
// set), so its read asks; but each value the script's own text gives it
// is one it may take, and a deny or ask rule for that path still holds:
// the call is denied where a rule denies one of them. The values only
// add constraints, so a value missed is an ask, never an allow.

// maxPossible bounds the values read for one variable and one word.
const maxPossible = 8

// possibleValues are the values the word w may take from the literals
// the script gives the variables it is made of, nil when a part of it is
// no such variable or literal text.
func (s *splitter) possibleValues(w *syntax.Word) []string {
	values := []string{""}
	for _, p := range w.Parts {
		if values = s.partValues(p, values); values == nil {
			return nil
		}
	}
	return values
}

// partValues is values, each followed by each value the word part p may
// take; nil when p may take a value the script does not show.
func (s *splitter) partValues(p syntax.WordPart, values []string) []string {
	switch p := p.(type) {
	case *syntax.Lit:
		var b strings.Builder
		unquote(&b, p.Value)
		return product(values, []string{b.String()})
	case *syntax.SglQuoted:
		if p.Dollar {
			return product(values, []string{ansiC(p.Value)})
		}
		return product(values, []string{p.Value})
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if l, ok := q.(*syntax.Lit); ok {
				values = product(values, []string{unquoteDouble(l.Value)})
				continue
			}
			if values = s.partValues(q, values); values == nil {
				return nil
			}
		}
		return values
	case *syntax.ParamExp:
		return product(values, s.paramValues(p))
	}
	return nil
}

// paramValues are the values a parameter expansion may take: those the
// script gives the variable, with the default or alternative the
// expansion names, and cased as it cases them.
func (s *splitter) paramValues(p *syntax.ParamExp) []string {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return nil
	}
	name := p.Param.Value
	given := s.assignedValues().given[name]
	if len(given) == 0 && p.Index == nil {
		switch name {
		case "HOME":
			given = []string{"~"}
		case "PWD":
			given = []string{"."}
		}
	}
	if p.Exp == nil {
		return given
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		other := []string{""}
		if p.Exp.Word != nil {
			other = s.possibleValues(p.Exp.Word)
		}
		return append(append([]string(nil), given...), other...)
	case syntax.UpperAll, syntax.LowerAll, syntax.UpperFirst, syntax.LowerFirst:
		out := make([]string, 0, len(given))
		for _, v := range given {
			out = append(out, cased(v, p.Exp.Op))
		}
		return out
	}
	return nil
}

// cased is v as the case operator op makes it, for a pattern that
// matches every character.
func cased(v string, op syntax.ParExpOperator) string {
	switch {
	case v == "":
		return v
	case op == syntax.UpperAll:
		return strings.ToUpper(v)
	case op == syntax.LowerAll:
		return strings.ToLower(v)
	case op == syntax.UpperFirst:
		return strings.ToUpper(v[:1]) + v[1:]
	}
	return strings.ToLower(v[:1]) + v[1:]
}

// product is each of heads followed by each of tails, at most
// maxPossible of them; nil when either is empty.
func product(heads, tails []string) []string {
	if len(heads) == 0 || len(tails) == 0 {
		return nil
	}
	out := make([]string, 0, min(len(heads)*len(tails), maxPossible))
	for _, h := range heads {
		for _, t := range tails {
			if len(out) == maxPossible {
				return out
			}
			out = appendNew(out, h+t)
		}
	}
	return out
}

// possiblePaths adds, as constraints, the paths a word known only when it
// runs may name: each value the script gives it, resolved where it is
// read ([splitter.possibleValues]), but the paths known already names.
func (s *splitter) possiblePaths(t target, w word, text string, in where, known []string) {
	if w.src == nil {
		return
	}
	add := func(p string) {
		if !slices.Contains(known, p) {
			s.add(t.field, p, text, "", true, t.tool)
		}
	}
	for _, v := range s.possibleValues(w.src) {
		switch {
		case v == "" || deviceFiles[v]:
		case v == "~" || strings.HasPrefix(v, "~/"):
			if p, ok := joinPath("~", strings.TrimPrefix(v[1:], "/")); ok {
				add(p)
			}
		case strings.HasPrefix(v, "~"):
		default:
			paths, why := in.paths(v)
			if why != "" {
				s.anywhere(t, word{value: v, literal: true}, text)
				continue
			}
			for _, p := range paths {
				add(p)
			}
		}
	}
}

// readValues are the values a statement gives variables from literals
// by builtins that set them: "read x <<< WORD" (the line and its fields;
// mapfile's array, its lines), and "printf -v x FORMAT", a format with no
// directive, or "%s" and one argument.
func (s *splitter) readValues(st *syntax.Stmt) map[string][]string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 {
		return nil
	}
	switch call.Args[0].Lit() {
	case "read", "mapfile", "readarray", "printf":
	default:
		return nil
	}
	args := s.words(call.Args)
	if !allLiteral(args) {
		return nil
	}
	switch args[0].value {
	case "read", "mapfile", "readarray":
		var line string
		found := false
		for _, r := range st.Redirs {
			if r.Op == syntax.WordHdoc && r.Word != nil {
				w := s.wordOf(r.Word)
				line, found = w.value, w.literal
			}
		}
		if !found {
			return nil
		}
		values := append([]string{line}, strings.Fields(line)...)
		out := map[string][]string{}
		for _, a := range args[1:] {
			if isName(a.value) {
				out[a.value] = values
			}
		}
		return out
	case "printf":
		rest := args[1:]
		name := ""
		switch {
		case rest[0].value == "-v" && len(rest) > 2:
			name, rest = rest[1].value, rest[2:]
		case strings.HasPrefix(rest[0].value, "-v") && len(rest) > 1:
			name, rest = rest[0].value[2:], rest[1:]
		default:
			return nil
		}
		format := rest[0].value
		switch {
		case !strings.ContainsAny(format, `%\`):
			return map[string][]string{name: {format}}
		case format == "%s" && len(rest) == 2:
			return map[string][]string{name: {rest[1].value}}
		}
	}
	return nil
}
