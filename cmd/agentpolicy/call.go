package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// callArgs reads a call's arguments as the command line or a policy test
// gives them: a JSON object, or a shell command that becomes
// {"command": ...} for a shell tool. At most one of the two is given; none
// is the empty object.
func callArgs(tool string, raw json.RawMessage, command *string) (json.RawMessage, error) {
	if command != nil {
		if len(bytes.TrimSpace(raw)) != 0 {
			return nil, fmt.Errorf("%s: give the arguments as JSON or as a command, not both", tool)
		}
		return json.Marshal(map[string]string{"command": *command})
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage(`{}`), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s: arguments are not a JSON object: %s", tool, compactText(raw))
	}
	return raw, nil
}

// compactText is raw shortened for an error line.
func compactText(raw []byte) string {
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// callInfo is a call to tool with args as the loop would hand it to the
// engine, alone in its batch and in no run, so its record names the tool
// and nothing of a session.
func callInfo(tool string, args json.RawMessage) agentturn.ToolCallInfo {
	call := &openresponses.FunctionCall{Name: tool, Arguments: string(args)}
	return agentturn.ToolCallInfo{Call: call, Args: args}
}
