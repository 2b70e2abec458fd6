package shell

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A process that decides one command pays for the tables of its
// commands alone, and one that decides none pays for no table:
// initializing the package builds none.

// builtAtInit is how many tables were built before any test ran: by the
// package's initialization.
var builtAtInit int64

func TestMain(m *testing.M) {
	builtAtInit = tablesBuilt.Load()
	os.Exit(m.Run())
}

// TestInitBuildsNoTable fails when a table is built at init again.
func TestInitBuildsNoTable(t *testing.T) {
	if builtAtInit != 0 {
		t.Errorf("initializing the package built %d tables, want none", builtAtInit)
	}
}

// TestTableIndexedOnce reads a table from many goroutines at once: it is
// indexed on the first read, once, and each reads it whole.
func TestTableIndexedOnce(t *testing.T) {
	table := flagSet(byEffect{inert: "a b:", writesArg: "o: output:"})
	before := tablesBuilt.Load()
	args := []word{{value: "-ab", literal: true}, {value: "x", literal: true}, {value: "--out=f", literal: true}, {value: "y", literal: true}}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			p := table.parseFlags("cmd", args, true)
			if p.opaque != "" || len(p.options) != 3 || p.options[2].effect != writesArg || len(p.operands) != 1 {
				t.Errorf("cmd -ab x --out=f y read as %+v", p)
			}
		})
	}
	wg.Wait()
	if n := tablesBuilt.Load() - before; n != 1 {
		t.Errorf("reading a table from 8 goroutines indexed it %d times, want once", n)
	}
}

// TestGitInertReadOnce reads a git subcommand's inert options from many
// goroutines at once: the table is indexed once, and each reads it whole.
func TestGitInertReadOnce(t *testing.T) {
	inert := inertGit("stat:: p")
	before := tablesBuilt.Load()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !gitInertOnly(inert, "log", []word{{value: "--stat=3", literal: true}, {value: "-p5", literal: true}}) {
				t.Error("git log --stat=3 -p5 is not read as inert under \"stat:: p\"")
			}
			if gitInertOnly(inert, "log", []word{{value: "--output=x", literal: true}}) {
				t.Error("git log --output=x is read as inert under \"stat:: p\"")
			}
		})
	}
	wg.Wait()
	if n := tablesBuilt.Load() - before; n != 1 {
		t.Errorf("reading a table from 8 goroutines indexed it %d times, want once", n)
	}
}

// TestModeLetters holds chmod's mode options to the letters of a mode.
func TestModeLetters(t *testing.T) {
	var want []string
	for _, letter := range strings.Split(chmodModes, "") {
		want = append(want, letter+"::")
	}
	if got := strings.Fields(modeLetters); !slices.Equal(got, want) {
		t.Errorf("modeLetters = %q, want %q", got, want)
	}
}
