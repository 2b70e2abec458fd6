package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Setup is the driver's first input line: the directories each command
// starts from and how it runs.
type Setup struct {
	// Roots are the writable directories: emptied, laid out anew from
	// Files and compared before and after every command.
	Roots []string `json:"roots"`
	// Files are the files and directories every command starts with.
	Files []File `json:"files"`
	// Dir is the working directory; Env the environment bash starts with.
	Dir string   `json:"dir"`
	Env []string `json:"env"`
	// Timeout bounds a command; Grace how long programs it left running
	// may go on after bash exits, before they are killed.
	Timeout time.Duration `json:"timeout"`
	Grace   time.Duration `json:"grace"`
	// LogLimit is the size of the log's file system: a log that reaches
	// it lost records.
	LogLimit int64 `json:"log_limit"`
}

// File is one file or directory of the starting layout.
type File struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Dir     bool   `json:"dir"`
}

// Request is one command to run.
type Request struct {
	Command string `json:"command"`
}

// Result is what bash did with one command.
type Result struct {
	Execs   []Exec   `json:"execs"`
	Changes []Change `json:"changes"`
	// Status is bash's exit status, -1 when it was killed.
	Status int `json:"status"`
	// Output is the start of what bash and the programs wrote to the
	// standard output and error.
	Output   string `json:"output"`
	TimedOut bool   `json:"timed_out"`
	LogFull  bool   `json:"log_full"`
	// CPU is the processor time the command's programs used.
	CPU time.Duration `json:"cpu"`
}

// Change is a file or directory that a command created, deleted or
// modified under one of the roots.
type Change struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// fixedTime is the modification time of every starting file, so that a
// program that only touches a file is seen to change it.
var fixedTime = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)

// maxOutput bounds the output a result carries.
const maxOutput = 2048

// drive runs every request read from in and writes one result a line.
func drive(in io.Reader, out io.Writer) error {
	// Programs a command leaves behind become the driver's children, so it
	// can wait for them and know when the command is over.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0); errno != 0 {
		return fmt.Errorf("prctl: %w", errno)
	}
	r := bufio.NewReader(in)
	enc := json.NewEncoder(out)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading the setup: %w", err)
	}
	var setup Setup
	if err := json.Unmarshal(line, &setup); err != nil {
		return fmt.Errorf("reading the setup: %w", err)
	}
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		var req Request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("reading a request: %w", err)
		}
		res, err := run(&setup, req.Command)
		if err != nil {
			return err
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
}

// run runs one command over a fresh layout and reports what it did.
func run(setup *Setup, command string) (*Result, error) {
	if err := lay(setup); err != nil {
		return nil, fmt.Errorf("laying out the roots: %w", err)
	}
	before, err := snapshot(setup.Roots)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(logPath, nil, 0o600); err != nil {
		return nil, err
	}
	output, err := os.OpenFile(outPath, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer output.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer null.Close()

	res := &Result{}
	cpu := childrenCPU()
	res.Status, res.TimedOut, err = bash(setup, command, null, output)
	if err != nil {
		return nil, err
	}
	res.CPU = childrenCPU() - cpu
	head := make([]byte, maxOutput)
	n, _ := output.ReadAt(head, 0)
	res.Output = string(head[:n])

	after, err := snapshot(setup.Roots)
	if err != nil {
		return nil, err
	}
	res.Changes = compare(before, after)
	res.Execs, res.LogFull, err = readLog(setup.LogLimit)
	return res, err
}

// bash runs command in real bash and waits for it and for every program it
// left running, killing them all at the timeout, or at the grace period
// after bash exits.
func bash(setup *Setup, command string, stdin, output *os.File) (status int, timedOut bool, err error) {
	p, err := os.StartProcess(filepath.Join(realDir, "bash"), []string{"bash", "-c", command}, &os.ProcAttr{
		Dir: setup.Dir, Env: setup.Env, Files: []*os.File{stdin, output, output},
	})
	if err != nil {
		return 0, false, err
	}
	pid := p.Pid
	p.Release() // reaped below by pid, with every other child

	// The timers kill every process in the sandbox but its init and the
	// driver; once the command is over they must not reach the next one.
	var mu sync.Mutex
	over := false
	killAll := func(timeout bool) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			if !over {
				timedOut = timedOut || timeout
				syscall.Kill(-1, syscall.SIGKILL)
			}
		}
	}
	deadline := time.AfterFunc(setup.Timeout, killAll(true))
	var grace *time.Timer
	status = -1
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.ECHILD) {
			break
		}
		if err != nil {
			return 0, false, err
		}
		if got == pid {
			if ws.Exited() {
				status = ws.ExitStatus()
			}
			grace = time.AfterFunc(setup.Grace, killAll(false))
		}
	}
	mu.Lock()
	over = true
	mu.Unlock()
	deadline.Stop()
	if grace != nil {
		grace.Stop()
	}
	return status, timedOut, nil
}

// childrenCPU is the processor time of every child the driver has reaped.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lay empties the roots and writes the starting layout.
func lay(setup *Setup) error {
	for _, root := range setup.Roots {
		if err := os.Chmod(root, 0o755); err != nil {
			return err
		}
		entries, err := os.ReadDir(root)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
				return err
			}
		}
	}
	var dirs []string
	for _, f := range setup.Files {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return err
		}
		if f.Dir {
			if err := os.Mkdir(f.Path, 0o755); err != nil {
				return err
			}
			dirs = append(dirs, f.Path)
			continue
		}
		if err := os.WriteFile(f.Path, []byte(f.Content), 0o644); err != nil {
			return err
		}
		if err := os.Chtimes(f.Path, fixedTime, fixedTime); err != nil {
			return err
		}
	}
	for _, d := range dirs {
		if err := os.Chtimes(d, fixedTime, fixedTime); err != nil {
			return err
		}
	}
	return nil
}

// entry is what a snapshot keeps of one file.
type entry struct {
	mode  fs.FileMode
	mtime time.Time
	sum   [sha256.Size]byte
	link  string
}

// snapshot reads every file under the roots.
func snapshot(roots []string) (map[string]entry, error) {
	files := map[string]entry{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if path == root {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			e := entry{mode: info.Mode(), mtime: info.ModTime()}
			switch {
			case info.Mode().IsRegular():
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				e.sum = sha256.Sum256(data)
			case info.Mode()&fs.ModeSymlink != 0:
				e.link, _ = os.Readlink(path)
			}
			files[path] = e
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", root, err)
		}
	}
	return files, nil
}

// compare lists what changed between two snapshots. A directory is
// modified only when its mode changed: what changed inside it is listed
// for itself.
func compare(before, after map[string]entry) []Change {
	var changes []Change
	for path, a := range after {
		b, ok := before[path]
		switch {
		case !ok:
			changes = append(changes, Change{path, "created"})
		case a.mode != b.mode:
			changes = append(changes, Change{path, "modified"})
		case a.mode.IsDir():
		case a.mtime != b.mtime || a.sum != b.sum || a.link != b.link:
			changes = append(changes, Change{path, "modified"})
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			changes = append(changes, Change{path, "deleted"})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes
}

// readLog reads the recorders' log; full reports that it reached the size
// of its file system, so records may be missing.
func readLog(limit int64) (execs []Exec, full bool, err error) {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return nil, false, err
	}
	full = int64(len(data)) >= limit-64*1024
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		var e Exec
		if json.Unmarshal([]byte(line), &e) != nil {
			full = true // a record cut short when the file system filled
			continue
		}
		execs = append(execs, e)
	}
	return execs, full, nil
}
