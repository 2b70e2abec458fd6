package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/openresponses"
)

// responsesStandIn plays the Responses API for the real Codex CLI on
// loopback: each POST /v1/responses is one step of a scripted turn. Step
// k < len(calls) answers with the function call calls[k]; the step after
// the last answers with a message that ends the turn. Codex sends each
// call's result back in the next request as a function_call_output, which
// the stand-in keeps, by call ID, for the test to read.
type responsesStandIn struct {
	t      *testing.T
	srv    *httptest.Server
	calls  []scriptedCall
	mu     sync.Mutex
	step   int
	output map[string]string
}

// scriptedCall is one call the stand-in's model makes: of a function
// tool with args (in a namespace, as Codex offers an MCP server's tools:
// namespace mcp__server, name tool), or, when args is nil, of a freeform
// (custom) tool such as Codex's apply_patch, whose input is plain text.
type scriptedCall struct {
	name      string
	args      map[string]any
	input     string
	namespace string
}

func newResponsesStandIn(t *testing.T) *responsesStandIn {
	s := &responsesStandIn{t: t, output: map[string]string{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// script starts a new turn of the given calls.
func (s *responsesStandIn) script(calls ...scriptedCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls, s.step, s.output = calls, 0, map[string]string{}
}

// url is the base URL Codex's model provider names.
func (s *responsesStandIn) url() string { return s.srv.URL + "/v1" }

func (s *responsesStandIn) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		// Codex tries a websocket first; a plain refusal sends it to HTTP.
		http.NotFound(w, r)
		return
	}
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	for _, it := range req.Input {
		if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
			var text string
			if json.Unmarshal(it.Output, &text) != nil {
				text = string(it.Output)
			}
			s.output[it.CallID] = text
		}
	}
	step := s.step
	s.step++
	var call *scriptedCall
	if step < len(s.calls) {
		call = &s.calls[step]
	}
	s.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	sink := &sseSink{w: w}
	resp := openresponses.NewResponse(openresponses.Request{Model: codexModel})
	resp.Usage = &openresponses.Usage{InputTokens: 1, OutputTokens: 1, TotalTokens: 2}
	e := openresponses.NewEmitter(sink, resp)
	if call != nil {
		if err := e.Item(call.item(step)); err != nil {
			s.t.Errorf("stand-in: %v", err)
		}
	} else {
		m, _ := e.Message("")
		_ = m.Text("done")
	}
	if err := e.Complete(); err != nil {
		s.t.Errorf("stand-in: %v", err)
	}
}

// describe is the call for a test's log.
func (c scriptedCall) describe() string {
	if c.args == nil {
		return c.name + " " + c.input
	}
	args, _ := json.Marshal(c.args)
	return c.name + " " + string(args)
}

// item is the call as an output item of step k.
func (c scriptedCall) item(k int) openresponses.Item {
	if c.args == nil {
		raw, _ := json.Marshal(map[string]string{
			"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", k+1), "status": "completed",
			"call_id": callID(k), "name": c.name, "input": c.input,
		})
		return &openresponses.UnknownItem{Type: "custom_tool_call", Raw: raw}
	}
	args, _ := json.Marshal(c.args)
	if c.namespace != "" {
		raw, _ := json.Marshal(map[string]string{
			"type": "function_call", "id": fmt.Sprintf("fc_%d", k+1), "status": "completed",
			"call_id": callID(k), "namespace": c.namespace, "name": c.name, "arguments": string(args),
		})
		return &openresponses.UnknownItem{Type: "function_call", Raw: raw}
	}
	return &openresponses.FunctionCall{CallID: callID(k), Name: c.name, Arguments: string(args)}
}

// callID is the ID of the scripted call of step k.
func callID(k int) string { return fmt.Sprintf("call_%d", k+1) }

// result is what Codex sent back as the output of the call of step k.
func (s *responsesStandIn) result(k int) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, ok := s.output[callID(k)]
	return out, ok
}

// sseSink writes each event as a server-sent event, its type in both the
// event line and the data's "type".
type sseSink struct {
	w   http.ResponseWriter
	seq int
}

func (s *sseSink) Send(ev openresponses.StreamEvent) error {
	raw, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return err
	}
	obj["type"], obj["sequence_number"] = ev.EventType(), s.seq
	s.seq++
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", ev.EventType(), data); err != nil {
		return err
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}
