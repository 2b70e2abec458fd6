package shell

import "strings"

// find: its starting points, read, and its expression, every primary of
// which is known: the tests, the actions that print, those that run a
// command (-exec and its kin), write a file (-fprint and its kin) or
// delete (-delete).

// findPrimaries are find's primaries with how many words each takes;
// a primary not in the table makes find hide what it does.
var findPrimaries = map[string]int{
	"-true":                  0,
	"-false":                 0,
	"-empty":                 0,
	"-executable":            0,
	"-readable":              0,
	"-writable":              0,
	"-nouser":                0,
	"-nogroup":               0,
	"-prune":                 0,
	"-quit":                  0,
	"-print":                 0,
	"-print0":                0,
	"-ls":                    0,
	"-depth":                 0,
	"-d":                     0,
	"-mount":                 0,
	"-xdev":                  0,
	"-noleaf":                0,
	"-ignore_readdir_race":   0,
	"-noignore_readdir_race": 0,
	"-daystart":              0,
	"-follow":                0,
	"-not":                   0,
	"!":                      0,
	"-a":                     0,
	"-and":                   0,
	"-o":                     0,
	"-or":                    0,
	",":                      0,
	"(":                      0,
	")":                      0,
	"-nowarn":                0,
	"-warn":                  0,
	"-name":                  1,
	"-iname":                 1,
	"-path":                  1,
	"-ipath":                 1,
	"-wholename":             1,
	"-iwholename":            1,
	"-regex":                 1,
	"-iregex":                1,
	"-lname":                 1,
	"-ilname":                1,
	"-type":                  1,
	"-xtype":                 1,
	"-size":                  1,
	"-perm":                  1,
	"-user":                  1,
	"-group":                 1,
	"-uid":                   1,
	"-gid":                   1,
	"-links":                 1,
	"-inum":                  1,
	"-mtime":                 1,
	"-mmin":                  1,
	"-atime":                 1,
	"-amin":                  1,
	"-ctime":                 1,
	"-cmin":                  1,
	"-used":                  1,
	"-fstype":                1,
	"-maxdepth":              1,
	"-mindepth":              1,
	"-regextype":             1,
	"-printf":                1,
	"-context":               1,
}

// findReads are the primaries whose word is a file find reads.
var findReads = map[string]bool{
	"-newer":    true,
	"-anewer":   true,
	"-cnewer":   true,
	"-samefile": true,
}

// findWrites are the primaries that write the file their first word
// names, with how many words they take.
var findWrites = map[string]int{
	"-fprint":  1,
	"-fprint0": 1,
	"-fls":     1,
	"-fprintf": 2,
}

// findEffects reads find's command line.
func findEffects(args []word) effects {
	var e effects
	readsMatches := false
	i := 0
	// The options before the starting points: -H, -L, -P, -D LIST, -OLEVEL.
	for ; i < len(args); i++ {
		v := args[i].value
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") && len(v) > 2 {
			continue
		}
		if v == "-D" {
			i++
			continue
		}
		break
	}
	for ; i < len(args) && !findExpression(args[i]); i++ {
		e.reads = append(e.reads, args[i])
	}
	starts := len(e.reads)
	e.readOnly = true
	for ; i < len(args); i++ {
		a := args[i]
		v := a.value
		switch n, known := findPrimaries[v]; {
		case !a.literal || a.pattern:
			e.unseen = firstOf(e.unseen, "the word "+v+" may be a primary of find, known only when it runs")
		case known:
			for _, arg := range args[i+1 : min(i+1+n, len(args))] {
				if !arg.literal || arg.pattern {
					e.unseen = firstOf(e.unseen, "the word "+arg.value+" may be more than one word for find, known only when it runs")
				}
			}
			i += n
		case findReads[v] || strings.HasPrefix(v, "-newer") && len(v) == 8:
			if i+1 < len(args) && findReads[v] {
				e.reads = append(e.reads, args[i+1])
			}
			i++
		case findWrites[v] > 0:
			if i+1 < len(args) {
				e.writes = append(e.writes, args[i+1])
			}
			i += findWrites[v]
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			var inner []word
			inner, i = commandUntil(args, i+1, ";", "+")
			e.commands = append(e.commands, nonEmpty(inner)...)
			e.readOnly = false
			if v == "-execdir" || v == "-okdir" {
				e.elsewhere = "find " + v + " runs its command in the directory of each file it finds"
			}
			readsMatches = readsMatches || v == "-execdir" || v == "-okdir" || namesMatch(inner)
		case v == "-files0-from":
			e.unseen = firstOf(e.unseen, "find -files0-from reads the names of its starting points from a list, known only when it runs")
			i++
		case v == "-delete":
			e.unseen = firstOf(e.unseen, "find -delete deletes files")
		default:
			e.unseen = firstOf(e.unseen, "find "+v+" is not a primary the splitter knows")
		}
	}
	e.readOnly = e.readOnly && e.unseen == "" && len(e.writes) == 0 && allKnown(args)
	if readsMatches {
		e.reads = findTrees(e.reads, starts)
	}
	return e
}

// namesMatch reports whether a command find runs is handed the files it
// finds: a word holding "{}", which find replaces with the file's path
// within the word, or a word made when the shell runs, which may. A
// command with neither (find . -exec cat notes.txt \;) runs once a match
// in find's own directory and reads no match; -execdir and -okdir, which
// run in the match's directory, read whatever is there by name.
func namesMatch(command []word) bool {
	for _, w := range command {
		if !w.literal || strings.Contains(w.value, "{}") {
			return true
		}
	}
	return false
}

// findTrees marks find's starting points, the first starts of reads (the
// working directory when there are none), as trees read whole: a command
// find runs on what it finds reads files anywhere in them.
func findTrees(reads []word, starts int) []word {
	if starts == 0 {
		return append([]word{{value: ".", literal: true, tree: &tree{}}}, reads...)
	}
	return append(asTrees(reads[:starts], &tree{}), reads[starts:]...)
}

// findExpression reports whether a word begins find's expression rather
// than naming a starting point: a primary, an operator or a parenthesis.
func findExpression(w word) bool {
	v := w.value
	return strings.HasPrefix(v, "-") || v == "!" || v == "(" || v == ")" || v == ","
}
