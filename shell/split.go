package shell

import (
	"bytes"
	"encoding/json"
	"errors"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ChristopherDavenport/agentpolicy"
)

// errDeep is the split of a command nested past what the splitter follows.
var errDeep = errors.New("agentpolicy/shell: the command nests too deeply to be read")

// splitter collects the subjects of one call.
type splitter struct {
	*config
	// src is the script being read, which positions index.
	src      string
	subjects []agentpolicy.Subject
}

// script adds the subjects of every command in src, a script run as
// code at the given depth: the call's command at 0, a string given to
// sh -c or eval one deeper than the command that runs it.
func (s *splitter) script(src string, depth int) error {
	if depth > maxDepth {
		return errDeep
	}
	f, err := parse(src)
	if err != nil {
		return err
	}
	outer := s.src
	s.src = src
	defer func() { s.src = outer }()
	nesting := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		if n == nil {
			nesting--
			return true
		}
		if nesting++; nesting > maxNesting {
			err = errDeep
			return false
		}
		err = s.node(n, depth)
		return true
	})
	return err
}

// node adds the subjects one syntax node runs by itself; what it holds,
// a substitution in a word, a body, is reached as the walk goes on.
func (s *splitter) node(n syntax.Node, depth int) error {
	switch n := n.(type) {
	case *syntax.CallExpr:
		return s.call(n, depth)
	case *syntax.DeclClause:
		s.declare(n)
	case *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd:
		text := s.text(n)
		s.add(s.config.field, text, text, "", false, "")
	case *syntax.Redirect:
		s.redirect(n)
	}
	return nil
}

// text is the source of a node as written.
func (s *splitter) text(n syntax.Node) string {
	return s.src[n.Pos().Offset():n.End().Offset()]
}

// add appends a subject: value under field, for tool (the called tool
// when empty).
func (s *splitter) add(field, value, text, unseen string, constrain bool, tool string) {
	args := jsonObject(field, value)
	s.subjects = append(s.subjects, agentpolicy.Subject{
		Args:      args,
		Tool:      tool,
		Text:      text,
		Constrain: constrain,
		Unseen:    unseen,
	})
}

// jsonObject is {"field": "value"}, with <, > and & as they are, so a
// matcher reads the command without decoding escapes.
func jsonObject(field, value string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]string{field: value}) // a map of strings always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// call adds the subjects of a simple command: its assignments alone when
// it has no words, the command it runs otherwise.
func (s *splitter) call(c *syntax.CallExpr, depth int) error {
	text := s.text(c)
	if len(c.Args) == 0 {
		s.add(s.field, s.assignments(c.Assigns), text, s.assignsUnseen(c.Assigns), false, "")
		return nil
	}
	words, unseen := s.expandWords(c.Args)
	if unseen == "" {
		unseen = s.assignsUnseen(c.Assigns)
	}
	return s.run(command{words: words, text: text, end: c.End().Offset(), unseen: unseen}, depth)
}

// command is one command that will run.
type command struct {
	words []word
	// text is the command as written, end where it ends in the source.
	text string
	end  uint
	// unseen is a reason the command hides code that is known before its
	// name is read, from the assignments it runs with, say.
	unseen string
}

// run adds the subjects of one command: the command as written, its base
// name when it is named by a path, and what it runs in turn.
func (s *splitter) run(cmd command, depth int) error {
	if depth > maxDepth {
		return errDeep
	}
	name := cmd.words[0]
	base := name.value
	if i := strings.LastIndexByte(base, '/'); i >= 0 && i < len(base)-1 {
		base = path.Base(base)
	}
	e := effectsOf(base, cmd.words[1:])
	unseen := firstOf(cmd.unseen, nameUnseen(name), e.unseen)
	constrain := e.wrapper && !e.privileged && (len(e.commands) > 0 || len(e.scripts) > 0)
	normalised := join(cmd.words)
	s.add(s.field, normalised, cmd.text, unseen, constrain, "")
	if base != name.value {
		s.add(s.field, base+normalised[len(name.value):], cmd.text, unseen, true, "")
	}
	for _, inner := range e.commands {
		if err := s.run(command{
			words:  inner,
			text:   s.textFrom(inner[0], cmd),
			end:    cmd.end,
			unseen: cmd.unseen,
		}, depth+1); err != nil {
			return err
		}
	}
	for _, src := range e.scripts {
		if err := s.script(src, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// textFrom is the text of a command a wrapper runs: from its first word
// to the end of the wrapper's command, or the wrapper's own text when the
// word does not lie in the source being read.
func (s *splitter) textFrom(first word, outer command) string {
	if first.pos >= outer.end || outer.end > uint(len(s.src)) {
		return outer.text
	}
	return s.src[first.pos:outer.end]
}

// firstOf is the first reason that is not empty.
func firstOf(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}

// declare adds the subject of export, declare, local, readonly or
// typeset, which sets variables the commands after it run with.
func (s *splitter) declare(d *syntax.DeclClause) {
	normalised := d.Variant.Value
	if len(d.Args) > 0 {
		normalised += " " + s.assignments(d.Args)
	}
	s.add(s.field, normalised, s.text(d), s.assignsUnseen(d.Args), false, "")
}

// redirect adds the subject of a redirect to or from a file, under the
// write or read tool, when one is configured.
func (s *splitter) redirect(r *syntax.Redirect) {
	var t target
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
		t = s.write
	case syntax.DplOut:
		// ">&word" writes to the file word unless word is a descriptor.
		if w := s.wordOf(r.Word); !w.literal || !isDescriptor(w.value) {
			t = s.write
		}
	case syntax.RdrIn:
		t = s.read
	}
	if t.tool == "" || r.Word == nil {
		return
	}
	w := s.wordOf(r.Word)
	if w.literal && deviceFiles[w.value] {
		return
	}
	unseen := ""
	if !w.literal {
		unseen = "the redirect target " + w.value + " is known only when it runs"
	}
	s.add(t.field, w.value, s.text(r.Word), unseen, false, t.tool)
}

// deviceFiles are redirect targets that are no file a rule guards.
var deviceFiles = map[string]bool{
	"/dev/null": true, "/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
}

// isDescriptor reports whether a duplication's word names a descriptor,
// "1" or "-", rather than a file.
func isDescriptor(v string) bool {
	if v == "-" {
		return true
	}
	v = strings.TrimSuffix(v, "-")
	if v == "" {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
