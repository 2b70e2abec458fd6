package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Tiers order Gemini CLI's policy sources; a rule's final priority is its
// tier plus its priority divided by 1000.
const (
	TierDefault   = 1
	TierExtension = 2
	TierWorkspace = 3
	TierUser      = 4
	TierAdmin     = 5
)

// Decisions a rule may take, as Gemini CLI spells them.
const (
	Allow   = "allow"
	Deny    = "deny"
	AskUser = "ask_user"
)

// Rule is one [[rule]] table of a policy file, as written.
type Rule struct {
	// ToolName and MCPName name the tool, as Gemini CLI names it.
	ToolName string `toml:"toolName"`
	MCPName  string `toml:"mcpName"`
	// CommandPrefix, CommandRegex and ArgsPattern are the rule's
	// pattern, at most one of them; CommandPrefix is read from Prefix.
	CommandPrefix []string `toml:"-"`
	CommandRegex  string   `toml:"commandRegex"`
	ArgsPattern   string   `toml:"argsPattern"`
	// Decision is allow, deny or ask_user; Priority 0 to 999 within the
	// file's tier.
	Decision string `toml:"decision"`
	Priority int    `toml:"priority"`
	// Modes are the approval modes the rule applies in, all when empty.
	Modes []string `toml:"modes"`
	// Interactive limits the rule to interactive or headless sessions;
	// AllowRedirection is read and not modelled: a redirect gets the
	// policy's default.
	Interactive      *bool `toml:"interactive"`
	AllowRedirection bool  `toml:"allowRedirection"`
	// DenyMessage is the reason the model reads, the engine rule's note.
	DenyMessage string `toml:"denyMessage"`

	// Prefix is commandPrefix as written: a string or a list of strings.
	Prefix any `toml:"commandPrefix"`
	// Line is the line of the table's [[rule]] header.
	Line int `toml:"-"`
}

// File is one policy file as [Parse] read it.
type File struct {
	// Path is the file, Tier its tier, Hash "sha256:" and the hex of
	// its bytes.
	Path string
	Tier int
	Hash string
	// Rules are the file's [[rule]] tables in order.
	Rules []Rule
	// Entries are the rules and the engine rules each became.
	Entries []Entry
}

// document is a policy file's shape.
type document struct {
	Rule []Rule `toml:"rule"`
}

// FileError is a policy file that is not TOML or not a policy file's
// shape; its rules are not read.
type FileError struct {
	// Path is the file, Err what is wrong with it.
	Path string
	Err  error
}

// Error names the file and what is wrong with it.
func (e *FileError) Error() string { return fmt.Sprintf("agentpolicy/gemini: %s: %v", e.Path, e.Err) }

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// Parse reads one policy file's source in the given tier. An error is a
// *FileError.
func Parse(path string, src []byte, tier int) (*File, error) {
	var doc document
	md, err := toml.Decode(string(src), &doc)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	lines := ruleLines(src)
	f := &File{Path: path, Tier: tier}
	sum := sha256.Sum256(src)
	f.Hash = "sha256:" + hex.EncodeToString(sum[:])
	for i, r := range doc.Rule {
		if i < len(lines) {
			r.Line = lines[i]
		}
		switch p := r.Prefix.(type) {
		case nil:
		case string:
			r.CommandPrefix = []string{p}
		case []any:
			for _, v := range p {
				s, ok := v.(string)
				if !ok {
					return nil, &FileError{Path: path, Err: fmt.Errorf("rule %d: commandPrefix holds a %T", i+1, v)}
				}
				r.CommandPrefix = append(r.CommandPrefix, s)
			}
		default:
			return nil, &FileError{Path: path, Err: fmt.Errorf("rule %d: commandPrefix is a %T", i+1, p)}
		}
		f.Rules = append(f.Rules, r)
	}
	if err := exactKeys(md); err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		var keys []string
		for _, k := range undecoded {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		return nil, &FileError{Path: path, Err: fmt.Errorf("unknown keys: %s", strings.Join(keys, ", "))}
	}
	return f, nil
}

// ruleLines are the lines of the file's [[rule]] headers, in order.
func ruleLines(src []byte) []int {
	var lines []int
	for i, line := range strings.Split(string(src), "\n") {
		if strings.TrimSpace(line) == "[[rule]]" {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// ruleKeys are the keys a [[rule]] table may hold, spelled as Gemini CLI
// reads them: the TOML library matches a key to a field without regard
// to case, and Gemini CLI does not, so "toolNAme" must not be read as
// toolName.
var ruleKeys = []string{"toolName", "mcpName", "commandPrefix", "commandRegex", "argsPattern", "decision",
	"priority", "modes", "interactive", "allowRedirection", "denyMessage"}

// exactKeys refuses a key spelled otherwise than Gemini CLI spells it.
func exactKeys(md toml.MetaData) error {
	for _, key := range md.Keys() {
		switch {
		case len(key) == 1 && key[0] == "rule":
		case len(key) == 2 && key[0] == "rule" && slices.Contains(ruleKeys, key[1]):
		default:
			return fmt.Errorf("unknown key %s", key)
		}
	}
	return nil
}
