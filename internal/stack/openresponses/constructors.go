package openresponses

import (
	"crypto/rand"
	"encoding/hex"
)

// UserText is a user message of one [InputText] part.
func UserText(text string) *Message {
	return &Message{Role: RoleUser, Content: Contents{&InputText{Text: text}}}
}

// UserMessage is a user message of the given parts.
func UserMessage(parts ...Content) *Message {
	return &Message{Role: RoleUser, Content: Contents(parts)}
}

// SystemText is a system message of one [InputText] part.
func SystemText(text string) *Message {
	return &Message{Role: RoleSystem, Content: Contents{&InputText{Text: text}}}
}

// DeveloperText is a developer message of one [InputText] part; a loop uses
// it for notes addressed to the model by the harness.
func DeveloperText(text string) *Message {
	return &Message{Role: RoleDeveloper, Content: Contents{&InputText{Text: text}}}
}

// AssistantText is an assistant message of one [OutputText] part, as a model
// would have written it.
func AssistantText(text string) *Message {
	return &Message{Role: RoleAssistant, Content: Contents{&OutputText{Text: text}}}
}

// NewFunctionCallOutput answers the call callID with text output.
func NewFunctionCallOutput(callID, output string) *FunctionCallOutput {
	return &FunctionCallOutput{CallID: callID, Output: FunctionCallOutputData{Text: output}}
}

// NewID returns a fresh identifier "<prefix>_<24 hex digits>" for runs,
// calls, messages and responses.
func NewID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error
	return prefix + "_" + hex.EncodeToString(b[:])
}
