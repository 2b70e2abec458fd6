package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/agentturn"
)

// queueWorld is a project outside any repository, whose settings ask about
// a push by default and ask about npm publish by a rule, and a queue an
// unattended run left with three calls.
type queueWorld struct {
	dir, queue, local string
	flags             []string
}

func newQueueWorld(t *testing.T) queueWorld {
	t.Helper()
	dir := t.TempDir()
	w := queueWorld{dir: dir, queue: filepath.Join(dir, "queue.jsonl"), local: filepath.Join(dir, ".claude", "settings.local.json")}
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := `{"permissions": {"allow": ["Bash(git status)"], "ask": ["Bash(npm publish *)"], "defaultMode": "default"}}`
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	w.flags = []string{"--project", dir, "--user-dir", filepath.Join(dir, "nouser"), "--managed-dir", filepath.Join(dir, "nomanaged"), "--trust"}

	// The run: what an Unattended reviewer queues is the verdict that
	// deferred each call, which the loaded policy gives.
	var f settingsFlags
	f.project, f.userDir, f.managedDir, f.trust = dir, filepath.Join(dir, "nouser"), filepath.Join(dir, "nomanaged"), true
	p, err := f.load()
	if err != nil {
		t.Fatal(err)
	}
	q, err := journal.Open(w.queue)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i, command := range []string{"git push origin main", "npm publish --tag next", "curl -s https://example.com"} {
		args, _ := json.Marshal(map[string]string{"command": command})
		v, err := p.engine.Would(context.Background(), callInfo("Bash", args))
		if err != nil || v.Action != agentturn.Defer {
			t.Fatalf("%s: %+v, %v; want it asked about", command, v, err)
		}
		v.RunID, v.CallID, v.Args = "run_1", "call_"+string(rune('1'+i)), string(args)
		if err := q.Record(context.Background(), v); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w queueWorld) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return cli(t, append(append([]string(nil), w.flags...), args...)...)
}

func TestQueueApproveAllowsTheNextRun(t *testing.T) {
	w := newQueueWorld(t)
	out, errs, code := w.run(t, "queue", "list", w.queue)
	if code != 0 || errs != "" || !strings.Contains(out, "git push origin main") || strings.Count(out, "waiting") != 3 {
		t.Fatalf("list: exit %d %q\n%s", code, errs, out)
	}

	out, errs, code = w.run(t, "queue", "approve", w.queue, "1")
	if code != 0 || errs != "" || !strings.Contains(out, "approved 1: Bash(git push origin main) added to the allow list") {
		t.Fatalf("approve: exit %d %q\n%s", code, errs, out)
	}
	data, err := os.ReadFile(w.local)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Permissions struct {
			Allow []string `json:"allow"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Permissions.Allow) != 1 || doc.Permissions.Allow[0] != "Bash(git push origin main)" {
		t.Fatalf("the local settings hold %s, %v; want the push allowed", data, err)
	}

	// The next run, with the same settings, pushes without asking.
	out, _, _ = w.run(t, "explain", "Bash", "--", "git", "push", "origin", "main")
	if !strings.HasPrefix(out, "decision:  allow") || !strings.Contains(out, "local settings") {
		t.Errorf("explain after approve:\n%s", out)
	}
	out, _, _ = w.run(t, "queue", "list", w.queue)
	if !strings.Contains(out, "approved: allowed by Bash(git push origin main)") || strings.Count(out, "waiting") != 2 {
		t.Errorf("list after approve:\n%s", out)
	}
	// A call is answered once.
	if _, errs, code := w.run(t, "queue", "approve", w.queue, "1"); code != exitInput || !strings.Contains(errs, "call 1 was answered already") {
		t.Errorf("approving again: exit %d %q", code, errs)
	}
	// The queue records who answered.
	vs, err := journal.Verdicts(w.queue)
	if err != nil {
		t.Fatal(err)
	}
	last := vs[len(vs)-1]
	if last.Action != agentturn.Allow || last.By != agentpolicy.ByHuman || last.CallID != "call_1" || last.RunID != "run_1" {
		t.Errorf("the queue's last record is %+v, want the person's approval of call_1", last)
	}
}

func TestQueueApproveRefusesWhatAFileCannotSay(t *testing.T) {
	w := newQueueWorld(t)
	_, errs, code := w.run(t, "queue", "approve", w.queue, "2")
	if code != exitInput || !strings.Contains(errs, "asked about by Bash(npm publish *)") || !strings.Contains(errs, "carve-out") {
		t.Errorf("approve of an ask rule's call: exit %d %q", code, errs)
	}
	if _, err := os.Stat(w.local); !os.IsNotExist(err) {
		t.Errorf("the local settings were written: %v", err)
	}
	for _, n := range []string{"0", "4", "x"} {
		if _, errs, code := w.run(t, "queue", "approve", w.queue, n); code != exitInput || !strings.Contains(errs, "holds no call "+n+": give a number from 1 to 3") {
			t.Errorf("approve %s: exit %d %q", n, code, errs)
		}
	}
}

func TestQueueRejectWithADenyRule(t *testing.T) {
	w := newQueueWorld(t)
	if err := os.WriteFile(w.local, []byte("{\"model\": \"x\", \"permissions\": {\"deny\": [\"Bash(rm *)\"]}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := w.run(t, "queue", "reject", "--deny", w.queue, "3")
	if code != 0 || errs != "" || !strings.Contains(out, "Bash(curl -s https://example.com) added to the deny list") {
		t.Fatalf("reject --deny: exit %d %q\n%s", code, errs, out)
	}
	data, _ := os.ReadFile(w.local)
	want := "{\n  \"model\": \"x\",\n  \"permissions\": {\n    \"deny\": [\n      \"Bash(rm *)\",\n      \"Bash(curl -s https://example.com)\"\n    ]\n  }\n}\n"
	if string(data) != want {
		t.Errorf("the local settings are\n%s\nwant\n%s", data, want)
	}
	if info, err := os.Stat(w.local); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the local settings' mode is %v, %v; want the file's own 0600 kept", info.Mode(), err)
	}
	out, _, _ = w.run(t, "explain", "Bash", "--", "curl", "-s", "https://example.com")
	if !strings.HasPrefix(out, "decision:  deny") {
		t.Errorf("explain after reject --deny:\n%s", out)
	}
	out, _, _ = w.run(t, "queue", "reject", w.queue, "1")
	if out != "rejected 1\n" {
		t.Errorf("reject: %q", out)
	}
	out, _, _ = w.run(t, "queue", "list", w.queue)
	if !strings.Contains(out, "rejected: denied by Bash(curl -s https://example.com)") || strings.Count(out, "rejected") != 2 {
		t.Errorf("list after the rejections:\n%s", out)
	}
}

// TestQueueAnswersListFilesUnderVerbose: approve and reject read the
// settings as explain does, and under --verbose list the files they read
// on standard error, as every command that reads them does.
func TestQueueAnswersListFilesUnderVerbose(t *testing.T) {
	w := newQueueWorld(t)
	project := "read: project settings, " + filepath.Join(w.dir, ".claude", "settings.json") + "\n"
	// approve writes the local file, which reject then reads too.
	local := "read: local settings, " + w.local + "\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"approve", w.queue, "1"}, project},
		{[]string{"reject", w.queue, "2"}, local + project},
	} {
		out, errs, code := w.run(t, append([]string{"queue", "--verbose"}, c.args...)...)
		if code != 0 || errs != c.want || out == "" {
			t.Errorf("queue %s --verbose: exit %d, stderr %q, want %q\n%s", c.args[0], code, errs, c.want, out)
		}
	}
	// Without the flag, nothing is listed.
	if _, errs, code := w.run(t, "queue", "reject", w.queue, "3"); code != 0 || errs != "" {
		t.Errorf("queue reject: exit %d, stderr %q, want nothing", code, errs)
	}
}
