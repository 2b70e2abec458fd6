package openresponses

import (
	"context"
	"errors"
	"fmt"
	"iter"
)

// Streamer is a model: it answers a request by sending events to a sink,
// ending with a terminal event ([TerminalResponse]).
type Streamer interface {
	CreateStream(ctx context.Context, req Request, sink EventSink) error
}

// EventSink receives the events of a stream in order; an error it returns
// makes the [Streamer] stop and return it.
type EventSink interface {
	Send(ev StreamEvent) error
}

// Adapter is a model that can also answer in one piece and compact a
// transcript.
type Adapter interface {
	Streamer
	Create(ctx context.Context, req Request) (*Response, error)
	Compact(ctx context.Context, req CompactRequest) (*CompactResponse, error)
}

// CompactRequest asks a model to shorten a transcript.
type CompactRequest struct {
	Model              string `json:"model,omitempty"`
	Input              Items  `json:"input"`
	Instructions       string `json:"instructions,omitempty"`
	PreviousResponseID string `json:"previous_response_id,omitempty"`
}

// CompactResponse is the shortened transcript; Output replaces the input.
type CompactResponse struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	CreatedAt int64  `json:"created_at"`
	Output    Items  `json:"output"`
	Usage     *Usage `json:"usage,omitempty"`
}

// ErrTruncatedStream is returned when a stream ends without a terminal
// event.
var ErrTruncatedStream = errors.New("openresponses: stream ended without a terminal event")

// CollectStream runs s on req and folds its events into the final response.
// An error from the streamer comes back wrapped (errors.Is and its text
// hold); a stream without a terminal event is [ErrTruncatedStream]; an
// [ErrorEvent] or a failed response is an error that wraps its
// [ErrorPayload], returned beside the response it folded.
func CollectStream(ctx context.Context, s Streamer, req Request) (*Response, error) {
	var c collector
	if err := s.CreateStream(ctx, req, &c); err != nil {
		return nil, fmt.Errorf("openresponses: stream: %w", err)
	}
	resp := c.acc.Response()
	switch {
	case c.failure != nil:
		return resp, fmt.Errorf("openresponses: response failed: %w", c.failure)
	case !c.terminal:
		return resp, ErrTruncatedStream
	}
	return resp, nil
}

// collector is the sink of [CollectStream].
type collector struct {
	acc      Accumulator
	terminal bool
	failure  *ErrorPayload
}

func (c *collector) Send(ev StreamEvent) error {
	if err := c.acc.Add(ev); err != nil {
		return err
	}
	switch e := ev.(type) {
	case *ErrorEvent:
		failure := e.Error
		c.failure = &failure
	case *ResponseFailedEvent:
		c.failure = &ErrorPayload{Message: "response failed"}
		if e.Response != nil && e.Response.Error != nil {
			c.failure = e.Response.Error
		}
	}
	if _, ok := TerminalResponse(ev); ok {
		c.terminal = true
	}
	return nil
}

// errStopEvents makes the streamer return when the consumer of [Events]
// stops early.
var errStopEvents = errors.New("openresponses: event consumer stopped")

// Events runs s on req and yields its events as they are sent, on the
// caller's goroutine. A streamer error is yielded last, wrapped as by
// [CollectStream]; a stream without a terminal event yields
// [ErrTruncatedStream]. Breaking out of the loop makes the sink refuse the
// next event, so the streamer returns.
func Events(ctx context.Context, s Streamer, req Request) iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		sink := &yieldSink{yield: yield}
		err := s.CreateStream(ctx, req, sink)
		switch {
		case sink.stopped:
		case err != nil:
			yield(nil, fmt.Errorf("openresponses: stream: %w", err))
		case !sink.terminal:
			yield(nil, ErrTruncatedStream)
		}
	}
}

type yieldSink struct {
	yield    func(StreamEvent, error) bool
	stopped  bool
	terminal bool
}

func (y *yieldSink) Send(ev StreamEvent) error {
	if y.stopped {
		return errStopEvents
	}
	if _, ok := TerminalResponse(ev); ok {
		y.terminal = true
	}
	if !y.yield(ev, nil) {
		y.stopped = true
		return errStopEvents
	}
	return nil
}
