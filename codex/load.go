package codex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ChristopherDavenport/agentpolicy"
)

// The ranks of the sources [Load] reads, higher first: a verdict cites the
// most authoritative rule that matched. Rank never changes which list
// wins, and Codex takes the most restrictive of every matching rule, as
// the engine's deny, ask, allow precedence does.
const (
	rankFile    = 40
	rankProject = 20
	rankUser    = 10
)

// maxFile bounds the size of one rules file.
const maxFile = 2 << 20

// LoadOptions says where [Load] finds the rules files.
type LoadOptions struct {
	// Home is CODEX_HOME; "" reads $CODEX_HOME, else ~/.codex.
	Home string
	// Project is the repository the session runs in, "" for none. Its
	// .codex/rules/*.rules are read always: their forbidden and prompt
	// rules apply at once, since they only restrict, and their allow
	// rules only when config.toml trusts the project
	// ([projects."<Project>"] trust_level = "trusted"), as Codex reads
	// them only then.
	Project string
	// Files are more rules files, read as `codex execpolicy check -r`
	// reads them, trusted.
	Files []string
}

// Rules are the rules files [Load] read.
type Rules struct {
	files []*File
}

// Load reads every rules file: $CODEX_HOME/rules/*.rules (user), the
// project's .codex/rules/*.rules, and opts.Files, each directory's files
// in name order. A file Codex would refuse is left out and its
// *FileError joined into the error, beside the rules of the other files;
// a missing directory is no error, a missing named file is one.
func Load(opts LoadOptions) (*Rules, error) {
	home, err := codexHome(opts.Home)
	if err != nil {
		return nil, err
	}
	var files []*File
	var errs []error
	read := func(path, name string, rank int, trusted bool) {
		f, err := readFile(path, name, rank, trusted)
		if err != nil {
			errs = append(errs, err)
			return
		}
		files = append(files, f)
	}
	for _, p := range rulesIn(filepath.Join(home, "rules"), &errs) {
		read(p, "codex:user/"+filepath.Base(p), rankUser, true)
	}
	if opts.Project != "" {
		project, err := filepath.Abs(opts.Project)
		if err != nil {
			return nil, err
		}
		trusted, err := projectTrusted(home, project)
		if err != nil {
			errs = append(errs, err)
		}
		for _, p := range rulesIn(filepath.Join(project, ".codex", "rules"), &errs) {
			read(p, "codex:project/"+filepath.Base(p), rankProject, trusted)
		}
	}
	for i, p := range opts.Files {
		name := "codex:file"
		if i > 0 {
			name += "#" + strconv.Itoa(i+1)
		}
		read(p, name, rankFile, true)
	}
	return New(files...), errors.Join(errs...)
}

// New gathers parsed files into one set of rules, each file's rules
// reaching the host_executable paths every file declares, as Codex
// gathers its files into one policy.
func New(files ...*File) *Rules {
	hosts := mergeHosts(files)
	for _, f := range files {
		f.translate(hosts)
	}
	return &Rules{files: files}
}

// Files lists the files read, in the order read, with their entries.
func (r *Rules) Files() []*File { return slices.Clone(r.files) }

// RuleSets is one [agentpolicy.RuleSet] per file, for [agentpolicy.Merge]
// beside a host's other sources.
func (r *Rules) RuleSets() []agentpolicy.RuleSet {
	sets := make([]agentpolicy.RuleSet, 0, len(r.files))
	for _, f := range r.files {
		sets = append(sets, f.ruleSet())
	}
	return sets
}

// Policy merges the files' rule sets under the default ask: a command no
// rule matches is not run unseen, as Codex asks for one under its
// untrusted approval policy.
func (r *Rules) Policy() (agentpolicy.Policy, error) {
	p, err := agentpolicy.Merge(r.RuleSets()...)
	if err != nil {
		return agentpolicy.Policy{}, err
	}
	return p.WithDefault(agentpolicy.Ask()), nil
}

// codexHome is the directory Codex keeps its configuration in.
func codexHome(home string) (string, error) {
	if home != "" {
		return home, nil
	}
	if env := os.Getenv("CODEX_HOME"); env != "" {
		return env, nil
	}
	user, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("agentpolicy/codex: no CODEX_HOME and no home directory: " + err.Error())
	}
	return filepath.Join(user, ".codex"), nil
}

// rulesIn lists the *.rules regular files of dir in name order; a missing
// directory has none, and one that cannot be read is an error.
func rulesIn(dir string, errs *[]error) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*errs = append(*errs, &FileError{Path: dir, Err: err})
		}
		return nil
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".rules") && !strings.HasPrefix(e.Name(), ".") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}

// readFile reads and evaluates one rules file.
func readFile(path, name string, rank int, trusted bool) (*File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	if !info.Mode().IsRegular() {
		return nil, &FileError{Path: path, Err: errors.New("not a regular file")}
	}
	if info.Size() > maxFile {
		return nil, &FileError{Path: path, Err: errors.New("larger than 2 MiB")}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return Parse(path, name, src, rank, trusted)
}

// projectTrusted reports whether config.toml trusts the project: an entry
// for its absolute path with trust_level "trusted". A missing config trusts
// nothing; one that cannot be read is an error, and trusts nothing.
func projectTrusted(home, project string) (bool, error) {
	path := filepath.Join(home, "config.toml")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, &FileError{Path: path, Err: err}
	}
	// A map, not a struct: the TOML library would match a struct's
	// field to a key in any case, and Codex reads trust_level as spelled.
	var c map[string]any
	if _, err := toml.Decode(string(data), &c); err != nil {
		return false, &FileError{Path: path, Err: err}
	}
	projects, _ := c["projects"].(map[string]any)
	p, _ := projects[project].(map[string]any)
	level, _ := p["trust_level"].(string)
	return level == "trusted", nil
}
