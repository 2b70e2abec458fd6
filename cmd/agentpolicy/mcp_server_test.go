package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// TestMain lets the test binary stand in for an MCP server: started with
// AGENTPOLICY_TEST_MCP=1, as an agent's configuration starts it, it
// serves one tool over standard input and output and exits. Otherwise it
// runs the tests, and removes the binary builtBinary built for them.
// serveMCP is a minimal MCP server over newline-delimited JSON-RPC: one
// tool, read, which answers with a fixed note and touches nothing.
func serveMCP(r io.Reader, w io.Writer) {
	lines := bufio.NewScanner(r)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(lines.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification, or not JSON-RPC
		}
		var result any
		switch req.Method {
		case "initialize":
			version := req.Params.ProtocolVersion
			if version == "" {
				version = "2025-06-18"
			}
			result = map[string]any{"protocolVersion": version, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]string{"name": "files", "version": "1.0.0"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{
				"name": "read", "description": "Reads a note.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]string{"type": "string"}}},
			}}}
		case "tools/call":
			result = map[string]any{"content": []any{map[string]string{"type": "text", "text": "the note"}}}
		default:
			data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no such method"}})
			fmt.Fprintf(w, "%s\n", data)
			continue
		}
		data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		fmt.Fprintf(w, "%s\n", data)
	}
}
