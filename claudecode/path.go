package claudecode

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/bmatcuk/doublestar/v4"
)

// Paths says what the anchors of a path rule stand for and how a tool's
// path is read, for [PathMatcher] and [PathSubjects].
type Paths struct {
	// Cwd is the primary working directory, an absolute slash-separated
	// path: "./x" and "/x" are anchored at it, and a bare pattern such as
	// ".env" matches at any depth under it. A relative path a tool is
	// given is joined to it.
	Cwd string
	// Home is the user's home directory, what "~/" stands for, in rules
	// and in a tool's path.
	Home string
	// FoldCase compares paths and patterns without regard to case. Claude
	// Code is observed to match case-sensitively (spec §5.7), which is the
	// zero value; a host on a case-insensitive file system sets it, since
	// there ".ENV" opens the file a deny of ".env" protects.
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
// closed for an allow rule, and the engine refuses ambiguous arguments
// before a deny rule is consulted.
//
// The matcher is safe for concurrent use; it compiles each specifier once.
func PathMatcher(field string, p Paths) agentpolicy.Matcher {
	m := &pathMatcher{field: field, paths: p}
	m.patterns.Store(&map[string]*pathPattern{})
	return m.match
}

// pathMatcher holds the compiled specifiers of one [PathMatcher] and the
// path it read last, since the engine gives it one subject's arguments once
// per rule.
type pathMatcher struct {
	field string
	paths Paths
	// patterns maps a specifier to its compiled form. It is replaced, never
	// changed, so a lookup takes no lock.
	patterns atomic.Pointer[map[string]*pathPattern]
	mu       sync.Mutex
	last     atomic.Pointer[readPath]
}

// readPath is a tool's arguments and the path read from them.
type readPath struct {
	args string
	path string
	ok   bool
}

func (m *pathMatcher) match(spec string, args json.RawMessage) bool {
	p, ok := m.read(args)
	if !ok {
		return false
	}
	return m.pattern(spec).match(p)
}

// read returns the cleaned absolute path the arguments name, reusing the
// last reading when the arguments are the same bytes.
func (m *pathMatcher) read(args json.RawMessage) (string, bool) {
	if last := m.last.Load(); last != nil && last.args == string(args) {
		return last.path, last.ok
	}
	value, ok, err := agentpolicy.Field(args, m.field)
	r := &readPath{args: string(args), ok: ok && err == nil}
	if r.ok {
		r.path = m.paths.fold(m.paths.abs(value))
	}
	m.last.Store(r)
	return r.path, r.ok
}

// pattern returns the compiled specifier, compiling it on first use.
func (m *pathMatcher) pattern(spec string) *pathPattern {
	if pp, ok := (*m.patterns.Load())[spec]; ok {
		return pp
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := *m.patterns.Load()
	if pp, ok := old[spec]; ok {
		return pp
	}
	pp := m.paths.compile(spec)
	next := make(map[string]*pathPattern, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[spec] = pp
	m.patterns.Store(&next)
	return pp
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
		value = p.Cwd + "/" + value
	}
	return path.Clean(value)
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
}

// glob is one anchored gitignore-style pattern.
type glob struct {
	// anchor is the absolute directory the pattern is relative to,
	// without a trailing slash except for the root itself.
	anchor string
	// pattern is the doublestar pattern relative to anchor that matches
	// a path or what is inside it, "" when the pattern cannot match
	// anything; self matches the path alone.
	pattern, self string
	// needle is a run of literal text every match contains, tested before
	// the pattern is run.
	needle string
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

// anchored compiles one pattern with its anchor.
func (p Paths) anchored(spec string) glob {
	if p.FoldCase {
		spec = strings.ToLower(spec)
	}
	anchor, rest := p.Cwd, spec
	switch {
	case strings.HasPrefix(spec, "//"):
		anchor, rest = "/", spec[2:]
	case strings.HasPrefix(spec, "~/"):
		anchor, rest = p.Home, spec[2:]
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
	if p.FoldCase {
		anchor = strings.ToLower(anchor)
	}
	anchor = path.Clean(anchor)
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
		return glob{anchor: anchor}
	}
	return glob{anchor: anchor, pattern: pattern, self: self, needle: longestLiteral(rest)}
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

// match reports whether the pattern takes the cleaned absolute path.
func (pp *pathPattern) match(p string) bool {
	if len(pp.except) == 0 {
		return pp.glob.match(p)
	}
	if !pp.glob.match(p) {
		return false
	}
	// Gitignore order: the first directory, from the top, that the
	// pattern excludes and no exception takes back decides.
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		prefix := p[:i]
		if pp.glob.exact(prefix) && !pp.excepted(prefix) {
			return true
		}
	}
	return false
}

// excepted reports whether an exception matches the path itself.
func (pp *pathPattern) excepted(p string) bool {
	for _, ex := range pp.except {
		if ex.exact(p) {
			return true
		}
	}
	return false
}

// match reports whether the glob matches the path or a directory above
// it.
func (g *glob) match(p string) bool {
	rel, ok := g.relative(p)
	return ok && doublestar.MatchUnvalidated(g.pattern, rel)
}

// exact reports whether the glob matches the path itself, not only a
// directory above it.
func (g *glob) exact(p string) bool {
	rel, ok := g.relative(p)
	return ok && doublestar.MatchUnvalidated(g.self, rel)
}

// relative returns the path relative to the anchor, and false when the
// path is not under it, the pattern is unusable or its literal text is
// missing from the path.
func (g *glob) relative(p string) (string, bool) {
	if g.pattern == "" || !strings.Contains(p, g.needle) {
		return "", false
	}
	if g.anchor == "/" {
		return p[1:], len(p) > 1
	}
	rest, ok := strings.CutPrefix(p, g.anchor)
	if !ok || len(rest) < 2 || rest[0] != '/' {
		return "", false
	}
	return rest[1:], true
}
