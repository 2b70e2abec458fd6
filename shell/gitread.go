package shell

// The read-only git subcommands and the options known to change nothing
// in each; a call with any other option is not known to be read-only.

// gitActions are the subcommands listed with an action in the table.
var gitActions = map[string]bool{"stash": true, "remote": true, "worktree": true, "config": true}

// inertGit is the table of a subcommand whose options in list are all
// inert, with the counts ("-5") every history command reads.
func inertGit(list string) *optionTable {
	return gitTable(byEffect{inert: list})
}

// gitTable is the table of a subcommand's options by effect, with the
// counts ("-5") every history command reads among the inert: the files
// its options name (blame --contents, log --output) are its options'
// effects, and so are the names of what it reads listed on standard
// input ("git show --stdin"), which a "REV:.env" among them makes the
// contents of a file.
func gitTable(lists byEffect) *optionTable {
	lists[inert] += digits
	return flagSet(lists)
}

// gitReadOnly reports whether a subcommand with its words is known to
// change nothing: the subcommand is in the table and every option is one
// of its inert options or names a file it reads, given as the table
// writes it.
func gitReadOnly(sub string, rest []word) bool {
	if len(rest) > 0 && gitActions[sub] {
		if c, ok := gitCommands()[sub+" "+rest[0].value]; ok && c.inert != nil {
			return gitInertOnly(c.inert, sub, rest[1:])
		}
	}
	set := gitCommands()[sub].inert
	if set == nil {
		return false
	}
	p := set.parseFlags("git "+sub, rest, true)
	switch sub {
	case "branch", "tag":
		// Without a listing option, a name operand creates one.
		if len(p.operands) > 0 && !p.has("l", "list", "a", "all", "r", "remotes", "contains", "merged", "no-merged", "points-at", "show-current") {
			return false
		}
	case "remote":
		if len(p.operands) > 0 {
			return false
		}
	case "stash", "worktree", "config":
		return false
	case "reflog":
		// delete, expire and drop change the reflog; show and exists
		// read it.
		if len(rest) > 0 && (rest[0].value == "delete" || rest[0].value == "expire" || rest[0].value == "drop") {
			return false
		}
	}
	return gitInertOnly(set, sub, rest)
}

// gitInertOnly reports whether every option among the words is in the
// subcommand's table and none of them writes or changes anything, read by the one option reader: abbreviated long
// options, clusters and values joined or in the next word, as git's own
// parser reads them; words after "--" are paths.
func gitInertOnly(table *optionTable, sub string, rest []word) bool {
	p := table.parseFlags("git "+sub, rest, true)
	_, changes := p.first(writesArg, runs, changes)
	return p.opaque == "" && !changes
}
