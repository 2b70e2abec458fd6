package claudecode

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/bmatcuk/doublestar/v4"
)

// Paths says what the anchors of a path rule stand for and how a tool's
// path is read, for [PathMatcher] and [PathSubjects].
type Paths struct {
	// Cwd is the primary working directory, an absolute slash-separated
	// path: "./x" and "/x" are anchored at it, and a bare pattern such as
	// ".env" matches at any depth under it. A relative path a tool is
	// given is joined to it, unless Dir is set.
	Cwd string
	// Dir, when set, is the directory a tool's relative path is read
	// from, an absolute slash-separated path: the shell's current
	// directory once a session has changed it, while rules stay anchored
	// at Cwd. Empty is Cwd.
	Dir string
	// Home is the user's home directory, what "~/" stands for, in rules
	// and in a tool's path.
	Home string
	// FoldCase compares paths and patterns without regard to case, as
	// Claude Code 2.1.328 compares them on every platform (spec §11), so
	// a deny of ".env" also refuses ".ENV", which a case-insensitive file
	// system opens as the same file. [Settings] always sets it; the zero
	// value compares exactly.
	FoldCase bool
	// Windows reads a tool's "C:\Users\a" as "/c/Users/a", the POSIX form
	// Claude Code converts Windows paths to before matching.
	Windows bool
	// Links, when set, resolves symbolic links for [PathSubjects], so a
	// path is decided as requested and as the file it opens (spec §5.6).
	// os.DirFS("/") resolves them on the host's file system. Nil decides
	// the path as requested.
	Links fs.ReadLinkFS
}

// PathMatcher returns the matcher of Claude Code's Read and Edit
// specifiers (spec §5) over the string member field of the arguments.
//
// A specifier is a gitignore-style pattern with an anchor:
//
//   - "//x" is absolute from the filesystem root: "//tmp/a.txt";
//   - "~/x" is under [Paths.Home];
//   - "/x" and "./x" are anchored at [Paths.Cwd]: "/src/**" is
//     "<cwd>/src/**", never the filesystem's "/src";
//   - a pattern with no "/" but a trailing one, ".env" or "*.env", matches
//     that name at any depth under Cwd, as "**/.env" would;
//   - any other pattern, "src/**/*.ts", is anchored at Cwd.
//
// "*" matches within one path segment and "**" across segments; "?" and
// "[...]" are gitignore's, "\" escapes, and "{" is a literal brace, since
// gitignore has no alternation. A pattern matches a path when it matches
// the path or one of the directories above it under the anchor, as a
// gitignore line excludes everything inside a directory it excludes. A
// pattern that is not valid matches nothing.
//
// The any-depth reading a deny or ask list gives "src/**" (spec §5.3)
// depends on the list, which a matcher is not told: [Settings] writes it
// into the specifier as "**/src/**", and a host writing its own deny rules
// writes that form.
//
// The pattern may be followed by exceptions, each introduced by " !":
// "*.env !sample.env". An exception is read relative to Cwd whatever
// follows the "!", and takes back a path it matches unless a directory
// above that path is matched by the pattern and by no exception, since a
// gitignore negation cannot reopen a file inside an excluded directory.
// [Settings] writes a "!" rule of a settings list this way into the rules
// it reaches (spec §5.5); a host writing its own rules may use the
// engine's carve-out instead.
//
// The tool's path is read before matching: "~" and "~/" are joined to
// Home, a relative path to Cwd, and the result is cleaned, so
// "./src/../.env" is "<cwd>/.env" and no ".." escapes a rule. The path is
// matched as given; [PathSubjects] adds the file a symbolic link resolves
// to. Arguments without the member, or whose member is not one string
// ([agentpolicy.Field] reports them ambiguous), match nothing: that fails
// closed for an allow rule, and [PathSubjects], registered beside the
// matcher, refuses such a call before a deny rule is consulted.
//
// The matcher is safe for concurrent use; it compiles each specifier once.
func PathMatcher(field string, p Paths) agentpolicy.Matcher {
	return newPathMatcher(field, newPatterns(p), "").match
}

// newPathMatcher is [PathMatcher] for a tool whose parameter rules
// (spec §2.4) it also reads, deciding once per specifier which it is.
func newPathMatcher(field string, c *patterns, tool string) *pathMatcher {
	m := &pathMatcher{field: field, paths: c.paths, tool: tool, byText: c}
	m.patterns.Store(&specTable{})
	return m
}

// patterns compiles specifiers under one [Paths], each once by its text,
// for every path matcher that shares them: a Read rule reaches Grep and
// Glob too, and an Edit rule four tools.
type patterns struct {
	paths Paths
	// dirs are the directories the bases stand for.
	dirs   [bases]string
	mu     sync.Mutex
	byText map[string]*pathPattern
}

func newPatterns(p Paths) *patterns {
	c := &patterns{paths: p, byText: make(map[string]*pathPattern)}
	for b := range bases {
		c.dirs[b] = p.baseDir(b)
	}
	return c
}

// compile returns the compiled specifier, compiling it on first use. A
// parameter rule is the matcher's to read ([pathMatcher.text]).
func (c *patterns) compile(spec string) *pathPattern {
	c.mu.Lock()
	defer c.mu.Unlock()
	if pp, ok := c.byText[spec]; ok {
		return pp
	}
	pp := c.paths.compile(spec)
	if len(c.byText) < maxCachedPatterns {
		c.byText[spec] = pp
	}
	return pp
}

// pathMatcher holds the compiled specifiers of one [PathMatcher] and the
// path it read last, since the engine gives it one subject's arguments once
// per rule.
type pathMatcher struct {
	field string
	paths Paths
	// tool names the tool whose parameter rules the matcher reads, ""
	// for none.
	tool string
	// globs marks the matcher of a shell's glob operands, which asks
	// whether the glob can match a path the rule matches ([glob.meets]).
	globs bool
	// trees marks the matcher of the trees a shell command reads whole
	// ([pathMatcher.meetsTree]).
	trees bool
	// anchoredTrees marks the matcher of the trees a shell command
	// changes whole, which a rule meets only when the directory its
	// pattern begins with lies in the tree ([pathMatcher.meetsTree]).
	anchoredTrees bool
	// patterns maps a specifier's memory to its compiled form. It is
	// replaced, never changed, so a lookup takes no lock. A specifier it
	// lacks is kept in pending, under mu, until pending holds as many as
	// the table: the table is then rebuilt with both, so filling it costs
	// time in proportion to what it holds, not its square.
	patterns atomic.Pointer[specTable]
	mu       sync.Mutex
	pending  map[specKey]*pathPattern
	// byText compiles a specifier seen first in other memory, once by
	// its text for every matcher that shares it.
	byText *patterns
	last   atomic.Pointer[readPath]
}

// readPath is a tool's arguments and the path read from them. It holds
// the arguments themselves, so while it is the last reading their memory
// is theirs and the same slice is the same arguments.
type readPath struct {
	args json.RawMessage
	located
	ok bool
}

// match is the [agentpolicy.Matcher].
func (m *pathMatcher) match(spec string, args json.RawMessage) bool {
	pp := m.compiled(spec)
	if pp.parameter {
		return matchParameter(spec, args)
	}
	r := m.reading(args)
	switch {
	case m.globs:
		return r.ok && m.meetsGlob(pp, r.path, args)
	case m.trees:
		return r.ok && m.meetsTree(pp, r.path, args)
	}
	return r.ok && pp.match(&m.paths, &r.located)
}

// compiled returns the compiled specifier. The engine calls the matcher
// once per rule it tries, so it is found without a lock or a hash of its
// text.
func (m *pathMatcher) compiled(spec string) *pathPattern {
	if pp := m.patterns.Load().get(specKey{unsafe.StringData(spec), len(spec)}); pp != nil {
		return pp
	}
	return m.pattern(spec)
}

// reading returns the path the arguments name, read once for all the rules
// the engine tries on one subject.
func (m *pathMatcher) reading(args json.RawMessage) *readPath {
	if r := m.last.Load(); r != nil && sameBytes(r.args, args) {
		return r
	}
	return m.read(args)
}

// index is the matcher's [agentpolicy.Index], so that a decision calls
// the matcher only for the rules whose directory the path is in. The key
// is the path as the matcher reads it, cleaned, absolute and folded when
// case does not count; a pattern matches only paths under its base that
// begin with its literal directories ([glob.relative]), so its literal is
// the base and those directories. A parameter rule reads other arguments
// and an unusable pattern matches nothing: both are filed under "", and
// tried for every subject.
func (m *pathMatcher) index() agentpolicy.Index {
	return agentpolicy.Index{Key: m.key, Literal: m.literal}
}

func (m *pathMatcher) key(args json.RawMessage) (string, bool) {
	r := m.reading(args)
	return r.path, r.ok
}

func (m *pathMatcher) literal(spec string) string {
	pp := m.text(spec)
	if pp.parameter || pp.pattern == "" {
		return ""
	}
	dir := m.byText.dirs[pp.base]
	if dir != "/" {
		dir += "/"
	}
	return dir + pp.prefix
}

// read reads the cleaned absolute path the arguments name, located, and
// keeps the reading as the last one.
func (m *pathMatcher) read(args json.RawMessage) *readPath {
	value, ok, err := agentpolicy.Field(args, m.field)
	r := &readPath{args: args, ok: ok && err == nil}
	if r.ok {
		r.located = m.paths.locate(m.paths.fold(m.paths.abs(value)))
	}
	m.last.Store(r)
	return r
}

// maxCachedPatterns bounds the compiled specifiers a matcher keeps; a
// policy holds far fewer, and one past the bound is compiled per use.
const maxCachedPatterns = 4096

// specKey identifies a specifier string by its memory rather than its
// text, so the lookup the engine makes once per rule hashes one word, not
// the text. Its pointer keeps that memory from being reused for other
// text while the key is in the table.
type specKey struct {
	data *byte
	len  int
}

// specTable is an open-addressed table from specKey to the compiled
// pattern, replaced whole on every insertion so readers take no lock.
type specTable struct {
	slots []specSlot
	n     int
}

type specSlot struct {
	key specKey
	pp  *pathPattern
}

// slot is where the search for k starts: the pointer scrambled by a
// multiplicative hash, which spreads the aligned addresses of strings.
func (t *specTable) slot(k specKey) int {
	h := uint64(uintptr(unsafe.Pointer(k.data))) * 0x9e3779b97f4a7c15
	return int(h>>32) & (len(t.slots) - 1)
}

func (t *specTable) get(k specKey) *pathPattern {
	if len(t.slots) == 0 {
		return nil
	}
	for i := t.slot(k); ; i = (i + 1) & (len(t.slots) - 1) {
		s := &t.slots[i]
		if s.pp == nil || s.key == k {
			return s.pp
		}
	}
}

// with returns a table holding t's entries and more, growing it to keep
// it at most half full.
func (t *specTable) with(more map[specKey]*pathPattern) *specTable {
	size := max(len(t.slots), 16)
	for (t.n+len(more))*2 > size {
		size *= 2
	}
	next := &specTable{slots: make([]specSlot, size)}
	for _, s := range t.slots {
		if s.pp != nil {
			next.put(s.key, s.pp)
		}
	}
	for k, pp := range more {
		next.put(k, pp)
	}
	return next
}

func (t *specTable) put(k specKey, pp *pathPattern) {
	i := t.slot(k)
	for t.slots[i].pp != nil && t.slots[i].key != k {
		i = (i + 1) & (len(t.slots) - 1)
	}
	if t.slots[i].pp == nil {
		t.n++
	}
	t.slots[i] = specSlot{key: k, pp: pp}
}

// sameBytes reports whether a and b hold the same bytes, at once when
// they are the same slice, as the engine's calls for one subject are.
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b) {
		return true
	}
	return string(a) == string(b)
}

// pattern returns the compiled specifier the table does not hold yet,
// compiling it on first use, and adds it to the table.
func (m *pathMatcher) pattern(spec string) *pathPattern {
	key := specKey{unsafe.StringData(spec), len(spec)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if pp := m.pending[key]; pp != nil {
		return pp
	}
	pp := m.text(spec)
	table := m.patterns.Load()
	if table.n+len(m.pending) >= 2*maxCachedPatterns {
		return pp
	}
	if m.pending == nil {
		m.pending = map[specKey]*pathPattern{}
	}
	m.pending[key] = pp
	if len(m.pending) >= max(table.n, 16) {
		m.patterns.Store(table.with(m.pending))
		clear(m.pending)
	}
	return pp
}

// text returns the compiled specifier by its text, without adding it to
// the table: [pathMatcher.literal] reads every rule of a policy once when
// it is built, and a table replaced whole for each would make that
// quadratic. A parameter rule of the matcher's tool reads other arguments.
func (m *pathMatcher) text(spec string) *pathPattern {
	if isParameter(m.tool, spec) {
		return &pathPattern{parameter: true}
	}
	return m.byText.compile(spec)
}

// abs turns a tool's path into the absolute, cleaned, slash-separated
// form patterns are matched against.
func (p Paths) abs(value string) string {
	if p.Windows {
		value = windowsPath(value)
	}
	switch {
	case value == "~":
		value = p.Home
	case strings.HasPrefix(value, "~/"):
		value = p.Home + value[1:]
	case !strings.HasPrefix(value, "/"):
		value = p.dir() + "/" + value
	}
	return path.Clean(value)
}

// dir is the directory a tool's relative path is read from.
func (p Paths) dir() string {
	if p.Dir != "" {
		return p.Dir
	}
	return p.Cwd
}

// fold lower-cases a path when case does not count.
func (p Paths) fold(value string) string {
	if p.FoldCase {
		return strings.ToLower(value)
	}
	return value
}

// windowsPath converts "C:\Users\a" and "C:/Users/a" to "/c/Users/a" and
// every other backslash to a slash.
func windowsPath(s string) string {
	s = strings.ReplaceAll(s, `\`, "/")
	if len(s) >= 2 && s[1] == ':' && isLetter(s[0]) && (len(s) == 2 || s[2] == '/') {
		s = "/" + strings.ToLower(s[:1]) + s[2:]
	}
	return s
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// pathPattern is a compiled specifier: one anchored glob and the
// exceptions that take paths back from it.
type pathPattern struct {
	glob
	except []glob
	// parameter marks a parameter rule of the matcher's tool.
	parameter bool
}

// glob is one anchored gitignore-style pattern.
type glob struct {
	// base is the directory the pattern is relative to: the root, the
	// working directory or the home directory.
	base base
	// pattern is the doublestar pattern relative to anchor that matches
	// a path or what is inside it, "" when the pattern cannot match
	// anything; self matches the path alone.
	pattern, self string
	// starLast marks a pattern whose last segment ends in "*": doublestar
	// reads "a*/**" as needing at least one character for the star, so
	// such a pattern is tried as self too, where "a*" matches "a".
	starLast bool
	// prefix is the literal directory path the pattern begins with, and
	// needle a run of literal text every match contains; both are tested
	// before the pattern is run.
	prefix, needle string
}

// compile reads a specifier and its exceptions.
func (p Paths) compile(spec string) *pathPattern {
	parts := strings.Split(spec, " !")
	pp := &pathPattern{glob: p.anchored(parts[0])}
	for _, ex := range parts[1:] {
		pp.except = append(pp.except, p.anchored(relativeException(ex)))
	}
	return pp
}

// relativeException reads an exception as Claude Code reads a "!"
// pattern: relative to the working directory whatever anchor follows, so
// "~/notes/**" is a directory named "~" under it and "/x" is "./x".
func relativeException(ex string) string {
	if strings.HasPrefix(ex, "/") || strings.HasPrefix(ex, "~") {
		return "./" + ex
	}
	return ex
}

// base names the directories a pattern may be anchored at.
type base int

const (
	baseRoot base = iota
	baseCwd
	baseHome
	bases
)

// located is a cleaned absolute path and where it sits under each base,
// worked out once per path rather than once per rule.
type located struct {
	path string
	rel  [bases]string
	in   [bases]bool
}

// locate places a cleaned absolute path, already folded when case does not
// count, under the root, the working directory and the home directory.
func (p Paths) locate(abs string) located {
	l := located{path: abs}
	l.rel[baseRoot], l.in[baseRoot] = abs[min(1, len(abs)):], len(abs) > 1
	for _, b := range []base{baseCwd, baseHome} {
		dir := p.baseDir(b)
		if dir == "/" {
			l.rel[b], l.in[b] = l.rel[baseRoot], l.in[baseRoot]
			continue
		}
		if rest, ok := strings.CutPrefix(abs, dir); ok && len(rest) > 1 && rest[0] == '/' {
			l.rel[b], l.in[b] = rest[1:], true
		}
	}
	return l
}

// baseDir is the directory a base stands for, cleaned and folded as the
// paths matched under it are.
func (p Paths) baseDir(b base) string {
	switch b {
	case baseCwd:
		return p.fold(path.Clean("/" + p.Cwd))
	case baseHome:
		return p.fold(path.Clean("/" + p.Home))
	}
	return "/"
}

// anchored compiles one pattern with its anchor.
func (p Paths) anchored(spec string) glob {
	if p.FoldCase {
		spec = strings.ToLower(spec)
	}
	b, rest := baseCwd, spec
	switch {
	case strings.HasPrefix(spec, "//"):
		b, rest = baseRoot, spec[2:]
	case strings.HasPrefix(spec, "~/"):
		b, rest = baseHome, spec[2:]
	case strings.HasPrefix(spec, "/"):
		rest = spec[1:]
	case strings.HasPrefix(spec, "./"):
		rest = spec[2:]
	default:
		trimmed := strings.TrimSuffix(spec, "/")
		if !strings.Contains(trimmed, "/") {
			rest = "**/" + spec
		}
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" {
		rest = "**"
	}
	self := escapeBraces(rest)
	pattern := self
	if !strings.HasSuffix(self, "**") {
		pattern += "/**"
	}
	if !doublestar.ValidatePattern(pattern) {
		return glob{base: b}
	}
	return glob{base: b, pattern: pattern, self: self, starLast: endsInStar(self),
		prefix: literalPrefix(rest), needle: longestLiteral(rest)}
}

// endsInStar reports whether a pattern's last segment ends in a "*" that
// is neither escaped nor part of "**".
func endsInStar(s string) bool {
	rest, ok := strings.CutSuffix(s, "*")
	if !ok || strings.HasSuffix(rest, "*") {
		return false
	}
	slashes := len(rest) - len(strings.TrimRight(rest, `\`))
	return slashes%2 == 0
}

// escapeBraces makes "{" and "}" literal, since gitignore has no
// alternation and doublestar does.
func escapeBraces(s string) string {
	if !strings.ContainsAny(s, "{}") {
		return s
	}
	var b strings.Builder
	escaped := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == '{' || c == '}') && !escaped {
			b.WriteByte('\\')
		}
		escaped = c == '\\' && !escaped
		b.WriteByte(c)
	}
	return b.String()
}

// literalPrefix returns the directories a pattern names before its first
// glob character: "docs/api" for "docs/api/**", "" for "**/x".
func literalPrefix(s string) string {
	if i := strings.IndexAny(s, `*?[]\{}`); i >= 0 {
		s = s[:i]
	} else {
		return s
	}
	return s[:max(strings.LastIndexByte(s, '/'), 0)]
}

// longestLiteral returns the longest run of pattern text within one
// segment free of glob syntax, which every path the pattern matches
// contains. A slash is left out, since "src/**" matches "src" itself.
func longestLiteral(s string) string {
	best, start := "", 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !strings.ContainsRune(`*?[]\{}/`, rune(s[i])) {
			continue
		}
		if i-start > len(best) {
			best = s[start:i]
		}
		start = i + 1
	}
	return best
}

// match reports whether the pattern takes the located path.
func (pp *pathPattern) match(p *Paths, l *located) bool {
	if !pp.glob.match(l) {
		return false
	}
	if len(pp.except) == 0 {
		return true
	}
	// Gitignore order: the first directory, from the top, that the
	// pattern excludes and no exception takes back decides.
	for i := 1; i <= len(l.path); i++ {
		if i < len(l.path) && l.path[i] != '/' {
			continue
		}
		prefix := p.locate(l.path[:i])
		if pp.glob.exact(&prefix) && !pp.excepted(&prefix) {
			return true
		}
	}
	return false
}

// excepted reports whether an exception matches the path itself.
func (pp *pathPattern) excepted(l *located) bool {
	for _, ex := range pp.except {
		if ex.exact(l) {
			return true
		}
	}
	return false
}

// match reports whether the glob matches the path or a directory above
// it.
func (g *glob) match(l *located) bool {
	rel, ok := g.relative(l)
	return ok && (doublestar.MatchUnvalidated(g.pattern, rel) || g.starLast && doublestar.MatchUnvalidated(g.self, rel))
}

// exact reports whether the glob matches the path itself, not only a
// directory above it.
func (g *glob) exact(l *located) bool {
	rel, ok := g.relative(l)
	return ok && doublestar.MatchUnvalidated(g.self, rel)
}

// relative returns the path relative to the pattern's base, and false when
// the path is not under it, the pattern is unusable or its literal text is
// missing from the path.
func (g *glob) relative(l *located) (string, bool) {
	rel := l.rel[g.base]
	if g.pattern == "" || !l.in[g.base] {
		return "", false
	}
	if n := len(g.prefix); n > 0 {
		// The first byte alone turns most rules away, without a call.
		if len(rel) < n || rel[0] != g.prefix[0] || rel[:n] != g.prefix || len(rel) > n && rel[n] != '/' {
			return "", false
		}
		return rel, true
	}
	return rel, strings.Contains(rel, g.needle)
}
