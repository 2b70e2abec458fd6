// Package scripted is a model for the module's end-to-end tests: an
// openresponses.Streamer that makes the calls a test scripts, turn by turn,
// and then answers "done", so a test drives a real agentturn loop without a
// model server.
package scripted

import (
	"context"
	"slices"
	"sync"

	"github.com/ChristopherDavenport/openresponses"
)

// Model answers its n-th request with the function calls of Turns[n], and
// every request after the last turn with a final message, "done". It keeps
// the requests it was sent, and is safe for concurrent use.
type Model struct {
	Turns [][]*openresponses.FunctionCall

	mu       sync.Mutex
	requests []openresponses.Request
}

// CreateStream streams the next turn of the script.
func (m *Model) CreateStream(_ context.Context, req openresponses.Request, sink openresponses.EventSink) error {
	m.mu.Lock()
	n := len(m.requests)
	m.requests = append(m.requests, req)
	m.mu.Unlock()
	e := openresponses.NewEmitter(sink, openresponses.NewResponse(req))
	if n >= len(m.Turns) {
		w, err := e.Message(openresponses.PhaseFinalAnswer)
		if err != nil {
			return err
		}
		if err := w.Text("done"); err != nil {
			return err
		}
		return e.Complete()
	}
	for _, c := range m.Turns[n] {
		w, err := e.FunctionCall(c.CallID, c.Name)
		if err != nil {
			return err
		}
		if err := w.Arguments(c.Arguments); err != nil {
			return err
		}
	}
	return e.Complete()
}

// Requests returns the requests the model was sent, in order.
func (m *Model) Requests() []openresponses.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// Call is a function call of the tool with the arguments' text, for a
// script.
func Call(id, tool, args string) *openresponses.FunctionCall {
	return &openresponses.FunctionCall{CallID: id, Name: tool, Arguments: args}
}
