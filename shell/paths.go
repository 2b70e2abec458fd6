package shell

// A path a command reads or writes is held to the file tools' rules only
// when the words say exactly which file it is. A path known only when the
// command runs matches no allow rule and no protected-path exemption: it
// asks.

// pathUnseen is why the path a word names is known only when the command
// runs, "" when the word is a plain literal path: an expansion ("$f",
// "${d}/x", "$(pwd)/x", "$PWD"), a tilde the shell replaces ("~/x", "~+",
// "~-", "~user", "a=~/x"), an unquoted glob the shell matches against the
// files there (".claud?", "sec*/x", "[.]env", "@(a|b)"), or braces the
// shell expands (".cl{a..a}ude"). A redirect target, a tee destination
// and a file operand of a known file command are all read with it.
func pathUnseen(w word) string {
	switch {
	case !w.literal:
		return "the path " + w.value + " is known only when it runs"
	case w.tilde:
		return "the path " + w.value + " has a tilde the shell expands when it runs"
	case w.pattern:
		return "the path " + w.value + " is a pattern the shell matches against files when it runs"
	case w.braces:
		return "the path " + w.value + " has braces the shell expands"
	}
	return ""
}
