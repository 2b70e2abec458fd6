package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Inside double quotes, and in a here-document it expands, bash reads the single quotes in the word of
// ${x:-word}, ${x-word}, ${x:=word}, ${x+word}, ${x:?word} and their kin
// as plain characters and expands what they hold, where the parser reads
// a single-quoted string: "${x:-'$(rm -rf y)'}" runs rm. (For the
// pattern operators, ${x#'…'} and ${x/'…'/…}, bash reads them as quotes,
// as the parser does.)

// quotesUnseen is why a double-quoted string, or the body of a
// here-document bash expands, hides code: a single-quoted part of the
// word of such an expansion in its parts that holds "$" or a backquote.
func quotesUnseen(parts []syntax.WordPart) string {
	for _, p := range parts {
		if pe, ok := p.(*syntax.ParamExp); ok {
			if why := textQuotesUnseen(pe); why != "" {
				return why
			}
		}
	}
	return ""
}

// textQuotesUnseen is why an expansion inside double quotes hides code
// in single quotes bash reads as text.
func textQuotesUnseen(pe *syntax.ParamExp) string {
	if pe.Exp == nil || pe.Exp.Word == nil || pe.Exp.Op < syntax.AlternateUnset || pe.Exp.Op > syntax.AssignUnsetOrNull {
		return ""
	}
	for _, p := range pe.Exp.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if strings.ContainsAny(p.Value, "$`") {
				return "inside double quotes bash reads the single quotes around " + p.Value + " as text and expands it"
			}
		case *syntax.ParamExp:
			if why := textQuotesUnseen(p); why != "" {
				return why
			}
		}
	}
	return ""
}
