package agenttool

import (
	"fmt"

	"github.com/ChristopherDavenport/openresponses"
)

// Set is the list of tools offered to a model, looked up by name.
type Set []Tool

// Lookup returns the first tool named name.
func (s Set) Lookup(name string) (Tool, bool) {
	for _, t := range s {
		if t != nil && t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

// Definitions describes every tool for a request, one [Definition] each, in
// order; nil entries are skipped.
func (s Set) Definitions() openresponses.Tools {
	defs := make(openresponses.Tools, 0, len(s))
	for _, t := range s {
		if t != nil {
			defs = append(defs, Definition(t))
		}
	}
	return defs
}

// Validate refuses a set a model could not call unambiguously: a nil tool, a
// tool with an empty name, or two tools with the same name.
func (s Set) Validate() error {
	seen := make(map[string]bool, len(s))
	for i, t := range s {
		if t == nil {
			return fmt.Errorf("agenttool: tool %d is nil", i)
		}
		name := t.Name()
		if name == "" {
			return fmt.Errorf("agenttool: tool %d has an empty name", i)
		}
		if seen[name] {
			return fmt.Errorf("agenttool: duplicate tool name %q", name)
		}
		seen[name] = true
	}
	return nil
}

// Definition describes t as the function tool a request offers.
func Definition(t Tool) *openresponses.FunctionTool {
	return openresponses.NewFunctionTool(t.Name(), t.Description(), t.Parameters())
}
