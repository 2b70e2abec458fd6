package openresponses

import (
	"encoding/json"
)

// Tool is a tool offered to a model; function tools are *[FunctionTool].
type Tool interface {
	// ToolType is the tool's wire "type" ("function").
	ToolType() string
}

// Tools is the list of tools a [Request] offers.
type Tools []Tool

// FunctionTool is a tool the caller runs: the model calls it by Name with
// arguments valid against Parameters.
type FunctionTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// ToolType is "function".
func (*FunctionTool) ToolType() string { return "function" }

// MarshalJSON encodes the tool with its "type" first.
func (t *FunctionTool) MarshalJSON() ([]byte, error) {
	type plain FunctionTool
	return marshalTyped(t.ToolType(), (*plain)(t))
}

// NewFunctionTool describes a function tool whose arguments follow the JSON
// Schema parameters.
func NewFunctionTool(name, description string, parameters json.RawMessage) *FunctionTool {
	return &FunctionTool{Name: name, Description: description, Parameters: parameters}
}

// ToolChoiceMode says whether a model may, must or must not call tools.
type ToolChoiceMode string

// The tool choice modes.
const (
	ToolChoiceAuto     ToolChoiceMode = "auto"
	ToolChoiceNone     ToolChoiceMode = "none"
	ToolChoiceRequired ToolChoiceMode = "required"
)

// ToolChoice says which tools a model may call: by Mode, one forced Function,
// or an Allowed subset. The zero value leaves the choice to the model.
type ToolChoice struct {
	Mode     ToolChoiceMode
	Function *ToolChoiceFunction
	Allowed  *ToolChoiceAllowed
}

// ToolChoiceFunction forces a call of the function tool Name.
type ToolChoiceFunction struct {
	Name string `json:"name"`
}

// ToolChoiceAllowed restricts a model to the named tools, in Mode.
type ToolChoiceAllowed struct {
	Mode  ToolChoiceMode       `json:"mode"`
	Tools []ToolChoiceFunction `json:"tools"`
}

// MarshalJSON encodes the choice as the wire has it: a forced function as
// {"type":"function","name":…}, an allowed subset as
// {"type":"allowed_tools",…}, otherwise the mode as a string.
func (c ToolChoice) MarshalJSON() ([]byte, error) {
	switch {
	case c.Function != nil:
		return marshalTyped("function", c.Function)
	case c.Allowed != nil:
		type allowed struct {
			Mode  ToolChoiceMode    `json:"mode"`
			Tools []json.RawMessage `json:"tools"`
		}
		out := allowed{Mode: c.Allowed.Mode, Tools: make([]json.RawMessage, 0, len(c.Allowed.Tools))}
		for _, fn := range c.Allowed.Tools {
			raw, err := marshalTyped("function", fn)
			if err != nil {
				return nil, err
			}
			out.Tools = append(out.Tools, raw)
		}
		return marshalTyped("allowed_tools", out)
	}
	return json.Marshal(string(c.Mode))
}
