package shell

import (
	"regexp"
	"strings"
	"sync"
)

// What the database shells' own commands reach, read from the literal
// text of the commands a call gives them: the shell commands they run,
// and the files they read and write. A command that pipes its output to
// a shell command, or reads one's, runs it as sh -c does: sqlite3's
// .output and .once (any prefix of either, and .excel) and .read and
// .import given "|cmd"; psql's \o, \g, \gx and \w given "|cmd", the
// program of \copy and COPY, and the text between backquotes in a
// meta-command's arguments; mysql's pager (\P). sqlite3 opens the file
// .once -e, -x and .excel write with xdg-open. The same commands given a
// file write it or read it.

// reach is what a database shell's commands run and touch.
type reach struct {
	scripts       []string
	reads, writes []word
}

// file is a path a database command names, as a word.
func file(path string) word { return word{value: path, literal: true} }

// sqliteShellCommands is what sqlite3's dot-commands in text reach.
func sqliteShellCommands(text string) reach {
	var r reach
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		command, ok := strings.CutPrefix(line, ".")
		if !ok {
			continue
		}
		name, rest, _ := strings.Cut(command, " ")
		args := sqliteArgs(rest)
		switch {
		case len(name) >= 2 && (strings.HasPrefix("shell", name) || strings.HasPrefix("system", name)):
			r.scripts = append(r.scripts, rest)
		case name != "" && (strings.HasPrefix("output", name) || strings.HasPrefix("once", name)) || name == "excel":
			r.sqliteOutput(name, args)
		case len(name) >= 2 && strings.HasPrefix("import", name):
			if target := firstOperand(args); target >= 0 {
				r.sqliteInput(args[target], nil)
			}
		case len(name) >= 3 && strings.HasPrefix("read", name) && len(args) > 0:
			r.sqliteInput(args[0], args[1:])
		}
	}
	return r
}

// sqliteOutput reads .output, .once or .excel's arguments: a pipe to a
// command, a file written, or -e and -x, a file xdg-open opens.
func (r *reach) sqliteOutput(name string, args []string) {
	opens := name == "excel"
	for i, a := range args {
		switch {
		case a == "-e" || a == "-x":
			opens = true
		case strings.HasPrefix(a, "-"):
		case strings.HasPrefix(a, "|"):
			// The command is the rest of the line, its words joined.
			r.scripts = append(r.scripts, strings.Join(append([]string{a[1:]}, args[i+1:]...), " "))
			return
		case a != "stdout":
			r.writes = append(r.writes, file(a))
			return
		default:
			return
		}
	}
	if opens {
		r.scripts = append(r.scripts, "xdg-open")
	}
}

// sqliteInput reads the source .read or .import reads: a command whose
// output it reads, the words after it joined for .read, or a file.
func (r *reach) sqliteInput(source string, rest []string) {
	if command, ok := strings.CutPrefix(source, "|"); ok {
		r.scripts = append(r.scripts, strings.Join(append([]string{command}, rest...), " "))
		return
	}
	r.reads = append(r.reads, file(source))
}

// firstOperand is the index of the first argument that is no option,
// -1 when there is none; --skip and --schema take a value.
func firstOperand(args []string) int {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--skip" || a == "--schema":
			i++
		case !strings.HasPrefix(a, "-"):
			return i
		}
	}
	return -1
}

// sqliteArgs splits a dot-command's arguments as sqlite3 does: at
// blanks, a word in single quotes taken as it is, one in double quotes
// with its backslash escapes read.
func sqliteArgs(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(text) && text[j] != c; j++ {
				if c == '"' && text[j] == '\\' && j+1 < len(text) {
					j++
				}
				b.WriteByte(text[j])
			}
			out = append(out, b.String())
			i = j + 1
		default:
			j := i
			for j < len(text) && text[j] != ' ' && text[j] != '\t' {
				j++
			}
			out = append(out, text[i:j])
			i = j
		}
	}
	return out
}

// psqlMeta finds psql's meta-commands that write or pipe: \o, \out, \g,
// \gx, \w and \write, with what follows them. It is compiled when first
// used, so a process that never reads psql's commands does not pay for
// it when it starts.
var psqlMeta = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\\(o|out|gx|g|w|write)(?:[ \t]+|$|\|)`)
})

// copyProgram finds the program of \copy or COPY: PROGRAM 'cmd'.
var copyProgram = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bprogram\s+'((?:[^']|'')*)'`)
})

// psqlShellCommands is what psql's meta-commands in text reach: \!'s
// command, anywhere in a line, the rest of it; \o and the others given
// "|cmd", the rest of the line, or a file, written; \copy's program; and
// the commands between backquotes in a line with a meta-command.
func psqlShellCommands(text string) reach {
	var r reach
	for line := range strings.SplitSeq(text, "\n") {
		if _, rest, ok := strings.Cut(line, `\!`); ok {
			r.scripts = append(r.scripts, rest)
		}
		for _, m := range psqlMeta().FindAllStringIndex(line, -1) {
			rest := strings.TrimLeft(line[m[1]-1:], " \t")
			if line[m[1]-1] != '|' {
				rest = strings.TrimLeft(line[m[1]:], " \t")
			}
			if command, ok := strings.CutPrefix(rest, "|"); ok {
				r.scripts = append(r.scripts, command)
			} else if target, _, _ := strings.Cut(rest, " "); target != "" && !strings.HasPrefix(target, `\`) {
				r.writes = append(r.writes, file(strings.Trim(target, "'")))
			}
		}
		for _, m := range copyProgram().FindAllStringSubmatch(line, -1) {
			r.scripts = append(r.scripts, strings.ReplaceAll(m[1], "''", "'"))
		}
		if strings.Contains(line, `\`) {
			parts := strings.Split(line, "`")
			for i := 1; i < len(parts)-1; i += 2 {
				r.scripts = append(r.scripts, parts[i])
			}
		}
	}
	return r
}

// mysqlShellCommands is what mysql's commands in text reach: the shell
// commands of \! and \P, anywhere in a line, and of system and pager, in
// any case, at the start of a line or of a statement: the rest of the
// line, which may hold more statements; and the file tee (\T) writes.
func mysqlShellCommands(text string) reach {
	var r reach
	for line := range strings.SplitSeq(text, "\n") {
		for _, escape := range []string{`\!`, `\P`} {
			if _, rest, ok := strings.Cut(line, escape); ok {
				r.scripts = append(r.scripts, rest)
			}
		}
		if _, rest, ok := strings.Cut(line, `\T`); ok {
			r.mysqlTee(rest)
		}
		for at := 0; at <= len(line); {
			statement := strings.TrimLeft(line[at:], " \t")
			name, rest, _ := strings.Cut(statement, " ")
			switch {
			case strings.EqualFold(name, "system") || strings.EqualFold(name, "pager"):
				r.scripts = append(r.scripts, rest)
			case strings.EqualFold(name, "tee"):
				r.mysqlTee(rest)
			}
			next := strings.IndexByte(line[at:], ';')
			if next < 0 {
				break
			}
			at += next + 1
		}
	}
	return r
}

// mysqlTee adds the file tee writes: its argument, without the blanks
// and the semicolons that end it.
func (r *reach) mysqlTee(rest string) {
	if target := strings.TrimRight(strings.TrimSpace(rest), "; \t"); target != "" {
		r.writes = append(r.writes, file(target))
	}
}
