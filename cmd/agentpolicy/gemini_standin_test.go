package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// geminiStandIn plays the Gemini API for the real Gemini CLI on loopback.
// Each POST …:streamGenerateContent?alt=sse is one step of a scripted
// turn: while the request holds fewer function responses than the script
// has calls, it answers with the next call; then with text that ends the
// turn. The function responses Gemini CLI sends back are kept, by call
// ID, for the test to read. Any other model request (a check Gemini CLI
// makes on the side) gets a short text answer.
type geminiStandIn struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	calls  []scriptedCall
	output map[string]string
}

func newGeminiStandIn(t *testing.T) *geminiStandIn {
	s := &geminiStandIn{t: t, output: map[string]string{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// script starts a new turn of the given calls, each a function call with
// args.
func (s *geminiStandIn) script(calls ...scriptedCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls, s.output = calls, map[string]string{}
}

// result is what Gemini CLI sent back as the response to call k.
func (s *geminiStandIn) result(k int) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, ok := s.output[callID(k)]
	return out, ok
}

type geminiPart struct {
	Text         string `json:"text,omitempty"`
	FunctionCall *struct {
		ID   string         `json:"id,omitempty"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
}

func (s *geminiStandIn) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"{}"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2},"totalTokens":1}`)
		return
	}
	var req struct {
		Contents []struct {
			Parts []geminiPart `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	answered := 0
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				answered++
				s.output[p.FunctionResponse.ID] = string(p.FunctionResponse.Response)
			}
		}
	}
	var part map[string]any
	if answered < len(s.calls) {
		c := s.calls[answered]
		part = map[string]any{"functionCall": map[string]any{"id": callID(answered), "name": c.name, "args": c.args}}
	} else {
		part = map[string]any{"text": "done"}
	}
	s.mu.Unlock()
	chunk := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]int{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  "gemini-2.5-flash",
	}
	data, _ := json.Marshal(chunk)
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: %s\n\n", data)
}
