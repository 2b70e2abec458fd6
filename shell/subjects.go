package shell

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Option configures [Subjects].
type Option func(*config)

// config is what the options set.
type config struct {
	// field is the arguments' member that holds the command.
	field string
	// write and read say which tool a redirect's target is decided
	// under; a zero target leaves redirects of that kind out.
	write, read target
	// readOnly is the member that marks a command the tables know to be
	// read-only, "" for none.
	readOnly string
	// writeTreeTool is the tool a tree a command changes whole is decided
	// under, "" for none ([WithWriteTreeTool]).
	writeTreeTool string
	// runner is the member that marks what a runner finds and runs
	// ("prettier" of "npx prettier"), "" for none.
	runner string
	// words is the member that holds a command's words, "" for none.
	wordsField string
	// operandRead and operandWrite, when operandTools is set, are the
	// tools file operands are decided under instead of read and write.
	operandRead, operandWrite target
	operandTools              bool
	// patternTools maps a file tool to the tool the patterns of its
	// paths are decided under ([WithPatternTool]), and treeTool is the
	// tool of the trees recursive readers read ([WithTreeTool]).
	patternTools map[string]string
	treeTool     string
	// opaque marks the words of a command the tables cannot read as
	// constraints ([WithOpaqueOperands]).
	opaque bool
}

// target is a tool and the member of its arguments that holds a path.
type target struct {
	tool, field string
}

// WithField names the member of the call's arguments that holds the
// command; the default is "command". Every subject's arguments use the
// same member, so the tool's [agentpolicy.GlobMatcher] reads them.
func WithField(name string) Option {
	return func(c *config) { c.field = name }
}

// WithWriteTool decides the target of every redirect that writes a file,
// "> f", ">> f", "&> f", "&>> f", ">| f" and "<> f", as a call of the tool
// name with the path in its member field, so the file tool's rules hold a
// shell write to the same paths as its own. The standard streams,
// /dev/null and /dev/tty, and duplications of a descriptor ("2>&1") are
// left out. Without it a redirect is not a subject of its own.
func WithWriteTool(name, field string) Option {
	return func(c *config) { c.write = target{tool: name, field: field} }
}

// WithReadTool decides the target of every redirect that reads a file,
// "< f", as a call of the tool name with the path in its member field,
// as [WithWriteTool] does for writes.
func WithReadTool(name, field string) Option {
	return func(c *config) { c.read = target{tool: name, field: field} }
}

// Subjects returns the splitter a product registers for its shell tool in
// [agentpolicy.ToolMatcher]: it reads the command from the call's
// arguments with [agentpolicy.Field] and returns one subject for every
// command that would run, in the order they are written.
//
// Each subject's Args is {"<field>": "<the command, normalised>"}: quotes
// and backslashes removed from literal words, ANSI-C strings decoded,
// assignments before the command left out, and an expansion kept as it
// is written. Its Text is the command as the model wrote it. A command
// named by a path is a subject as written and, as a constraint, by its
// base name, so a deny rule for "rm" applies to /bin/rm. A wrapper is
// decided as the command it runs and, as itself, as a constraint that
// only its deny and ask rules read; sudo and doas, which change who runs
// the command, are decided in full as themselves too.
//
// A subject whose code no rule can read carries the reason in
// [agentpolicy.Subject.Unseen]. A command the parser cannot read as bash
// does, one that does not parse (the reason names the line and column),
// holds a carriage return, or reads otherwise once its line continuations
// are joined, is one unseen subject, the command as written, followed by
// the subjects of what can be read of it as constraints. The split fails,
// and the engine blocks the call, when the arguments are ambiguous or
// lack the field, when the command nests strings, wrappers or
// substitutions deeper than the splitter follows, when it holds a NUL
// byte, which shells read differently, and when it holds no command.
//
// The splitter is safe for concurrent use.
func Subjects(opts ...Option) agentpolicy.Subjects {
	c := &config{field: "command"}
	for _, o := range opts {
		o(c)
	}
	return c.split
}

// errNUL is the split of a command with a NUL byte.
var errNUL = errors.New("agentpolicy/shell: the command has a NUL byte, which shells read differently")

// errEmpty is the split of a command with nothing to run.
var errEmpty = errors.New("agentpolicy/shell: the command runs nothing")

// split is the [agentpolicy.Subjects] for the configuration.
func (c *config) split(args json.RawMessage) ([]agentpolicy.Subject, error) {
	command, ok, err := agentpolicy.Field(args, c.field)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("agentpolicy/shell: the arguments have no %q", c.field)
	}
	// The subjects' texts are slices of the command, which Field may
	// share with the caller's arguments.
	command = strings.Clone(command)
	if strings.IndexByte(command, 0) >= 0 {
		// A shell given the command as an argument stops at a NUL, and
		// one reading it from a file drops the NUL and joins the words
		// around it, neither as the parser reads it.
		return nil, errNUL
	}
	s := splitter{config: c, command: command}
	if err := s.readCall(); err != nil {
		return nil, err
	}
	if s.keywordSet {
		// A call that may turn keyword mode on is read again with it on
		// from the start: a function or a loop may run a command written
		// before the set -k after it.
		s = splitter{config: c, command: command, keyword: true}
		if err := s.readCall(); err != nil {
			return nil, err
		}
	}
	if len(s.subjects) == 0 {
		return nil, errEmpty
	}
	return s.subjects, nil
}

// readCall adds the subjects of the call's command.
func (s *splitter) readCall() error {
	if err := s.script(s.command, 0); err != nil {
		u, ok := err.(*unreadable)
		if !ok {
			return err
		}
		s.unread(s.command, s.command, u.why, u, 0)
	}
	return nil
}

// maxDepth bounds how deep strings run as code (sh -c, eval, trap) and
// wrappers nest inside each other, and maxNesting how deep the syntax of
// one script nests; a command past either fails closed rather than
// costing time and memory out of proportion to its length.
const (
	maxDepth   = 16
	maxNesting = 256
)

// parsers reuse the parser's buffers across calls.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parse reads one script in the bash dialect.
func parse(src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return p.Parse(strings.NewReader(src), "")
}
