// Package depcheck holds the module's dependency boundary, so the tests of
// every package enforce the same one: a package of agentpolicy imports the
// standard library, the three loop modules it binds to and the module's own
// packages, and nothing else. A host that imports agentpolicy therefore
// downloads nothing it did not already have for its loop.
package depcheck

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// Allowed are the module paths a package may import besides the standard
// library.
var Allowed = []string{
	"github.com/ChristopherDavenport/agentpolicy",
	"github.com/ChristopherDavenport/agentturn",
	"github.com/ChristopherDavenport/agenttool",
	"github.com/ChristopherDavenport/openresponses",
}

// Outside lists the packages that pkg imports, directly or not, outside the
// standard library and the Allowed modules. pkg is a pattern the go command
// accepts, "." for the package in the working directory.
func Outside(pkg string) ([]string, error) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("go list %s: %v: %s", pkg, err, ee.Stderr)
		}
		return nil, fmt.Errorf("go list %s: %v", pkg, err)
	}
	var outside []string
	for _, path := range strings.Fields(string(out)) {
		if !allowed(path) {
			outside = append(outside, path)
		}
	}
	return outside, nil
}

// Check fails t when the package in the working directory, the one under
// test, imports anything outside the boundary, naming what it imports.
func Check(t testing.TB) {
	t.Helper()
	outside, err := Outside(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(outside) != 0 {
		t.Fatalf("the package imports packages outside its boundary: %v", outside)
	}
}

func allowed(path string) bool {
	for _, mod := range Allowed {
		if path == mod || strings.HasPrefix(path, mod+"/") {
			return true
		}
	}
	return false
}
