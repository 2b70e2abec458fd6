package openresponses

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// streamFunc makes a function a Streamer.
type streamFunc func(ctx context.Context, req Request, sink EventSink) error

func (f streamFunc) CreateStream(ctx context.Context, req Request, sink EventSink) error {
	return f(ctx, req, sink)
}

// recorder is a sink that keeps every event.
type recorder struct{ events []StreamEvent }

func (r *recorder) Send(ev StreamEvent) error {
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) types() []string {
	out := make([]string, len(r.events))
	for i, ev := range r.events {
		out[i] = ev.EventType()
	}
	return out
}

// script writes a commentary message, a function call and a reasoning item,
// then completes, through an Emitter on sink.
func script(sink EventSink, resp *Response) error {
	e := NewEmitter(sink, resp)
	m, err := e.Message(PhaseCommentary)
	if err != nil {
		return err
	}
	if err := m.Text("hel"); err != nil {
		return err
	}
	if err := m.Text("lo"); err != nil {
		return err
	}
	fc, err := e.FunctionCall("call_1", "bash") // closes the message first
	if err != nil {
		return err
	}
	if err := fc.Arguments(`{"command":`); err != nil {
		return err
	}
	if err := fc.Arguments(`"ls"}`); err != nil {
		return err
	}
	if err := fc.Close(); err != nil {
		return err
	}
	if err := e.Reasoning("thought"); err != nil {
		return err
	}
	return e.Complete()
}

// TestEmitterSequence checks the exact events an Emitter sends and the
// response it builds.
func TestEmitterSequence(t *testing.T) {
	var rec recorder
	resp := NewResponse(Request{Model: "m"})
	if err := script(&rec, resp); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"response.created",
		"response.in_progress",
		"response.output_item.added",
		"response.content_part.added",
		"response.output_text.delta",
		"response.output_text.delta",
		"response.output_text.done",
		"response.content_part.done",
		"response.output_item.done",
		"response.output_item.added",
		"response.function_call_arguments.delta",
		"response.function_call_arguments.delta",
		"response.function_call_arguments.done",
		"response.output_item.done",
		"response.output_item.added",
		"response.output_item.done",
		"response.completed",
	}
	if got := rec.types(); !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %q\nwant %q", got, want)
	}

	if resp.Status != ResponseStatusCompleted || resp.CompletedAt == nil {
		t.Errorf("response status %q, completed at %v; want completed with a time", resp.Status, resp.CompletedAt)
	}
	if len(resp.Output) != 3 {
		t.Fatalf("output has %d items, want 3", len(resp.Output))
	}
	msg := resp.Output[0].(*Message)
	call := resp.Output[1].(*FunctionCall)
	reasoning := resp.Output[2].(*ReasoningItem)
	if msg.Text() != "hello" || msg.Role != RoleAssistant || msg.Phase != PhaseCommentary || msg.Status != StatusCompleted || !strings.HasPrefix(msg.ID, "msg_") {
		t.Errorf("message = %#v", msg)
	}
	if call.Arguments != `{"command":"ls"}` || call.CallID != "call_1" || call.Name != "bash" || call.Status != StatusCompleted || !strings.HasPrefix(call.ID, "fc_") {
		t.Errorf("function call = %#v", call)
	}
	if reasoning.Summary.Text() != "thought" || reasoning.Status != StatusCompleted || !strings.HasPrefix(reasoning.ID, "rs_") {
		t.Errorf("reasoning = %#v", reasoning)
	}

	// Indices and item IDs of the events follow the output.
	for _, ev := range rec.events {
		switch e := ev.(type) {
		case *OutputTextDeltaEvent:
			if e.OutputIndex != 0 || e.ItemID != msg.ID || e.ContentIndex != 0 {
				t.Errorf("text delta %#v, want index 0 of %s", e, msg.ID)
			}
		case *OutputTextDoneEvent:
			if e.Text != "hello" {
				t.Errorf("text done %q, want hello", e.Text)
			}
		case *FunctionCallArgumentsDoneEvent:
			if e.OutputIndex != 1 || e.ItemID != call.ID || e.Arguments != `{"command":"ls"}` {
				t.Errorf("arguments done %#v", e)
			}
		case *OutputItemAddedEvent:
			if e.Item.ItemType() != resp.Output[e.OutputIndex].ItemType() {
				t.Errorf("added %s at %d, output has %s", e.Item.ItemType(), e.OutputIndex, resp.Output[e.OutputIndex].ItemType())
			}
		}
	}
	// Events carry snapshots: the created event saw no output, the first
	// added event saw an in-progress message without text.
	created := rec.events[0].(*ResponseCreatedEvent)
	if len(created.Response.Output) != 0 || created.Response.Status != ResponseStatusInProgress {
		t.Errorf("created event response = %#v, want in progress without output", created.Response)
	}
	added := rec.events[2].(*OutputItemAddedEvent).Item.(*Message)
	if added.Status != StatusInProgress || added.Text() != "" {
		t.Errorf("added message = %#v, want in progress without text", added)
	}
	completed := rec.events[len(rec.events)-1].(*ResponseCompletedEvent)
	if !reflect.DeepEqual(completed.Response.Output, resp.Output) {
		t.Errorf("completed event output differs from the response")
	}
}

// TestEmitterClosesOpenItem checks that Complete and Incomplete close the
// item left open, with the right status.
func TestEmitterClosesOpenItem(t *testing.T) {
	tests := []struct {
		name       string
		end        func(*Emitter) error
		itemStatus Status
		respStatus ResponseStatus
		terminal   string
	}{
		{"complete", (*Emitter).Complete, StatusCompleted, ResponseStatusCompleted, "response.completed"},
		{"incomplete", func(e *Emitter) error { return e.Incomplete("max_output_tokens") }, StatusIncomplete, ResponseStatusIncomplete, "response.incomplete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			e := NewEmitter(&rec, nil)
			w, err := e.Message(PhaseFinalAnswer)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Text("partial"); err != nil {
				t.Fatal(err)
			}
			if err := tt.end(e); err != nil {
				t.Fatal(err)
			}
			types := rec.types()
			wantTail := []string{"response.output_text.done", "response.content_part.done", "response.output_item.done", tt.terminal}
			if got := types[len(types)-4:]; !reflect.DeepEqual(got, wantTail) {
				t.Errorf("last events %q, want %q", got, wantTail)
			}
			msg := e.Response().Output[0].(*Message)
			if msg.Status != tt.itemStatus || e.Response().Status != tt.respStatus {
				t.Errorf("item %q response %q, want %q %q", msg.Status, e.Response().Status, tt.itemStatus, tt.respStatus)
			}
			if err := w.Text("more"); err == nil {
				t.Error("writing to a closed message: no error")
			}
			if _, err := e.Message(PhaseFinalAnswer); err == nil {
				t.Error("opening an item after the end: no error")
			}
			if err := e.Complete(); err == nil {
				t.Error("completing twice: no error")
			}
		})
	}
}

// TestEmitterEmptyResponse checks that a response without items still sends
// created, in-progress and completed.
func TestEmitterEmptyResponse(t *testing.T) {
	var rec recorder
	if err := NewEmitter(&rec, nil).Complete(); err != nil {
		t.Fatal(err)
	}
	want := []string{"response.created", "response.in_progress", "response.completed"}
	if got := rec.types(); !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

// TestEmitterItem checks Item: a fresh ID per kind, added then done,
// statuses set.
func TestEmitterItem(t *testing.T) {
	tests := []struct {
		item   Item
		prefix string
	}{
		{AssistantText("a"), "msg_"},
		{&FunctionCall{CallID: "c", Name: "n", Arguments: "{}"}, "fc_"},
		{NewFunctionCallOutput("c", "o"), "fco_"},
		{&ReasoningItem{}, "rs_"},
		{&Compaction{EncryptedContent: "x"}, "cmp_"},
	}
	for _, tt := range tests {
		t.Run(tt.item.ItemType(), func(t *testing.T) {
			var rec recorder
			e := NewEmitter(&rec, nil)
			if err := e.Item(tt.item); err != nil {
				t.Fatal(err)
			}
			want := []string{"response.created", "response.in_progress", "response.output_item.added", "response.output_item.done"}
			if got := rec.types(); !reflect.DeepEqual(got, want) {
				t.Errorf("events %q, want %q", got, want)
			}
			raw := fmt.Sprintf("%+v", e.Response().Output[0])
			if !strings.Contains(raw, "ID:"+tt.prefix) || !strings.Contains(raw, "Status:completed") {
				t.Errorf("item %s, want an ID %s… and status completed", raw, tt.prefix)
			}
			added := fmt.Sprintf("%+v", rec.events[2].(*OutputItemAddedEvent).Item)
			if !strings.Contains(added, "Status:in_progress") {
				t.Errorf("added item %s, want status in_progress", added)
			}
		})
	}
	t.Run("keeps an ID", func(t *testing.T) {
		var rec recorder
		e := NewEmitter(&rec, nil)
		if err := e.Item(&Message{ID: "msg_mine", Role: RoleAssistant}); err != nil {
			t.Fatal(err)
		}
		if id := e.Response().Output[0].(*Message).ID; id != "msg_mine" {
			t.Errorf("ID = %q, want msg_mine", id)
		}
	})
}

// TestEmitterSinkError checks that a sink's refusal comes back from the
// emitter.
func TestEmitterSinkError(t *testing.T) {
	refused := errors.New("sink full")
	e := NewEmitter(sinkFunc(func(StreamEvent) error { return refused }), nil)
	if _, err := e.Message(PhaseFinalAnswer); !errors.Is(err, refused) {
		t.Errorf("Message() error = %v, want %v", err, refused)
	}
}

type sinkFunc func(StreamEvent) error

func (f sinkFunc) Send(ev StreamEvent) error { return f(ev) }

// TestAccumulatorFoldsEmitter checks that folding an Emitter's events gives
// the response the Emitter built.
func TestAccumulatorFoldsEmitter(t *testing.T) {
	var rec recorder
	resp := NewResponse(Request{})
	if err := script(&rec, resp); err != nil {
		t.Fatal(err)
	}
	var acc Accumulator
	if acc.Response() != nil {
		t.Fatal("Response() before any event is not nil")
	}
	for i, ev := range rec.events {
		if err := acc.Add(ev); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if i == 5 { // after the second text delta
			if got := acc.Response().Output[0].(*Message).Text(); got != "hello" {
				t.Errorf("text folded from deltas = %q, want hello", got)
			}
		}
	}
	if !reflect.DeepEqual(acc.Response(), resp) {
		t.Errorf("folded response:\n got %#v\nwant %#v", acc.Response(), resp)
	}
}

// TestAccumulatorDeltasOnly checks folding a stream whose terminal response
// carries no output: the items come from the item events.
func TestAccumulatorDeltasOnly(t *testing.T) {
	events := []StreamEvent{
		&OutputItemAddedEvent{OutputIndex: 0, Item: &Message{ID: "m", Role: RoleAssistant}},
		&ContentPartAddedEvent{ItemID: "m", Part: &OutputText{}},
		&OutputTextDeltaEvent{ItemID: "m", Delta: "a"},
		&OutputTextDeltaEvent{ItemID: "m", Delta: "b"},
		&OutputItemAddedEvent{OutputIndex: 1, Item: &FunctionCall{ID: "f", CallID: "c", Name: "n"}},
		&FunctionCallArgumentsDeltaEvent{ItemID: "f", OutputIndex: 1, Delta: "{"},
		&FunctionCallArgumentsDeltaEvent{ItemID: "f", OutputIndex: 1, Delta: "}"},
		&ResponseCompletedEvent{Response: &Response{ID: "r", Status: ResponseStatusCompleted}},
	}
	var acc Accumulator
	for _, ev := range events {
		if err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	got := acc.Response()
	if got.ID != "r" || got.Status != ResponseStatusCompleted || got.OutputText() != "ab" {
		t.Errorf("response %#v, want r completed with text ab", got)
	}
	if calls := got.FunctionCalls(); len(calls) != 1 || calls[0].Arguments != "{}" {
		t.Errorf("calls %#v, want one with arguments {}", calls)
	}
}

// TestAccumulatorRejects checks events that refer to items that are not
// there.
func TestAccumulatorRejects(t *testing.T) {
	msg := &OutputItemAddedEvent{OutputIndex: 0, Item: &Message{Role: RoleAssistant}}
	call := &OutputItemAddedEvent{OutputIndex: 0, Item: &FunctionCall{}}
	tests := []struct {
		name   string
		before []StreamEvent
		ev     StreamEvent
	}{
		{"item skips an index", nil, &OutputItemAddedEvent{OutputIndex: 1, Item: &Message{}}},
		{"text delta without item", nil, &OutputTextDeltaEvent{Delta: "x"}},
		{"text delta without part", []StreamEvent{msg}, &OutputTextDeltaEvent{Delta: "x"}},
		{"text delta on a refusal", []StreamEvent{msg, &ContentPartAddedEvent{Part: &Refusal{}}}, &OutputTextDeltaEvent{Delta: "x"}},
		{"part on a function call", []StreamEvent{call}, &ContentPartAddedEvent{Part: &OutputText{}}},
		{"arguments on a message", []StreamEvent{msg}, &FunctionCallArgumentsDeltaEvent{Delta: "x"}},
		{"arguments without item", nil, &FunctionCallArgumentsDoneEvent{Arguments: "{}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acc Accumulator
			for _, ev := range tt.before {
				if err := acc.Add(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := acc.Add(tt.ev); err == nil {
				t.Errorf("Add(%T) = nil, want an error", tt.ev)
			}
		})
	}
}

// TestTerminalResponse checks which events are terminal.
func TestTerminalResponse(t *testing.T) {
	r := &Response{ID: "r"}
	tests := []struct {
		ev   StreamEvent
		want bool
	}{
		{&ResponseCompletedEvent{Response: r}, true},
		{&ResponseFailedEvent{Response: r}, true},
		{&ResponseIncompleteEvent{Response: r}, true},
		{&ResponseCreatedEvent{Response: r}, false},
		{&ResponseInProgressEvent{Response: r}, false},
		{&OutputItemDoneEvent{}, false},
		{&ErrorEvent{}, false},
	}
	for _, tt := range tests {
		got, ok := TerminalResponse(tt.ev)
		if ok != tt.want || (ok && got != r) {
			t.Errorf("TerminalResponse(%s) = %v, %v; want %v", tt.ev.EventType(), got, ok, tt.want)
		}
	}
}

// TestCollectStream checks the response and the errors CollectStream
// returns.
func TestCollectStream(t *testing.T) {
	connRefused := fmt.Errorf("dial tcp 127.0.0.1:9: connect: connection refused")
	tests := []struct {
		name     string
		stream   streamFunc
		wantText string
		wantErr  error  // matched with errors.Is
		errText  string // contained in the error text
		wantResp bool
	}{
		{
			name:     "completed",
			stream:   func(_ context.Context, _ Request, sink EventSink) error { return script(sink, nil) },
			wantText: "hello",
			wantResp: true,
		},
		{
			name: "deadline exceeded",
			stream: func(ctx context.Context, _ Request, _ EventSink) error {
				<-ctx.Done()
				return ctx.Err()
			},
			wantErr: context.DeadlineExceeded,
			errText: "context deadline exceeded",
		},
		{
			name: "connection refused",
			stream: func(context.Context, Request, EventSink) error {
				return fmt.Errorf("post: %w", connRefused)
			},
			wantErr: connRefused,
			errText: "connection refused",
		},
		{
			name: "error after some events",
			stream: func(_ context.Context, _ Request, sink EventSink) error {
				if _, err := NewEmitter(sink, nil).Message(PhaseFinalAnswer); err != nil {
					return err
				}
				return connRefused
			},
			wantErr: connRefused,
			errText: "connection refused",
		},
		{
			name: "truncated",
			stream: func(_ context.Context, _ Request, sink EventSink) error {
				w, err := NewEmitter(sink, nil).Message(PhaseFinalAnswer)
				if err != nil {
					return err
				}
				return w.Text("cut")
			},
			wantErr:  ErrTruncatedStream,
			wantText: "cut",
			wantResp: true,
		},
		{
			name: "error event",
			stream: func(_ context.Context, _ Request, sink EventSink) error {
				return sink.Send(&ErrorEvent{Error: ErrorPayload{Code: "rate_limit", Message: "slow down"}})
			},
			errText:  "openresponses: rate_limit: slow down",
			wantResp: true,
		},
		{
			name: "failed response",
			stream: func(_ context.Context, _ Request, sink EventSink) error {
				return sink.Send(&ResponseFailedEvent{Response: &Response{Status: ResponseStatusFailed, Error: &ErrorPayload{Message: "boom"}}})
			},
			errText:  "response failed: openresponses: boom",
			wantResp: true,
		},
		{
			name: "incomplete is not an error",
			stream: func(_ context.Context, _ Request, sink EventSink) error {
				e := NewEmitter(sink, nil)
				w, err := e.Message(PhaseFinalAnswer)
				if err != nil {
					return err
				}
				if err := w.Text("part"); err != nil {
					return err
				}
				return e.Incomplete("max_output_tokens")
			},
			wantText: "part",
			wantResp: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
			defer cancel()
			resp, err := CollectStream(ctx, tt.stream, Request{})
			switch {
			case tt.wantErr == nil && tt.errText == "":
				if err != nil {
					t.Fatalf("error %v", err)
				}
			case err == nil:
				t.Fatal("no error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.wantErr)
			}
			if tt.errText != "" && !strings.Contains(err.Error(), tt.errText) {
				t.Errorf("error %q does not contain %q", err, tt.errText)
			}
			if (resp != nil) != tt.wantResp {
				t.Fatalf("response %v, want one: %v", resp, tt.wantResp)
			}
			if resp != nil && resp.OutputText() != tt.wantText {
				t.Errorf("OutputText() = %q, want %q", resp.OutputText(), tt.wantText)
			}
		})
	}
}

// TestEvents checks that Events yields every event, then the stream's error
// or ErrTruncatedStream, and that breaking out stops the streamer.
func TestEvents(t *testing.T) {
	refused := errors.New("connection refused")
	tests := []struct {
		name      string
		stream    streamFunc
		wantTypes int
		wantErr   error
	}{
		{"completed", func(_ context.Context, _ Request, sink EventSink) error { return script(sink, nil) }, 17, nil},
		{"error", func(context.Context, Request, EventSink) error { return refused }, 0, refused},
		{"truncated", func(_ context.Context, _ Request, sink EventSink) error { return NewEmitter(sink, nil).Start() }, 2, ErrTruncatedStream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n int
			var gotErr error
			for ev, err := range Events(context.Background(), tt.stream, Request{}) {
				if err != nil {
					gotErr = err
					continue
				}
				if gotErr != nil {
					t.Fatal("event after the error")
				}
				_ = ev.EventType()
				n++
			}
			if n != tt.wantTypes {
				t.Errorf("%d events, want %d", n, tt.wantTypes)
			}
			if !errors.Is(gotErr, tt.wantErr) || (tt.wantErr == nil) != (gotErr == nil) {
				t.Errorf("error %v, want %v", gotErr, tt.wantErr)
			}
		})
	}
	t.Run("break stops the streamer", func(t *testing.T) {
		var streamErr error
		stream := streamFunc(func(_ context.Context, _ Request, sink EventSink) error {
			streamErr = script(sink, nil)
			return streamErr
		})
		n := 0
		for range Events(context.Background(), stream, Request{}) {
			n++
			if n == 3 {
				break
			}
		}
		if n != 3 || streamErr == nil {
			t.Errorf("after break: %d events, streamer returned %v; want 3 and an error", n, streamErr)
		}
	})
}
