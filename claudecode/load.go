package claudecode

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ChristopherDavenport/agentpolicy"
)

// LoadOptions says which settings files [Load] reads and how the host
// answered the questions Claude Code asks the user.
type LoadOptions struct {
	// Project is the directory the session starts in, <cwd>. Empty reads
	// no project and no local file.
	Project string
	// Home is the user's home directory; empty is os.UserHomeDir.
	Home string
	// ConfigDir is the user's configuration directory; empty is
	// $CLAUDE_CONFIG_DIR, or Home/.claude when that is unset.
	ConfigDir string
	// ManagedDir holds managed-settings.json and managed-settings.d;
	// empty is the system directory of the platform (spec §1.1). A test
	// points it at a fixture.
	ManagedDir string
	// Settings are the values of --settings: a path, or inline JSON
	// beginning with "{".
	Settings []string
	// Sources limits the user, project and local files read, as
	// --setting-sources does: "user", "project", "local". Nil reads all
	// three; managed files and Settings are always read.
	Sources []string
	// Trusted is the host's answer to the workspace trust question for
	// Project (spec §1.4). The project file's allow rules and additional
	// directories apply only when it is set, and so do a local file's
	// when git tracks it or its .claude is a symbolic link.
	Trusted bool
	// Tracked reports whether git tracks a file; nil asks git. An error
	// is read as tracked.
	Tracked func(path string) (bool, error)
	// Policies are rule files a host enforces over the user's, in the
	// settings format: each is read as a managed file, after the managed
	// directory's, with its rules under the source "policy" ("policy#2",
	// ...). A file that does not exist is rejected, since a host that
	// names a policy means it to hold.
	Policies []string
	// AddDirs are the session's --add-dir directories: working
	// directories beside Project whatever the trust, as Claude Code
	// honours the flag (recorded from 2.1.328). A relative one is under
	// Project, "~/" under Home.
	AddDirs []string
	// Mode, when set, is the mode the session runs in, as Claude Code's
	// --permission-mode or a hook event's permission_mode gives it: it
	// stands over the files' defaultMode. A mode Claude Code does not
	// know is ignored.
	Mode Mode
}

// maxSettingsSize is the largest file --settings accepts.
const maxSettingsSize = 2 << 20

// Load reads the settings files of spec §1 into [Settings]: the managed
// file and its drop-in directory, the --settings values, the local file
// (at the git root, and the one an older version left in Project), the
// project file and the user file.
//
// A rule that cannot be translated is skipped and reported in
// [Settings.Problems], as Claude Code skips it. A file that is not JSON, or
// whose shape is not a settings file's, is rejected as a whole, as Claude
// Code rejects it: Load still returns the settings read from the other
// files, and an error joining a [*FileError] for each file rejected, so a
// host decides whether a session may start without it.
func Load(opts LoadOptions) (*Settings, error) {
	l, err := newLoader(opts)
	if err != nil {
		return nil, err
	}
	l.managed()
	for i, path := range opts.Policies {
		l.policy(i, path)
	}
	for i, value := range opts.Settings {
		l.commandLine(i, value)
	}
	if l.wants("local") && l.cwd != "" {
		l.local()
	}
	if l.wants("project") && l.cwd != "" {
		l.read(ScopeProject, "project", filepath.Join(l.cwd, ".claude", "settings.json"), "", opts.Trusted)
	}
	if l.wants("user") {
		dir := l.configDir()
		l.read(ScopeUser, "user", filepath.Join(dir, "settings.json"), filepath.ToSlash(dir), true)
	}
	s := l.settings()
	return s, errors.Join(l.errs...)
}

// loader is the state of one [Load].
type loader struct {
	opts     LoadOptions
	cwd      string
	home     string
	files    []*File
	problems []Problem
	errs     []error
	// scalars are the files in the order their scalar keys override each
	// other, least authoritative first, with the keys they set.
	scalars []scalars
}

// scalars are the scalar keys of one file that decide the mode.
type scalars struct {
	scope         Scope
	defaultMode   string
	disableBypass bool
	disableAuto   bool
	managedOnly   bool
}

func newLoader(opts LoadOptions) (*loader, error) {
	l := &loader{opts: opts, home: opts.Home}
	if l.home == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("agentpolicy/claudecode: no home directory: %w", err)
		}
		l.home = home
	}
	// "~/x" rules are anchored at home, which a relative $HOME must not
	// turn into a path under the project.
	home, err := filepath.Abs(l.home)
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/claudecode: home directory: %w", err)
	}
	l.home = home
	if opts.Project != "" {
		cwd, err := filepath.Abs(opts.Project)
		if err != nil {
			return nil, fmt.Errorf("agentpolicy/claudecode: project directory: %w", err)
		}
		l.cwd = cwd
	}
	return l, nil
}

func (l *loader) wants(source string) bool {
	return l.opts.Sources == nil || slices.Contains(l.opts.Sources, source)
}

// configDir is the user's configuration directory, absolute: a user
// rule's "/x" is anchored there, so a directory named relative to the
// process ($CLAUDE_CONFIG_DIR=.claude-home) must not read as a path
// under the project.
func (l *loader) configDir() string {
	dir := l.opts.ConfigDir
	if dir == "" {
		dir = os.Getenv("CLAUDE_CONFIG_DIR")
	}
	if dir == "" {
		dir = filepath.Join(l.home, ".claude")
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// managed reads managed-settings.json and then every *.json of
// managed-settings.d in file-name order, hidden files aside.
func (l *loader) managed() {
	dir := l.opts.ManagedDir
	if dir == "" {
		dir = systemDir()
	}
	l.read(ScopeManaged, "managed", filepath.Join(dir, "managed-settings.json"), "", true)
	entries, err := os.ReadDir(filepath.Join(dir, "managed-settings.d"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		l.reject(filepath.Join(dir, "managed-settings.d"), err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") || e.IsDir() {
			continue
		}
		l.read(ScopeManaged, "managed.d/"+name, filepath.Join(dir, "managed-settings.d", name), "", true)
	}
}

// systemDir is where the platform keeps managed settings.
func systemDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	default:
		return "/etc/claude-code"
	}
}

// commandLine reads one --settings value: inline JSON, or a regular file
// of at most 2 MiB whose "/x" rules are anchored at its directory.
func (l *loader) commandLine(i int, value string) {
	name := "settings"
	if i > 0 {
		name = fmt.Sprintf("settings#%d", i+1)
	}
	if strings.HasPrefix(strings.TrimSpace(value), "{") {
		l.parse(ScopeCommandLine, name, fmt.Sprintf("<inline #%d>", i+1), []byte(value), "", true)
		return
	}
	if abs, ok := l.namedFile(value); ok {
		l.read(ScopeCommandLine, name, abs, filepath.ToSlash(filepath.Dir(abs)), true)
	}
}

// policy reads one of [LoadOptions.Policies] as a managed file.
func (l *loader) policy(i int, path string) {
	name := "policy"
	if i > 0 {
		name = fmt.Sprintf("policy#%d", i+1)
	}
	if abs, ok := l.namedFile(path); ok {
		l.read(ScopeManaged, name, abs, "", true)
	}
}

// namedFile checks a file the host named, which must be a regular file of
// at most 2 MiB, and returns its absolute path; it rejects any other.
func (l *loader) namedFile(path string) (string, bool) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		l.reject(path, err)
		return "", false
	case !info.Mode().IsRegular():
		l.reject(path, errors.New("not a regular file"))
		return "", false
	case info.Size() > maxSettingsSize:
		l.reject(path, errors.New("larger than 2 MiB"))
		return "", false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		l.reject(path, err)
		return "", false
	}
	return abs, true
}

// local reads .claude/settings.local.json at the git root and, when the
// session starts elsewhere, the one in the starting directory too. A local
// file git tracks, or whose .claude is a symbolic link, is gated like the
// project's (spec §1.4).
func (l *loader) local() {
	dirs := []string{localDir(l.cwd, l.home)}
	if dirs[0] != l.cwd {
		dirs = append(dirs, l.cwd)
	}
	for i, dir := range dirs {
		name := "local"
		if i > 0 {
			name = "local-start"
		}
		file := filepath.Join(dir, ".claude", "settings.local.json")
		// A trusted project opens the gate anyway, so git is not asked.
		trusted := l.opts.Trusted || !l.gated(dir, file)
		l.read(ScopeLocal, name, file, "", trusted)
	}
}

// gated reports whether the local file in dir is gated like the
// project's: its .claude is a symbolic link, or git tracks it.
func (l *loader) gated(dir, file string) bool {
	if info, err := os.Lstat(filepath.Join(dir, ".claude")); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return true
	}
	_, err := os.Stat(file)
	return err == nil && inRepo(dir) && l.tracked(file)
}

// inRepo reports whether dir is inside a git repository, where git could
// track a file.
func inRepo(dir string) bool {
	_, ok := gitRoot(dir)
	return ok
}

// tracked reports whether git tracks the file; an error counts as tracked,
// which gates the file rather than trusting it.
func (l *loader) tracked(file string) bool {
	if l.opts.Tracked != nil {
		tracked, err := l.opts.Tracked(file)
		return tracked || err != nil
	}
	tracked, err := gitTracked(file)
	return tracked || err != nil
}

// read reads a file of the scope; a file that does not exist is no file.
func (l *loader) read(scope Scope, name, path, slashAnchor string, trusted bool) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		l.reject(path, err)
		return
	}
	l.parse(scope, name, path, data, slashAnchor, trusted)
}

// reject records a file rejected as a whole.
func (l *loader) reject(path string, err error) {
	fe, ok := err.(*FileError)
	if !ok {
		fe = &FileError{Path: path, Err: err}
	}
	l.errs = append(l.errs, fe)
	l.problems = append(l.problems, Problem{Path: path, Index: -1, Reason: fe.reason()})
}

// parse reads one file's content, or takes what an earlier parse made of
// the same content read the same way ([parsedFiles]).
func (l *loader) parse(scope Scope, name, path string, data []byte, slashAnchor string, trusted bool) {
	sum := sha256.Sum256(data)
	key := parseKey{sum: sum, scope: scope, name: name, path: path, slashAnchor: slashAnchor, trusted: trusted, home: l.home, cwd: l.cwd}
	if p, ok := parsedFiles.get(key); ok {
		l.files = append(l.files, p.file)
		l.problems = append(l.problems, p.problems...)
		l.scalars = append(l.scalars, p.scalars)
		return
	}
	problems := len(l.problems)
	doc, err := decode(path, data)
	if err != nil {
		l.reject(path, err)
		return
	}
	f := &File{Scope: scope, Source: agentpolicy.Source{
		Name:    name,
		Path:    path,
		Hash:    "sha256:" + hex.EncodeToString(sum[:]),
		Trusted: trusted,
		Rank:    scope.rank(),
	}}
	o := origin{slashAnchor: slashAnchor}
	f.Entries = slices.Grow(f.Entries, len(doc.lists[Deny])+len(doc.lists[Ask])+len(doc.lists[Allow]))
	for _, list := range []string{Deny, Ask, Allow} {
		l.translateList(f, list, doc.lists[list], o)
	}
	f.DefaultMode = doc.defaultMode
	for _, dir := range doc.dirs {
		f.AdditionalDirectories = append(f.AdditionalDirectories, l.resolveDir(dir))
	}
	if doc.defaultMode != "" && !knownMode(doc.defaultMode) {
		l.problems = append(l.problems, Problem{Path: path, Index: -1, Reason: "unknown permissions.defaultMode " + doc.defaultMode})
		doc.defaultMode = ""
	}
	if Mode(doc.defaultMode) == ModeBypass && !trusted {
		// Claude Code does not let a folder the user has not trusted turn
		// its prompts off; the file's other modes still apply.
		l.problems = append(l.problems, Problem{Path: path, Index: -1, Reason: "permissions.defaultMode bypassPermissions is ignored until the project is trusted"})
		doc.defaultMode = ""
	}
	sc := scalars{
		scope:         scope,
		defaultMode:   doc.defaultMode,
		disableBypass: doc.disableBypass,
		disableAuto:   doc.disableAuto,
		managedOnly:   doc.managedOnly && scope == ScopeManaged,
	}
	parsedFiles.put(key, parsedFile{file: f, problems: l.problems[problems:], scalars: sc})
	l.files = append(l.files, f)
	l.scalars = append(l.scalars, sc)
}

// resolveDir makes an additional directory absolute: "~/" under the home
// directory, a relative one under the working directory (spec §10.9
// leaves both open).
func (l *loader) resolveDir(dir string) string {
	switch {
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		return filepath.Join(l.home, dir[1:])
	case filepath.IsAbs(dir) || l.cwd == "":
		return filepath.Clean(dir)
	default:
		return filepath.Join(l.cwd, dir)
	}
}

// translateList translates one list of a file, folding each "!" rule into
// the relative path rules before it (spec §5.5).
func (l *loader) translateList(f *File, list string, raw []json.RawMessage, o origin) {
	start := len(f.Entries)
	for i, item := range raw {
		e := Entry{List: list, Index: i}
		if text, ok := stringOf(item); !ok {
			e.Text = string(item)
			e.Problem = "not a string"
		} else {
			e.Text = text
			l.translateEntry(f, &e, o)
		}
		if e.Problem != "" {
			l.problems = append(l.problems, Problem{Path: f.Source.Path, List: list, Index: i, Rule: e.Text, Reason: e.Problem})
		}
		f.Entries = append(f.Entries, e)
	}
	entries, n := f.Entries[start:], 0
	for _, e := range entries {
		n += len(e.Rules)
	}
	rules := slices.Grow([]agentpolicy.Rule(nil), n)
	for _, e := range entries {
		rules = append(rules, e.Rules...)
	}
	switch list {
	case Allow:
		f.allow = rules
	case Ask:
		f.ask = rules
	default:
		f.deny = rules
	}
}

// stringOf decodes an item of a list, a JSON value, into a string, and
// reports false for a value that does not decode into one. A string without
// escapes and of valid UTF-8, the rule as people write it, is its bytes;
// any other value is decoded as encoding/json decodes it.
func stringOf(item json.RawMessage) (string, bool) {
	if len(item) >= 2 && item[0] == '"' && item[len(item)-1] == '"' &&
		bytes.IndexByte(item, '\\') < 0 && utf8.Valid(item) {
		return string(item[1 : len(item)-1]), true
	}
	var text string
	err := json.Unmarshal(item, &text)
	return text, err == nil
}

// translateEntry fills in the rules of one entry, or its problem.
func (l *loader) translateEntry(f *File, e *Entry, o origin) {
	t, err := translate(e.List, e.Text, o)
	if err != nil {
		e.Problem = err.Error()
		return
	}
	for _, r := range t.rules {
		if err := checkGrammar(r); err != nil {
			e.Problem = err.Error()
			return
		}
	}
	switch {
	case t.carve != "":
		if err := checkGrammar(agentpolicy.Rule{Tool: t.family, Spec: "!" + t.carve}); err != nil {
			e.Problem = err.Error()
			return
		}
		if foldCarveOut(f.Entries, e.List, t.family, t.carve) == 0 {
			e.Problem = "no earlier relative " + t.family + " rule of this list to carve out of"
		}
	case t.mcp != "":
		f.mcp = append(f.mcp, t.mcp)
	default:
		e.Rules, e.family = t.rules, t.family
	}
}

// checkGrammar reports a rule the engine's grammar would refuse, such as a
// specifier with unbalanced parentheses, which Claude Code takes.
func checkGrammar(r agentpolicy.Rule) error {
	parsed, err := agentpolicy.ParseRules(r.String())
	if err != nil {
		return errors.New("the engine's grammar refuses it: " + err.Error())
	}
	if len(parsed) != 1 || parsed[0].Tool != r.Tool || parsed[0].Spec != r.Spec {
		return errors.New("the engine's grammar reads it as another rule")
	}
	return nil
}

// foldCarveOut writes the exception into every earlier relative path rule
// of the family in the list and returns how many rules it reached.
func foldCarveOut(entries []Entry, list, family, carve string) int {
	n := 0
	for i := range entries {
		e := &entries[i]
		if e.List != list || e.family != family {
			continue
		}
		for j := range e.Rules {
			e.Rules[j].Spec += " !" + carve
			n++
		}
	}
	return n
}

// settings assembles what was read: the files most authoritative first,
// the mode and the additional directories.
func (l *loader) settings() *Settings {
	s := &Settings{problems: l.problems, cwd: filepath.ToSlash(l.cwd), home: filepath.ToSlash(l.home)}
	if s.cwd == "" {
		// Without a project, relative paths are the process's.
		if wd, err := os.Getwd(); err == nil {
			s.cwd = filepath.ToSlash(wd)
		}
	}
	if l.cwd != "" {
		s.local = agentpolicy.Source{
			Name:    "local",
			Path:    filepath.Join(localDir(l.cwd, l.home), ".claude", "settings.local.json"),
			Rank:    ScopeLocal.rank(),
			Trusted: true,
		}
	}
	for _, f := range l.files {
		if f.Scope == ScopeLocal && f.Source.Name == "local" {
			s.local = f.Source
		}
	}
	order := []Scope{ScopeManaged, ScopeCommandLine, ScopeLocal, ScopeProject, ScopeUser}
	for _, scope := range order {
		for _, f := range l.files {
			if f.Scope == scope {
				s.files = append(s.files, f)
			}
		}
	}
	s.mode = ModeDefault
	modeFrom := Scope("")
	disableBypass, disableAuto := false, false
	for _, sc := range l.precedence() {
		if sc.defaultMode != "" {
			s.mode, modeFrom = Mode(sc.defaultMode), sc.scope
		}
		disableBypass = disableBypass || sc.disableBypass
		disableAuto = disableAuto || sc.disableAuto
		s.managedOnly = s.managedOnly || sc.managedOnly
	}
	switch {
	case s.mode == "manual":
		s.mode = ModeDefault
	case s.mode == ModeAuto && (modeFrom == ScopeProject || modeFrom == ScopeLocal || disableAuto):
		s.mode = ModeDefault
	case s.mode == ModeBypass && (modeFrom == ScopeProject || modeFrom == ScopeLocal || disableBypass):
		// Claude Code 2.1.328 takes bypassPermissions from the user's own
		// file, the command line and managed settings, never from a file
		// a repository can carry (recorded: testdata/claudecode).

		s.mode = ModeDefault
	}
	if knownMode(string(l.opts.Mode)) {
		s.mode = l.opts.Mode
		if s.mode == "manual" {
			s.mode = ModeDefault
		}
	}
	for _, dir := range l.opts.AddDirs {
		if dir := l.resolveDir(dir); !slices.Contains(s.dirs, dir) {
			s.dirs = append(s.dirs, dir)
		}
	}
	for _, f := range s.files {
		if !f.Source.Trusted {
			continue
		}
		for _, dir := range f.AdditionalDirectories {
			if !slices.Contains(s.dirs, dir) {
				s.dirs = append(s.dirs, dir)
			}
		}
	}
	for _, f := range s.files {
		f.reachDirectories(s.dirs)
	}
	return s
}

// reachDirectories writes each relative path rule of the file's deny and
// ask lists again for every additional directory, anchored there as it is
// at the working directory, since Claude Code holds a file in an
// additional directory to them too (spec §11): a deny of ".env" refuses
// "<dir>/.env". A "!" carve-out stays relative to the working directory,
// so it takes nothing back in another directory.
func (f *File) reachDirectories(dirs []string) {
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.family == "" || e.List == Allow {
			continue
		}
		var more []agentpolicy.Rule
		for _, dir := range dirs {
			for _, r := range e.Rules {
				if spec, ok := anchorIn(dir, r.Spec); ok {
					more = append(more, agentpolicy.Rule{Tool: r.Tool, Spec: spec})
				}
			}
		}
		e.Rules = append(e.Rules, more...)
		if e.List == Deny {
			f.deny = append(f.deny, more...)
		} else {
			f.ask = append(f.ask, more...)
		}
	}
}

// anchorIn is a relative path specifier anchored at an absolute directory
// as [Paths] anchors it at the working directory: a pattern without a "/"
// at any depth under it, any other pattern at the directory itself.
func anchorIn(dir, spec string) (string, bool) {
	base, ok := underDir(dir)
	if !ok {
		return "", false
	}
	spec = strings.TrimPrefix(spec, "./")
	pattern, _, _ := strings.Cut(spec, " !")
	if !strings.Contains(strings.TrimSuffix(pattern, "/"), "/") {
		spec = "**/" + spec
	}
	return strings.TrimSuffix(base, "**") + spec, true
}

// precedence returns the scalars least authoritative first, so the last
// one that sets a key wins: user, project, the local file in the starting
// directory, the one at the git root, the --settings values in order, the
// managed file and its drop-ins in order.
func (l *loader) precedence() []scalars {
	var out []scalars
	for _, scope := range []Scope{ScopeUser, ScopeProject, ScopeLocal, ScopeCommandLine, ScopeManaged} {
		var group []scalars
		for i, sc := range l.scalars {
			if sc.scope == scope {
				group = append(group, l.scalars[i])
			}
		}
		if scope == ScopeLocal {
			slices.Reverse(group)
		}
		out = append(out, group...)
	}
	return out
}
