package shell

import (
	"os"
	"strings"
	"sync"
	"testing"
)

// A process that decides one command pays for the tables of its
// commands alone: initializing the package indexes no option table.

// indexedAtInit is how many option tables were indexed before any test
// ran: by the package's initialization.
var indexedAtInit int64

func TestMain(m *testing.M) {
	indexedAtInit = indexesBuilt.Load()
	os.Exit(m.Run())
}

// TestInitIndexesNoTable fails when a table is indexed at init again.
func TestInitIndexesNoTable(t *testing.T) {
	if indexedAtInit != 0 {
		t.Errorf("initializing the package indexed %d option tables, want none", indexedAtInit)
	}
}

// TestTableIndexedOnce reads a table from many goroutines at once: it is
// indexed on the first read, once, and each reads it whole.
func TestTableIndexedOnce(t *testing.T) {
	table := flagSet(byEffect{inert: "a b:", writesArg: "o: output:"})
	before := indexesBuilt.Load()
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
	if n := indexesBuilt.Load() - before; n != 1 {
		t.Errorf("reading a table from 8 goroutines indexed it %d times, want once", n)
	}
}

// TestGitInertReadOnce reads a git subcommand's inert options from many
// goroutines at once: the set is built once, and each reads it whole.
func TestGitInertReadOnce(t *testing.T) {
	inert := inertGit("stat stat= p")
	before := indexesBuilt.Load()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			set := inert.options()
			if len(set) != 3 || !set["stat"] || !set["stat="] || !set["p"] {
				t.Errorf("the set of \"stat stat= p\" is %v", set)
			}
		})
	}
	wg.Wait()
	if n := indexesBuilt.Load() - before; n != 1 {
		t.Errorf("reading a set from 8 goroutines built it %d times, want once", n)
	}
}

// TestModeLetters holds chmod's mode options to the letters of a mode.
func TestModeLetters(t *testing.T) {
	want := " " + strings.Join(strings.Split(chmodModes, ""), ":: ") + "::"
	if modeLetters != want {
		t.Errorf("modeLetters = %q, want %q", modeLetters, want)
	}
}
