package secret

import (
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/depcheck"
)

// TestDependencyBoundary fails when the package imports, directly or
// through another package, anything outside the standard library, the loop
// modules and this module, so a host never downloads a module it did not
// ask for.
func TestDependencyBoundary(t *testing.T) {
	depcheck.Check(t)
}
