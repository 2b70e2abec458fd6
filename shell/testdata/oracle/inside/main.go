// Command inside runs in the bash oracle's sandbox (see oracle_test.go in
// the shell package). It is built once per test run as a static binary and
// plays two roles, chosen by the path it was started from, which a command
// under test cannot forge:
//
//   - at /oracle/driver it is the driver: it reads commands from standard
//     input, runs each in real bash over a fresh working directory, and
//     writes what bash did to standard output;
//   - under any other path it is a recorder, linked under the name of every
//     program on PATH: it appends the program it stands for and its
//     arguments to the log and exits 0, or, for the few real programs the
//     oracle lets run (shells, wrappers, readers that write), then runs the
//     real one, so the programs those start are recorded in turn.
package main

import (
	"fmt"
	"os"
)

// The sandbox's fixed paths, shared with the test that lays it out.
const (
	driverPath = "/oracle/driver"
	realDir    = "/oracle/real"
	logPath    = "/oracle/log/exec.log"
	outPath    = "/oracle/out/output"
)

func main() {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(127)
	}
	if exe == driverPath {
		if err := drive(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "oracle driver:", err)
			os.Exit(1)
		}
		return
	}
	record(exe)
}
