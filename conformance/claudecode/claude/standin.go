package claude

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// standIn is a loopback stand-in for the Anthropic Messages API. It plays
// the model of one session: a request of the session's own conversation is
// answered with the next scripted tool call, or with final text once every
// call has had its result; any other request (a title, a subagent's
// conversation, a summary) is answered with text. It keeps the tool_result
// blocks Claude Code sends back, by tool_use id.
type standIn struct {
	calls  []ToolCall
	marker string // a text only the session's own prompt holds
	srv    *http.Server
	ln     net.Listener

	mu       sync.Mutex
	results  map[string]toolResult
	requests []string // the paths requested, in order, for a failure's report
}

// toolResult is one tool_result block as Claude Code sent it.
type toolResult struct {
	Text    string
	IsError bool
}

// callID is the tool_use id of the i-th scripted call.
func callID(i int) string { return fmt.Sprintf("toolu_agentpolicy_%02d", i) }

// startStandIn listens on a free loopback port and serves until close.
func startStandIn(calls []ToolCall, marker string) (*standIn, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("agentpolicy/conformance/claude: stand-in: %w", err)
	}
	s := &standIn{calls: calls, marker: marker, ln: ln, results: map[string]toolResult{}}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
	return s, nil
}

// url is the base URL Claude Code is pointed at.
func (s *standIn) url() string { return "http://" + s.ln.Addr().String() }

func (s *standIn) close() { s.srv.Close() }

// result returns the tool_result Claude Code sent for the i-th call.
func (s *standIn) result(i int) (toolResult, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.results[callID(i)]
	return r, ok
}

// paths lists the requests served, for a failure's report.
func (s *standIn) paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// request is the part of a Messages API request the stand-in reads.
type request struct {
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// block is one content block of a message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 1})
		return
	case !strings.HasSuffix(r.URL.Path, "/v1/messages"):
		writeJSON(w, map[string]any{})
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	reply := s.reply(req)
	if req.Stream {
		writeStream(w, reply)
		return
	}
	writeJSON(w, reply.message())
}

// reply decides the answer to one request: the next scripted call for the
// session's own conversation, text for anything else.
func (s *standIn) reply(req request) answer {
	if len(req.Messages) == 0 || len(req.Tools) == 0 || !strings.Contains(string(req.Messages[0].Content), s.marker) {
		return answer{text: "ok"}
	}
	answered := 0
	for _, m := range req.Messages {
		if m.Role != "user" {
			continue
		}
		var blocks []block
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type != "tool_result" || !strings.HasPrefix(b.ToolUseID, "toolu_agentpolicy_") {
				continue
			}
			answered++
			s.mu.Lock()
			s.results[b.ToolUseID] = toolResult{Text: resultText(b.Content), IsError: b.IsError}
			s.mu.Unlock()
		}
	}
	if answered < len(s.calls) {
		return answer{call: &s.calls[answered], id: callID(answered)}
	}
	return answer{text: "done"}
}

// resultText is a tool_result's content as text: a string, or the text
// blocks of a list joined by newlines.
func resultText(content json.RawMessage) string {
	var text string
	if json.Unmarshal(content, &text) == nil {
		return text
	}
	var blocks []block
	if json.Unmarshal(content, &blocks) != nil {
		return string(content)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// answer is one assistant turn: a tool call or text.
type answer struct {
	call *ToolCall
	id   string
	text string
}

// message is the answer as a non-streaming Messages API response.
func (a answer) message() map[string]any {
	content, stop := []any{map[string]any{"type": "text", "text": a.text}}, "end_turn"
	if a.call != nil {
		content, stop = []any{map[string]any{"type": "tool_use", "id": a.id, "name": a.call.Name, "input": a.input()}}, "tool_use"
	}
	return map[string]any{
		"id": "msg_agentpolicy", "type": "message", "role": "assistant", "model": standInModel,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1},
	}
}

func (a answer) input() map[string]any {
	if a.call.Input == nil {
		return map[string]any{}
	}
	return a.call.Input
}

// standInModel is the model name the stand-in reports.
const standInModel = "claude-sonnet-4-5"

// writeStream writes the answer as the server-sent events of a streaming
// response.
func writeStream(w http.ResponseWriter, a answer) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	event := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"message": map[string]any{
		"id": "msg_agentpolicy", "type": "message", "role": "assistant", "model": standInModel,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1},
	}})
	stop := "end_turn"
	if a.call != nil {
		stop = "tool_use"
		input, _ := json.Marshal(a.input())
		event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{
			"type": "tool_use", "id": a.id, "name": a.call.Name, "input": map[string]any{},
		}})
		event("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{
			"type": "input_json_delta", "partial_json": string(input),
		}})
	} else {
		event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": a.text}})
	}
	event("content_block_stop", map[string]any{"index": 0})
	event("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 1},
	})
	event("message_stop", map[string]any{})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
