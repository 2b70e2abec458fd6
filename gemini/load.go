package gemini

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// maxFile bounds the size of one policy file.
const maxFile = 2 << 20

// LoadOptions says where [Load] finds the policy files.
type LoadOptions struct {
	// Home is Gemini CLI's user directory; "" is ~/.gemini. Its
	// policies/*.toml are the user tier.
	Home string
	// AdminDir holds the admin tier's *.toml, "" for none.
	AdminDir string
	// Policies are --policy files, read in the user tier in place of the
	// user directory, as Gemini CLI reads them.
	Policies []string
	// Session is the session the rules decide for.
	Session
}

// Session is what a rule's modes and interactive keys are read against.
// A rule for other sessions does not apply; when the session is unknown
// (the zero Mode, a nil Interactive), its deny and ask rules apply and its
// allow rules do not.
type Session struct {
	// Mode is the approval mode: default, auto_edit, yolo or plan.
	Mode string
	// Interactive says whether a user is there to answer.
	Interactive *bool
}

// Rules are the policy files [Load] read.
type Rules struct {
	files []*File
	names []string
}

// Load reads the admin tier's files, then the user tier's (the --policy
// files, or ~/.gemini/policies/*.toml), each directory's in name order. A
// file that is not TOML or not a policy file's shape is left out and its
// *FileError joined into the error, beside the other files' rules.
func Load(opts LoadOptions) (*Rules, error) {
	home := opts.Home
	if home == "" {
		user, err := os.UserHomeDir()
		if err != nil {
			return nil, errors.New("agentpolicy/gemini: no home directory: " + err.Error())
		}
		home = filepath.Join(user, ".gemini")
	}
	var files []*File
	var names []string
	var errs []error
	read := func(path, name string, tier int) {
		f, err := readFile(path, tier)
		if err != nil {
			errs = append(errs, err)
			return
		}
		files, names = append(files, f), append(names, name)
	}
	if opts.AdminDir != "" {
		for _, p := range tomlIn(opts.AdminDir, &errs) {
			read(p, "gemini:admin/"+filepath.Base(p), TierAdmin)
		}
	}
	if len(opts.Policies) > 0 {
		for i, p := range opts.Policies {
			read(p, "gemini:policy#"+strconv.Itoa(i+1)+"/"+filepath.Base(p), TierUser)
		}
	} else {
		for _, p := range tomlIn(filepath.Join(home, "policies"), &errs) {
			read(p, "gemini:user/"+filepath.Base(p), TierUser)
		}
	}
	return New(opts.Session, files, names), errors.Join(errs...)
}

// New translates parsed files, each named for the sources its rules
// carry, for the session.
func New(session Session, files []*File, names []string) *Rules {
	for _, f := range files {
		f.Entries = f.Entries[:0]
		for _, r := range f.Rules {
			f.Entries = append(f.Entries, translate(r, f.Tier, session))
		}
	}
	shadow(files)
	return &Rules{files: files, names: names}
}

// Files lists the files read, in the order read, with their entries.
func (r *Rules) Files() []*File { return slices.Clone(r.files) }

// rankBase puts every source of a Gemini CLI policy below every source
// of rank 0 or more, the other importers' among them, so that a
// carve-out a Gemini rule writes reaches only Gemini rules of lower
// priority: a Gemini allow never cancels a Claude Code or Codex deny.
const rankBase = 2 * (TierAdmin + 1) * 1000

// RuleSets are the files' rules, one [agentpolicy.RuleSet] for each
// priority of each file, ranked 2×(tier×1000 + priority) − 12000 so a
// higher final priority ranks higher and every source ranks below 0; and
// beside each, ranked one below, the carve-outs its rules write into the
// stricter lists, which cancel only the rules of lower final priority.
func (r *Rules) RuleSets() []agentpolicy.RuleSet {
	var sets []agentpolicy.RuleSet
	for i, f := range r.files {
		byPriority := map[int]*[2]agentpolicy.RuleSet{}
		for _, e := range f.Entries {
			pair, ok := byPriority[e.Priority]
			if !ok {
				name := r.names[i] + "@" + strconv.Itoa(e.Priority)
				pair = &[2]agentpolicy.RuleSet{
					{Source: agentpolicy.Source{Name: name, Path: f.Path, Hash: f.Hash, Trusted: true, Rank: 2*e.Priority - rankBase}},
					{Source: agentpolicy.Source{Name: name + " over lower", Path: f.Path, Hash: f.Hash, Trusted: true, Rank: 2*e.Priority - 1 - rankBase}},
				}
				byPriority[e.Priority] = pair
			}
			appendList(&pair[0], e.List, e.Rules)
			for list, rules := range e.CarveOuts {
				appendList(&pair[1], list, rules)
			}
		}
		priorities := make([]int, 0, len(byPriority))
		for p := range byPriority {
			priorities = append(priorities, p)
		}
		slices.SortFunc(priorities, func(a, b int) int { return cmp.Compare(b, a) })
		for _, p := range priorities {
			sets = append(sets, byPriority[p][0])
			if carve := byPriority[p][1]; len(carve.Deny)+len(carve.Ask) > 0 {
				sets = append(sets, carve)
			}
		}
	}
	return sets
}

// appendList appends rules to the set's list.
func appendList(set *agentpolicy.RuleSet, list string, rules []agentpolicy.Rule) {
	switch list {
	case ListDeny:
		set.Deny = append(set.Deny, rules...)
	case ListAsk:
		set.Ask = append(set.Ask, rules...)
	default:
		set.Allow = append(set.Allow, rules...)
	}
}

// Policy merges the rule sets under def, the default for a call no rule
// matches: Gemini CLI asks in an interactive session and denies in a
// headless one.
func (r *Rules) Policy(def agentpolicy.Default) (agentpolicy.Policy, error) {
	p, err := agentpolicy.Merge(r.RuleSets()...)
	if err != nil {
		return agentpolicy.Policy{}, err
	}
	return p.WithDefault(def), nil
}

// tomlIn lists the *.toml regular files of dir in name order; a missing
// directory has none.
func tomlIn(dir string, errs *[]error) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*errs = append(*errs, &FileError{Path: dir, Err: err})
		}
		return nil
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".toml") && !strings.HasPrefix(e.Name(), ".") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}

// readFile reads and parses one policy file.
func readFile(path string, tier int) (*File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	if !info.Mode().IsRegular() || info.Size() > maxFile {
		return nil, &FileError{Path: path, Err: errors.New("not a regular file of at most 2 MiB")}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return Parse(path, src, tier)
}
