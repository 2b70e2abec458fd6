package agenttool

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

type bashArgs struct {
	Command string `json:"command"`
}

type editArgs struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

type inner struct {
	Depth int `json:"depth"`
}

type Embedded struct {
	Shared string `json:"shared"`
}

type node struct {
	Name     string  `json:"name"`
	Children []*node `json:"children,omitempty"`
}

type richArgs struct {
	Embedded
	Name     string          `json:"name" description:"who"`
	Count    int             `json:"count,omitempty"`
	Ratio    float64         `json:"ratio,omitzero"`
	On       bool            `json:"on"`
	Tags     []string        `json:"tags,omitempty"`
	Blob     []byte          `json:"blob,omitempty"`
	Labels   map[string]int  `json:"labels,omitempty"`
	Inner    *inner          `json:"inner"`
	When     time.Time       `json:"when,omitempty"`
	Raw      json.RawMessage `json:"raw,omitempty"`
	Any      any             `json:"any,omitempty"`
	Tree     node            `json:"tree,omitempty"`
	Untagged string
	Skipped  string            `json:"-"`
	Extra    map[string]string `json:",omitempty"`
}

// TestNewSchema checks the JSON Schema New reflects from the argument type,
// written out by hand.
func TestNewSchema(t *testing.T) {
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{
			name: "one field",
			tool: New("bash", "", func(context.Context, bashArgs) (string, error) { return "", nil }),
			want: `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`,
		},
		{
			name: "two fields",
			tool: New("edit", "", func(context.Context, editArgs) (string, error) { return "", nil }),
			want: `{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}},"required":["path","text"]}`,
		},
		{
			name: "NoArgs",
			tool: New("now", "", func(context.Context, NoArgs) (string, error) { return "", nil }),
			want: `{"type":"object","properties":{}}`,
		},
		{
			name: "anonymous empty struct",
			tool: New("now", "", func(context.Context, struct{}) (string, error) { return "", nil }),
			want: `{"type":"object","properties":{}}`,
		},
		{
			name: "pointer to struct",
			tool: New("bash", "", func(context.Context, *bashArgs) (string, error) { return "", nil }),
			want: `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`,
		},
		{
			name: "map",
			tool: New("env", "", func(context.Context, map[string]string) (string, error) { return "", nil }),
			want: `{"type":"object","additionalProperties":{"type":"string"}}`,
		},
		{
			name: "every kind of field",
			tool: New("rich", "", func(context.Context, richArgs) (string, error) { return "", nil }),
			want: `{"type":"object","properties":{` +
				`"shared":{"type":"string"},` +
				`"name":{"type":"string","description":"who"},` +
				`"count":{"type":"integer"},` +
				`"ratio":{"type":"number"},` +
				`"on":{"type":"boolean"},` +
				`"tags":{"type":"array","items":{"type":"string"}},` +
				`"blob":{"type":"string"},` +
				`"labels":{"type":"object","additionalProperties":{"type":"integer"}},` +
				`"inner":{"type":"object","properties":{"depth":{"type":"integer"}},"required":["depth"]},` +
				`"when":{"type":"string"},` +
				`"raw":{},` +
				`"any":{},` +
				`"tree":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{}}},"required":["name"]},` +
				`"Untagged":{"type":"string"},` +
				`"Extra":{"type":"object","additionalProperties":{"type":"string"}}` +
				`},"required":["shared","name","on","inner","Untagged"]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.tool.Parameters()); got != tt.want {
				t.Errorf("Parameters():\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestNewPanicsOnNonObject checks that an argument type that cannot be an
// arguments object is refused at construction.
func TestNewPanicsOnNonObject(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New with string arguments did not panic")
		}
	}()
	New("bad", "", func(context.Context, string) (string, error) { return "", nil })
}

// TestNewExecute checks argument checking, decoding, the call on the
// context, and output conversion.
func TestNewExecute(t *testing.T) {
	type out struct {
		N int `json:"n"`
	}
	echoCmd := New("bash", "", func(_ context.Context, a bashArgs) (string, error) { return "ran " + a.Command, nil })
	tests := []struct {
		name    string
		tool    Tool
		args    string
		want    Result
		wantErr string
	}{
		{"string output", echoCmd, `{"command":"ls"}`, Text("ran ls"), ""},
		{"missing required", echoCmd, `{}`, Text(`Error: invalid arguments: missing required property "command"`), `invalid arguments: missing required property "command"`},
		{"not an object", echoCmd, `["ls"]`, Text("Error: invalid arguments: the arguments must be a JSON object"), "invalid arguments: the arguments must be a JSON object"},
		{"wrong type", echoCmd, `{"command":1}`, Result{}, "invalid arguments: json: cannot unmarshal number"},
		{"malformed", echoCmd, `{"command":`, Result{}, "invalid arguments:"},
		{"no arguments for NoArgs", New("now", "", func(context.Context, NoArgs) (string, error) { return "now", nil }), ``, Text("now"), ""},
		{"null arguments for NoArgs", New("now", "", func(context.Context, NoArgs) (string, error) { return "now", nil }), `null`, Text("now"), ""},
		{"result as is", New("r", "", func(context.Context, NoArgs) (Result, error) {
			return Result{Output: Text("t").Output, Details: 7, Terminate: true}, nil
		}), `{}`, Result{Output: Text("t").Output, Details: 7, Terminate: true}, ""},
		{"struct JSON-encoded", New("j", "", func(context.Context, NoArgs) (out, error) { return out{N: 3}, nil }), `{}`, Text(`{"n":3}`), ""},
		{"slice JSON-encoded", New("j", "", func(context.Context, NoArgs) ([]string, error) { return []string{"a"}, nil }), `{}`, Text(`["a"]`), ""},
		{"function error", New("f", "", func(context.Context, NoArgs) (string, error) { return "", errors.New("disk full") }), `{}`, Text("Error: disk full"), "disk full"},
		{"unencodable output", New("u", "", func(context.Context, NoArgs) (func(), error) { return func() {}, nil }), `{}`, Result{}, "encoding the output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.tool.Execute(context.Background(), Call{ID: "call_1", Args: json.RawMessage(tt.args)})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if tt.wantErr != "" && reflect.DeepEqual(tt.want, Result{}) {
				if want := ErrorResult(err); !reflect.DeepEqual(got, want) {
					t.Errorf("result %#v, want %#v", got, want)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("result %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestCallOnContext checks that the function of a typed tool, and of
// NewFunc, finds its call on the context.
func TestCallOnContext(t *testing.T) {
	call := Call{ID: "call_7", Args: json.RawMessage(`{"command":"ls"}`), IdempotencyKey: "k1"}
	var seen []Call
	typed := New("bash", "", func(ctx context.Context, _ bashArgs) (string, error) {
		c, ok := CallFrom(ctx)
		if !ok {
			return "", errors.New("no call")
		}
		seen = append(seen, c)
		return "", nil
	})
	raw := NewFunc("raw", "", nil, func(ctx context.Context, got Call) (Result, error) {
		c, ok := CallFrom(ctx)
		if !ok || c.ID != got.ID {
			return Result{}, errors.New("no call")
		}
		seen = append(seen, c)
		return Result{}, nil
	})
	for _, tool := range []Tool{typed, raw} {
		if _, err := tool.Execute(context.Background(), call); err != nil {
			t.Fatalf("%s: %v", tool.Name(), err)
		}
	}
	for i, c := range seen {
		if c.ID != call.ID || c.IdempotencyKey != call.IdempotencyKey || string(c.Args) != string(call.Args) {
			t.Errorf("call %d on the context = %#v, want %#v", i, c, call)
		}
	}
	if len(seen) != 2 {
		t.Errorf("%d calls seen, want 2", len(seen))
	}
	if _, ok := CallFrom(context.Background()); ok {
		t.Error("CallFrom on a bare context found a call")
	}
}

// TestNewFunc checks the tool NewFunc builds: its identity and a copy of its
// schema.
func TestNewFunc(t *testing.T) {
	schema := json.RawMessage(`{"type":"object"}`)
	tool := NewFunc("raw", "does raw things", schema, func(_ context.Context, c Call) (Result, error) {
		return Text(string(c.Args)), nil
	})
	if tool.Name() != "raw" || tool.Description() != "does raw things" || string(tool.Parameters()) != `{"type":"object"}` {
		t.Errorf("tool = %q %q %s", tool.Name(), tool.Description(), tool.Parameters())
	}
	schema[2] = 'X'
	p := tool.Parameters()
	p[3] = 'Y'
	if string(tool.Parameters()) != `{"type":"object"}` {
		t.Errorf("schema changed through a caller's slice: %s", tool.Parameters())
	}
	got, err := tool.Execute(context.Background(), Call{Args: json.RawMessage(`{"a":1}`)})
	if err != nil || !reflect.DeepEqual(got, Text(`{"a":1}`)) {
		t.Errorf("Execute = %#v, %v", got, err)
	}
}

// TestDecode checks Decode's handling of empty and malformed arguments.
func TestDecode(t *testing.T) {
	tests := []struct {
		in      string
		want    bashArgs
		wantErr bool
	}{
		{`{"command":"ls"}`, bashArgs{Command: "ls"}, false},
		{``, bashArgs{}, false},
		{` null `, bashArgs{}, false},
		{`{"command":2}`, bashArgs{}, true},
		{`nope`, bashArgs{}, true},
	}
	for _, tt := range tests {
		got, err := Decode[bashArgs](json.RawMessage(tt.in))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("Decode(%q) = %#v, %v", tt.in, got, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "invalid arguments: ") {
			t.Errorf("Decode(%q) error %q, want the prefix %q", tt.in, err, "invalid arguments: ")
		}
	}
}

// TestTextAndErrorResult checks the two result constructors.
func TestTextAndErrorResult(t *testing.T) {
	if got := Text("ok"); got.Output.Text != "ok" || got.Output.Parts != nil || got.Details != nil || got.Terminate {
		t.Errorf("Text = %#v", got)
	}
	if got := ErrorResult(errors.New("denied by bash(rm:*)")); got.Output.String() != "Error: denied by bash(rm:*)" {
		t.Errorf("ErrorResult = %#v", got)
	}
}
