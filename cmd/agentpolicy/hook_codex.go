package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// codexCall is a Codex CLI PreToolUse event's call as the policy reads it.
// Codex runs its hooks in the session's directory, the project; the
// event's cwd is the directory the call acts in. Codex names its shell
// tool Bash and sends the model's command as it is, unsplit; a command
// run in another directory than the project's is decided as the
// `cd DIR && COMMAND` it amounts to. apply_patch is an Edit of every file
// the patch adds, updates, deletes or moves to, view_image a Read of its
// path. MCP tools come named
// mcp__server__tool, as the policy names them. Any other tool keeps its
// name, which no rule of Claude Code's tools names, so the policy's
// default decides it.
func codexCall(ev agentEvent) (agentCall, error) {
	call := agentCall{project: sessionDir(ev.Cwd)}
	switch ev.ToolName {
	case "Bash":
		command, err := stringArg(ev.ToolInput, "command")
		if err != nil {
			return call, err
		}
		call.calls = []mappedCall{{tool: "Bash", input: argsObject(map[string]string{"command": inDir(command, ev.Cwd, call.project)})}}
	case "apply_patch":
		patch, err := stringArg(ev.ToolInput, "command")
		if err != nil {
			return call, err
		}
		paths, err := patchPaths(patch)
		if err != nil {
			return call, fmt.Errorf("apply_patch: %w, so the call did not run", err)
		}
		for _, p := range paths {
			call.calls = append(call.calls, mappedCall{tool: "Edit", input: argsObject(map[string]string{"file_path": resolve(ev.Cwd, p)})})
		}
	case "view_image":
		path, err := stringArg(ev.ToolInput, "path")
		if err != nil {
			return call, err
		}
		call.calls = []mappedCall{{tool: "Read", input: argsObject(map[string]string{"file_path": resolve(ev.Cwd, path)})}}
	default:
		call.calls = []mappedCall{{tool: ev.ToolName, input: ev.ToolInput}}
	}
	return call, nil
}

// stringArg is the string member name of a tool's input.
func stringArg(input json.RawMessage, name string) (string, error) {
	var args map[string]json.RawMessage
	var s string
	if json.Unmarshal(input, &args) != nil || json.Unmarshal(args[name], &s) != nil {
		return "", fmt.Errorf("the tool_input has no string %q", name)
	}
	return s, nil
}

// The lines of Codex's patch format that name a file, each followed by
// the path.
var patchFileHeaders = []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "}

// patchPaths are the paths a patch in Codex's apply_patch format names:
// "*** Begin Patch", then for each file a header naming it, and "*** End
// Patch". A line beginning "***" that is no header this reader knows, or
// a patch that names no file, is an error: a file the hook did not see
// named is a file it did not decide.
func patchPaths(patch string) ([]string, error) {
	lines := strings.Split(strings.TrimSpace(patch), "\n")
	if strings.TrimSpace(lines[0]) != "*** Begin Patch" || strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return nil, errors.New("the patch does not begin *** Begin Patch and end *** End Patch")
	}
	var paths []string
	for _, line := range lines[1 : len(lines)-1] {
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "***") {
			continue
		}
		if trimmed == "*** End of File" {
			continue
		}
		known := false
		for _, h := range patchFileHeaders {
			if path, ok := strings.CutPrefix(trimmed, h); ok && strings.TrimSpace(path) != "" {
				paths, known = append(paths, strings.TrimSpace(path)), true
			}
		}
		if !known {
			return nil, fmt.Errorf("the patch holds a line the hook cannot read: %s", compactText([]byte(trimmed)))
		}
	}
	if len(paths) == 0 {
		return nil, errors.New("the patch names no file")
	}
	return paths, nil
}
