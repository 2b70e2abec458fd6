package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// geminiCall is a Gemini CLI BeforeTool event's call as the policy reads
// it, the event's cwd being the project. Each built-in tool is read as
// the Claude Code tool that does the same, its paths made absolute
// against the project: run_shell_command is Bash (in dir_path, when
// given, as `cd DIR && COMMAND`), read_file Read, write_file Write,
// replace Edit, glob Glob, grep_search Grep, list_directory a Glob of the
// directory, web_fetch a WebFetch of every URL in its prompt and
// google_web_search WebSearch. An MCP tool (Gemini CLI names it
// mcp_<server>_<tool> and sends mcp_context with the server's and the
// tool's names) is mcp__server__tool, named from the mcp_context. Any
// other tool keeps its name, which no rule of Claude Code's tools names,
// so the policy's default decides it.
func geminiCall(ev agentEvent) (agentCall, error) {
	project := ev.Cwd
	call := agentCall{project: project}
	var args map[string]any
	if err := json.Unmarshal(ev.ToolInput, &args); err != nil {
		return call, err
	}
	str := func(name string) string { s, _ := args[name].(string); return s }
	dir := project
	if d := str("dir_path"); d != "" {
		dir = resolve(project, d)
	}
	one := func(tool string, members map[string]string) (agentCall, error) {
		call.calls = []mappedCall{{tool: tool, input: argsObject(members)}}
		return call, nil
	}
	need := func(name string) (string, error) {
		if s := str(name); s != "" {
			return s, nil
		}
		return "", fmt.Errorf("%s: the tool_input has no string %q", ev.ToolName, name)
	}
	if len(ev.MCPContext) != 0 && string(ev.MCPContext) != "null" {
		name, err := geminiMCPName(ev.MCPContext)
		if err != nil {
			return call, err
		}
		call.calls = []mappedCall{{tool: name, input: ev.ToolInput}}
		return call, nil
	}
	switch ev.ToolName {
	case "run_shell_command":
		command, err := need("command")
		if err != nil {
			return call, err
		}
		return one("Bash", map[string]string{"command": inDir(command, dir, project)})
	case "read_file":
		path, err := need("file_path")
		if err != nil {
			return call, err
		}
		return one("Read", map[string]string{"file_path": resolve(project, path)})
	case "write_file":
		path, err := need("file_path")
		if err != nil {
			return call, err
		}
		return one("Write", map[string]string{"file_path": resolve(project, path), "content": str("content")})
	case "replace":
		path, err := need("file_path")
		if err != nil {
			return call, err
		}
		return one("Edit", map[string]string{"file_path": resolve(project, path), "old_string": str("old_string"), "new_string": str("new_string")})
	case "glob":
		pattern, err := need("pattern")
		if err != nil {
			return call, err
		}
		return one("Glob", map[string]string{"pattern": pattern, "path": dir})
	case "grep_search":
		pattern, err := need("pattern")
		if err != nil {
			return call, err
		}
		return one("Grep", map[string]string{"pattern": pattern, "path": dir})
	case "list_directory":
		return one("Glob", map[string]string{"pattern": "*", "path": dir})
	case "google_web_search":
		query, err := need("query")
		if err != nil {
			return call, err
		}
		return one("WebSearch", map[string]string{"query": query})
	case "web_fetch":
		prompt, err := need("prompt")
		if err != nil {
			return call, err
		}
		urls := promptURLs(prompt)
		if len(urls) == 0 {
			return call, errors.New("web_fetch: the prompt names no http or https URL, so the call did not run")
		}
		for _, u := range urls {
			call.calls = append(call.calls, mappedCall{tool: "WebFetch", input: argsObject(map[string]string{"url": u, "prompt": prompt})})
		}
		return call, nil
	}
	call.calls = []mappedCall{{tool: ev.ToolName, input: ev.ToolInput}}
	return call, nil
}

// promptURLs are the URLs of a web_fetch prompt as Gemini CLI finds
// them, each once: a scheme, http:// or https://, in any case, and every
// character up to the next white space.
func promptURLs(prompt string) []string {
	var urls []string
	lower := strings.ToLower(prompt)
	for i := 0; i < len(prompt); {
		j := strings.Index(lower[i:], "http")
		if j < 0 {
			break
		}
		start := i + j
		rest := lower[start:]
		if !strings.HasPrefix(rest, "http://") && !strings.HasPrefix(rest, "https://") {
			i = start + len("http")
			continue
		}
		end := strings.IndexFunc(prompt[start:], unicode.IsSpace)
		if end < 0 {
			end = len(prompt) - start
		}
		if u := prompt[start : start+end]; !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
		i = start + end
	}
	return urls
}

// geminiMCPName is the policy's name of an MCP tool from the event's
// mcp_context: mcp__server__tool.
func geminiMCPName(raw json.RawMessage) (string, error) {
	var ctx struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	}
	if json.Unmarshal(raw, &ctx) != nil || ctx.ServerName == "" || ctx.ToolName == "" ||
		strings.Contains(ctx.ServerName, "__") {
		return "", fmt.Errorf("the mcp_context names no server and tool: %s", compactText(raw))
	}
	return "mcp__" + ctx.ServerName + "__" + ctx.ToolName, nil
}
