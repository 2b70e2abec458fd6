package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
)

// The reasons the hook gives Claude Code, which shows them to the model
// and the user. Each begins "agentpolicy:", so the reader knows whose
// answer it is, and none quotes a secret.

// verdictReason is the policy's reason with the rule that decided the
// call as its file writes it, and the file: "denied by Bash(rm *)
// [policy settings, /etc/team.json] on ...".
func (p *loadedPolicy) verdictReason(v agentpolicy.Verdict) string {
	if v.Rule == nil {
		return "agentpolicy: " + userTool(v.Reason)
	}
	cited := p.ruleName(*v.Rule)
	if builtinCheck(*v.Rule) == "" {
		cited = fmt.Sprintf("%s [%s]", cited, describeSource(v.Rule.Source))
	}
	if token := v.Rule.String(); strings.Contains(v.Reason, token) {
		return "agentpolicy: " + userTool(strings.Replace(v.Reason, token, cited, 1))
	}
	return "agentpolicy: " + userTool(v.Reason) + " (" + cited + ")"
}

// unpromptedReason is the reason of a call the policy would ask about
// only by default, of a tool Claude Code runs without asking.
func unpromptedReason(tool string) string {
	return "no rule names " + tool + ", which Claude Code runs without asking"
}

// secretReason refuses a call whose input holds a secret; found is the
// guard's reason, which names the kind of secret and not the secret.
func secretReason(found string) string {
	return "agentpolicy: " + found + " in the tool input; the call did not run"
}

// unloadedReason refuses every call while the settings cannot be read as
// Claude Code would read them: the error names the file and its line.
func unloadedReason(err error) string {
	return "agentpolicy: the settings cannot be read, so no call is allowed: " + oneLine(err.Error())
}

// undecidedReason refuses a call the engine could not decide.
func undecidedReason(err error) string {
	return "agentpolicy: the call could not be decided: " + oneLine(err.Error())
}

// unrecordedReason refuses a call whose decision the journal could not
// take: a trail with a hole in it is not kept.
func unrecordedReason(err error) string {
	return "agentpolicy: the decision could not be recorded, so the call did not run: " + oneLine(err.Error())
}

// queuedReason refuses an asked call of an unattended run, which the
// queue now holds for a person.
func queuedReason(reason, queue string) string {
	return "agentpolicy: " + reason + " (agentpolicy queue list " + queue + ")"
}

// unqueuedReason refuses an asked call of an unattended run that the
// queue could not take.
func unqueuedReason(err error) string {
	return "agentpolicy: the call could not be queued for review, so it did not run: " + oneLine(err.Error())
}

// unusableRule is the error of a --policy rule the engine cannot use: a
// policy missing a rule is not the policy meant, so every call is refused
// until the file is mended. It names the file, the rule's line and its
// place in the file.
func unusableRule(pr claudecode.Problem) error {
	data, err := os.ReadFile(pr.Path)
	line := 0
	if err == nil {
		line = entryLine(data, pr.List, pr.Index)
	}
	if line == 0 {
		return fmt.Errorf("%s: the policy holds a rule that cannot be used", pr)
	}
	return fmt.Errorf("%s:%d: the policy holds a rule that cannot be used: permissions.%s[%d] %q: %s",
		pr.Path, line, pr.List, pr.Index, pr.Rule, pr.Reason)
}

// entryLine is the line, from 1, on which entry index of the list
// permissions.<list> of a settings file begins; 0 when the file holds no
// such entry.
func entryLine(data []byte, list string, index int) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	line := 0
	// Walk the top-level object into permissions and then into the list.
	eachMember(dec, func(key string) bool {
		if key != "permissions" {
			return false
		}
		eachMember(dec, func(key string) bool {
			if key != list {
				return false
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				return true
			}
			for i := 0; dec.More(); i++ {
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					return true
				}
				if i == index {
					start := int(dec.InputOffset()) - len(raw)
					line = 1 + bytes.Count(data[:start], []byte("\n"))
				}
			}
			return true
		})
		return true
	})
	return line
}

// eachMember calls fn with each key of the object dec is at; fn reads the
// member's value and returns true, or returns false to have it skipped.
func eachMember(dec *json.Decoder, fn func(key string) bool) {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return
		}
		if !fn(key) {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return
			}
		}
	}
}
