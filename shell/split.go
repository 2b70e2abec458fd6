package shell

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ChristopherDavenport/agentpolicy"
)

// errDeep is the split of a command nested past what the splitter follows.
var errDeep = errors.New("agentpolicy/shell: the command nests too deeply to be read")

// splitter collects the subjects of one call.
type splitter struct {
	*config
	// command is the call's command, and src the script being read,
	// which positions index, and tree its syntax tree.
	command string
	src     string
	tree    *syntax.File
	// inputs finds, for each tree read, each command's statement and the
	// statement piped into it ([splitter.stdinText]).
	inputs map[*syntax.File]*commandInputs
	// vars is what the script sets its variables to, read when first
	// needed, and integers the variables it declares with -i so far.
	vars     *varValues
	integers map[string]bool
	// keyed are the elements of the associative arrays a declaration
	// sets (declare -A m=([k]=v)), whose subscripts are strings, not
	// arithmetic.
	keyed map[*syntax.ArrayElem]bool
	// posix marks a reading in the POSIX dialect, which has no brace
	// expansion.
	posix bool
	// again marks a second reading of a script, whose nested strings are
	// read once, without second readings of their own, so the cost does
	// not double at every level strings nest.
	again    bool
	subjects []agentpolicy.Subject
	// dirs are the directories the commands of src run in.
	dirs places
	// links are the paths ln made links at, earlier in the call.
	links map[string]bool
	// linkTargets are, by the path of a link ln made earlier in the
	// call, the paths it points to, when its target is literal.
	linkTargets map[string][]string
	// positional are the words a shell's -c string being read is given
	// after it, its $0, $1 and so on.
	positional []word
	// startup are the values the scripts around the one being read give
	// BASH_ENV and ENV, which the shells it starts inherit (startup.go),
	// and namesStartup marks a script whose text names either.
	startup      []word
	namesStartup bool
	// guessing marks the paths of words only guessed to be files
	// ([splitter.opaqueFiles]), which are held to no pattern of a
	// directory known only when it runs.
	guessing bool
	// keyword marks a reading of a call that may turn keyword mode on
	// (set -k), and keywordSet a set or shopt found that may.
	keyword, keywordSet bool
}

// script adds the subjects of every command in src, a script run as
// code at the given depth: the call's command at 0, a string given to
// sh -c or eval one deeper than the command that runs it.
func (s *splitter) script(src string, depth int) error {
	if depth > maxDepth {
		return errDeep
	}
	if err := readable(src); err != nil {
		return err
	}
	f, err := parse(src)
	if err != nil {
		return parseError(err, src)
	}
	start := len(s.subjects)
	if err := s.walk(f, src, depth); err != nil {
		return err
	}
	return s.continued(f, src, start, depth)
}

// walk adds the subjects of the commands in f, parsed from src.
func (s *splitter) walk(f *syntax.File, src string, depth int) error {
	// A string run as code is a script of its own, read inside another.
	outerSrc, outerTree, outerVars, outerIntegers, outerStartup, outerNames := s.src, s.tree, s.vars, s.integers, s.startup, s.namesStartup
	s.startup = s.startupAround()
	s.src, s.tree, s.vars, s.integers, s.namesStartup = src, f, nil, nil, strings.Contains(src, "ENV")
	defer func() {
		// What the script gives BASH_ENV and ENV stays known after it:
		// a string eval runs sets them for the commands after it.
		inner := s.startupAround()[len(s.startup):]
		s.src, s.tree, s.vars, s.integers, s.startup, s.namesStartup = outerSrc, outerTree, outerVars, outerIntegers, slices.Concat(outerStartup, inner), outerNames
	}()
	defer s.restore(s.locate(f, src))
	nesting := 0
	var err error
	syntax.Walk(f, func(n syntax.Node) bool {
		if err != nil {
			return false
		}
		if n == nil {
			nesting--
			return true
		}
		if cs, ok := n.(*syntax.CmdSubst); ok {
			if _, ok := literalText(cs); ok {
				// It prints a literal text, read as part of its word.
				return false
			}
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
		s.declaration(n)
		s.declare(n)
	case *syntax.LetClause:
		why := quotedCode(n)
		for _, x := range n.Exprs {
			why = firstOf(why, s.arithUnseen(x))
		}
		s.add(s.field, s.text(n), s.text(n), why, false, "")
	case *syntax.TestClause:
		s.add(s.field, s.text(n), s.text(n), firstOf(quotedCode(n), s.testUnseen(n)), false, "")
	case *syntax.ArithmCmd:
		s.add(s.field, s.text(n), s.text(n), firstOf(quotedCode(n), s.arithUnseen(n.X)), false, "")
	case *syntax.ArithmExp:
		s.addUnseen(n, s.arithUnseen(n.X))
	case *syntax.Assign:
		if n.Index != nil {
			s.addUnseen(n, s.arithUnseen(n.Index))
		}
		s.addUnseen(n, s.integerUnseen(n))
		return s.valueScript(n, depth)
	case *syntax.ArrayElem:
		if n.Index != nil && !s.keyed[n] {
			s.addUnseen(n, s.arithUnseen(n.Index))
		}
	case *syntax.Redirect:
		s.redirect(n)
		if n.N != nil && strings.HasPrefix(n.N.Value, "{") {
			// "{NAME}>file" sets NAME to the descriptor it opens.
			s.addUnseen(n, shellVariableUnseen(strings.Trim(n.N.Value, "{}")))
		}
		if n.Hdoc != nil {
			s.addUnseen(n.Hdoc, quotesUnseen(n.Hdoc.Parts))
		}
	case *syntax.DblQuoted:
		s.addUnseen(n, quotesUnseen(n.Parts))
	case *syntax.ExtGlob:
		s.addUnseen(n, extglobUnseen(n))
	case *syntax.ParamExp:
		s.addUnseen(n, firstOf(expansionUnseen(n), s.paramUnseen(n)))
	case *syntax.BinaryArithm:
		if assigns(n.Op) {
			s.addUnseen(n, shellVariableUnseen(arithName(n.X)))
		}
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			s.addUnseen(n, shellVariableUnseen(arithName(n.X)))
		}
	case *syntax.FuncDecl:
		if n.Name == nil {
			// "()0": the parser reads a function with no name, bash a
			// syntax error.
			s.addUnseen(n, "the parser reads a function with no name, which bash does not")
			return nil
		}
		if modelled[n.Name.Value] {
			s.addUnseen(n, "the function "+n.Name.Value+" takes the place of the builtin the splitter reads")
		}
	case *syntax.CoprocClause:
		if n.Name != nil {
			s.addUnseen(n.Name, shellVariableUnseen(s.wordOf(n.Name).value))
		}
	case *syntax.ForClause:
		switch loop := n.Loop.(type) {
		case *syntax.WordIter:
			if why := shellVariableUnseen(loop.Name.Value); why != "" {
				text := s.src[n.Pos().Offset():loop.Name.End().Offset()]
				s.add(s.field, text, text, why, false, "")
			}
		case *syntax.CStyleLoop:
			s.addUnseen(loop, firstOf(s.arithUnseen(loop.Init), s.arithUnseen(loop.Cond), s.arithUnseen(loop.Post)))
		}
	}
	return nil
}

// addUnseen adds a subject for a part of a command that hides code, as
// written, when why says it does.
func (s *splitter) addUnseen(n syntax.Node, why string) {
	if why != "" {
		s.add(s.field, s.text(n), s.text(n), why, false, "")
	}
}

// expansionUnseen is why a parameter expansion hides code: ${x@P}
// expands x as a prompt, running the command substitutions in its value,
// ${PATH:=…} assigns a variable that changes what runs, and ${!ref:=…}
// the variable ref names.
func expansionUnseen(p *syntax.ParamExp) string {
	if p.Exp == nil || p.Param == nil {
		return ""
	}
	switch p.Exp.Op {
	case syntax.OtherParamOps:
		if p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P") {
			return "${" + p.Param.Value + "@P} runs the command substitutions in the value of " + p.Param.Value
		}
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if p.Excl {
			// ${!ref:=…} assigns the variable ref's value names.
			return "${!" + p.Param.Value + ":=…} sets a variable named when it runs"
		}
		return shellVariableUnseen(p.Param.Value)
	}
	return ""
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

// jsonObject is {"field": "value"}, encoded as encoding/json encodes it
// but with <, > and & as they are, so a matcher reads the command without
// decoding escapes.
func jsonObject(field, value string) json.RawMessage {
	b := make([]byte, 0, len(field)+len(value)+8)
	b = append(b, '{')
	b = appendString(b, field)
	b = append(b, ':')
	b = appendString(b, value)
	return append(b, '}')
}

// appendString appends s as a JSON string literal: quotes, backslashes
// and control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}

// call adds the subjects of a simple command: its assignments alone when
// it has no words, the command it runs otherwise.
func (s *splitter) call(c *syntax.CallExpr, depth int) error {
	text := s.text(c)
	if len(c.Args) == 0 {
		unpaged := s.unpaged(c.Assigns)
		s.add(s.field, s.assignments(c.Assigns), text, firstOf(s.assignsUnseen(unpaged, false), s.aloneUnseen(unpaged, c.End().Offset())), false, "")
		return nil
	}
	for _, a := range c.Assigns {
		// "SHELLOPTS=keyword bash -c STRING" starts bash in keyword mode.
		s.keywordSet = s.keywordSet || a.Name != nil && a.Name.Value == "SHELLOPTS"
	}
	words, unseen := s.expandWords(c.Args)
	unseen = firstOf(unseen, s.assignsUnseen(s.unpaged(splitting(c.Assigns, words)), true))
	if len(words) == 0 {
		// Brace expansion left no word: the assignments run alone.
		s.add(s.field, text, text, unseen, false, "")
		return nil
	}
	s.startupFiles(c, words)
	if err := s.run(command{words: words, text: text, unseen: unseen, where: s.dirs.of(c), node: c}, depth); err != nil || !s.keyword {
		return err
	}
	return s.keywordReading(c, depth)
}

// splitting are the assignments as, less IFS before read, mapfile or
// readarray ("IFS= read -r line"), which changes only how the builtin
// splits what it reads and hands the variable to no program.
func splitting(as []*syntax.Assign, words []word) []*syntax.Assign {
	if len(words) == 0 || !words[0].literal || !readsFields[words[0].value] {
		return as
	}
	var out []*syntax.Assign
	for _, a := range as {
		if a.Name == nil || a.Name.Value != "IFS" || a.Append || a.Index != nil || a.Array != nil {
			out = append(out, a)
		}
	}
	return out
}

// readsFields are the builtins that split what they read by IFS.
var readsFields = words("read mapfile readarray")

// command is one command that will run.
type command struct {
	words []word
	// text is the command as written.
	text string
	// unseen is a reason the command hides code that is known before its
	// name is read, from the assignments it runs with, say.
	unseen string
	// where is the directory it runs in.
	where where
	// appended marks a command xargs runs, which gets more words when it
	// runs.
	appended bool
	// node is the command as parsed, for one the script names itself.
	node syntax.Node
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
		base = base[i+1:]
	}
	args := cmd.words[1:]
	if cmd.appended {
		// xargs appends words it reads: options or files, as the
		// command reads them.
		args = append(args[:len(args):len(args)], xargsWords)
	}
	e := effectsOf(base, args)
	var fed []word
	exact := false
	if e.xargs != nil {
		var runs [][]word
		if runs, fed, exact = s.xargsCommands(cmd.node, *e.xargs, e.commands); exact {
			e.commands = runs
		} else {
			e.unseen = firstOf(e.unseen, e.appendsUnseen)
		}
	}
	gitArgs, isGit := gitLine(base, args)
	if isGit {
		e.unseen = firstOf(e.unseen, gitMovedUnseen(s.command, e))
	}
	if base == "set" || base == "shopt" {
		switch {
		case cmd.node != nil && s.lastInShell(cmd.node):
			// An option set where nothing runs after it changes nothing:
			// "(set -k); git status".
			e.unseen = ""
		case keywordOn(base, args):
			s.keywordSet = true
			e.unseen = firstOf(e.unseen, s.keywordLeft(base, cmd.node))
		}
	}
	if keywordStarted(base, args) {
		// "bash -k -c STRING", "env SHELLOPTS=keyword bash -c STRING":
		// the string is read in keyword mode, so the call is.
		s.keywordSet = true
	}
	if e.stdin != "" {
		if text, ok := s.stdinText(cmd.node); ok {
			e.scripts = append(e.scripts, text)
		} else {
			e.unseen = firstOf(e.unseen, e.stdin)
		}
	}
	if e.commandsIn != nil {
		if text, ok := s.stdinText(cmd.node); ok {
			r := e.commandsIn(text)
			e.scripts = append(e.scripts, r.scripts...)
			e.reads = append(e.reads, r.reads...)
			e.writes = append(e.writes, r.writes...)
		}
	}
	if e.listedIn != nil {
		if text, ok := s.stdinText(cmd.node); ok {
			e.reads = append(e.reads, listedNames(text, *e.listedIn)...)
		}
	}
	e.scripts = append(e.scripts, pagerScripts(base, args)...)
	lessWhy, lessScripts := lessUnseen(base, args)
	e.scripts = append(e.scripts, lessScripts...)
	unseen := firstOf(cmd.unseen, nameUnseen(name), e.unseen, lessWhy, subscriptCode(cmd.words[1:]), namesUnseen(base, cmd.words[1:]), streamUnseen(base, cmd.words[1:]))
	constrain := e.wrapper && !e.privileged && !e.resolves && (len(e.commands) > 0 || len(e.scripts) > 0)
	normalised := join(cmd.words)
	s.add(s.field, normalised, cmd.text, unseen, constrain, "")
	s.markWords(cmd.words, "")
	// A command named by a path may be any program, whatever its name.
	s.markReadOnly(e.readOnly && unseen == "" && base == name.value && s.holdsGlobs(e.reads))
	if base != name.value {
		s.add(s.field, base+normalised[len(name.value):], cmd.text, unseen, true, "")
		s.markWords(cmd.words, base)
	}
	readTool, writeTool := s.operandTargets()
	for _, w := range e.reads {
		s.file(readTool, w, cmd.where)
	}
	for _, w := range e.writes {
		s.file(writeTool, w, cmd.where)
	}
	if s.opaque && opaqueProgram(base) {
		s.opaqueFiles(args, cmd.where, cmd.text)
	}
	if base == "git" && (len(cmd.where.dirs) > 0 || cmd.where.unknown != "") {
		// The top of the repository may be the directory the call
		// started in.
		for _, w := range gitTops(args) {
			s.constraintFiles(w, where{}, "", readTool)
		}
	}
	if isGit && len(cmd.where.dirs) > 0 && gitRewritesTop(gitArgs) {
		// So may the top of the working tree git rewrites whole.
		s.constraintFiles(gitTop(args[0], parsed{}), where{}, "", writeTool)
	}
	if base == "ln" || base == "cp" && e.links {
		s.madeLinks(e.writes, cmd.where)
		if base == "ln" {
			s.linkedTo(args, cmd.where)
		}
	}
	if err := s.runNamed(cmd, depth); err != nil {
		return err
	}
	// What a runner that resolves names runs is decided as a constraint.
	defer s.constrainFrom(len(s.subjects), e.resolves)
	for _, inner := range e.commands {
		// The words xargs appends stay appended to the command a wrapper
		// it runs runs in turn.
		appended := base == "xargs" && !exact
		if n := len(inner); cmd.appended && n > 0 && inner[n-1] == xargsWords {
			inner, appended = inner[:n-1], true
		}
		if len(inner) == 0 {
			continue
		}
		in := cmd.where
		if e.elsewhere != "" {
			in = where{unknown: e.elsewhere}
		}
		// A wrapper that hands the shell it runs, or such a wrapper, its
		// own standard input hands it the text the call gives:
		// "sudo bash <<< 'rm x'", "sudo env bash <<< 'rm x'".
		var node syntax.Node
		if next := inner[0].value[strings.LastIndexByte(inner[0].value, '/')+1:]; passesStdin(base) && (isShell(next) || passesStdin(next)) {
			node = cmd.node
		}
		if err := s.run(command{words: inner, text: s.span(inner), unseen: cmd.unseen, where: in, appended: appended, node: node}, depth+1); err != nil {
			return err
		}
		if len(fed) > 0 && appended {
			// The words a literal standard input feeds xargs, decided
			// too: a deny rule for the file "xargs cat <<< .env" reads
			// denies it.
			fedCmd := command{words: append(inner[:len(inner):len(inner)], fed...), text: s.span(inner), unseen: cmd.unseen, where: in}
			if err := s.run(fedCmd, depth+1); err != nil {
				return err
			}
		}
	}
	outer := s.dirs.outer
	s.dirs.outer = cmd.where
	defer func() { s.dirs.outer = outer }()
	if len(e.scripts) > 0 {
		// A shell's -c string's $0, $1 and so on, while it is read;
		// none for a string another command runs.
		positional := s.positional
		s.positional = e.scriptArgs
		defer func() { s.positional = positional }()
	}
	for _, src := range e.scripts {
		err := s.shellScript(base, src, depth+1)
		if u, ok := err.(*unreadable); ok {
			s.unread(normalised, cmd.text, base+" runs a string the splitter cannot read: "+u.why, u, depth+1)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// quotedCode is why an arithmetic or test command hides code: a quoted
// string in it holding "$(" or a backquote, which bash runs when it
// evaluates the string as an expression or an array subscript though the
// parser read it as text.
func quotedCode(n syntax.Node) string {
	why := ""
	syntax.Walk(n, func(n syntax.Node) bool {
		var text string
		switch n := n.(type) {
		case *syntax.SglQuoted:
			text = n.Value
		case *syntax.Lit:
			text = n.Value
		}
		if why == "" && (strings.Contains(text, "$(") || strings.Contains(text, "`")) {
			why = "the quoted " + text + " holds a command substitution bash may run as an expression"
		}
		return why == ""
	})
	return why
}

// subscriptCode is why a command's arguments hide code: a quoted word
// holding an array subscript with a command substitution, "a[$(rm x)]",
// which bash runs when a builtin such as printf -v, read, unset or test -v
// reads the word as a variable name.
func subscriptCode(args []word) string {
	for _, w := range args {
		if !w.holdsCode {
			continue
		}
		open := strings.IndexByte(w.value, '[')
		if open >= 0 && (strings.Contains(w.value[open:], "$(") || strings.Contains(w.value[open:], "`")) {
			return "the word " + w.value + " holds a subscript with a command substitution bash may run"
		}
	}
	return ""
}

// span is the source of words as written, from the first to the last
// that stands in it. Words the splitter made, which stand nowhere in the
// source (pos and end 0), are shown normalised when no written word
// brackets them.
func (s *splitter) span(words []word) string {
	start, end := uint(len(s.src)), uint(0)
	for _, w := range words {
		if w.end > w.pos {
			start, end = min(start, w.pos), max(end, w.end)
		}
	}
	if start >= end || end > uint(len(s.src)) {
		return join(words)
	}
	return s.src[start:end]
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
	args := s.unpaged(d.Args)
	why, env := declarationUnseen(d.Variant.Value, s.declared(args))
	if env != "" && s.programAfter(d.End().Offset()) {
		why = firstOf(why, env)
	}
	why = firstOf(s.assignsUnseen(args, exports(d)), why)
	s.add(s.field, normalised, s.text(d), why, false, "")
	// A quoted word the parser does not read as an assignment,
	// 'BASH_ENV=.env', still sets the variable.
	var quoted []word
	for _, a := range args {
		if a.Name == nil && a.Value != nil {
			quoted = append(quoted, s.wordOf(a.Value))
		}
	}
	readTool, _ := s.operandTargets()
	for _, w := range startupReads(quoted) {
		s.file(readTool, w, s.dirs.of(d))
	}
}

// exports reports whether a declaration hands its variables to the
// programs run after it: export, and declare or typeset with -x.
func exports(d *syntax.DeclClause) bool {
	if d.Variant.Value == "export" {
		return true
	}
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			if lit := a.Value.Lit(); strings.HasPrefix(lit, "-") && strings.Contains(lit, "x") {
				return true
			}
		}
	}
	return false
}

// redirect adds the subject of a redirect to or from a file, under the
// write or read tool, when one is configured.
func (s *splitter) redirect(r *syntax.Redirect) {
	if r.Word == nil {
		return
	}
	if len(r.Word.Parts) == 1 {
		if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
			// "< <(find …)" reads the output of the commands it runs,
			// which are read as commands: no file.
			return
		}
	}
	w := s.wordOf(r.Word)
	var t target
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
		t = s.write
	case syntax.DplOut:
		// ">&word" writes to the file word unless word is a descriptor.
		if !w.literal || !isDescriptor(w.value) {
			t = s.write
		}
	case syntax.RdrIn:
		t = s.read
	}
	if t.tool == "" || w.literal && (w.value == "" || deviceFiles[w.value]) {
		return
	}
	text, in := s.text(r.Word), s.dirs.of(r)
	s.pathSubjects(t, w, text, pathUnseen(w), in)
	s.patternSubjects(t, w, text, in)
}

// deviceFiles are redirect targets that are no file a rule guards; an
// empty target is none either, since the shell refuses it.
var deviceFiles = map[string]bool{
	"/dev/null": true, "/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
	"/dev/fd/0": true, "/dev/fd/1": true, "/dev/fd/2": true,
	"/proc/self/fd/0": true, "/proc/self/fd/1": true, "/proc/self/fd/2": true,
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
