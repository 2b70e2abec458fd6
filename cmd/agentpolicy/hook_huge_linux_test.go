package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A 20 MB Write is journaled as its first 64 KiB, with the whole's length
// and digest, where it was journaled whole. (The hook's peak memory fell
// from 253 MB to about 157 MB on a quiet machine once it collects garbage
// for such an input; a busy one lets the collector fall behind, so that
// figure is measured by hand, not asserted.)
func TestHookHugeWriteIsJournaledUpToTheBound(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	journalPath := filepath.Join(dir, "journal.jsonl")
	content := strings.Repeat("a", 20<<20)
	ev, _ := marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "tool_use_id": "t", "cwd": dir,
		"tool_name": "Write", "tool_input": map[string]string{"file_path": filepath.Join(dir, "big.txt"), "content": content}})
	cmd := exec.Command(bin, "hook", "--user-dir", dir, "--managed-dir", dir, "--journal", journalPath)
	cmd.Stdin = bytes.NewReader(ev)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hook: %v\n%s", err, out)
	}
	data, err := os.ReadFile(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 70<<10 || !bytes.Contains(data, []byte(`"args_bytes":20971`)) {
		t.Errorf("the journal holds %d bytes; want the input cut to 64 KiB with its length", len(data))
	}
	t.Logf("the hook's peak memory: %d KiB", cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
}
