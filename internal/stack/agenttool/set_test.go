package agenttool

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/openresponses"
)

func named(name string) Tool {
	return NewFunc(name, name+" tool", json.RawMessage(`{"type":"object","properties":{}}`), noop)
}

// TestSetValidate checks that empty, nil and duplicate names are refused.
func TestSetValidate(t *testing.T) {
	tests := []struct {
		name    string
		set     Set
		wantErr string
	}{
		{"empty set", nil, ""},
		{"distinct names", Set{named("a"), named("b")}, ""},
		{"empty name", Set{named("a"), named("")}, `agenttool: tool 1 has an empty name`},
		{"duplicate name", Set{named("a"), named("b"), named("a")}, `agenttool: duplicate tool name "a"`},
		{"nil tool", Set{nil}, `agenttool: tool 0 is nil`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.set.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Validate() = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestSetLookup checks lookup by name: the first match, nil entries skipped.
func TestSetLookup(t *testing.T) {
	first, second := named("a"), named("a")
	set := Set{nil, named("b"), first, second}
	if got, ok := set.Lookup("a"); !ok || got != first {
		t.Errorf("Lookup(a) = %v, %v; want the first a", got, ok)
	}
	if got, ok := set.Lookup("zzz"); ok || got != nil {
		t.Errorf("Lookup(zzz) = %v, %v; want nil, false", got, ok)
	}
}

// TestDefinitions checks one function tool per tool, in order.
func TestDefinitions(t *testing.T) {
	bash := New("bash", "run a command", func(context.Context, struct {
		Command string `json:"command"`
	}) (string, error) {
		return "", nil
	})
	got := Set{bash, nil, named("x")}.Definitions()
	want := openresponses.Tools{
		&openresponses.FunctionTool{Name: "bash", Description: "run a command", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
		&openresponses.FunctionTool{Name: "x", Description: "x tool", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
	}
	if !reflect.DeepEqual(got, want) {
		raw, _ := json.Marshal(got)
		t.Errorf("Definitions() = %s", raw)
	}
	if def := Definition(bash); !strings.Contains(string(def.Parameters), `"required":["command"]`) {
		t.Errorf("Definition(bash).Parameters = %s", def.Parameters)
	}
}
