package classify

import (
	"context"
	"errors"
	"sync"
	"testing"

	or "github.com/ChristopherDavenport/openresponses"
)

// model is a scripted model: answer gives the text of its one assistant
// message, or an error, for each request. It keeps the requests it was
// sent.
type model struct {
	answer func(req or.Request) (string, error)

	mu       sync.Mutex
	requests []or.Request
}

// says is a model that always answers text.
func says(text string) *model {
	return &model{answer: func(or.Request) (string, error) { return text, nil }}
}

// fails is a model whose stream fails with err.
func fails(err error) *model {
	return &model{answer: func(or.Request) (string, error) { return "", err }}
}

func (m *model) CreateStream(ctx context.Context, req or.Request, sink or.EventSink) error {
	m.mu.Lock()
	m.requests = append(m.requests, req)
	m.mu.Unlock()
	text, err := m.answer(req)
	if err != nil {
		return err
	}
	e := or.NewEmitter(sink, or.NewResponse(req))
	w, err := e.Message(or.PhaseFinalAnswer)
	if err != nil {
		return err
	}
	if err := w.Text(text); err != nil {
		return err
	}
	return e.Complete()
}

// calls is how many requests the model was sent.
func (m *model) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

// asked is the text of the user input of the only request the model was
// sent.
func (m *model) asked(t *testing.T) string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.requests) != 1 {
		t.Fatalf("the model was sent %d requests, want 1", len(m.requests))
	}
	req := m.requests[0]
	if len(req.Input) != 1 {
		t.Fatalf("the request has %d input items, want 1", len(req.Input))
	}
	return req.Input[0].(*or.Message).Text()
}

// hanging is a model that answers only when its context ends, or, when
// deaf, never until the test ends: a model that ignores its context.
type hanging struct {
	deaf    bool
	release chan struct{}
}

func hang(t *testing.T, deaf bool) *hanging {
	h := &hanging{deaf: deaf, release: make(chan struct{})}
	t.Cleanup(func() { close(h.release) })
	return h
}

func (h *hanging) CreateStream(ctx context.Context, _ or.Request, _ or.EventSink) error {
	if h.deaf {
		<-h.release
		return errors.New("released")
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-h.release:
		return errors.New("released")
	}
}
