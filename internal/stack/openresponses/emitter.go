package openresponses

import (
	"errors"
	"time"
)

// Emitter writes a streamed response to a sink, event by event, the way a
// model would: a [Streamer] (a test model, an adapter) opens items with
// [Emitter.Message] and [Emitter.FunctionCall], writes into them, and ends
// with [Emitter.Complete]. It is not safe for concurrent use.
//
// The created and in-progress events go out lazily before the first item
// (or with the terminal event). Each item gets a fresh ID, is appended to the
// response's Output at the next output index and is announced with an added
// event; opening another item, or finishing the response, closes the open
// one with its done events and status completed. Events carry snapshots, so
// later writes never change an event already sent.
type Emitter struct {
	sink     EventSink
	resp     *Response
	started  bool
	finished bool
	open     interface{ finish(Status) error }
}

// errFinished is returned by every write after [Emitter.Complete] or
// [Emitter.Incomplete].
var errFinished = errors.New("openresponses: emitter: response already finished")

// errClosed is returned by a write to a closed [MessageWriter] or
// [FunctionCallWriter].
var errClosed = errors.New("openresponses: emitter: write to a closed item")

// NewEmitter writes resp to sink; a nil resp starts one with
// NewResponse(Request{}).
func NewEmitter(sink EventSink, resp *Response) *Emitter {
	if resp == nil {
		resp = NewResponse(Request{})
	}
	return &Emitter{sink: sink, resp: resp}
}

// Response is the response being written, with every item written so far.
func (e *Emitter) Response() *Response { return e.resp }

// Start sends the created and in-progress events, once; the other methods
// call it when needed.
func (e *Emitter) Start() error {
	if e.started {
		return nil
	}
	if e.finished {
		return errFinished
	}
	e.started = true
	e.resp.Status = ResponseStatusInProgress
	if err := e.sink.Send(&ResponseCreatedEvent{Response: e.resp.clone()}); err != nil {
		return err
	}
	return e.sink.Send(&ResponseInProgressEvent{Response: e.resp.clone()})
}

// Message opens an assistant message of one output text part, in phase.
func (e *Emitter) Message(phase Phase) (*MessageWriter, error) {
	if err := e.next(); err != nil {
		return nil, err
	}
	msg := &Message{ID: NewID("msg"), Status: StatusInProgress, Role: RoleAssistant, Content: Contents{}, Phase: phase}
	index, err := e.add(msg)
	if err != nil {
		return nil, err
	}
	w := &MessageWriter{e: e, msg: msg, part: &OutputText{}, index: index}
	msg.Content = append(msg.Content, w.part)
	e.open = w
	return w, e.sink.Send(&ContentPartAddedEvent{ItemID: msg.ID, OutputIndex: index, Part: cloneContent(w.part)})
}

// FunctionCall opens a call of the tool name; an empty callID gets a fresh
// one.
func (e *Emitter) FunctionCall(callID, name string) (*FunctionCallWriter, error) {
	if err := e.next(); err != nil {
		return nil, err
	}
	if callID == "" {
		callID = NewID("call")
	}
	call := &FunctionCall{ID: NewID("fc"), Status: StatusInProgress, CallID: callID, Name: name}
	index, err := e.add(call)
	if err != nil {
		return nil, err
	}
	w := &FunctionCallWriter{e: e, call: call, index: index}
	e.open = w
	return w, nil
}

// Reasoning writes a whole reasoning item whose summary is one
// [SummaryText].
func (e *Emitter) Reasoning(summary string) error {
	return e.Item(&ReasoningItem{Summary: Contents{&SummaryText{Text: summary}}})
}

// Item writes a whole item: it is given a fresh ID when it has none, and is
// sent added (in progress) and done (completed) at once. The emitter keeps
// the item; the caller must not change it afterwards.
func (e *Emitter) Item(item Item) error {
	if item == nil {
		return errors.New("openresponses: emitter: nil item")
	}
	if err := e.next(); err != nil {
		return err
	}
	setItemState(item, StatusInProgress)
	index, err := e.add(item)
	if err != nil {
		return err
	}
	setItemState(item, StatusCompleted)
	return e.sink.Send(&OutputItemDoneEvent{OutputIndex: index, Item: cloneItem(item)})
}

// Incomplete closes the open item with status incomplete and ends the
// response as incomplete for reason (such as "max_output_tokens").
func (e *Emitter) Incomplete(reason string) error {
	if err := e.finish(StatusIncomplete); err != nil {
		return err
	}
	e.resp.Status = ResponseStatusIncomplete
	e.resp.IncompleteDetails = &IncompleteDetails{Reason: reason}
	return e.sink.Send(&ResponseIncompleteEvent{Response: e.resp.clone()})
}

// Complete closes the open item and ends the response as completed with a
// [ResponseCompletedEvent].
func (e *Emitter) Complete() error {
	if err := e.finish(StatusCompleted); err != nil {
		return err
	}
	now := time.Now().Unix()
	e.resp.Status = ResponseStatusCompleted
	e.resp.CompletedAt = &now
	return e.sink.Send(&ResponseCompletedEvent{Response: e.resp.clone()})
}

// next readies the emitter for another item: started, previous item closed.
func (e *Emitter) next() error {
	if e.finished {
		return errFinished
	}
	if err := e.Start(); err != nil {
		return err
	}
	return e.closeOpen(StatusCompleted)
}

// finish readies the emitter for its terminal event.
func (e *Emitter) finish(status Status) error {
	if e.finished {
		return errFinished
	}
	if err := e.Start(); err != nil {
		return err
	}
	if err := e.closeOpen(status); err != nil {
		return err
	}
	e.finished = true
	return nil
}

func (e *Emitter) closeOpen(status Status) error {
	if e.open == nil {
		return nil
	}
	open := e.open
	e.open = nil
	return open.finish(status)
}

// add appends item to the output and announces it.
func (e *Emitter) add(item Item) (int, error) {
	index := len(e.resp.Output)
	e.resp.Output = append(e.resp.Output, item)
	return index, e.sink.Send(&OutputItemAddedEvent{OutputIndex: index, Item: cloneItem(item)})
}

// setItemState gives an item written whole a fresh ID if it has none, and
// status.
func setItemState(item Item, status Status) {
	switch v := item.(type) {
	case *Message:
		if v.ID == "" {
			v.ID = NewID("msg")
		}
		v.Status = status
	case *FunctionCall:
		if v.ID == "" {
			v.ID = NewID("fc")
		}
		v.Status = status
	case *FunctionCallOutput:
		if v.ID == "" {
			v.ID = NewID("fco")
		}
		v.Status = status
	case *ReasoningItem:
		if v.ID == "" {
			v.ID = NewID("rs")
		}
		v.Status = status
	case *Compaction:
		if v.ID == "" {
			v.ID = NewID("cmp")
		}
		v.Status = status
	}
}

// MessageWriter writes the text of an assistant message opened by
// [Emitter.Message].
type MessageWriter struct {
	e      *Emitter
	msg    *Message
	part   *OutputText
	index  int
	closed bool
}

// Text appends delta to the message and sends it as a delta event.
func (w *MessageWriter) Text(delta string) error {
	if w.closed {
		return errClosed
	}
	w.part.Text += delta
	return w.e.sink.Send(&OutputTextDeltaEvent{ItemID: w.msg.ID, OutputIndex: w.index, Delta: delta})
}

// Close ends the message with its done events and status completed; closing
// twice does nothing.
func (w *MessageWriter) Close() error {
	if w.closed {
		return nil
	}
	w.e.open = nil
	return w.finish(StatusCompleted)
}

func (w *MessageWriter) finish(status Status) error {
	w.closed = true
	w.msg.Status = status
	if err := w.e.sink.Send(&OutputTextDoneEvent{ItemID: w.msg.ID, OutputIndex: w.index, Text: w.part.Text}); err != nil {
		return err
	}
	if err := w.e.sink.Send(&ContentPartDoneEvent{ItemID: w.msg.ID, OutputIndex: w.index, Part: cloneContent(w.part)}); err != nil {
		return err
	}
	return w.e.sink.Send(&OutputItemDoneEvent{OutputIndex: w.index, Item: cloneItem(w.msg)})
}

// FunctionCallWriter writes the arguments of a call opened by
// [Emitter.FunctionCall].
type FunctionCallWriter struct {
	e      *Emitter
	call   *FunctionCall
	index  int
	closed bool
}

// Arguments appends delta to the call's arguments and sends it as a delta
// event.
func (w *FunctionCallWriter) Arguments(delta string) error {
	if w.closed {
		return errClosed
	}
	w.call.Arguments += delta
	return w.e.sink.Send(&FunctionCallArgumentsDeltaEvent{ItemID: w.call.ID, OutputIndex: w.index, Delta: delta})
}

// Close ends the call with its done events and status completed; closing
// twice does nothing.
func (w *FunctionCallWriter) Close() error {
	if w.closed {
		return nil
	}
	w.e.open = nil
	return w.finish(StatusCompleted)
}

func (w *FunctionCallWriter) finish(status Status) error {
	w.closed = true
	w.call.Status = status
	if err := w.e.sink.Send(&FunctionCallArgumentsDoneEvent{ItemID: w.call.ID, OutputIndex: w.index, Arguments: w.call.Arguments}); err != nil {
		return err
	}
	return w.e.sink.Send(&OutputItemDoneEvent{OutputIndex: w.index, Item: cloneItem(w.call)})
}
