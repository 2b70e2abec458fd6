package openresponses

// StreamEvent is one event of a streamed response; the concrete events are
// the *…Event types of this package.
type StreamEvent interface {
	// EventType is the event's wire "type" ("response.created", …).
	EventType() string
}

// ResponseCreatedEvent opens a stream with the new, in-progress response.
type ResponseCreatedEvent struct {
	Response *Response `json:"response"`
}

// EventType is "response.created".
func (*ResponseCreatedEvent) EventType() string { return "response.created" }

// ResponseInProgressEvent says the model is working on the response.
type ResponseInProgressEvent struct {
	Response *Response `json:"response"`
}

// EventType is "response.in_progress".
func (*ResponseInProgressEvent) EventType() string { return "response.in_progress" }

// ResponseCompletedEvent ends a stream with the completed response.
type ResponseCompletedEvent struct {
	Response *Response `json:"response"`
}

// EventType is "response.completed".
func (*ResponseCompletedEvent) EventType() string { return "response.completed" }

// ResponseFailedEvent ends a stream with a response whose Error says what
// failed.
type ResponseFailedEvent struct {
	Response *Response `json:"response"`
}

// EventType is "response.failed".
func (*ResponseFailedEvent) EventType() string { return "response.failed" }

// ResponseIncompleteEvent ends a stream with a response cut short (see its
// IncompleteDetails).
type ResponseIncompleteEvent struct {
	Response *Response `json:"response"`
}

// EventType is "response.incomplete".
func (*ResponseIncompleteEvent) EventType() string { return "response.incomplete" }

// OutputItemAddedEvent opens the output item at OutputIndex.
type OutputItemAddedEvent struct {
	OutputIndex int  `json:"output_index"`
	Item        Item `json:"item"`
}

// EventType is "response.output_item.added".
func (*OutputItemAddedEvent) EventType() string { return "response.output_item.added" }

// OutputItemDoneEvent closes the output item at OutputIndex with its final
// state.
type OutputItemDoneEvent struct {
	OutputIndex int  `json:"output_index"`
	Item        Item `json:"item"`
}

// EventType is "response.output_item.done".
func (*OutputItemDoneEvent) EventType() string { return "response.output_item.done" }

// ContentPartAddedEvent opens part ContentIndex of the message ItemID.
type ContentPartAddedEvent struct {
	ItemID       string  `json:"item_id"`
	OutputIndex  int     `json:"output_index"`
	ContentIndex int     `json:"content_index"`
	Part         Content `json:"part"`
}

// EventType is "response.content_part.added".
func (*ContentPartAddedEvent) EventType() string { return "response.content_part.added" }

// ContentPartDoneEvent closes part ContentIndex of the message ItemID with
// its final state.
type ContentPartDoneEvent struct {
	ItemID       string  `json:"item_id"`
	OutputIndex  int     `json:"output_index"`
	ContentIndex int     `json:"content_index"`
	Part         Content `json:"part"`
}

// EventType is "response.content_part.done".
func (*ContentPartDoneEvent) EventType() string { return "response.content_part.done" }

// OutputTextDeltaEvent appends Delta to an output text part.
type OutputTextDeltaEvent struct {
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	ContentIndex int    `json:"content_index"`
	Delta        string `json:"delta"`
}

// EventType is "response.output_text.delta".
func (*OutputTextDeltaEvent) EventType() string { return "response.output_text.delta" }

// OutputTextDoneEvent gives the whole text of an output text part.
type OutputTextDoneEvent struct {
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	ContentIndex int    `json:"content_index"`
	Text         string `json:"text"`
}

// EventType is "response.output_text.done".
func (*OutputTextDoneEvent) EventType() string { return "response.output_text.done" }

// FunctionCallArgumentsDeltaEvent appends Delta to a function call's
// arguments.
type FunctionCallArgumentsDeltaEvent struct {
	ItemID      string `json:"item_id"`
	OutputIndex int    `json:"output_index"`
	Delta       string `json:"delta"`
}

// EventType is "response.function_call_arguments.delta".
func (*FunctionCallArgumentsDeltaEvent) EventType() string {
	return "response.function_call_arguments.delta"
}

// FunctionCallArgumentsDoneEvent gives a function call's whole arguments.
type FunctionCallArgumentsDoneEvent struct {
	ItemID      string `json:"item_id"`
	OutputIndex int    `json:"output_index"`
	Arguments   string `json:"arguments"`
}

// EventType is "response.function_call_arguments.done".
func (*FunctionCallArgumentsDoneEvent) EventType() string {
	return "response.function_call_arguments.done"
}

// ErrorEvent reports an error that ends the stream.
type ErrorEvent struct {
	Error ErrorPayload `json:"error"`
}

// EventType is "error".
func (*ErrorEvent) EventType() string { return "error" }

// TerminalResponse returns the response a terminal event (completed, failed
// or incomplete) carries, and whether ev is one.
func TerminalResponse(ev StreamEvent) (*Response, bool) {
	switch e := ev.(type) {
	case *ResponseCompletedEvent:
		return e.Response, true
	case *ResponseFailedEvent:
		return e.Response, true
	case *ResponseIncompleteEvent:
		return e.Response, true
	}
	return nil, false
}
