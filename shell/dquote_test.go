package shell

import "testing"

// quoteCases are expansions inside double quotes or here-documents with
// single quotes in their word, and extended globs with an expansion in
// their pattern, each attack beside a harmless twin: bash
// runs touch in an attack, which must be unseen, and nothing in a twin,
// which must not be.
var quoteCases = []pwnedCase{
	{`echo "${x:-'$(touch pwned)'}"`, true}, {`echo "${x:-'text'}"`, false},
	{"echo \"${x:='`touch pwned`'}\"", true}, {"echo ${x:='`touch pwned`'}", false},
	{`echo "${x-'$(touch pwned)'}"`, true}, {`echo "${x#'$(touch pwned)'}"`, false},
	{`x=1; echo "${x:+'$(touch pwned)'}"`, true}, {`x=1; echo "${x/'$(touch pwned)'/y}"`, false},
	{`echo "${x:-$'$(touch pwned)'}"`, true}, {`echo ${x:-$'$(touch pwned)'}`, false},
	{`echo "${x:-${y:-'$(touch pwned)'}}"`, true}, {`echo "${x:-${y:-'pwned'}}"`, false},
	{"cat <<EOF\n${x:-'$(touch pwned)'}\nEOF", true}, {"cat <<'EOF'\n${x:-'$(touch pwned)'}\nEOF", false},
	// An extended glob's pattern is text to the parser; bash expands it.
	{"shopt -s extglob\necho @(x|$(touch pwned))", true}, {"shopt -s extglob\necho @(x|y)", false},
	{"[[ x == +(a|`touch pwned`) ]]", true}, {"[[ x == +(a|b) ]]", false},
}

func TestQuotesInDoubleQuotes(t *testing.T) {
	checkPwned(t, quoteCases)
}
