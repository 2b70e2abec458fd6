package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentturn"
)

// The built-in checks a decision can name when no rule a user wrote made
// it, by the stable names the README lists (What decided).
// The engine carries them as rules of claudecode's built-in sources, whose
// text ("Bash(read_only:true)", "Edit.operand(//p/**)") is its own.
const (
	// checkReadOnly allows a command Claude Code runs without a rule.
	checkReadOnly = "read-only command"
	// checkWorkingDirectories allows a read, or a file a command writes,
	// inside the working directories.
	checkWorkingDirectories = "working directories"
	// checkAcceptEdits allows mkdir, touch, mv, cp and sed in acceptEdits.
	checkAcceptEdits = "accept-edits command"
	// checkUnprompted allows a tool Claude Code runs without asking.
	checkUnprompted = "tool run without asking"
	// checkProtected asks before a write to .git, .claude and the rest.
	checkProtected = "protected path"
	// checkDefault is the mode's default: no rule named the call.
	checkDefault = "default"
	// checkUnreadable refuses a call whose arguments cannot be read.
	checkUnreadable = "unreadable call"
)

// decider is what decided a verdict, in the words a user would write: a
// rule as its file writes it and the file, or a built-in check.
type decider struct {
	Rule   string `json:"rule,omitempty"`
	Source string `json:"source,omitempty"`
	File   string `json:"file,omitempty"`
	Check  string `json:"check,omitempty"`
}

// decider names what decided v.
func (p *loadedPolicy) decider(v agentpolicy.Verdict) decider {
	r := v.Rule
	switch {
	case r == nil && v.Action == agentturn.Block && strings.Contains(v.Reason, "could not be evaluated"):
		return decider{Check: checkUnreadable}
	case r == nil:
		return decider{Check: checkDefault}
	}
	if check := builtinCheck(*r); check != "" {
		return decider{Check: check}
	}
	return decider{Rule: p.written(*r), Source: sourceLabel(r.Source.Name), File: relPath(r.Source.Path)}
}

// builtinCheck is the check a rule of claudecode's built-in sources
// stands for; "" for a rule a settings file wrote.
func builtinCheck(r agentpolicy.Rule) string {
	switch r.Source.Name {
	case claudecode.ProtectedSource.Name:
		return checkProtected
	case claudecode.WorkingDirectoriesSource.Name:
	default:
		return ""
	}
	switch {
	case r.Tool == "Bash" && strings.HasPrefix(r.Spec, "read_only:"):
		return checkReadOnly
	case r.Tool == "Bash":
		return checkAcceptEdits
	case r.Bare():
		return checkUnprompted
	}
	return checkWorkingDirectories
}

// ruleName is a rule as the user reads it: as its file writes it, or the
// built-in check it stands for.
func (p *loadedPolicy) ruleName(r agentpolicy.Rule) string {
	if check := builtinCheck(r); check != "" {
		return fmt.Sprintf("the built-in check %q", check)
	}
	return p.written(r)
}

// userReason is the verdict's reason with the engine's names replaced by
// the user's: the rule as written or the built-in check, and the file a
// command writes under its tool's name, Edit.
func (p *loadedPolicy) userReason(v agentpolicy.Verdict) string {
	reason := v.Reason
	if v.Rule != nil {
		reason = strings.Replace(reason, v.Rule.String(), p.ruleName(*v.Rule), 1)
	}
	return userTool(reason)
}

// operandTool and redirectTool are claudecode's pseudo-tools for a file
// a command writes and a redirect's target, which its Edit rules decide:
// the user's word for both is Edit.
const (
	operandTool  = "Edit.operand"
	redirectTool = "Edit.redirect"
)

// userTool replaces the pseudo-tool's name in a text with Edit's, and
// the names of claudecode's built-in sources with what they are.
func userTool(text string) string {
	return builtinNames.Replace(text)
}

var builtinNames = strings.NewReplacer(
	operandTool, "Edit",
	redirectTool, "Edit",
	claudecode.ProtectedSource.Name, "Claude Code's protected paths",
	claudecode.WorkingDirectoriesSource.Name, "Claude Code's working directories",
)

// nearest is the name of names closest to name, ignoring case, when it is
// one edit away, or two for a name of six letters or more: the one a typo
// probably meant.
func nearest(name string, names []string) (string, bool) {
	best, bestDist := "", 2
	if len(name) >= 6 {
		bestDist = 3
	}
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), strings.ToLower(n)); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best, best != ""
}

// editDistance is the number of single-byte insertions, deletions,
// substitutions and swaps of neighbours that turn a into b.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// ranNothing begins the list of a compound command's other parts in the
// engine's reason for blocking one of them.
const ranNothing = "; nothing in this command ran"

// withoutFiles is a blocked compound command's reason without the files
// among the parts it lists as not run ("nothing in this command ran,
// including "/""): a file a command reads or writes is no command, and
// the list is of commands.
func withoutFiles(reason string, files []string) string {
	head, list, ok := strings.Cut(reason, ranNothing+", including ")
	if !ok || len(files) == 0 {
		return reason
	}
	var kept []string
	for list != "" {
		quoted, err := strconv.QuotedPrefix(list)
		if err != nil {
			return reason
		}
		text, _ := strconv.Unquote(quoted)
		if !slices.Contains(files, text) {
			kept = append(kept, quoted)
		}
		list = strings.TrimPrefix(strings.TrimPrefix(list[len(quoted):], ", "), " and ")
	}
	var b strings.Builder
	b.WriteString(head + ranNothing)
	for i, q := range kept {
		switch {
		case i == 0:
			b.WriteString(", including ")
		case i == len(kept)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(q)
	}
	return b.String()
}

// fileTexts are the texts of the subjects of a call that are files its
// command reads or writes, decided under a file tool, for withoutFiles.
func (p *loadedPolicy) fileTexts(tool string, args []byte) []string {
	split := p.matchers[tool].Subjects
	if split == nil {
		return nil
	}
	subjects, err := split(args)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range subjects {
		if s.Tool != "" && s.Tool != tool {
			out = append(out, s.Text)
		}
	}
	return out
}
