//go:build !unix

package agentpolicy

import "testing"

// reportCPU runs the benchmark's loop through fn; without getrusage there
// is no CPU time to report beside the wall time.
func reportCPU(b *testing.B, fn func()) {
	for b.Loop() {
		fn()
	}
}
