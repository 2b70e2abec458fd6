package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/spf13/cobra"
)

// Severities of a finding. An error is a rule that is broken or does
// nothing at all, and fails the command; a warning is a rule that works
// but not as its author probably thinks.
const (
	sevError   = "error"
	sevWarning = "warning"
)

// finding is one thing lint says about one rule, with where the rule is
// written and a one-line fix.
type finding struct {
	File     string `json:"file"`
	List     string `json:"list"`
	Index    int    `json:"index"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// located is one rule as a settings file writes it: the file, the list,
// the index in that list, the text, and a rule it translates to. An entry
// that does not translate is a finding of its own, never located.
type located struct {
	File  string
	List  string
	Index int
	Text  string
	Rule  agentpolicy.Rule
	// Derived marks a rule the entry implies beside its own, the Read rule
	// of an Edit allow, the Edit rule of a Read deny, a rule written again
	// for an additional directory: not the rule the file writes.
	Derived bool
}

func (l located) finding(sev, kind, msg, fix string) finding {
	return finding{File: l.File, List: l.List, Index: l.Index, Rule: l.Text, Severity: sev, Kind: kind, Message: msg, Fix: fix}
}

func newLint(flags *settingsFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Find the rules that do nothing, and the rules that do less than they seem to",
		Long: `lint reads the settings files and reports, for each rule, with its file, list
and index:

  error    a rule that cannot be translated, has no matcher for its tool, is a
           carve-out that reaches no rule, is an allow rule a deny or ask rule
           covers entirely, so it never fires, or has a stray space that makes
           it match nothing; a defaultMode Claude Code does not know;
  warning  a rule written in more than one place in one list, an allow rule
           with a * before a later word (Claude Code warns about these), a curl
           or wget rule that constrains arguments (not a boundary: deny the
           command and allow WebFetch domains instead), an inert allow rule (a
           tool Claude Code never asks about, a read inside the project), and
           the allow rules and bypassPermissions mode withheld because the
           project is not trusted.

It exits 1 when it finds an error.`,
		Example: `  agentpolicy lint --project .
  agentpolicy lint --json --project . --settings ci-settings.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := flags.load()
			if err != nil {
				return err
			}
			flags.reportFiles(cmd.ErrOrStderr(), p)
			findings := p.lint()
			if asJSON {
				if err := writeFindingsJSON(cmd.OutOrStdout(), p.filesRead(), findings); err != nil {
					return err
				}
			} else {
				writeFindings(cmd.OutOrStdout(), findings)
			}
			if slices.ContainsFunc(findings, func(f finding) bool { return f.Severity == sevError }) {
				return errFailed
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the files read and the findings as JSON: {"files": [...], "findings": [...]}`)
	return cmd
}

// lintRules runs every check over the located rules; tools are Claude
// Code's, for the name a rule's unknown tool probably meant. build answers whether
// a rule alone builds with the matchers; covers whether a deny or ask rule
// matches every call an allow rule allows.
func lintRules(rules []located, tools []string, build func(located) error, covers func(by, allow agentpolicy.Rule) bool) []finding {
	var out []finding
	for _, l := range rules {
		if err := build(l); err != nil {
			out = append(out, l.finding(sevError, "no_matcher", neverFires(err), noMatcherFix(l, tools)))
		}
	}
	out = append(out, coveredAllows(rules, covers)...)
	out = append(out, duplicates(rules)...)
	for _, l := range rules {
		out = append(out, claudeWarnings(l)...)
	}
	return out
}

// noMatcherFix is the fix of a rule whose tool has no matcher: the tool
// it probably meant ("Raed" for Read), or to remove it.
func noMatcherFix(l located, tools []string) string {
	if strings.HasPrefix(l.Rule.Tool, "mcp__") {
		return "remove the rule, or give its tool a matcher"
	}
	if name, ok := nearest(l.Rule.Tool, tools); ok {
		return "did you mean " + name + "?"
	}
	return "remove the rule: Claude Code has no tool " + strconv.Quote(l.Rule.Tool)
}

// unknownToolFindings finds bare rules naming a tool Claude Code does not
// have, "Raed", which match no call: a warning, since a tool this command
// does not list (one Claude Code added since) would be named too.
func unknownToolFindings(rules []located, tools []string) []finding {
	var out []finding
	for _, l := range rules {
		if l.Derived || !l.Rule.Bare() || strings.HasPrefix(l.Rule.Tool, "mcp__") || slices.Contains(tools, l.Rule.Tool) || slices.Contains(quiet, l.Rule.Tool) {
			continue
		}
		out = append(out, l.finding(sevWarning, "unknown_tool",
			"matches nothing: Claude Code has no tool "+strconv.Quote(l.Rule.Tool), noMatcherFix(l, tools)))
	}
	return out
}

// permissionKeys are the members of permissions Claude Code reads.
var permissionKeys = []string{"allow", "ask", "deny", "additionalDirectories", "defaultMode", "disableBypassPermissionsMode", "disableAutoMode"}

// keyFindings finds the members of a file's permissions Claude Code does
// not know, which it ignores: "alow" holds rules that never apply.
func keyFindings(files []claudecode.File) []finding {
	var out []finding
	for _, f := range files {
		data, err := os.ReadFile(f.Source.Path)
		if err != nil {
			continue // inline --settings, which names no file
		}
		var doc struct {
			Permissions map[string]json.RawMessage `json:"permissions"`
		}
		if json.Unmarshal(data, &doc) != nil {
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(doc.Permissions)) {
			if slices.Contains(permissionKeys, key) {
				continue
			}
			fix := "remove it: Claude Code reads " + strings.Join(permissionKeys, ", ")
			if name, ok := nearest(key, permissionKeys); ok {
				fix = "did you mean " + name + "?"
			}
			l := located{File: relPath(f.Source.Path), List: "permissions." + key, Index: -1, Text: key}
			out = append(out, l.finding(sevError, "unknown_key",
				"never applies: Claude Code knows no permissions."+key+" and ignores it, with every rule in it", fix))
		}
	}
	return out
}

// neverFires is a build error as a finding's message.
func neverFires(err error) string {
	msg := strings.TrimPrefix(err.Error(), "agentpolicy: ")
	if errors.Is(err, agentpolicy.ErrToolGlob) || errors.Is(err, agentpolicy.ErrNoMatcher) {
		return "never fires: " + msg
	}
	return msg
}

// coveredAllows finds allow rules a deny or an ask rule covers entirely:
// deny and ask come first, so such an allow never decides a call.
func coveredAllows(rules []located, covers func(by, allow agentpolicy.Rule) bool) []finding {
	var out []finding
	for _, a := range rules {
		if a.List != "allow" {
			continue
		}
		for _, by := range rules {
			if (by.List != "deny" && by.List != "ask") || !covers(by.Rule, a.Rule) {
				continue
			}
			out = append(out, a.finding(sevError, "covered",
				fmt.Sprintf("never fires: %s %s (%s[%d] of %s) covers every call it allows", by.List, by.Text, by.List, by.Index, by.File),
				"remove the allow rule, or narrow the "+by.List+" rule"))
			break
		}
	}
	return out
}

// duplicates finds a rule written again in the same list, in any file. A
// rule an entry implies is no duplicate: an Edit(**) allow also reads, but
// does not repeat a Read(**) allow.
func duplicates(rules []located) []finding {
	var out []finding
	first := map[string]located{}
	for _, l := range rules {
		if l.Derived {
			continue
		}
		key := l.List + "\x00" + l.Rule.String()
		if f, ok := first[key]; ok {
			out = append(out, l.finding(sevWarning, "duplicate",
				fmt.Sprintf("also in %s[%d] of %s", f.List, f.Index, f.File),
				"keep one of the two"))
			continue
		}
		first[key] = l
	}
	return out
}

// claudeWarnings are the warnings about one rule's shape: an allow rule
// with a * before a later word, and an argument-constraining rule for a
// network client, which is not a boundary.
func claudeWarnings(l located) []finding {
	if l.Rule.Tool != "Bash" || l.Rule.Spec == "" || l.Derived {
		return nil
	}
	var out []finding
	spec := strings.TrimSuffix(strings.TrimPrefix(l.Rule.Spec, writtenPrefix), ":*")
	if l.List == "allow" {
		if star := strings.Index(spec, "*"); star >= 0 && strings.TrimSpace(strings.Trim(spec[star:], "* ")) != "" {
			out = append(out, l.finding(sevWarning, "star_before_word",
				"a * before a later word matches more than it seems: "+strings.TrimSpace(spec[:star])+" followed by anything that ends as written",
				"spell out the words before the *, or write one rule per command"))
		}
	}
	// An exact allow rule, one command and nothing else, is a boundary:
	// no option or variable can be added to what it allows.
	exact := l.List == "allow" && !strings.Contains(l.Rule.Spec, "*")
	name, rest, _ := strings.Cut(spec, " ")
	if (name == "curl" || name == "wget") && strings.Trim(rest, "* ") != "" && !exact {
		out = append(out, l.finding(sevWarning, "not_a_boundary",
			"a rule on "+name+"'s arguments is not a boundary: an option first, another scheme or a variable passes it",
			"deny Bash("+name+" *) and allow WebFetch(domain:HOST) instead"))
	}
	return out
}

// writtenPrefix begins the engine rule a quoted Bash allow rule becomes,
// which matches the command as written (claudecode's README): the rest is
// the pattern.
const writtenPrefix = "as_written:"

// strayFindings finds rules whose spaces make them match nothing: a space
// at either end of a specifier, or two in a row in a command pattern,
// where the shell reads a command's words joined by one space. A deny or
// ask rule that matches nothing protects nothing, so each is an error.
func strayFindings(rules []located) []finding {
	var out []finding
	for _, l := range rules {
		open := strings.IndexByte(l.Text, '(')
		if l.Derived || open < 0 || !strings.HasSuffix(l.Text, ")") {
			continue
		}
		spec := l.Text[open+1 : len(l.Text)-1]
		stray := spec != strings.TrimSpace(spec)
		if l.Rule.Tool == "Bash" && !strings.ContainsAny(spec, `'"\`) {
			stray = stray || strings.Contains(spec, "  ")
		}
		if stray {
			out = append(out, l.finding(sevError, "stray_space",
				"matches nothing: a stray space in "+strconv.Quote(spec)+", where a command's words are read one space apart and a path has none at its ends",
				"remove the stray spaces"))
		}
	}
	return out
}

// quiet are the tools Claude Code runs without asking (spec §2.2), so an
// allow rule for one changes nothing.
var quiet = []string{"Agent", "AskUserQuestion", "Skill", "TaskStop", "TodoWrite", "ToolSearch"}

// inertFindings finds allow rules that allow nothing Claude Code would
// ask about: a tool it never asks about, and a Read of a path inside the
// project, which it reads without asking.
func inertFindings(rules []located) []finding {
	var out []finding
	for _, l := range rules {
		if l.List != "allow" || l.Derived {
			continue
		}
		switch {
		case slices.Contains(quiet, l.Rule.Tool):
			out = append(out, l.finding(sevWarning, "inert",
				"inert: Claude Code runs "+l.Rule.Tool+" without asking",
				"remove the rule"))
		case l.Rule.Tool == "Read" && insideProject(l.Rule.Spec, l.Rule.Source.Name):
			out = append(out, l.finding(sevWarning, "inert",
				"inert: Claude Code reads every file inside the project without asking",
				"remove the rule, or name a path outside the project (//path or ~/path)"))
		}
	}
	return out
}

// insideProject reports whether a Read specifier of the named source can
// match only paths inside the project: a relative pattern, or one anchored
// at the project with "/", which a user or --settings file anchors
// elsewhere.
func insideProject(spec, source string) bool {
	if spec == "" || strings.Contains(spec, "..") || strings.HasPrefix(spec, "//") || strings.HasPrefix(spec, "~") {
		return false
	}
	return !strings.HasPrefix(spec, "/") || source == "project" || strings.HasPrefix(source, "local")
}

// modeFindings reports a defaultMode Claude Code does not know, which it
// ignores, and a bypassPermissions from an untrusted file, which it does
// not honour.
func modeFindings(files []claudecode.File) []finding {
	var out []finding
	for _, f := range files {
		if f.DefaultMode == "" {
			continue
		}
		l := located{File: relPath(f.Source.Path), List: "defaultMode", Index: -1, Text: f.DefaultMode}
		switch mode := claudecode.Mode(f.DefaultMode); {
		case !mode.Known():
			out = append(out, l.finding(sevError, "unknown_mode",
				"never applies: Claude Code knows no mode "+strconv.Quote(f.DefaultMode),
				"write default, acceptEdits, plan, auto, dontAsk or bypassPermissions"))
		case mode == claudecode.ModeBypass && !f.Source.Trusted:
			out = append(out, l.finding(sevWarning, "withheld",
				"withheld: the project is not trusted, so this mode does not apply",
				"trust the project (--trust) if it should"))
		}
	}
	return out
}

// withheldFindings reports the allow rules an untrusted project's files
// hold, which apply only once the project is trusted.
func withheldFindings(rules []located, withheld []agentpolicy.Rule) []finding {
	var out []finding
	for _, w := range withheld {
		for _, l := range rules {
			if l.List == "allow" && l.Rule.Tool == w.Tool && l.Rule.Spec == w.Spec && l.Rule.Source.Name == w.Source.Name {
				out = append(out, l.finding(sevWarning, "withheld",
					"withheld: the project is not trusted, so this allow rule does not apply",
					"trust the project (--trust) if it should"))
				break
			}
		}
	}
	return out
}

// sortFindings orders findings by file, list, index and kind, and keeps
// one of each: an entry that becomes several rules, an Edit rule that
// also reads, is one finding.
func sortFindings(fs []finding) []finding {
	key := func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.List, b.List), cmp.Compare(a.Index, b.Index), cmp.Compare(a.Kind, b.Kind))
	}
	slices.SortStableFunc(fs, key)
	return slices.CompactFunc(fs, func(a, b finding) bool { return key(a, b) == 0 })
}

// writeFindings prints one line per finding and a count.
func writeFindings(w io.Writer, fs []finding) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range fs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.File, f.place(), strconv.Quote(f.Rule), f.Severity, f.Message)
		fmt.Fprintf(tw, "\t\t\tfix:\t%s\n", f.Fix)
	}
	tw.Flush()
	errs := 0
	for _, f := range fs {
		if f.Severity == sevError {
			errs++
		}
	}
	fmt.Fprintf(w, "%s, %s\n", count(errs, "error"), count(len(fs)-errs, "warning"))
}

// place is where the finding is in its file: "allow[3]", or the key of a
// finding about the file, "defaultMode".
func (f finding) place() string {
	if f.Index < 0 {
		return f.List
	}
	return fmt.Sprintf("%s[%d]", f.List, f.Index)
}

// writeFindingsJSON prints the files read and the findings, as one
// object: {"files": [...], "findings": [...]}, [] when there are none.
func writeFindingsJSON(w io.Writer, files []fileRead, fs []finding) error {
	out := struct {
		Files    []fileRead `json:"files"`
		Findings []finding  `json:"findings"`
	}{files, fs}
	if out.Files == nil {
		out.Files = []fileRead{}
	}
	if out.Findings == nil {
		out.Findings = []finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// lint runs every check over the loaded files.
func (p *loadedPolicy) lint() []finding {
	var rules []located
	var out []finding
	for _, f := range p.settings.Files() {
		for _, e := range f.Entries {
			l := located{File: relPath(f.Source.Path), List: e.List, Index: e.Index, Text: e.Text}
			if e.Problem != "" {
				kind := "untranslatable"
				if strings.Contains(e.Text, "(!") {
					kind = "dead_carve_out"
				}
				out = append(out, l.finding(sevError, kind, "never fires: "+plainProblem(e.Text, e.Problem), "remove it, or write it in a form the claudecode README lists"))
				continue
			}
			if len(e.Rules) == 0 && e.List == "allow" && !f.Source.Trusted {
				// An allow rule over an MCP server or a glob of its tools,
				// which becomes rules only for the tools it names.
				out = append(out, l.finding(sevWarning, "withheld",
					"withheld: the project is not trusted, so this allow rule does not apply",
					"trust the project (--trust) if it should"))
			}
			for i, r := range e.Rules {
				l.Rule = r
				l.Rule.Source = f.Source
				l.Derived = i > 0
				rules = append(rules, l)
			}
		}
	}
	out = append(out, lintRules(rules, p.toolNames(), p.buildsAlone, p.covers)...)
	out = append(out, keyFindings(p.settings.Files())...)
	out = append(out, unknownToolFindings(rules, p.toolNames())...)
	out = append(out, strayFindings(rules)...)
	out = append(out, inertFindings(rules)...)
	out = append(out, modeFindings(p.settings.Files())...)
	out = append(out, withheldFindings(rules, p.engine.Withheld())...)
	out = append(out, p.agentFindings()...)
	return sortFindings(out)
}

// plainProblem is why an entry cannot be used, in the user's words: the
// finding already quotes the rule as written, so the engine's form of it
// and the packages' prefixes are left out. "the engine's grammar refuses
// it: agentpolicy: rule "Bash(as_written:foo (bar)": unbalanced
// parentheses" becomes ""Bash(foo (bar)" does not parse: unbalanced
// parentheses", quoting the whole rule as written.
func plainProblem(text, problem string) string {
	if _, rest, ok := strings.Cut(problem, "the engine's grammar refuses it: "); ok {
		if i := strings.LastIndex(rest, `": `); strings.Contains(rest, `rule "`) && i >= 0 {
			rest = rest[i+len(`": `):]
		}
		problem = strconv.Quote(text) + " does not parse: " + rest
	}
	return strings.NewReplacer("agentpolicy/claudecode: ", "", "agentpolicy: ", "").Replace(problem)
}

// buildsAlone reports the build error of a policy holding the rule alone,
// in its own list.
func (p *loadedPolicy) buildsAlone(l located) error {
	pol := agentpolicy.Policy{Default: agentpolicy.Ask()}
	switch l.List {
	case "allow":
		pol.Allow = []agentpolicy.Rule{l.Rule}
	case "ask":
		pol.Ask = []agentpolicy.Rule{l.Rule}
	default:
		pol.Deny = []agentpolicy.Rule{l.Rule}
	}
	_, err := agentpolicy.Build(pol, p.matchers, agentpolicy.WithAliases(p.settings.Aliases()))
	return err
}

// covers reports whether the deny or ask rule by matches every call the
// allow rule allows: by is bare, or both are Bash rules and by's pattern
// accepts the allow rule's pattern read as a command, its "*"s as literal
// characters. A "*" of by can stand for any run of the allow rule's text,
// stars included, and every other character of by matched a literal of
// the allow rule, so any command the allow rule matches, by matches too.
// Path rules are not compared: an anchor means something else read as a
// path, and a finding that is wrong would fail a build.
func (p *loadedPolicy) covers(by, allow agentpolicy.Rule) bool {
	if by.Tool != allow.Tool {
		return false
	}
	if by.Bare() {
		return true
	}
	if allow.Tool != "Bash" || allow.Bare() {
		return false
	}
	args, err := json.Marshal(map[string]string{"command": strings.TrimPrefix(allow.Spec, writtenPrefix)})
	return err == nil && p.matchers["Bash"].Match(by.Spec, args)
}

// count is "1 error" or "2 errors".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
