package agentturn_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// streamFunc is a model written as a function.
type streamFunc func(ctx context.Context, req openresponses.Request, sink openresponses.EventSink) error

func (f streamFunc) CreateStream(ctx context.Context, req openresponses.Request, sink openresponses.EventSink) error {
	return f(ctx, req, sink)
}

// A stream that fails, reports an error, or ends without a terminal event
// fails the run and appends nothing of the response; a terminal response
// whose items had no done event still has them appended.
func TestStreamEnds(t *testing.T) {
	msg := openresponses.AssistantText("late")
	cases := []struct {
		name      string
		events    []openresponses.StreamEvent
		wantErr   string
		wantItems []string
	}{
		{
			name: "failed response",
			events: []openresponses.StreamEvent{&openresponses.ResponseFailedEvent{Response: &openresponses.Response{
				Error: &openresponses.ErrorPayload{Message: "overloaded"}}}},
			wantErr:   "agentturn: model: openresponses: overloaded",
			wantItems: []string{"user: hi"},
		},
		{
			name:      "failed response without a payload",
			events:    []openresponses.StreamEvent{&openresponses.ResponseFailedEvent{}},
			wantErr:   "agentturn: model: response failed",
			wantItems: []string{"user: hi"},
		},
		{
			name:      "error event",
			events:    []openresponses.StreamEvent{&openresponses.ErrorEvent{Error: openresponses.ErrorPayload{Message: "bad request"}}},
			wantErr:   "agentturn: model: openresponses: bad request",
			wantItems: []string{"user: hi"},
		},
		{
			name: "no terminal event",
			events: []openresponses.StreamEvent{
				&openresponses.OutputItemDoneEvent{OutputIndex: 0, Item: openresponses.AssistantText("partial")},
			},
			wantErr:   "agentturn: model: " + openresponses.ErrTruncatedStream.Error(),
			wantItems: []string{"user: hi"},
		},
		{
			name: "items only in the terminal response",
			events: []openresponses.StreamEvent{&openresponses.ResponseCompletedEvent{Response: &openresponses.Response{
				ID: "resp_1", Output: openresponses.Items{msg}}}},
			wantItems: []string{"user: hi", "assistant: late"},
		},
		{
			name: "incomplete response",
			events: []openresponses.StreamEvent{
				&openresponses.OutputItemDoneEvent{OutputIndex: 0, Item: openresponses.AssistantText("cut")},
				&openresponses.ResponseIncompleteEvent{Response: &openresponses.Response{ID: "resp_2", Output: openresponses.Items{openresponses.AssistantText("cut")}}},
			},
			wantItems: []string{"user: hi", "assistant: cut"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := streamFunc(func(_ context.Context, _ openresponses.Request, sink openresponses.EventSink) error {
				for _, ev := range c.events {
					if err := sink.Send(ev); err != nil {
						return err
					}
				}
				return nil
			})
			a := agentturn.New(agentturn.Config{Model: model})
			end, err := a.Prompt(context.Background(), openresponses.UserText("hi"))
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr || end.Reason != agentturn.ReasonError {
					t.Fatalf("Prompt = (%+v, %v), want %q", end, err, c.wantErr)
				}
			} else if err != nil || end.Reason != agentturn.ReasonDone {
				t.Fatalf("Prompt = (%+v, %v)", end, err)
			}
			equalStrings(t, "items", describe(end.Items), c.wantItems)
		})
	}
}

// A tool's error becomes the call's error output and the run goes on.
func TestToolErrorOutput(t *testing.T) {
	broken := agenttool.NewFunc("broken", "fails", objectSchema, func(context.Context, agenttool.Call) (agenttool.Result, error) {
		return agenttool.Result{}, errors.New("disk full")
	})
	a := agentturn.New(agentturn.Config{Model: &script{turns: [][]step{{call("c1", "broken", "{}")}}}, Tools: []agenttool.Tool{broken}})
	end := mustPrompt(t, a, "go")
	equalStrings(t, "items", describe(end.Items), []string{"user: go", "call c1 broken {}", "output c1 Error: disk full", "assistant: done"})
}

// BeforeTurn's items are appended before each turn's request; a guard
// error stops the run, any other fails it.
func TestBeforeTurn(t *testing.T) {
	model := &script{}
	var turns []int
	a := agentturn.New(agentturn.Config{
		Model: model,
		BeforeTurn: func(ctx context.Context, info agentturn.TurnStartInfo) (openresponses.Items, error) {
			turns = append(turns, info.Turn)
			if info.RunID == "" || info.RunID != agentturn.RunIDFromContext(ctx) || len(info.Transcript) != 1 {
				t.Errorf("info %+v", info)
			}
			return openresponses.Items{openresponses.DeveloperText("reminder")}, nil
		},
	})
	end := mustPrompt(t, a, "hi")
	equalStrings(t, "items", describe(end.Items), []string{"user: hi", "developer: reminder", "assistant: done"})
	equalStrings(t, "request", describe(model.requests[0].Input), []string{"user: hi", "developer: reminder"})
	if len(turns) != 1 || turns[0] != 1 {
		t.Errorf("turns %v", turns)
	}

	for _, c := range []struct {
		err    error
		reason agentturn.Reason
	}{
		{agentturn.ErrGuard, agentturn.ReasonStopped},
		{errors.New("x"), agentturn.ReasonError},
	} {
		model := &script{}
		a := agentturn.New(agentturn.Config{Model: model, BeforeTurn: func(context.Context, agentturn.TurnStartInfo) (openresponses.Items, error) {
			return nil, c.err
		}})
		end, _ := a.Prompt(context.Background(), openresponses.UserText("hi"))
		if end.Reason != c.reason || !errors.Is(end.Err, c.err) || model.calls() != 0 {
			t.Errorf("BeforeTurn error %v: end %+v, model calls %d", c.err, end, model.calls())
		}
	}
}

// A model that keeps sending after a guard withheld a message is not heard:
// nothing after the withheld message is appended or guarded.
func TestWithheldStreamIgnoresLaterEvents(t *testing.T) {
	guarded := 0
	model := streamFunc(func(_ context.Context, _ openresponses.Request, sink openresponses.EventSink) error {
		events := []openresponses.StreamEvent{
			&openresponses.OutputItemDoneEvent{OutputIndex: 0, Item: openresponses.AssistantText("secret")},
			&openresponses.OutputItemDoneEvent{OutputIndex: 1, Item: openresponses.AssistantText("more")},
			&openresponses.ResponseCompletedEvent{Response: &openresponses.Response{ID: "resp_1"}},
		}
		for _, ev := range events {
			_ = sink.Send(ev) // a careless model ignores the sink's error
		}
		return nil
	})
	a := agentturn.New(agentturn.Config{Model: model, OutputGuard: func(context.Context, agentturn.OutputInfo) (*openresponses.Message, error) {
		guarded++
		return nil, agentturn.ErrGuard
	}})
	end := mustPrompt(t, a, "hi")
	if !end.Withheld || guarded != 1 {
		t.Fatalf("withheld %v, guard called %d times", end.Withheld, guarded)
	}
	equalStrings(t, "items", describe(end.Items), []string{"user: hi"})
}
