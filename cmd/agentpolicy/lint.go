package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ChristopherDavenport/agentpolicy"
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
           carve-out that reaches no rule, or is an allow rule a deny or ask
           rule covers entirely, so it never fires;
  warning  a rule written in more than one place, an allow rule with a * before
           a later word (Claude Code warns about these), a curl or wget rule
           that constrains arguments (not a boundary: deny the command and
           allow WebFetch domains instead), and the allow rules withheld
           because the project is not trusted.

It exits 1 when it finds an error.`,
		Example: `  agentpolicy lint --project .
  agentpolicy lint --json --project . --settings ci-settings.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := flags.load()
			if err != nil {
				return err
			}
			findings := p.lint()
			if asJSON {
				if err := writeFindingsJSON(cmd.OutOrStdout(), findings); err != nil {
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the findings as a JSON array")
	return cmd
}

// lintRules runs every check over the located rules. build answers whether
// a rule alone builds with the matchers; covers whether a deny or ask rule
// matches every call an allow rule allows.
func lintRules(rules []located, build func(located) error, covers func(by, allow agentpolicy.Rule) bool) []finding {
	var out []finding
	for _, l := range rules {
		if err := build(l); err != nil {
			out = append(out, l.finding(sevError, "no_matcher", neverFires(err), "remove the rule, or give its tool a matcher"))
		}
	}
	out = append(out, coveredAllows(rules, covers)...)
	out = append(out, duplicates(rules)...)
	for _, l := range rules {
		out = append(out, claudeWarnings(l)...)
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

// duplicates finds a rule written again in the same list, in any file.
func duplicates(rules []located) []finding {
	var out []finding
	first := map[string]located{}
	for _, l := range rules {
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
	if l.Rule.Tool != "Bash" || l.Rule.Spec == "" {
		return nil
	}
	var out []finding
	spec := strings.TrimSuffix(l.Rule.Spec, ":*")
	if l.List == "allow" {
		if star := strings.Index(spec, "*"); star >= 0 && strings.TrimSpace(strings.Trim(spec[star:], "* ")) != "" {
			out = append(out, l.finding(sevWarning, "star_before_word",
				"a * before a later word matches more than it seems: "+strings.TrimSpace(spec[:star])+" followed by anything that ends as written",
				"spell out the words before the *, or write one rule per command"))
		}
	}
	name, rest, _ := strings.Cut(spec, " ")
	if (name == "curl" || name == "wget") && strings.Trim(rest, "* ") != "" {
		out = append(out, l.finding(sevWarning, "not_a_boundary",
			"a rule on "+name+"'s arguments is not a boundary: an option first, another scheme or a variable passes it",
			"deny Bash("+name+" *) and allow WebFetch(domain:HOST) instead"))
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
		fmt.Fprintf(tw, "%s\t%s[%d]\t%s\t%s\t%s\n", f.File, f.List, f.Index, f.Rule, f.Severity, f.Message)
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

// writeFindingsJSON prints the findings as an array, [] when there are none.
func writeFindingsJSON(w io.Writer, fs []finding) error {
	if fs == nil {
		fs = []finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(fs)
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
				out = append(out, l.finding(sevError, kind, "never fires: "+e.Problem, "remove it, or write it in a form the claudecode README lists"))
				continue
			}
			for _, r := range e.Rules {
				l.Rule = r
				l.Rule.Source = f.Source
				rules = append(rules, l)
			}
		}
	}
	out = append(out, lintRules(rules, p.buildsAlone, p.covers)...)
	out = append(out, withheldFindings(rules, p.engine.Withheld())...)
	return sortFindings(out)
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
	args, err := json.Marshal(map[string]string{"command": allow.Spec})
	return err == nil && p.matchers["Bash"].Match(by.Spec, args)
}

// count is "1 error" or "2 errors".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
