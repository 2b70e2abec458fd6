package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/codex"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// argvPrefix marks a Codex allow rule's specifier in the merged engine:
// matched on the command's words, as Codex matches an argv prefix, not on
// the normalised command Claude Code's Bash rules read, which joins the
// words with single spaces and so reads git 'status x' as git status x.
// Codex's deny and ask rules keep the normalised reading, which reaches
// every command Codex's would.
const argvPrefix = "argv:"

// wordsMember is the member a Bash subject's words are written into.
const wordsMember = "words"

// markArgv writes the Codex allow rules of the list with argvPrefix.
func markArgv(rules []agentpolicy.Rule) {
	for i, r := range rules {
		if r.Tool == "Bash" && r.Spec != "" && strings.HasPrefix(r.Source.Name, "codex:") {
			rules[i].Spec = argvPrefix + r.Spec
		}
	}
}

// withWords gives the Bash matcher the words of each command: its
// subjects carry them, read by a second split of the command with the
// shell module, and its matcher reads an argvPrefix specifier with
// [codex.MatchPrefix]. A subject whose words the second split does not
// find, or finds two ways, carries none, and no argvPrefix rule allows it.
func withWords(tm agentpolicy.ToolMatcher) agentpolicy.ToolMatcher {
	own, split := tm.Match, tm.Subjects
	words := shell.Subjects(shell.WithWordsField(wordsMember))
	tm.Match = func(spec string, args json.RawMessage) bool {
		rest, ok := strings.CutPrefix(spec, argvPrefix)
		if !ok {
			return own(spec, args)
		}
		return bytes.Contains(args, []byte(`"`+wordsMember+`":[`)) && codex.MatchPrefix(rest, args)
	}
	if split == nil {
		return tm
	}
	tm.Subjects = func(args json.RawMessage) ([]agentpolicy.Subject, error) {
		subjects, err := split(args)
		if err != nil {
			return nil, err
		}
		found, err := words(args)
		if err != nil {
			return subjects, nil
		}
		byCommand := map[string][]byte{}
		for _, s := range found {
			if s.Tool != "" {
				continue
			}
			command, _, _ := agentpolicy.Field(s.Args, "command")
			w := wordsOf(s.Args)
			if prev, ok := byCommand[command]; ok && !bytes.Equal(prev, w) {
				w = nil // two readings: no words
			}
			byCommand[command] = w
		}
		out := slices.Clone(subjects)
		for i, s := range out {
			if s.Tool != "" {
				continue
			}
			command, ok, _ := agentpolicy.Field(s.Args, "command")
			if w := byCommand[command]; ok && w != nil && len(s.Args) > 1 && s.Args[len(s.Args)-1] == '}' {
				args := slices.Clone(s.Args[:len(s.Args)-1])
				args = append(append(append(args, `,"`+wordsMember+`":`...), w...), '}')
				out[i].Args = args
			}
		}
		return out, nil
	}
	return tm
}

// wordsOf is the JSON array of a subject's words member, nil when it has
// none.
func wordsOf(args json.RawMessage) []byte {
	var s struct {
		Words json.RawMessage `json:"words"`
	}
	if json.Unmarshal(args, &s) != nil || len(s.Words) == 0 || s.Words[0] != '[' {
		return nil
	}
	return s.Words
}
