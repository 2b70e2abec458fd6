package agentturn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// step is one item a scripted response writes: a function call when call is
// set, else an assistant message of text.
type step struct {
	text string
	call *openresponses.FunctionCall
}

func say(text string) step { return step{text: text} }

func call(id, name, args string) step {
	return step{call: &openresponses.FunctionCall{CallID: id, Name: name, Arguments: args}}
}

// script is a model that answers its n-th request with turns[n], and with
// the message "done" once the script runs out. It records every request.
type script struct {
	mu       sync.Mutex
	turns    [][]step
	requests []openresponses.Request
}

func (m *script) CreateStream(ctx context.Context, req openresponses.Request, sink openresponses.EventSink) error {
	m.mu.Lock()
	m.requests = append(m.requests, req)
	n := len(m.requests) - 1
	steps := []step{say("done")}
	if n < len(m.turns) {
		steps = m.turns[n]
	}
	m.mu.Unlock()
	e := openresponses.NewEmitter(sink, openresponses.NewResponse(req))
	for _, s := range steps {
		if s.call != nil {
			w, err := e.FunctionCall(s.call.CallID, s.call.Name)
			if err != nil {
				return err
			}
			if err := w.Arguments(s.call.Arguments); err != nil {
				return err
			}
			continue
		}
		w, err := e.Message(openresponses.PhaseFinalAnswer)
		if err != nil {
			return err
		}
		if err := w.Text(s.text); err != nil {
			return err
		}
	}
	return e.Complete()
}

func (m *script) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

// journal records, in order, what hooks and tools saw.
type journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *journal) add(format string, args ...any) {
	j.mu.Lock()
	j.entries = append(j.entries, fmt.Sprintf(format, args...))
	j.mu.Unlock()
}

func (j *journal) list() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.entries...)
}

var objectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// recorder is a tool that notes "run <name> <args> <key>" in j and returns
// "ran <name> <args>".
func recorder(name string, j *journal, opts ...agenttool.Option) agenttool.Tool {
	return agenttool.NewFunc(name, "records its calls", objectSchema, func(ctx context.Context, c agenttool.Call) (agenttool.Result, error) {
		j.add("run %s %s", name, c.Args)
		return agenttool.Text(fmt.Sprintf("ran %s %s", name, c.Args)), nil
	}, opts...)
}

// describe renders items as "role: text", "call id name args" and
// "output id text", one string per item.
func describe(items openresponses.Items) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		switch v := it.(type) {
		case *openresponses.Message:
			out = append(out, fmt.Sprintf("%s: %s", v.Role, v.Text()))
		case *openresponses.FunctionCall:
			out = append(out, fmt.Sprintf("call %s %s %s", v.CallID, v.Name, v.Arguments))
		case *openresponses.FunctionCallOutput:
			out = append(out, fmt.Sprintf("output %s %s", v.CallID, v.Output.String()))
		default:
			out = append(out, it.ItemType())
		}
	}
	return out
}

// anonymous renders items as describe does, without call IDs, for models
// that mint their own.
func anonymous(items openresponses.Items) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		switch v := it.(type) {
		case *openresponses.FunctionCall:
			out = append(out, fmt.Sprintf("call %s %s", v.Name, v.Arguments))
		case *openresponses.FunctionCallOutput:
			out = append(out, "output "+v.Output.String())
		default:
			out = append(out, describe(openresponses.Items{it})...)
		}
	}
	return out
}

func equalStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// pendingIDs renders pending calls as "callID reason".
func pendingIDs(pending []agentturn.PendingCall) []string {
	out := make([]string, 0, len(pending))
	for _, p := range pending {
		out = append(out, p.Call.CallID+" "+string(p.Reason))
	}
	return out
}

// decideBy returns a BeforeToolCall hook that decides each call by name
// from decisions (nil when absent) and notes "decide <callID>" in j.
func decideBy(j *journal, decisions map[string]*agentturn.ToolDecision) func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
	return func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		j.add("decide %s", info.Call.CallID)
		return decisions[info.Call.Name], nil
	}
}

// mustPrompt prompts a with text and fails the test on an error.
func mustPrompt(t *testing.T, a *agentturn.Agent, text string) *agentturn.RunEnd {
	t.Helper()
	end, err := a.Prompt(context.Background(), openresponses.UserText(text))
	if err != nil {
		t.Fatalf("Prompt: %v", err)
	}
	return end
}
