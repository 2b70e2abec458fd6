package claudecode

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Scope is where a settings file sits among Claude Code's settings
// (spec §1.1).
type Scope string

// The scopes, from the most authoritative (spec §1.2).
const (
	ScopeManaged     Scope = "managed"
	ScopeCommandLine Scope = "settings"
	ScopeLocal       Scope = "local"
	ScopeProject     Scope = "project"
	ScopeUser        Scope = "user"
)

// rank is the [agentpolicy.Source.Rank] of a scope, in the order of
// spec §1.2: a carve-out or a grant reaches only the rules of a source it
// does not rank below.
func (s Scope) rank() int {
	switch s {
	case ScopeManaged:
		return 50
	case ScopeCommandLine:
		return 40
	case ScopeLocal:
		return 30
	case ScopeProject:
		return 20
	default:
		return 10
	}
}

// Mode is a Claude Code permission mode (spec §3.4).
type Mode string

// The modes a settings file's permissions.defaultMode may name; "manual"
// is read as [ModeDefault].
const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "acceptEdits"
	ModePlan        Mode = "plan"
	ModeAuto        Mode = "auto"
	ModeDontAsk     Mode = "dontAsk"
	ModeBypass      Mode = "bypassPermissions"
)

// Default returns the engine's default for calls no rule matches in the
// mode (spec §3.3, §3.4): dontAsk refuses them, bypassPermissions runs
// them, and every other mode asks. Claude Code runs some of those calls
// without asking; the engine has one default for every call, so
// [Settings.Builtin] writes the ones rules can say, reads inside the
// working directories among them, and asking is the default that never
// runs a call Claude Code would prompt for.
func (m Mode) Default() agentpolicy.Default {
	switch m {
	case ModeDontAsk:
		return agentpolicy.Deny()
	case ModeBypass:
		return agentpolicy.Allow()
	default:
		return agentpolicy.Ask()
	}
}

// File is one settings file as [Load] read it: where it sits, the source
// its rules carry and every rule it holds, kept in its list and place so a
// linter can point at it.
type File struct {
	Scope  Scope
	Source agentpolicy.Source
	// Entries are the file's permission rules in the order of the file,
	// deny first, then ask, then allow.
	Entries []Entry
	// DefaultMode is permissions.defaultMode as written, "" when unset.
	DefaultMode string
	// AdditionalDirectories are permissions.additionalDirectories,
	// resolved to absolute paths.
	AdditionalDirectories []string

	allow, ask, deny []agentpolicy.Rule
	// mcp are the allow rules over MCP tool names that name no single
	// tool, expanded by [Settings.Policy].
	mcp []string
}

// Entry is one rule string of a settings list and what it became.
type Entry struct {
	// List is [Allow], [Ask] or [Deny].
	List string
	// Index is the rule's position in its JSON array.
	Index int
	// Text is the rule as written.
	Text string
	// Rules are the engine's rules it contributes, with any "!" of the
	// same list folded into their specifiers; none for a skipped rule, a
	// "!" rule and an allow rule over MCP tools, which [Settings.Policy]
	// expands.
	Rules []agentpolicy.Rule
	// Problem says why the rule is skipped, or, for a "!" rule, why it
	// reaches nothing; "" otherwise.
	Problem string

	// family is "Read" or "Edit" for a path rule relative to the working
	// directory, the rules a later "!" of its list reaches.
	family string
}

// Problem is something [Load] could not take as written: a rule it
// skipped, as Claude Code skips one, or a file it rejected.
type Problem struct {
	// Path is the file, or "<inline #N>" for inline JSON.
	Path string
	// List and Index locate a rule; List is "" and Index -1 for a
	// problem with the file as a whole.
	List  string
	Index int
	// Rule is the rule as written.
	Rule   string
	Reason string
}

// String renders the problem as "path: permissions.deny[3] "Bash(": reason".
func (p Problem) String() string {
	if p.List == "" {
		return p.Path + ": " + p.Reason
	}
	return fmt.Sprintf("%s: permissions.%s[%d] %s: %s", p.Path, p.List, p.Index, strconv.Quote(p.Rule), p.Reason)
}

// Settings are the settings files of one session, read by [Load]: the
// rules of every file, the mode the session starts in, the additional
// directories and what could not be read. They are not changed once
// loaded.
type Settings struct {
	files       []*File
	problems    []Problem
	mode        Mode
	dirs        []string
	managedOnly bool
	cwd, home   string
	// local is the source of the project's local settings file, read or
	// not; see [Settings.LocalSource].
	local agentpolicy.Source
}

// LocalSource returns the source of the project's local settings file,
// where Claude Code saves an "always allow" (spec §4.2): the file's own
// when [Load] read one, with its path, hash and trust, and otherwise the
// source such a file would have at the place Claude Code would write it,
// trusted, as the user's own file is. A host that answers a prompt with
// [agentpolicy.Engine.GrantOver] grants under it, and persists
// [agentpolicy.Engine.PolicyOf] its name. It is the zero Source when Load
// was given no project.
func (s *Settings) LocalSource() agentpolicy.Source { return s.local }

// Files returns the files read, most authoritative first (spec §1.2).
func (s *Settings) Files() []File {
	out := make([]File, len(s.files))
	for i, f := range s.files {
		out[i] = *f
		out[i].Entries = slices.Clone(f.Entries)
	}
	return out
}

// RuleSets returns one rule set per file, most authoritative first, as
// [Settings.Policy] merges them (without the MCP allow rules it expands,
// and the ask rules it writes beside every Read deny and ask rule for the
// trees a shell command reads whole, "Read.tree").
func (s *Settings) RuleSets() []agentpolicy.RuleSet {
	sets := make([]agentpolicy.RuleSet, 0, len(s.files))
	for _, f := range s.files {
		set := f.ruleSet(nil)
		set.Allow, set.Ask, set.Deny = slices.Clone(set.Allow), slices.Clone(set.Ask), slices.Clone(set.Deny)
		sets = append(sets, set)
	}
	return sets
}

// ruleSet is the file's rules, its MCP allow rules expanded over tools.
// Its lists are the file's own, clipped, so an append copies them rather
// than writing into the file; a caller that hands them out clones them.
func (f *File) ruleSet(tools []string) agentpolicy.RuleSet {
	set := agentpolicy.RuleSet{
		Source: f.Source,
		Allow:  slices.Clip(f.allow),
		Ask:    slices.Clip(f.ask),
		Deny:   slices.Clip(f.deny),
	}
	for _, glob := range f.mcp {
		g := agentpolicy.Rule{Tool: glob}
		for _, tool := range tools {
			if g.MatchesTool(tool) {
				set.Allow = append(set.Allow, agentpolicy.Rule{Tool: tool})
			}
		}
	}
	return set
}

// Mode returns the mode a session runs in: [LoadOptions.Mode] when it
// names one, else permissions.defaultMode of the most authoritative file
// that sets it, "auto" and "bypassPermissions" from a project or local
// file ignored and a mode a file disables replaced by [ModeDefault]
// (spec §1.5, §3.4).
func (s *Settings) Mode() Mode { return s.mode }

// AdditionalDirectories returns the working directories the files add,
// most authoritative file first, without repeats; an untrusted file's are
// left out (spec §7).
func (s *Settings) AdditionalDirectories() []string { return slices.Clone(s.dirs) }

// ManagedRulesOnly reports whether a managed file sets
// allowManagedPermissionRulesOnly, so [Settings.Policy] holds the managed
// files' rules alone (spec §1.3).
func (s *Settings) ManagedRulesOnly() bool { return s.managedOnly }

// Problems returns what [Load] skipped or rejected, file by file.
func (s *Settings) Problems() []Problem { return slices.Clone(s.problems) }

// Policy merges the files' rules with [agentpolicy.Merge], the default
// from [Settings.Mode], and only the managed files' rules when
// allowManagedPermissionRulesOnly is set, and the rules of
// [Settings.Builtin]. In [ModeDontAsk] the ask rules are deny rules, since
// that mode refuses every call that would ask.
//
// Beside every Read rule of a deny or ask list it writes an ask rule of
// the same pattern for "Read.tree", the tool a tree a shell command reads
// whole is decided under ("grep -r x ."): such a read asks, naming the
// rule, when the tree can hold a path the rule names.
//
// An allow rule over MCP tools that names no single tool, "mcp__github"
// for a whole server or "mcp__github__get_*", is expanded into one rule per
// name in mcpTools it matches, since the engine takes no glob in the allow
// list: a host whose MCP tools change calls Policy again and gives the
// result to [agentpolicy.Engine.SetPolicy].
func (s *Settings) Policy(mcpTools ...string) (agentpolicy.Policy, error) {
	sets := s.Builtin()
	for _, f := range s.files {
		if s.managedOnly && f.Scope != ScopeManaged {
			continue
		}
		// Merge copies the rules it stamps, so the file's lists are
		// handed to it as they are.
		sets = append(sets, f.ruleSet(mcpTools))
	}
	for i := range sets {
		set := &sets[i]
		// A tree a command reads whole asks under the Read rules that
		// refuse or ask about a path in it (treeRules).
		set.Ask = append(slices.Clip(set.Ask), treeRules(set.Deny, set.Ask)...)
		if s.mode == ModeDontAsk {
			// dontAsk denies what would ask, ask rules included.
			set.Deny, set.Ask = slices.Concat(set.Deny, set.Ask), nil
		}
	}
	p, err := agentpolicy.Merge(sets...)
	if err != nil {
		return agentpolicy.Policy{}, err
	}
	return p.WithDefault(s.mode.Default()), nil
}

// editTool is the rule name of the Edit tool alone, which a bare Edit or
// Edit(*) allow rule approves: Claude Code lets those approve no Write
// (spec §11), where the Edit rule name reaches every tool that writes a
// file. No settings rule may name it.
const editTool = "Edit.tool"

// Aliases returns the tools each Claude Code rule name governs (spec
// §2.2), for [agentpolicy.WithAliases]: Read rules reach Grep and Glob,
// Edit rules every tool that writes a file, both the glob a command reads
// or writes ("Read.glob", "Edit.glob"), "Edit.tool" (what a bare Edit
// allow rule becomes) the Edit tool alone, and Task is the old name of
// Agent. A Read deny also refuses edits, so [Settings] writes it as an
// Edit rule beside the Read one; that reaches NotebookEdit too, which
// Claude Code leaves out, since one name governs the same tools in every
// list here.
func (s *Settings) Aliases() map[string][]string {
	return map[string][]string{
		"Read":   {"Read", "Grep", "Glob", globReadTool},
		"Edit":   {"Edit", "MultiEdit", "Write", "NotebookEdit", operandTool, redirectTool, globEditTool, writeTreeTool},
		editTool: {"Edit"},
		"Task":   {"Agent"},
	}
}
