package main

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/internal/scripted"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// bash is a Bash tool that runs nothing and logs what it is handed.
type bash struct {
	mu  sync.Mutex
	ran []string
}

func (b *bash) tool() agenttool.Tool {
	return agenttool.New("Bash", "runs a command", func(_ context.Context, a struct {
		Command string `json:"command"`
	}) (string, error) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.ran = append(b.ran, a.Command)
		return "ok", nil
	})
}

// unattendedRun runs the agent once with nobody watching: every ask is
// queued and refused.
func unattendedRun(t *testing.T, p *loadedPolicy, queuePath string, sh *bash) *agentturn.RunEnd {
	t.Helper()
	ctx := context.Background()
	agent := agentturn.New(agentturn.Config{
		Model:          &scripted.Model{Turns: [][]*openresponses.FunctionCall{{scripted.Call("call_1", "Bash", `{"command":"git push origin main"}`)}}},
		Tools:          []agenttool.Tool{sh.tool()},
		BeforeToolCall: p.engine.BeforeToolCall(),
		MaxTurns:       4,
	})
	end, err := agent.Prompt(ctx, openresponses.UserText("push it"))
	for err == nil && end.Reason == agentturn.ReasonInputRequired {
		q, qerr := journal.Open(queuePath)
		if qerr != nil {
			t.Fatal(qerr)
		}
		answers, aerr := p.engine.Answers(ctx, agentpolicy.Unattended(q), end)
		q.Close()
		if aerr != nil {
			t.Fatal(aerr)
		}
		end, err = agent.Resume(ctx, answers...)
	}
	if err != nil {
		t.Fatal(err)
	}
	return end
}

// The run: an unattended run asks about a push, which does not
// run and waits in the queue; a person approves it from the command, which
// writes the local settings; the next run with the same settings pushes
// without asking.
func TestQueueEndToEnd(t *testing.T) {
	w := newQueueWorld(t)
	queuePath := w.queue + ".run"
	load := func() *loadedPolicy {
		var f settingsFlags
		f.project, f.userDir, f.managedDir, f.trust = w.dir, w.dir+"/nouser", w.dir+"/nomanaged", true
		p, err := f.load()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	first := &bash{}
	if end := unattendedRun(t, load(), queuePath, first); end.Reason != agentturn.ReasonDone || len(first.ran) != 0 {
		t.Fatalf("the unattended run ended %s and ran %v; want it done with nothing run", end.Reason, first.ran)
	}
	out, _, _ := w.run(t, "queue", "list", queuePath)
	if !strings.Contains(out, "git push origin main") || !strings.Contains(out, "waiting") {
		t.Fatalf("the queue after the run:\n%s", out)
	}
	if out, errs, code := w.run(t, "queue", "approve", queuePath, "1"); code != 0 {
		t.Fatalf("approve: exit %d %q %s", code, errs, out)
	}

	second := &bash{}
	if end := unattendedRun(t, load(), queuePath, second); end.Reason != agentturn.ReasonDone || !slices.Equal(second.ran, []string{"git push origin main"}) {
		t.Fatalf("the second run ended %s and ran %v; want the push run without asking", end.Reason, second.ran)
	}
	if calls, err := readQueue(queuePath); err != nil || len(calls) != 1 {
		t.Errorf("the queue holds %d calls, %v; want the first run's one", len(calls), err)
	}
}
