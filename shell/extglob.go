package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// extglobUnseen is why an extended glob pattern, @(…), !(…), *(…), +(…)
// or ?(…), hides code: the parser reads the pattern as text, but bash
// expands a "$" or a backquote in it, running "@(x|$(rm y))".
func extglobUnseen(g *syntax.ExtGlob) string {
	if g.Pattern == nil || !strings.ContainsAny(g.Pattern.Value, "$`") {
		return ""
	}
	return "bash expands the pattern " + g.Op.String() + g.Pattern.Value + "), which the parser read as text"
}
