package codex

import (
	"encoding/json"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// Matchers returns the matchers an engine built from Codex's rules alone
// decides with, by the engine's tool names:
//
//	policy, err := rules.Policy()
//	eng, err := agentpolicy.Build(policy, codex.Matchers())
//
// Bash is split by the shell module, and a rule matches a command whose
// words begin with the rule's words, as Codex matches an argv prefix; a
// wrapper's own words are decided too, not only the command it runs
// ([wrappersDecided]): each
// command a compound line runs is decided on its own, the most
// restrictive verdict winning as Codex takes the most restrictive rule, and
// a redirect's target is a call of Edit (a write) or Read (a read) with
// the path in "file_path", which no Codex rule allows; the files a
// command names as operands are the command's business, as Codex's rules
// see only its words. WebFetch reads the
// host of the member "url" as Claude Code's importer does.
//
// A host deciding Claude Code's rules too builds with the Claude Code
// importer's matchers instead: they read the same Bash patterns over the
// same split, as patterns over the normalised command, which joins the
// words with single spaces; there, a word holding a blank ("git 'status
// x'") reads as two, so an allow rule for "git status" takes it.
func Matchers() map[string]agentpolicy.ToolMatcher {
	return map[string]agentpolicy.ToolMatcher{
		"Bash": {Match: prefixMatcher, Subjects: wrappersDecided(shell.Subjects(shell.WithWriteTool("Edit", "file_path"),
			shell.WithReadTool("Read", "file_path"), shell.WithOperandTools("", "", ""), shell.WithWordsField(wordsField),
			shell.WithRunnerField(runnerField)))},
		"Edit":     {Match: agentpolicy.GlobMatcher("file_path")},
		"Read":     {Match: agentpolicy.GlobMatcher("file_path")},
		"WebFetch": {Match: claudecode.DomainMatcher("url"), Subjects: urlSubjects},
	}
}

// Build builds the engine of a policy of Codex's rules with [Matchers],
// the Bash matcher given the index of the glob it checks first, so a
// decision calls it only for the rules whose literal words the command
// begins with, rather than for every rule:
//
//	policy, err := rules.Policy()
//	eng, err := codex.Build(policy)
//
// It decides as agentpolicy.Build(policy, Matchers(), opts...) does.
func Build(policy agentpolicy.Policy, opts ...agentpolicy.Option) (*agentpolicy.Engine, error) {
	ix, _ := agentpolicy.BuiltinIndex(command)
	return agentpolicy.Build(policy, Matchers(), append([]agentpolicy.Option{agentpolicy.WithIndex(prefixMatcher, ix)}, opts...)...)
}

// wrappersDecided makes the splitter's constraints ordinary subjects, so
// an allow rule must reach a wrapper's own words too: Codex matches
// "timeout 5 git status" as those words, and a rule for "git status"
// does not allow it. The command the wrapper runs stays a subject of its
// own, so a forbidden rule for it still denies. Three constraints stay: a
// command named by a path keeps its base name as one, which only deny and
// ask rules read, since the path itself is what an allow rule must name;
// "bash -lc SCRIPT" is one, as the running Codex judges a script's
// commands rather than the shell's words; and what a project or package
// runner runs ("prettier" of "npx prettier"), whose line Codex matches by
// its words, so a rule for "npx" allows it, as it does in Codex.
func wrappersDecided(split agentpolicy.Subjects) agentpolicy.Subjects {
	return func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		subjects, err := split(args)
		if err != nil {
			return nil, err
		}
		for i := range subjects {
			s := &subjects[i]
			if s.Constrain && s.Tool == "" && !(i > 0 && baseNameOf(subjects[i-1], *s)) && !shellScript(s.Args) && !ranByRunner(s.Args) {
				s.Constrain = false
			}
		}
		return subjects, nil
	}
}

// runnerField is the member the splitter sets on what a runner runs.
const runnerField = "runner_command"

// ranByRunner reports whether the splitter marked a subject as what a
// project or package runner runs: it appends the member, true, to the
// subject's arguments, which no command's text can forge, since the
// command's own members come first and are JSON strings.
func ranByRunner(args json.RawMessage) bool {
	return strings.Contains(string(args), `,"`+runnerField+`":true`)
}

// shellScript reports whether a subject is bash or sh given a script with
// -c or -lc, which the running Codex splits into its commands and judges
// one by one, as the splitter's subjects of the script are.
func shellScript(args json.RawMessage) bool {
	var s struct {
		Words []string `json:"words"`
	}
	if json.Unmarshal(args, &s) != nil || len(s.Words) != 3 {
		return false
	}
	return (s.Words[0] == "bash" || s.Words[0] == "sh") && (s.Words[1] == "-c" || s.Words[1] == "-lc")
}

// baseNameOf reports whether s is the splitter's base-name subject of the
// command named by a path before it: the same text, and the command with
// its first word's directory left out.
func baseNameOf(before, s agentpolicy.Subject) bool {
	if before.Text != s.Text || before.Constrain {
		return false
	}
	path, _, _ := agentpolicy.Field(before.Args, "command")
	base, _, _ := agentpolicy.Field(s.Args, "command")
	name, _, _ := strings.Cut(path, " ")
	slash := strings.LastIndexByte(name, '/')
	return slash >= 0 && path[slash+1:] == base
}

// urlSubjects refuses a fetch whose URL has no host the importer can read,
// so no rule is asked about a host two parsers could read differently.
func urlSubjects(args json.RawMessage) ([]agentpolicy.Subject, error) {
	raw, ok, err := agentpolicy.Field(args, "url")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoURL
	}
	if _, err := claudecode.URLHost(raw); err != nil {
		return nil, err
	}
	return []agentpolicy.Subject{{Args: args, Text: raw}}, nil
}

// wordsField is the member the splitter writes a command's words into.
const wordsField = "words"

// command is the glob language over the normalised command, every
// specifier [translatePrefix] writes a prefix of it.
var command = agentpolicy.GlobMatcher("command")

// MatchPrefix is the Bash matcher of [Matchers], for a host that decides
// Codex's rules with another importer's Bash matcher beside them: it
// matches a specifier a Codex rule writes against a command subject whose
// member "command" holds the normalised command and whose member "words"
// holds its words, as shell.WithWordsField("words") writes them.
func MatchPrefix(spec string, args json.RawMessage) bool { return prefixMatcher(spec, args) }

// prefixMatcher matches a specifier [translatePrefix] wrote, "w1 w2:*",
// "w" or "w *", against a command whose words begin with its words: the
// normalised command begins with them, they end at a word's end, and no
// word up to there holds a blank, which would make the normalised command
// show two words where the program is given one. A subject without words
// (a line of assignments) is read as the glob reads it.
func prefixMatcher(spec string, args json.RawMessage) bool {
	if !command(spec, args) {
		return false
	}
	var subject struct {
		Words *[]string `json:"words"`
	}
	if err := json.Unmarshal(args, &subject); err != nil {
		return false
	}
	if subject.Words == nil {
		return true
	}
	literal, ok := strings.CutSuffix(spec, ":*")
	if !ok {
		literal = strings.TrimSuffix(spec, " *")
	}
	n := -1
	for _, w := range *subject.Words {
		if strings.ContainsAny(w, " \t\n") {
			return false
		}
		if w == "" {
			w = "''"
		}
		n += 1 + len(w)
		if n >= len(literal) {
			return n == len(literal)
		}
	}
	return false
}
