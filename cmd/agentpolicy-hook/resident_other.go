//go:build !linux

package main

// callResident reports false: the resident process runs on Linux only,
// and elsewhere every call runs the binary.
func callResident(string, []string) (int, bool) { return 0, false }

// execBinary runs agentpolicy hook with args on this process's standard
// streams and returns its exit status.
func execBinary(binary string, args []string) int { return runBinary(binary, args, nil) }
