package shell

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The oracle's rules: what bash did must be what the subjects say.
//
//  1. Every program that ran is a command subject. A program is the
//     recorder's executable, so exec -a cannot rename it, and its arguments
//     as the program received them. A subject names it when the base name
//     of the subject's first word is the program's name and the subject's
//     other words, as normalised, are its arguments; a word of the subject
//     that the shell expands when the command runs (a parameter, a
//     substitution, a glob, a tilde) stands for any text, since the rule
//     that decides the subject reads the word as written. Constraint
//     subjects count: a wrapper is decided as itself by its deny and ask
//     rules, and the command it runs by a subject of its own, which the
//     oracle sees run in turn.
//  2. A program that xargs or find started, directly or through a shell,
//     received the words they supply: xargs appends the words it reads, and
//     find and xargs -I put a file name where the subject has "{}" (or
//     xargs's replace string). xargs given no command runs echo, which the
//     xargs subject names.
//  3. A shell that a recorded program started with -c is that program's
//     way of running a command (flock -c, find -exec sh -c, sed's e, awk's
//     system(), tar's exec actions all run "sh -c STRING"): the commands it
//     runs are recorded and checked in turn, the shell itself is not.
//  4. bash starts cat to print "$(cat <<'EOF' … EOF)", the form Claude
//     Code writes a commit message in, which the splitter reads as the
//     text cat prints: a cat with no arguments is named by that form in
//     the command, read as bash reads it, without its backslash-newlines.
//     (cat is real in the sandbox, so the text reaches the
//     command that reads it.)
//  5. git keeps its objects, refs, logs and index under .git: a change
//     there while git ran is git's own state, and a git-* helper git starts,
//     itself or through a shell (git-upload-pack for a fetch from a path,
//     "git remote-https" for a URL's transport where git-remote-https is
//     not in the sandbox),
//     is a part of git. .git/config and .git/hooks
//     are not, since they name programs git runs: a change to them must be
//     named as any other.
//  6. tar compresses through the program its -z, -j, -J, --zstd or -a
//     names, a fixed compressor that reads and writes only tar's streams:
//     that program is part of tar. (A program -I or --use-compress-program
//     names is the command's own and must be a subject.)
//  7. Every file created, deleted or modified under the working directory,
//     HOME or /tmp is named by a write subject: the path itself, a
//     directory it lies in (rm -r, cp -r), or, for a directory created on
//     the way, a path inside it (mkdir -p). A relative path is read
//     against the working directory and "~" as HOME.
//
// Builtins (echo, printf, read, cd, test) run inside bash and are never
// started, so nothing checks them beyond the files they write through a
// redirect. A call with an unseen subject asks, and one whose split fails
// is blocked: neither runs unasked, so neither is checked.

// disagreement is one command on which bash and the splitter disagree.
type disagreement struct {
	source, command string
	result          *oracleResult
	subjects        []agentpolicy.Subject
	problems        []string
}

// checkable reports whether a call with these subjects would run unasked,
// the only calls the oracle holds to bash.
func checkable(subjects []agentpolicy.Subject) bool {
	for _, s := range subjects {
		if s.Unseen != "" {
			return false
		}
	}
	return true
}

// compressors are the programs tar's compression options name.
var compressors = map[string]bool{"gzip": true, "bzip2": true, "xz": true, "lzip": true, "lzma": true,
	"lzop": true, "zstd": true, "compress": true}

// literalCat is the form of rule 4: a substitution of cat reading a
// here-document whose delimiter is quoted.
var literalCat = regexp.MustCompile(`\$\(\s*cat\s*<<-?\s*['"\\]`)

// checkResult lists every way what bash did with command departs from the
// subjects.
func checkResult(command string, subjects []agentpolicy.Subject, res *oracleResult) []string {
	var commands, writes []string
	for _, s := range subjects {
		switch s.Tool {
		case "":
			commands = append(commands, subjectMember(s, "command"))
		case "write":
			writes = append(writes, resolvePath(subjectMember(s, "path")))
		}
	}
	var problems []string
	byPid := map[int]oracleExec{}
	for _, e := range res.Execs {
		parent, recorded := byPid[e.Ppid]
		byPid[e.Pid] = e
		name := filepath.Base(e.Exe)
		if recorded && (name == "sh" || name == "bash" || name == "dash") && slices.Contains(e.Argv[1:], "-c") {
			continue // rule 3: a program's way of running a command
		}
		if filepath.Base(parent.Exe) == "xargs" && name == "echo" && slices.ContainsFunc(commands, isXargs) {
			continue // rule 2: xargs given no command runs echo
		}
		if (strings.HasPrefix(name, "git-") || name == "git" && len(e.Argv) > 1 && strings.HasPrefix(e.Argv[1], "remote-")) && startedBy(e, byPid, "git") {
			continue // rule 5: a helper of git's own
		}
		if compressors[name] && startedBy(e, byPid, "tar") {
			continue // rule 6: tar's own compressor
		}
		if name == "cat" && len(e.Argv) == 1 && literalCat.MatchString(strings.ReplaceAll(command, "\\\n", "")) {
			continue // rule 4: the text of a commit message
		}
		replace := fedBy(e, byPid)
		if !slices.ContainsFunc(commands, func(c string) bool { return execMatches(e, c, replace) }) {
			problems = append(problems, fmt.Sprintf("ran %s, which no command subject names", showExec(e)))
		}
	}
	gitRan := slices.ContainsFunc(res.Execs, func(e oracleExec) bool { return filepath.Base(e.Exe) == "git" })
	for _, c := range res.Changes {
		if gitRan && gitState(c.Path) {
			continue // rule 5
		}
		if !changeCovered(c, writes) {
			problems = append(problems, fmt.Sprintf("%s %s, which no write subject names", c.Kind, c.Path))
		}
	}
	return problems
}

// isXargs reports whether a subject's command is xargs.
func isXargs(command string) bool {
	first, _, _ := strings.Cut(command, " ")
	return filepath.Base(first) == "xargs"
}

// subjectMember is the string member name of a subject's arguments.
func subjectMember(s agentpolicy.Subject, name string) string {
	var m map[string]any
	if json.Unmarshal(s.Args, &m) != nil {
		return ""
	}
	v, _ := m[name].(string)
	return v
}

// startedBy reports whether a program named name started e, directly or
// through others.
func startedBy(e oracleExec, byPid map[int]oracleExec, name string) bool {
	for p, ok := byPid[e.Ppid]; ok; p, ok = byPid[p.Ppid] {
		if filepath.Base(p.Exe) == name {
			return true
		}
	}
	return false
}

// fedBy is the word that find or xargs replaces with a file name when one
// of them started e or a program before it, and "" otherwise.
func fedBy(e oracleExec, byPid map[int]oracleExec) string {
	for p, ok := byPid[e.Ppid]; ok; p, ok = byPid[p.Ppid] {
		switch filepath.Base(p.Exe) {
		case "find":
			return "{}"
		case "xargs":
			return xargsReplaceString(p.Argv[1:])
		}
	}
	return ""
}

// xargsReplaceString is the word xargs replaces with each input line, "{}" by
// default: -I R, -IR, --replace=R, -i, -iR, --replace.
func xargsReplaceString(args []string) string {
	for i, a := range args {
		switch {
		case a == "-I" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "-I"):
			return a[2:]
		case strings.HasPrefix(a, "--replace="):
			return strings.TrimPrefix(a, "--replace=")
		case strings.HasPrefix(a, "-i") && len(a) > 2:
			return a[2:]
		}
	}
	return "{}"
}

// execMatches reports whether the subject command names the program e;
// replace, when set, is the word find or xargs put a file name in place
// of, and says the program may have received words they supply.
func execMatches(e oracleExec, command, replace string) bool {
	first, rest, _ := strings.Cut(command, " ")
	if filepath.Base(first) != filepath.Base(e.Exe) {
		return false
	}
	fed := replace != ""
	pattern := "^" + argsPattern(rest, replace)
	if fed {
		pattern += "(?: .*)?"
	}
	ok, err := regexp.MatchString("(?s)"+pattern+"$", prefixSpace(joinArgs(e.Argv[1:])))
	return err == nil && ok
}

// prefixSpace puts a space before words that are there.
func prefixSpace(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// joinArgs joins arguments as a subject joins words, showing an empty
// one as a pair of single quotes.
func joinArgs(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		if a == "" {
			a = "''"
		}
		words[i] = a
	}
	return strings.Join(words, " ")
}

// expansion matches, at the start of a subject's text, a word part the
// shell expands when the command runs: a parameter, a glob or a tilde. The
// nested forms, $(…), ${…}, $((…)) and backquotes, are found by
// expansionEnd.
var expansion = regexp.MustCompile(`^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|[*?]|\[[^\] ]+\]|~[A-Za-z0-9_.+-]*)`)

// argsPattern is a regular expression for the arguments a subject's words
// stand for: their literal text, and any text for each expansion. A word
// with an expansion may vanish, as an unquoted empty value does, or become
// several. The word replace, where set, stands for any text.
func argsPattern(words, replace string) string {
	var b strings.Builder
	for _, word := range splitWords(words) {
		var w strings.Builder
		expands := false
		for i := 0; i < len(word); {
			end := expansionEnd(word, i)
			if end == i {
				if m := expansion.FindString(word[i:]); m != "" && (m[0] != '~' || i == 0 || strings.ContainsRune("=:", rune(word[i-1]))) {
					end = i + len(m)
				} else if replace != "" && strings.HasPrefix(word[i:], replace) {
					end = i + len(replace)
				}
			}
			if end > i {
				w.WriteString(".*")
				expands = true
				i = end
				continue
			}
			w.WriteString(regexp.QuoteMeta(word[i : i+1]))
			i++
		}
		if expands {
			fmt.Fprintf(&b, "(?: %s)?", w.String())
		} else {
			b.WriteString(" " + w.String())
		}
	}
	return b.String()
}

// splitWords splits a subject's text at the spaces between its words,
// keeping a substitution whole.
func splitWords(text string) []string {
	var words []string
	start := 0
	for i := 0; i < len(text); {
		if end := expansionEnd(text, i); end > i {
			i = end
			continue
		}
		if text[i] == ' ' {
			words = append(words, text[start:i])
			start = i + 1
		}
		i++
	}
	if text != "" {
		words = append(words, text[start:])
	}
	return words
}

// expansionEnd is the end of the $(…), ${…}, $((…)), $[…], <(…), >(…) or
// backquoted substitution at text[i:], or i when there is none or it is
// not closed.
func expansionEnd(text string, i int) int {
	switch {
	case strings.HasPrefix(text[i:], "$(") || strings.HasPrefix(text[i:], "${") || strings.HasPrefix(text[i:], "$[") ||
		strings.HasPrefix(text[i:], "<(") || strings.HasPrefix(text[i:], ">("):
		open := text[i+1]
		close := map[byte]byte{'(': ')', '{': '}', '[': ']'}[open]
		depth := 0
		for j := i + 1; j < len(text); j++ {
			switch text[j] {
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
	case text[i] == '`':
		if j := strings.IndexByte(text[i+1:], '`'); j >= 0 {
			return i + 1 + j + 1
		}
	}
	return i
}

// gitState reports whether path is git's own state in the working
// directory's repository: anything under .git but its configuration and
// hooks.
func gitState(path string) bool {
	git := oracleWorkDir + "/.git/"
	return strings.HasPrefix(path, git) && path != git+"config" && path != git+"hooks" && !strings.HasPrefix(path, git+"hooks/")
}

// changeCovered reports whether a write subject names the changed file.
func changeCovered(c oracleChange, writes []string) bool {
	for _, w := range writes {
		if c.Path == w || strings.HasPrefix(c.Path, w+"/") {
			return true
		}
		if c.Kind == "created" && strings.HasPrefix(w, c.Path+"/") {
			return true
		}
	}
	return false
}

// resolvePath is the sandbox path a write subject names: a leading
// tilde is HOME, as a path rule reads it (the splitter writes a tilde the
// shell left as it is as "./~").
func resolvePath(p string) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = oracleHome + p[1:]
	case !filepath.IsAbs(p):
		p = filepath.Join(oracleWorkDir, p)
	}
	return filepath.Clean(p)
}

// showExec renders a program as it ran.
func showExec(e oracleExec) string {
	return fmt.Sprintf("%s %q (in %s)", filepath.Base(e.Exe), e.Argv[1:], e.Cwd)
}

// String renders a disagreement for the test's failure and the findings.
func (d disagreement) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "command (%s): %q\n", d.source, d.command)
	for _, p := range d.problems {
		fmt.Fprintf(&b, "  - %s\n", p)
	}
	b.WriteString("  bash ran:")
	if len(d.result.Execs) == 0 {
		b.WriteString(" nothing")
	}
	for _, e := range d.result.Execs {
		fmt.Fprintf(&b, "\n    %s", showExec(e))
	}
	fmt.Fprintf(&b, "\n  bash's status %d", d.result.Status)
	if d.result.TimedOut {
		b.WriteString(" (timed out)")
	}
	if out := strings.TrimSpace(d.result.Output); out != "" {
		fmt.Fprintf(&b, ", output %q", truncate(out, 300))
	}
	b.WriteString("\n  subjects:")
	for _, s := range d.subjects {
		tool := s.Tool
		if tool == "" {
			tool = "bash"
		}
		mark := ""
		if s.Constrain {
			mark = " (constraint)"
		}
		fmt.Fprintf(&b, "\n    %s %s%s", tool, s.Args, mark)
	}
	b.WriteString("\n")
	return b.String()
}

// truncate cuts s to n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
