package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
)

// Exec is one program started in the sandbox, as the recorder logs it.
type Exec struct {
	// Exe is the path the kernel started, which exec -a cannot change.
	Exe  string   `json:"exe"`
	Argv []string `json:"argv"`
	Cwd  string   `json:"cwd"`
	// Pid and Ppid link a program to the one that started it.
	Pid  int `json:"pid"`
	Ppid int `json:"ppid"`
}

// record logs the program started as exe, then runs the real program of
// that name when the sandbox has one, and otherwise exits 0.
func record(exe string) {
	cwd, _ := os.Getwd()
	line, err := json.Marshal(Exec{Exe: exe, Argv: os.Args, Cwd: cwd, Pid: os.Getpid(), Ppid: os.Getppid()})
	if err == nil {
		// One write in append mode, so records of programs running at
		// once never interleave.
		if f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
	}
	real := filepath.Join(realDir, filepath.Base(exe))
	if _, err := os.Stat(real); err == nil {
		err := syscall.Exec(real, os.Args, os.Environ())
		os.Stderr.WriteString("oracle recorder: " + err.Error() + "\n")
		os.Exit(126)
	}
	os.Exit(0)
}
