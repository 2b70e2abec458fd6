package claudecode

import (
	"path/filepath"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The sources of the rules [Settings.Builtin] writes for what Claude Code
// decides without a rule. ProtectedSource ranks above every file, so no
// grant or carve-out of a settings file reaches its rules, as no allow rule
// pre-approves a protected path in Claude Code; WorkingDirectoriesSource
// ranks below every file, so a file's own allow rule is the one a verdict
// cites.
var (
	ProtectedSource          = agentpolicy.Source{Name: "claude-code:protected", Trusted: true, Rank: 60}
	WorkingDirectoriesSource = agentpolicy.Source{Name: "claude-code:working-directories", Trusted: true, Rank: 0}
)

// protectedPaths are the directories and files whose writes Claude Code
// never lets an allow rule approve (spec §3.5), matched as a path
// component at any depth, as the spec infers.
var protectedPaths = []string{
	".git", ".config/git", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn",
	".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".bash_login", ".bash_aliases", ".bash_logout",
	".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".profile", ".envrc", ".npmrc", ".yarnrc",
	".yarnrc.yml", ".pnp.cjs", ".pnp.loader.mjs", ".pnpmfile.cjs", "bunfig.toml", ".bunfig.toml", ".bazelrc",
	".bazelversion", ".bazeliskrc", ".pre-commit-config.yaml", "lefthook.yml", "lefthook.yaml", ".lefthook.yml",
	".lefthook.yaml", "gradle-wrapper.properties", "maven-wrapper.properties", ".devcontainer.json",
	".ripgreprc", "pyrightconfig.json", ".mcp.json", ".claude.json",
}

// quietTools are the tools Claude Code runs without asking (spec §2.2):
// launching a subagent, whose own calls are decided as any others, and
// keeping its to-do list.
var quietTools = []string{"Agent", "TodoWrite"}

// editCommands are the filesystem commands acceptEdits runs without a
// rule (spec §3.4), their files held to the working directories and the
// protected paths as any command's are. rm and rmdir, which Claude Code
// also runs, are left to ask, since a removal of the working directory
// itself, which it asks about, is a file inside no working directory's
// rule here.
var editCommands = []string{"mkdir", "touch", "mv", "cp", "sed"}

// Builtin returns the rules that stand for what Claude Code decides before
// or without the files' rules (spec §3.3 to §3.5), which [Settings.Policy]
// merges with them, under [WorkingDirectoriesSource] and [ProtectedSource]:
//
//   - reads inside the working directories, the project directory and the
//     additional directories, are allowed in every mode but
//     bypassPermissions, whose default allows them anyway;
//   - so are the commands of Claude Code's read-only set (spec §4.6), as
//     the shell's tables know them: "ls -la", "git status", "cat a.txt",
//     whose files are still decided as reads;
//   - so are invoking a skill, and launching a subagent and keeping the
//     to-do list but in plan and auto mode;
//   - so is a file a command writes there, "b.txt" of "cp a.txt b.txt",
//     once a rule allows the command, where a redirect's target is an
//     edit;
//   - in acceptEdits, so are edits inside them, and the filesystem
//     commands mkdir, touch, mv, cp and sed;
//   - a write to a protected path, ".git", ".bashrc", ".claude" but for
//     ".claude/worktrees" and the rest of spec §3.5, at any depth, asks,
//     whatever the allow rules say; in dontAsk it is refused, and in
//     bypassPermissions it runs.
//
// A deny or ask rule of any file still decides before these allow rules.
func (s *Settings) Builtin() []agentpolicy.RuleSet {
	dirs := agentpolicy.RuleSet{Source: WorkingDirectoriesSource}
	protected := agentpolicy.RuleSet{Source: ProtectedSource}
	if s.mode == ModeBypass {
		return []agentpolicy.RuleSet{protected, dirs}
	}
	dirs.Allow = append(dirs.Allow, agentpolicy.Rule{Tool: "Bash", Spec: readOnlyField + ":true"})
	dirs.Allow = append(dirs.Allow, agentpolicy.Rule{Tool: "Skill"})
	if s.mode != ModePlan && s.mode != ModeAuto {
		// Plan and auto mode hand a subagent to the classifier.
		for _, tool := range quietTools {
			dirs.Allow = append(dirs.Allow, agentpolicy.Rule{Tool: tool})
		}
	}
	if s.mode == ModeAcceptEdits {
		for _, name := range editCommands {
			dirs.Allow = append(dirs.Allow, agentpolicy.Rule{Tool: "Bash", Spec: name + ":*"})
		}
	}
	for _, dir := range append([]string{s.cwd}, s.dirs...) {
		spec, ok := underDir(dir)
		if !ok {
			continue
		}
		dirs.Allow = append(dirs.Allow, agentpolicy.Rule{Tool: "Read", Spec: spec}, agentpolicy.Rule{Tool: operandTool, Spec: spec})
		if s.mode == ModeAcceptEdits {
			dirs.Allow = append(dirs.Allow, agentpolicy.Rule{Tool: "Edit", Spec: spec})
		}
	}
	for _, name := range protectedPaths {
		protected.Ask = append(protected.Ask, agentpolicy.Rule{Tool: "Edit", Spec: "//**/" + name})
	}
	protected.Ask = append(protected.Ask, agentpolicy.Rule{Tool: "Edit", Spec: "//**/.claude/* !**/.claude/worktrees"})
	// A command given the directory itself moves, removes, re-modes or
	// fills it ("mv .claude x", "cp -rT d .claude", "zip -m a .claude"):
	// a write of everything in it. A path pattern matches what is under
	// the directories it matches too, so this one also asks before a
	// command writes inside .claude/worktrees, which the Edit tool may.
	protected.Ask = append(protected.Ask, agentpolicy.Rule{Tool: operandTool, Spec: "//**/.claude"})
	return []agentpolicy.RuleSet{protected, dirs}
}

// underDir is the path specifier of everything under an absolute
// directory, its name taken literally, and false for a directory whose
// name the engine's grammar cannot carry, which then gets no allow rule.
func underDir(dir string) (string, bool) {
	if filepath.VolumeName(dir) != "" {
		dir = windowsPath(dir)
	}
	dir = strings.TrimSuffix(filepath.ToSlash(dir), "/")
	spec := "/" + escapeSeparator(literalPath(dir)) + "/**"
	if !strings.HasPrefix(spec, "//") || checkGrammar(agentpolicy.Rule{Tool: "Read", Spec: spec}) != nil {
		return "", false
	}
	return spec, true
}
