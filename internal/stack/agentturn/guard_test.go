package agentturn_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// Checklist item 17: BeforeModelCall changes the request of that call only;
// the transcript keeps what was prompted.
func TestBeforeModelCallRewritesOneCall(t *testing.T) {
	var runIDs []string
	a := agentturn.New(agentturn.Config{
		Model:        &echo.Adapter{},
		Instructions: "be brief",
		BeforeModelCall: func(ctx context.Context, req *openresponses.Request) error {
			runIDs = append(runIDs, agentturn.RunIDFromContext(ctx))
			part := req.Input[0].(*openresponses.Message).Content[0].(*openresponses.InputText)
			part.Text = strings.ReplaceAll(part.Text, "AKIAXXXXXXXXXXXXXXXX", "[REDACTED aws_access_key]")
			req.Instructions = "rewritten"
			return nil
		},
	})
	end := mustPrompt(t, a, "my key is AKIAXXXXXXXXXXXXXXXX")
	equalStrings(t, "items", describe(end.Items), []string{
		"user: my key is AKIAXXXXXXXXXXXXXXXX",
		"assistant: my key is [REDACTED aws_access_key]",
	})
	equalStrings(t, "transcript", describe(a.State().Transcript), describe(end.Items))
	if len(runIDs) != 1 || runIDs[0] != end.RunID {
		t.Errorf("hook run IDs %q, want [%q]", runIDs, end.RunID)
	}
}

// Checklist item 17: errors of BeforeModelCall, ShouldStopAfterTurn and
// OutputGuard. One wrapping ErrGuard stops the run guard with the error on
// RunEnd.Err and Prompt returning nil; any other fails the run.
func TestGuardHookErrors(t *testing.T) {
	guardErr := fmt.Errorf("agentpolicy/guard: a: %w: spent", agentturn.ErrGuard)
	plain := errors.New("broken")
	cases := []struct {
		name       string
		cfg        func(err error) agentturn.Config
		err        error
		wantReason agentturn.Reason
		wantText   string // RunEnd.Err text
		modelCalls int
	}{
		{"before model call, guard", beforeModelCall, guardErr, agentturn.ReasonStopped, guardErr.Error(), 0},
		{"before model call, other", beforeModelCall, plain, agentturn.ReasonError, "agentturn: before-model-call hook: broken", 0},
		{"should stop, guard", shouldStop, guardErr, agentturn.ReasonStopped, guardErr.Error(), 1},
		{"should stop, other", shouldStop, plain, agentturn.ReasonError, "agentturn: should-stop-after-turn hook: broken", 1},
		{"output guard, other", outputGuard, plain, agentturn.ReasonError, "agentturn: output-guard hook: broken", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := &script{}
			cfg := c.cfg(c.err)
			cfg.Model = model
			end, err := agentturn.New(cfg).Prompt(context.Background(), openresponses.UserText("hi"))
			if end == nil || end.Reason != c.wantReason || end.Err == nil || end.Err.Error() != c.wantText {
				t.Fatalf("end %+v, want %s with %q", end, c.wantReason, c.wantText)
			}
			if !errors.Is(end.Err, c.err) {
				t.Errorf("RunEnd.Err does not wrap the hook's error")
			}
			if c.wantReason == agentturn.ReasonStopped {
				if err != nil || end.Cause != agentturn.StopGuard || end.Err != c.err {
					t.Errorf("guard stop: Prompt error %v, cause %s, Err %v", err, end.Cause, end.Err)
				}
			} else if err != end.Err {
				t.Errorf("Prompt error %v, want RunEnd.Err", err)
			}
			if model.calls() != c.modelCalls {
				t.Errorf("model called %d times, want %d", model.calls(), c.modelCalls)
			}
		})
	}
}

func beforeModelCall(err error) agentturn.Config {
	return agentturn.Config{BeforeModelCall: func(context.Context, *openresponses.Request) error { return err }}
}

func shouldStop(err error) agentturn.Config {
	return agentturn.Config{ShouldStopAfterTurn: func(context.Context, agentturn.TurnInfo) (bool, error) { return false, err }}
}

func outputGuard(err error) agentturn.Config {
	return agentturn.Config{OutputGuard: func(context.Context, agentturn.OutputInfo) (*openresponses.Message, error) { return nil, err }}
}

// Checklist item 17: an OutputGuard replacement lands in the transcript; a
// guard error withholds the message, closes the response's completed calls
// without running them, and stops the run guard with Withheld set.
func TestOutputGuard(t *testing.T) {
	guardErr := fmt.Errorf("agentpolicy/guard: g: %w", agentturn.ErrGuard)
	cases := []struct {
		name      string
		guard     func(agentturn.OutputInfo) (*openresponses.Message, error)
		wantItems []string
		withheld  bool
	}{
		{
			name:      "pass",
			guard:     func(agentturn.OutputInfo) (*openresponses.Message, error) { return nil, nil },
			wantItems: []string{"user: hi", "call c1 a {}", "assistant: secret", "output c1 ran a {}", "assistant: done"},
		},
		{
			name: "replace",
			guard: func(info agentturn.OutputInfo) (*openresponses.Message, error) {
				return openresponses.AssistantText(strings.ToUpper(info.Message.Text())), nil
			},
			wantItems: []string{"user: hi", "call c1 a {}", "assistant: SECRET", "output c1 ran a {}", "assistant: DONE"},
		},
		{
			name:      "withhold",
			guard:     func(agentturn.OutputInfo) (*openresponses.Message, error) { return nil, guardErr },
			wantItems: []string{"user: hi", "call c1 a {}", "output c1 Error: not run: the response that made this call was withheld"},
			withheld:  true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			var infos []agentturn.OutputInfo
			a := agentturn.New(agentturn.Config{
				Model: &script{turns: [][]step{{call("c1", "a", "{}"), say("secret")}}},
				Tools: []agenttool.Tool{recorder("a", &j)},
				OutputGuard: func(ctx context.Context, info agentturn.OutputInfo) (*openresponses.Message, error) {
					if agentturn.RunIDFromContext(ctx) != info.RunID {
						t.Errorf("context run ID differs from info.RunID")
					}
					infos = append(infos, info)
					return c.guard(info)
				},
			})
			end := mustPrompt(t, a, "hi")
			equalStrings(t, "items", describe(end.Items), c.wantItems)
			if end.Withheld != c.withheld {
				t.Errorf("Withheld %v, want %v", end.Withheld, c.withheld)
			}
			if c.withheld && (end.Reason != agentturn.ReasonStopped || end.Cause != agentturn.StopGuard || end.Err != guardErr || len(j.list()) != 0) {
				t.Errorf("withheld: end %+v, runs %v", end, j.list())
			}
			first := infos[0]
			if first.RunID != end.RunID || first.Turn != 1 || first.ResponseID == "" || first.Message.Text() != "secret" ||
				len(first.Output) != 1 || first.Output[0].ItemType() != "function_call" {
				t.Errorf("first OutputInfo %+v", first)
			}
			if len(infos) == 2 && infos[1].Turn != 2 {
				t.Errorf("second OutputInfo turn %d, want 2", infos[1].Turn)
			}
		})
	}
}

// Checklist item 18: ShouldStopAfterTurn runs after every turn, the final
// one too (Final, with the assistant message in Response.Output); true
// stops the run hook.
func TestShouldStopAfterTurn(t *testing.T) {
	for _, stopAt := range []int{0, 1, 2} {
		t.Run(fmt.Sprintf("stop at %d", stopAt), func(t *testing.T) {
			var j journal
			var infos []agentturn.TurnInfo
			model := &script{turns: [][]step{{call("c1", "a", "")}, {say("finished")}}}
			a := agentturn.New(agentturn.Config{
				Model: model,
				Tools: []agenttool.Tool{recorder("a", &j)},
				ShouldStopAfterTurn: func(_ context.Context, info agentturn.TurnInfo) (bool, error) {
					infos = append(infos, info)
					return info.Turn == stopAt, nil
				},
			})
			end := mustPrompt(t, a, "hi")
			wantTurns := 2
			if stopAt == 1 {
				wantTurns = 1
			}
			if len(infos) != wantTurns {
				t.Fatalf("hook called %d times, want %d", len(infos), wantTurns)
			}
			if stopAt == 0 && end.Reason != agentturn.ReasonDone || stopAt > 0 && (end.Reason != agentturn.ReasonStopped || end.Cause != agentturn.StopHook) {
				t.Errorf("end %s/%s", end.Reason, end.Cause)
			}
			tool := infos[0]
			if tool.Turn != 1 || tool.Final || tool.RunID != end.RunID || len(tool.ToolResults) != 1 ||
				tool.ToolResults[0].Output.String() != "ran a {}" || len(tool.Transcript) != 3 {
				t.Errorf("tool turn info %+v", tool)
			}
			if wantTurns == 2 {
				final := infos[1]
				if final.Turn != 2 || !final.Final || len(final.ToolResults) != 0 || len(final.Response.Output) != 1 ||
					final.Response.OutputText() != "finished" || len(final.Transcript) != 4 {
					t.Errorf("final turn info %+v", final)
				}
			}
		})
	}
}

// A turn whose batch deferred calls ends input_required without asking
// ShouldStopAfterTurn.
func TestDeferSkipsShouldStop(t *testing.T) {
	var j journal
	asked := false
	a := agentturn.New(agentturn.Config{
		Model:               &script{turns: [][]step{{call("c1", "a", "")}}},
		Tools:               []agenttool.Tool{recorder("a", &j)},
		BeforeToolCall:      decideBy(&j, deferA),
		ShouldStopAfterTurn: func(context.Context, agentturn.TurnInfo) (bool, error) { asked = true; return true, nil },
	})
	if end := mustPrompt(t, a, "hi"); end.Reason != agentturn.ReasonInputRequired || asked {
		t.Fatalf("end %s, hook asked %v", end.Reason, asked)
	}
}
