package agentturn

import (
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/openresponses"
)

// withheldOutput is the output of a function call whose response an
// [Config.OutputGuard] withheld: the call completed before the guard stopped
// the run, so it is closed rather than left pending.
const withheldOutput = "Error: not run: the response that made this call was withheld"

// errWithheld is what the turn's sink returns to stop the model once a
// guard withheld a message.
var errWithheld = errors.New("agentturn: message withheld")

// turnSink receives the events of one turn's stream. It keeps the items the
// stream completes, in order, putting each assistant message to
// [Config.OutputGuard] first.
type turnSink struct {
	r        *run
	respID   string
	items    openresponses.Items // completed items, after the guard
	done     map[int]bool        // output indexes completed
	final    *openresponses.Response
	guardErr error // a guard withheld a message
	failure  error // the response failed or a hook failed
}

// Send folds one event of the stream. Once a guard withheld a message or
// the response failed, it takes no more events.
func (s *turnSink) Send(ev openresponses.StreamEvent) error {
	switch {
	case s.guardErr != nil:
		return errWithheld
	case s.failure != nil:
		return s.failure
	}
	switch e := ev.(type) {
	case *openresponses.ResponseCreatedEvent:
		if e.Response != nil {
			s.respID = e.Response.ID
		}
	case *openresponses.OutputItemDoneEvent:
		if s.done[e.OutputIndex] {
			return nil
		}
		s.done[e.OutputIndex] = true
		return s.complete(e.Item)
	case *openresponses.ResponseCompletedEvent:
		return s.end(e.Response)
	case *openresponses.ResponseIncompleteEvent:
		return s.end(e.Response)
	case *openresponses.ResponseFailedEvent:
		s.failure = errors.New("agentturn: model: response failed")
		if e.Response != nil && e.Response.Error != nil {
			s.failure = fmt.Errorf("agentturn: model: %w", e.Response.Error)
		}
		return s.failure
	case *openresponses.ErrorEvent:
		payload := e.Error
		s.failure = fmt.Errorf("agentturn: model: %w", &payload)
		return s.failure
	}
	return nil
}

// complete takes in one item the stream completed.
func (s *turnSink) complete(item openresponses.Item) error {
	m, ok := item.(*openresponses.Message)
	guard := s.r.a.cfg.OutputGuard
	if !ok || m.Role != openresponses.RoleAssistant || guard == nil {
		s.items = append(s.items, item)
		return nil
	}
	replaced, err := guard(s.r.ctx, OutputInfo{
		RunID:      s.r.id,
		Turn:       s.r.turn,
		ResponseID: s.respID,
		Message:    m,
		Output:     append(openresponses.Items(nil), s.items...),
	})
	switch {
	case err != nil && errors.Is(err, ErrGuard):
		s.guardErr = err
		return errWithheld
	case err != nil:
		s.failure = fmt.Errorf("agentturn: output-guard hook: %w", err)
		return s.failure
	case replaced != nil:
		item = replaced
	}
	s.items = append(s.items, item)
	return nil
}

// end takes in the terminal response; items it holds that no done event
// delivered are completed now, in output order.
func (s *turnSink) end(resp *openresponses.Response) error {
	if resp == nil {
		return nil
	}
	if s.respID == "" {
		s.respID = resp.ID
	}
	for i, item := range resp.Output {
		if !s.done[i] {
			s.done[i] = true
			if err := s.complete(item); err != nil {
				return err
			}
		}
	}
	s.final = resp
	return nil
}

// respond streams the model's response to req and appends what it
// completed. It returns the turn's response, its Output replaced by the
// items appended, or the end of the run when the model failed or a guard
// withheld a message.
func (r *run) respond(req openresponses.Request) (*openresponses.Response, *RunEnd) {
	s := &turnSink{r: r, done: map[int]bool{}}
	err := r.a.cfg.Model.CreateStream(r.ctx, req, s)
	switch {
	case s.guardErr != nil:
		r.append(s.items...)
		for _, c := range functionCalls(s.items) {
			r.append(openresponses.NewFunctionCallOutput(c.CallID, withheldOutput))
		}
		return nil, &RunEnd{Reason: ReasonStopped, Cause: StopGuard, Err: s.guardErr, Withheld: true}
	case s.failure != nil:
		return nil, &RunEnd{Reason: ReasonError, Err: s.failure}
	case err != nil && r.ctx.Err() != nil:
		return nil, r.aborted()
	case err != nil:
		return nil, &RunEnd{Reason: ReasonError, Err: fmt.Errorf("agentturn: model: %w", err)}
	case s.final == nil:
		return nil, &RunEnd{Reason: ReasonError, Err: fmt.Errorf("agentturn: model: %w", openresponses.ErrTruncatedStream)}
	}
	r.append(s.items...)
	resp := *s.final
	resp.Output = s.items
	return &resp, nil
}
