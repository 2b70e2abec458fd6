// Package corpus runs the conformance corpus of the RFC's corpus section
// (grammar.json, matchers.json and decisions.json) against this module, for
// the module's own tests and for the agentpolicy command's corpus command,
// so a settings editor or a second implementation can run its cases here
// exactly as the project runs its own. Each file is {"cases": [...]},
// decoded with unknown members refused, so a case cannot say something a
// runner silently ignores; a member a case leaves out is its zero value.
package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// T is what a case reports through: *testing.T is one, and so is the
// collector [Run] gives each case. Fatalf ends the case.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Case is one case of the corpus.
type Case struct {
	// File is the corpus file the case is in, "grammar.json" say.
	File string
	// Name is the case's name, or for a matcher case a description of it.
	Name string
	// Covers is what the case exercises, for a check that a corpus has a
	// case of everything: a grammar error's kind, or a matcher's name.
	Covers string

	run func(T)
}

// Run runs the case, reporting its failures through t.
func (c Case) Run(t T) { c.run(t) }

// Load reads the three corpus files in dir, in the order grammar,
// matchers, decisions.
func Load(dir string) ([]Case, error) {
	var all []Case
	for _, read := range []func(string) ([]Case, error){grammarCases, matcherCases, decisionCases} {
		cases, err := read(dir)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	return all, nil
}

// Result is a case that ran and what it reported; no Failures is a pass.
type Result struct {
	File, Case string
	Failures   []string
}

// Run loads the corpus in dir and runs every case, each to its first
// Fatalf or to its end.
func Run(dir string) ([]Result, error) {
	cases, err := Load(dir)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(cases))
	for i, c := range cases {
		col := &collector{}
		col.run(c)
		results[i] = Result{File: c.File, Case: c.Name, Failures: slices.Clip(col.failures)}
	}
	return results, nil
}

// collector is the T of a case [Run] runs.
type collector struct{ failures []string }

// errFatal ends a case at its first Fatalf.
var errFatal = errors.New("the case stopped")

func (c *collector) Helper() {}

func (c *collector) Errorf(format string, args ...any) {
	c.failures = append(c.failures, fmt.Sprintf(format, args...))
}

func (c *collector) Fatalf(format string, args ...any) {
	c.Errorf(format, args...)
	panic(errFatal)
}

// run runs the case, recovering the panic Fatalf ends it with; any other
// panic is the implementation's, reported as the case's failure.
func (c *collector) run(k Case) {
	defer func() {
		switch r := recover(); r {
		case nil, errFatal:
		default:
			c.failures = append(c.failures, fmt.Sprintf("panic: %v", r))
		}
	}()
	k.Run(c)
}

// load decodes dir/name into v, refusing unknown members and anything
// after the one JSON document.
func load(dir, name string, v any) error {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", filepath.Join(dir, name), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: text after the document", filepath.Join(dir, name))
	}
	return nil
}
