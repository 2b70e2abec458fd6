package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// maxLinks is how many symbolic links one path may pass through before it
// is refused as a loop.
const maxLinks = 40

// PathSubjects returns the splitter of a file tool whose path is the string
// member field of the arguments (spec §5.6): the path as requested, made
// absolute and cleaned as [PathMatcher] reads it, and, with [Paths.Links]
// set, the file it resolves to when that differs. The engine allows a call
// only when every subject is allowed and denies it when any is denied, so
// an allow rule must match both paths and a deny rule either, as Claude
// Code decides a symbolic link.
//
// A call whose arguments hold other members also yields them, without the
// path, as a constraint subject, so a parameter rule such as
// "Read(offset:5)" sees them. Arguments that are ambiguous, that lack the
// path, and a path whose links loop or cannot be read, are errors, which
// the engine refuses the call with.
func PathSubjects(field string, p Paths) agentpolicy.Subjects {
	return pathSubjects(field, p, false)
}

// pathSubjects is [PathSubjects]; optional reads a missing path as the
// working directory, as Grep and Glob search it.
func pathSubjects(field string, p Paths, optional bool) agentpolicy.Subjects {
	return func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		value, ok, err := agentpolicy.Field(args, field)
		if err != nil {
			return nil, err
		}
		if !ok {
			if !optional {
				return nil, errors.New("agentpolicy/claudecode: the call names no " + field)
			}
			value = p.dir()
		}
		abs := p.abs(value)
		subjects := []agentpolicy.Subject{pathSubject(field, abs, value)}
		if p.Links != nil {
			real, err := resolveLinks(p.Links, abs)
			if err != nil {
				return nil, err
			}
			if real != abs {
				subjects = append(subjects, pathSubject(field, real, value+" -> "+real))
			}
		}
		return appendParameters(subjects, args, field)
	}
}

// pathSubject is the subject of one absolute path.
func pathSubject(field, abs, text string) agentpolicy.Subject {
	key, _ := json.Marshal(field)
	value, _ := json.Marshal(abs)
	args := make([]byte, 0, len(key)+len(value)+3)
	args = append(append(append(append(append(args, '{'), key...), ':'), value...), '}')
	return agentpolicy.Subject{Args: args, Text: text}
}

// appendParameters appends the arguments other than the primary field as a
// constraint subject, when there are any, so parameter rules read them.
func appendParameters(subjects []agentpolicy.Subject, args json.RawMessage, primary string) ([]agentpolicy.Subject, error) {
	// Every member needs a colon, so arguments with one at most hold no
	// member beside the primary one.
	if bytes.Count(args, []byte(":")) <= 1 {
		return subjects, nil
	}
	members, err := members(args)
	if err != nil {
		return nil, err
	}
	delete(members, primary)
	if len(members) == 0 {
		return subjects, nil
	}
	rest, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	return append(subjects, agentpolicy.Subject{Args: rest, Constrain: true}), nil
}

// resolveLinks follows the symbolic links of an absolute cleaned path
// through fsys, whose names are the path without its leading slash. A
// component that does not exist ends the walk, since a file being created
// has no link to follow; a loop or an unreadable link is an error.
func resolveLinks(fsys fs.ReadLinkFS, p string) (string, error) {
	parts := splitPath(p)
	resolved := "/"
	hops := 0
	for i := 0; i < len(parts); i++ {
		next := path.Join(resolved, parts[i])
		info, err := fsys.Lstat(fsName(next))
		if err != nil {
			return path.Join(append([]string{next}, parts[i+1:]...)...), nil
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if hops++; hops > maxLinks {
			return "", errors.New("agentpolicy/claudecode: too many symbolic links in " + p)
		}
		target, err := fsys.ReadLink(fsName(next))
		if err != nil {
			return "", errors.New("agentpolicy/claudecode: cannot read the link " + next + ": " + err.Error())
		}
		if !path.IsAbs(target) {
			target = path.Join(resolved, target)
		}
		parts = append(splitPath(path.Clean(target)), parts[i+1:]...)
		resolved, i = "/", -1
	}
	return resolved, nil
}

// splitPath splits an absolute path into its names.
func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// fsName is an absolute path as an fs.FS names it.
func fsName(p string) string {
	if p == "/" {
		return "."
	}
	return p[1:]
}

// globSubjects splits a Glob call: the directory it searches and, when its
// pattern is absolute or climbs out with "..", the directory the pattern
// starts from, since that is where the search reads.
func globSubjects(p Paths) agentpolicy.Subjects {
	dir := pathSubjects("path", p, true)
	return func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		subjects, err := dir(args)
		if err != nil {
			return nil, err
		}
		pattern, ok, err := agentpolicy.Field(args, "pattern")
		if err != nil || !ok {
			return subjects, err
		}
		if bracesLeave(pattern) {
			return nil, errors.New("agentpolicy/claudecode: the pattern " + pattern + " has a brace alternative that leaves its directory")
		}
		if !strings.HasPrefix(pattern, "/") && !strings.HasPrefix(pattern, "~") && !strings.Contains(pattern, "..") {
			return subjects, nil
		}
		base, _, _ := strings.Cut(pattern, "*")
		base = base[:strings.LastIndexByte(base+"/", '/')]
		searched, _, _ := agentpolicy.Field(args, "path")
		if searched == "" {
			searched = p.dir()
		}
		if !strings.HasPrefix(base, "/") && !strings.HasPrefix(base, "~") {
			base = p.abs(searched) + "/" + base
		}
		return append(subjects, pathSubject("path", p.abs(base), pattern)), nil
	}
}

// bracesLeave reports whether a glob pattern's brace alternatives could
// name another directory, "{/etc,src}/*", which the search expands and
// no single base describes.
func bracesLeave(pattern string) bool {
	for {
		open := strings.IndexByte(pattern, '{')
		if open < 0 {
			return false
		}
		end := strings.IndexByte(pattern[open:], '}')
		if end < 0 {
			end = len(pattern) - open
		}
		group := pattern[open : open+end]
		if strings.ContainsAny(group, "/~") || strings.Contains(group, "..") {
			return true
		}
		pattern = pattern[open+end:]
	}
}

// urlSubjects refuses a WebFetch call whose host cannot be told (see
// [URLHost]), so no rule is ever asked about a URL two parsers read
// differently.
func urlSubjects(field string) agentpolicy.Subjects {
	return func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		raw, ok, err := agentpolicy.Field(args, field)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errors.New("agentpolicy/claudecode: the call names no " + field)
		}
		if _, err := URLHost(raw); err != nil {
			return nil, err
		}
		return []agentpolicy.Subject{{Args: args, Text: raw}}, nil
	}
}

// skillSubjects reads a Skill call as its invocation, the skill's name and
// its arguments, which skill patterns match, and keeps the call's own
// arguments as a constraint for parameter rules.
func skillSubjects(args json.RawMessage) ([]agentpolicy.Subject, error) {
	name, ok, err := agentpolicy.Field(args, "skill")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("agentpolicy/claudecode: the call names no skill")
	}
	rest, _, err := agentpolicy.Field(args, "args")
	if err != nil {
		return nil, err
	}
	text := name
	if rest != "" {
		text += " " + rest
	}
	invocation, _ := json.Marshal(map[string]string{"invocation": text})
	return []agentpolicy.Subject{
		{Args: invocation, Text: text},
		{Args: args, Constrain: true},
	}, nil
}

// splitCommand is Claude Code's Bash splitter: a subject per command,
// marked read-only when the shell's tables know it changes nothing, and
// a subject for each file a command or a redirect reads, under the Read
// rules, and writes, under the Edit rules (spec §4.6), so a Read or Edit
// deny rule reaches "cp .env x" as it reaches "cat .env".
var splitCommand = shell.Subjects(
	shell.WithField("command"),
	shell.WithWriteTool(redirectTool, "file_path"),
	shell.WithReadTool("Read", "file_path"),
	shell.WithOperandTools("Read", operandTool, "file_path"),
	shell.WithReadOnlyField(readOnlyField),
	shell.WithRunnerField(runnerField),
	shell.WithPatternTool("Read", globReadTool),
	shell.WithPatternTool(operandTool, globEditTool),
	shell.WithPatternTool(redirectTool, globEditTool),
	shell.WithTreeTool(treeTool),
	shell.WithWriteTreeTool(writeTreeTool),
	shell.WithOpaqueOperands(),
)

// operandTool is the tool a file a command writes is decided under, as
// opposed to a redirect's target: Claude Code runs "cp a.txt b.txt" under
// an allow rule for cp when b.txt is inside the working directories and
// not protected, but asks before "echo x > out.txt" whatever allows echo.
// The Edit rules reach it ([Settings.Aliases]), and [Settings.Builtin]
// allows it inside the working directories.
const operandTool = "Edit.operand"

// redirectTool is the tool a redirect's target is decided under: the Edit
// rules with a path reach it ([Settings.Aliases]), a bare Edit allow rule,
// which approves the Edit tool alone, does not. Claude Code asks before
// "echo hi > out.txt" under a bare Edit allow (recorded from 2.1.328), so
// a command with a redirect is never approved by its read-only mark alone.
const redirectTool = "Edit.redirect"

// readOnlyField is the member the splitter sets on a command Claude Code
// runs without a rule (spec §4.6), which [Settings.Builtin] allows.
const readOnlyField = "read_only"

// runnerField is the member the splitter sets on what a project or
// package runner runs ("prettier" of "npx prettier"): Claude Code does
// not strip the runner (spec §4.4), so an allow rule approves the
// runner's line, and what it runs stays a constraint that deny and ask
// rules read.
const runnerField = "runner_command"

// bashSubjects splits a Bash call into its commands and keeps the call's
// other arguments as a constraint, for parameter rules such as
// "Bash(run_in_background:true)". With written set, each command's
// subject also carries its text as written, for quoted allow rules.
func bashSubjects(written bool) agentpolicy.Subjects {
	return func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		subjects, err := splitBash(args)
		if err != nil {
			return nil, err
		}
		if written {
			withWritten(subjects)
		}
		return appendParameters(subjects, args, "command")
	}
}

// splitBash splits a Bash call into the subjects of its commands and of
// the files they and their redirects read and write.
func splitBash(args json.RawMessage) ([]agentpolicy.Subject, error) {
	subjects, err := splitCommand(args)
	if err != nil {
		return nil, err
	}
	if changesDirectory(subjects) {
		for i := range subjects {
			markRelativeTarget(&subjects[i])
		}
	}
	for i := range subjects {
		markHomeTarget(&subjects[i])
	}
	holdPrefixes(subjects)
	command, _, _ := agentpolicy.Field(args, "command")
	if len(command) > maxCommand {
		for i := range subjects {
			if subjects[i].Unseen == "" {
				subjects[i].Unseen = "the command is longer than 10,000 characters"
			}
		}
	}
	markOperators(command, subjects)
	return subjects, nil
}

// maxCommand is the longest command Claude Code decides by its rules; a
// longer one is always asked about (spec §4.3).
const maxCommand = 10000

// changesDirectory reports whether a command of the split moves the
// shell's working directory, after which a relative redirect target is no
// longer under the directory its rules are anchored at.
func changesDirectory(subjects []agentpolicy.Subject) bool {
	for _, sub := range subjects {
		if sub.Tool != "" {
			continue
		}
		command, _, _ := agentpolicy.Field(sub.Args, "command")
		name, _, _ := strings.Cut(command, " ")
		if name == "cd" || name == "pushd" || name == "popd" {
			return true
		}
	}
	return false
}

// markRelativeTarget makes a redirect target given relative to a
// directory the command changed unseen, so no allow rule approves it while
// a deny or ask rule still reads it (spec §4.6: a redirect whose base is
// unclear is asked about).
//
// Only a write is marked, as Claude Code asks before a command that
// changes directory and writes: the splitter resolves a path after a cd
// it follows exactly and marks one after a cd it cannot, so "cd src &&
// cat main.go" reads src/main.go under the Read rules.
func markRelativeTarget(sub *agentpolicy.Subject) {
	if sub.Tool == "" || sub.Tool == "Read" || sub.Unseen != "" || sub.Constrain {
		return
	}
	target, _, _ := agentpolicy.Field(sub.Args, "file_path")
	if !strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "~") {
		sub.Unseen = "the redirect target " + target + " is relative to a directory the command changes"
	}
}

// markHomeTarget makes a redirect target written with a leading tilde
// unseen: the splitter resolves "~/x" to the home directory, where a deny
// rule reads it, but Claude Code asks before such a write whatever the
// rules allow (spec §4.6).
func markHomeTarget(sub *agentpolicy.Subject) {
	if sub.Tool == redirectTool && sub.Unseen == "" && strings.HasPrefix(sub.Text, "~") {
		sub.Unseen = "the redirect target " + sub.Text + " starts with ~"
	}
}

// members decodes the top-level members of a call's arguments. It refuses,
// wrapping [agentpolicy.ErrAmbiguousArgs], arguments that are not one JSON
// object and a key that repeats or equals another but for case, since two
// decoders could read such arguments differently and a parameter rule must
// read what the tool will.
func members(args json.RawMessage) (map[string]json.RawMessage, error) {
	ambiguous := func(why string) error {
		return fmt.Errorf("%w: %s", agentpolicy.ErrAmbiguousArgs, why)
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ambiguous("the arguments are not a JSON object")
	}
	out := make(map[string]json.RawMessage)
	folded := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, ambiguous("the arguments are not valid JSON")
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, ambiguous("the arguments are not valid JSON")
		}
		if folded[strings.ToLower(key)] {
			return nil, ambiguous(strconv.Quote(key) + " appears twice")
		}
		folded[strings.ToLower(key)] = true
		out[key] = value
	}
	if _, err := dec.Token(); err != nil {
		return nil, ambiguous("the arguments are not valid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, ambiguous("the arguments hold more than one JSON value")
	}
	return out, nil
}

// checkedSubjects makes the call its one subject once its arguments are
// unambiguous, for a tool whose matcher reads several members.
func checkedSubjects(args json.RawMessage) ([]agentpolicy.Subject, error) {
	if _, err := members(args); err != nil {
		return nil, err
	}
	return []agentpolicy.Subject{{Args: args}}, nil
}
