//go:build unix

package agentpolicy

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU runs the benchmark's loop through fn and reports the CPU time
// the process spent per iteration beside the wall time, since the wall time
// of a machine shared with other work says more about the machine.
func reportCPU(b *testing.B, fn func()) {
	start := cpuTime(b)
	n := 0
	for b.Loop() {
		fn()
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(n), "cpu-ns/op")
}

// cpuTime is the user and system time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
