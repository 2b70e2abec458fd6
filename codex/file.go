package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/ChristopherDavenport/agentpolicy"
)

// File is one rules file as [Load] or [Parse] read it: the source its
// rules carry and every call that declared a rule, in the order they ran.
type File struct {
	// Source is what the file's rules carry: its name, path, content
	// hash, trust and rank.
	Source agentpolicy.Source
	// Prefixes and Networks are the file's prefix_rule and network_rule
	// calls as Codex evaluated them.
	Prefixes []PrefixRule
	Networks []NetworkRule
	// Hosts are the file's host_executable paths, by program name.
	Hosts map[string][]string
	// Entries are the calls and the engine rules each became, filled by
	// [Rules] once every file's host_executable paths are known.
	Entries []Entry
}

// Entry is one rule call of a file and what it became.
type Entry struct {
	// Line is the call's line; Text the call as the file writes it,
	// "prefix_rule(pattern = ["git", "status"])", which names the
	// rule wherever it is reported.
	Line int
	Text string
	// List is [ListAllow], [ListAsk] or [ListDeny].
	List string
	// Rules are the engine rules it contributes; none when it is skipped.
	Rules []agentpolicy.Rule
	// Problem says why it is skipped or reaches more than it says.
	Problem string
}

// FileError is a rules file Codex would refuse to load: a Starlark error, a
// decision it does not know, an example that does not hold. The file's
// rules are not read, and the host decides whether to go on without them.
type FileError struct {
	// Path is the file, Err what is wrong with it.
	Path string
	Err  error
}

// Error names the file and what is wrong with it.
func (e *FileError) Error() string {
	return fmt.Sprintf("agentpolicy/codex: %s: %v", e.Path, e.Err)
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// Parse evaluates one rules file's source as Codex does, under a source
// named name with the given rank and trust. An error is a *FileError.
func Parse(path, name string, src []byte, rank int, trusted bool) (*File, error) {
	ev, err := evaluate(path, src)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	sum := sha256.Sum256(src)
	return &File{
		Source:   agentpolicy.Source{Name: name, Path: path, Hash: "sha256:" + hex.EncodeToString(sum[:]), Trusted: trusted, Rank: rank},
		Prefixes: ev.prefixes,
		Networks: ev.networks,
		Hosts:    ev.hosts,
	}, nil
}

// translate fills the file's entries, reaching the host_executable paths
// of hosts.
func (f *File) translate(hosts map[string][]string) {
	f.Entries = f.Entries[:0]
	for _, r := range f.Prefixes {
		rules, err := translatePrefix(r, hosts)
		f.Entries = append(f.Entries, entry(r.Line, r.Text, listOf(r.Decision), rules, err))
	}
	for _, r := range f.Networks {
		rules, err := translateNetwork(r)
		f.Entries = append(f.Entries, entry(r.Line, r.Text, listOf(r.Decision), rules, err))
	}
	slices.SortStableFunc(f.Entries, func(a, b Entry) int { return a.Line - b.Line })
}

// entry is one call's entry, its rules checked against the grammar.
func entry(line int, text, list string, rules []agentpolicy.Rule, err error) Entry {
	e := Entry{Line: line, Text: text, List: list}
	if err != nil {
		e.Problem = err.Error()
		if _, ok := err.(wider); !ok {
			return e
		}
	}
	for _, r := range rules {
		if err := checkGrammar(r); err != nil {
			e.Problem = err.Error()
			return e
		}
	}
	e.Rules = rules
	return e
}

// ruleSet is the file's rules as one source's lists.
func (f *File) ruleSet() agentpolicy.RuleSet {
	set := agentpolicy.RuleSet{Source: f.Source}
	for _, e := range f.Entries {
		switch e.List {
		case ListDeny:
			set.Deny = append(set.Deny, e.Rules...)
		case ListAsk:
			set.Ask = append(set.Ask, e.Rules...)
		default:
			set.Allow = append(set.Allow, e.Rules...)
		}
	}
	return set
}

// mergeHosts is every file's host_executable paths, by program name.
func mergeHosts(files []*File) map[string][]string {
	hosts := map[string][]string{}
	for _, f := range files {
		for _, name := range slices.Sorted(maps.Keys(f.Hosts)) {
			for _, p := range f.Hosts[name] {
				if !slices.Contains(hosts[name], p) {
					hosts[name] = append(hosts[name], p)
				}
			}
		}
	}
	return hosts
}
