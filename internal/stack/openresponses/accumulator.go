package openresponses

import "fmt"

// Accumulator folds the events of a stream into a [Response], the way
// [CollectStream] does; the zero value is ready to use. Items and parts are
// copied on arrival, so a streamer may keep writing its own.
type Accumulator struct {
	resp *Response
}

// Add folds one event in. An event that refers to an output item or part
// that was never added, or of the wrong kind, is an error and changes
// nothing.
func (a *Accumulator) Add(ev StreamEvent) error {
	if a.resp == nil {
		a.resp = &Response{Object: "response", Status: ResponseStatusInProgress, Output: Items{}}
	}
	switch e := ev.(type) {
	case *ResponseCreatedEvent:
		a.takeResponse(e.Response)
	case *ResponseInProgressEvent:
		a.takeResponse(e.Response)
	case *ResponseCompletedEvent:
		a.takeResponse(e.Response)
	case *ResponseFailedEvent:
		a.takeResponse(e.Response)
	case *ResponseIncompleteEvent:
		a.takeResponse(e.Response)
	case *OutputItemAddedEvent:
		return a.putItem(e.OutputIndex, e.Item)
	case *OutputItemDoneEvent:
		return a.putItem(e.OutputIndex, e.Item)
	case *ContentPartAddedEvent:
		return a.putPart(e.OutputIndex, e.ContentIndex, e.Part)
	case *ContentPartDoneEvent:
		return a.putPart(e.OutputIndex, e.ContentIndex, e.Part)
	case *OutputTextDeltaEvent:
		text, err := a.outputText(e.OutputIndex, e.ContentIndex)
		if err != nil {
			return err
		}
		text.Text += e.Delta
	case *OutputTextDoneEvent:
		text, err := a.outputText(e.OutputIndex, e.ContentIndex)
		if err != nil {
			return err
		}
		text.Text = e.Text
	case *FunctionCallArgumentsDeltaEvent:
		call, err := a.functionCall(e.OutputIndex)
		if err != nil {
			return err
		}
		call.Arguments += e.Delta
	case *FunctionCallArgumentsDoneEvent:
		call, err := a.functionCall(e.OutputIndex)
		if err != nil {
			return err
		}
		call.Arguments = e.Arguments
	case *ErrorEvent:
		failure := e.Error
		a.resp.Status = ResponseStatusFailed
		a.resp.Error = &failure
	}
	return nil
}

// Response is the response folded so far, nil before the first event.
func (a *Accumulator) Response() *Response { return a.resp }

// takeResponse adopts a response event's snapshot, keeping the output folded
// from item events when the snapshot carries none.
func (a *Accumulator) takeResponse(resp *Response) {
	if resp == nil {
		return
	}
	next := resp.clone()
	if len(next.Output) == 0 {
		next.Output = a.resp.Output
	}
	a.resp = next
}

func (a *Accumulator) putItem(index int, item Item) error {
	if index < 0 || index > len(a.resp.Output) {
		return fmt.Errorf("openresponses: output item %d arrived before item %d", index, len(a.resp.Output))
	}
	copied := cloneItem(item)
	if index == len(a.resp.Output) {
		a.resp.Output = append(a.resp.Output, copied)
		return nil
	}
	a.resp.Output[index] = copied
	return nil
}

func (a *Accumulator) message(index int) (*Message, error) {
	if index < 0 || index >= len(a.resp.Output) {
		return nil, fmt.Errorf("openresponses: event for output item %d that was not added", index)
	}
	m, ok := a.resp.Output[index].(*Message)
	if !ok || m == nil {
		return nil, fmt.Errorf("openresponses: content event for output item %d, which is not a message", index)
	}
	return m, nil
}

func (a *Accumulator) putPart(index, contentIndex int, part Content) error {
	m, err := a.message(index)
	if err != nil {
		return err
	}
	if contentIndex < 0 || contentIndex > len(m.Content) {
		return fmt.Errorf("openresponses: content part %d of output item %d arrived before part %d", contentIndex, index, len(m.Content))
	}
	copied := cloneContent(part)
	if contentIndex == len(m.Content) {
		m.Content = append(m.Content, copied)
		return nil
	}
	m.Content[contentIndex] = copied
	return nil
}

func (a *Accumulator) outputText(index, contentIndex int) (*OutputText, error) {
	m, err := a.message(index)
	if err != nil {
		return nil, err
	}
	if contentIndex < 0 || contentIndex >= len(m.Content) {
		return nil, fmt.Errorf("openresponses: text event for content part %d of output item %d that was not added", contentIndex, index)
	}
	text, ok := m.Content[contentIndex].(*OutputText)
	if !ok || text == nil {
		return nil, fmt.Errorf("openresponses: text event for content part %d of output item %d, which is not output text", contentIndex, index)
	}
	return text, nil
}

func (a *Accumulator) functionCall(index int) (*FunctionCall, error) {
	if index < 0 || index >= len(a.resp.Output) {
		return nil, fmt.Errorf("openresponses: event for output item %d that was not added", index)
	}
	call, ok := a.resp.Output[index].(*FunctionCall)
	if !ok || call == nil {
		return nil, fmt.Errorf("openresponses: arguments event for output item %d, which is not a function call", index)
	}
	return call, nil
}
