package claudecode

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/ChristopherDavenport/agentpolicy"
)

// A deny or ask rule is a boundary only when it names a command however it
// is spelled. Claude Code matches Bash(git branch -D*) as text, so
// "git branch -v -D main" and "git branch --delete --force main" pass it;
// here, where the command has an option table, the rule is also read as an
// option set: its options match in any order and in any of their
// spellings (short, long, a long one abbreviated, short ones clustered),
// and its operands in their order. Allow rules stay Claude Code's text, so
// they approve no more than they name. A command or a rule the table
// cannot read to its end, an option it does not know, is left to the text
// rule alone.

// optionSetField is the prefix of a deny or ask rule read as an option set.
const optionSetField = "option_set"

// option is one option of a table: its canonical names (more than one
// for a short option that stands for several, git branch's -D for
// --delete --force), whether it takes a value, and whether it takes one
// only when joined to it ("-uno", "--gpg-sign=KEY").
type option struct {
	names    []string
	value    bool
	optional bool
}

// optionTable is what a command's options are, by spelling.
type optionTable struct {
	short map[byte]option
	long  map[string]option
}

// newOptionTable reads entries such as "f|force", "D>delete,force",
// "o|push-option=" and "u|untracked-files=?": spellings joined by "|", the
// last the canonical name; ">" names what a spelling stands for; a
// trailing "=" a value, "=?" a value only when joined.
func newOptionTable(entries ...string) optionTable {
	t := optionTable{short: map[byte]option{}, long: map[string]option{}}
	for _, e := range entries {
		e, optional := strings.CutSuffix(e, "=?")
		e, value := strings.CutSuffix(e, "=")
		spellings, means, _ := strings.Cut(e, ">")
		names := strings.Split(spellings, "|")
		o := option{names: names[len(names)-1:], value: value || optional, optional: optional}
		if means != "" {
			o.names = strings.Split(means, ",")
		}
		for _, s := range names {
			if len(s) == 1 {
				t.short[s[0]] = o
			} else {
				t.long[s] = o
			}
		}
	}
	return t
}

// lazyOptionTable is the table of the entries (see newOptionTable), read
// on its first use rather than when the package loads: every hook call is
// a process, and most read one command's table or none.
func lazyOptionTable(entries ...string) func() optionTable {
	return sync.OnceValue(func() optionTable { return newOptionTable(entries...) })
}

// optionTables are the commands whose deny and ask rules are read as
// option sets: each table holds every option the command takes, so an
// option's value is never read as an operand.
var optionTables = map[string]func() optionTable{
	"rm": lazyOptionTable("f|force", "i", "I", "r|R|recursive", "d|dir", "v|verbose",
		"one-file-system", "no-preserve-root", "preserve-root", "interactive", "help", "version"),
	"git branch": lazyOptionTable("d|delete", "D>delete,force", "f|force", "m|move", "M>move,force",
		"c|copy", "C>copy,force", "create-reflog", "i|ignore-case", "omit-empty", "r|remotes",
		"a|all", "l|list", "show-current", "v|verbose", "q|quiet", "no-abbrev", "t|track", "no-track",
		"recurse-submodules", "u|set-upstream-to=", "unset-upstream", "edit-description", "color",
		"no-color", "column", "no-column", "points-at=", "format=", "sort="),
	"git reset": lazyOptionTable("q|quiet", "no-quiet", "refresh", "no-refresh", "p|patch", "mixed", "soft",
		"hard", "merge", "keep", "recurse-submodules", "no-recurse-submodules", "N|intent-to-add",
		"pathspec-from-file=", "pathspec-file-nul", "U|unified=", "inter-hunk-context="),
	"git clean": lazyOptionTable("d", "f|force", "i|interactive", "n|dry-run", "q|quiet", "e|exclude=", "x", "X"),
	"git commit": lazyOptionTable("a|all", "p|patch", "C|reuse-message=", "c|reedit-message=", "fixup=",
		"squash=", "reset-author", "short", "branch", "porcelain", "long", "z|null", "F|file=", "author=",
		"date=", "m|message=", "t|template=", "s|signoff", "no-signoff", "trailer=", "n|no-verify", "verify",
		"allow-empty", "allow-empty-message", "cleanup=", "e|edit", "no-edit", "amend", "no-post-rewrite",
		"i|include", "o|only", "pathspec-from-file=", "pathspec-file-nul", "u|untracked-files=?",
		"v|verbose", "q|quiet", "dry-run", "status", "no-status", "S|gpg-sign=?", "no-gpg-sign"),
	"git push": lazyOptionTable("all", "branches", "prune", "mirror", "n|dry-run", "porcelain",
		"d|delete", "tags", "follow-tags", "no-follow-tags", "atomic", "no-atomic", "o|push-option=",
		"receive-pack=", "exec=", "force-with-lease", "no-force-with-lease", "force-if-includes",
		"no-force-if-includes", "f|force", "repo=", "u|set-upstream", "thin", "no-thin", "q|quiet",
		"v|verbose", "progress", "no-progress", "recurse-submodules=", "no-recurse-submodules",
		"verify", "no-verify", "4|ipv4", "6|ipv6", "signed", "no-signed"),
}

// gitGlobals are git's options before its subcommand, by whether they take
// a value; a command with any other is not read.
var gitGlobals = map[string]bool{
	"-C": true, "-c": true, "--no-pager": false, "-P": false, "-p": false, "--paginate": false,
	"--bare": false, "--no-replace-objects": false, "--literal-pathspecs": false,
	"--no-optional-locks": false,
}

// optionSet is a command line read against its table.
type optionSet struct {
	command  string
	options  []string // canonical names, "name=value" for one with a value
	operands []string
}

// readOptionSet reads a command's words against its table; false when the
// command has no table or a word the table does not know.
func readOptionSet(words []string) (optionSet, bool) {
	if len(words) == 0 {
		return optionSet{}, false
	}
	command, rest := words[0], words[1:]
	if command == "git" {
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			name, _, joined := strings.Cut(rest[0], "=")
			value, known := gitGlobals[name]
			switch {
			case !known || joined && !strings.HasPrefix(name, "--"):
				return optionSet{}, false
			case value && !joined:
				if len(rest) < 2 {
					return optionSet{}, false
				}
				rest = rest[1:]
			}
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return optionSet{}, false
		}
		command, rest = "git "+rest[0], rest[1:]
	}
	tableOf, ok := optionTables[command]
	if !ok {
		return optionSet{}, false
	}
	table := tableOf()
	set := optionSet{command: command}
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		switch {
		case w == "--":
			set.operands = append(set.operands, rest[i+1:]...)
			return set, true
		case strings.HasPrefix(w, "--"):
			name, value, joined := strings.Cut(w[2:], "=")
			o, ok := table.longOption(name)
			if !ok || joined && !o.value {
				return optionSet{}, false
			}
			if o.value && !joined && !o.optional {
				if i+1 == len(rest) {
					return optionSet{}, false
				}
				i++
				value = rest[i]
			}
			set.add(o, value)
		case strings.HasPrefix(w, "-") && w != "-":
			for j := 1; j < len(w); j++ {
				o, ok := table.short[w[j]]
				if !ok {
					return optionSet{}, false
				}
				if !o.value {
					set.add(o, "")
					continue
				}
				value := w[j+1:]
				if value == "" && !o.optional {
					if i+1 == len(rest) {
						return optionSet{}, false
					}
					i++
					value = rest[i]
				}
				set.add(o, value)
				break
			}
		default:
			set.operands = append(set.operands, w)
		}
	}
	return set, true
}

// longOption finds a long option by its name or by a prefix of exactly
// one name, as getopt_long and git's option parser take one.
func (t optionTable) longOption(name string) (option, bool) {
	if o, ok := t.long[name]; ok {
		return o, true
	}
	var found option
	n := 0
	for full, o := range t.long {
		if strings.HasPrefix(full, name) && name != "" {
			found = o
			n++
		}
	}
	return found, n == 1
}

// add records an option's canonical names, with its value.
func (s *optionSet) add(o option, value string) {
	for _, name := range o.names {
		if o.value {
			name += "=" + value
		}
		if !slices.Contains(s.options, name) {
			s.options = append(s.options, name)
		}
	}
}

// optionSetRule is the option-set reading of a deny or ask rule's command
// pattern: the pattern whose words its table reads, with at most one "*",
// at its end; false for any other.
func optionSetRule(spec string) (agentpolicy.Rule, bool) {
	pattern := strings.TrimSuffix(strings.TrimSuffix(spec, ":*"), "*")
	name, _, _ := strings.Cut(pattern, " ")
	if _, ok := optionTables[name]; !ok && name != "git" || strings.ContainsAny(pattern, "*\t\n") {
		return agentpolicy.Rule{}, false
	}
	if _, ok := readOptionSet(strings.Fields(pattern)); !ok {
		return agentpolicy.Rule{}, false
	}
	return agentpolicy.Rule{Tool: "Bash", Spec: optionSetField + ":" + spec}, true
}

// matchOptionSet reports whether a command subject's words read as the
// rule's option set: the same command, every option of the rule among the
// command's, and the rule's operands the command's first ones. A rule
// without a final "*" needs the command's options and operands to be
// exactly its own.
func matchOptionSet(spec string, args json.RawMessage) bool {
	command, ok, err := agentpolicy.Field(args, "command")
	name, _, _ := strings.Cut(spec, " ")
	if !ok || err != nil || !strings.HasPrefix(command, name+" ") {
		return false
	}
	got, ok := readOptionSet(strings.Fields(command))
	if !ok {
		return false
	}
	pattern, open := strings.CutSuffix(spec, ":*")
	if !open {
		pattern, open = strings.CutSuffix(pattern, "*")
	}
	want, ok := readOptionSet(strings.Fields(pattern))
	if !ok || want.command != got.command {
		return false
	}
	for _, o := range want.options {
		if !slices.Contains(got.options, o) {
			return false
		}
	}
	if !open {
		return len(want.options) == len(got.options) && slices.Equal(want.operands, got.operands)
	}
	return len(want.operands) <= len(got.operands) && slices.Equal(want.operands, got.operands[:len(want.operands)])
}
