package openresponses

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Item is one entry of a transcript or of a response's output; the concrete
// items are pointers such as *[Message] and *[FunctionCall].
type Item interface {
	// ItemType is the item's wire "type" ("message", "function_call", …).
	ItemType() string
}

// Items is a transcript: the input of a [Request] or the output of a
// [Response].
type Items []Item

// UnmarshalJSON decodes an array of items, choosing each item's type by its
// "type" member (an object without one that has a "role" is a message); a
// type this package does not know becomes an [UnknownItem] that keeps the raw
// bytes.
func (it *Items) UnmarshalJSON(data []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("openresponses: items: %w", err)
	}
	if raws == nil {
		*it = nil
		return nil
	}
	out := make(Items, 0, len(raws))
	for _, raw := range raws {
		item, err := unmarshalItem(raw)
		if err != nil {
			return err
		}
		out = append(out, item)
	}
	*it = out
	return nil
}

func unmarshalItem(raw json.RawMessage) (Item, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var head struct {
		Type string          `json:"type"`
		Role json.RawMessage `json:"role"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("openresponses: item: %w", err)
	}
	if head.Type == "" && head.Role != nil {
		head.Type = "message"
	}
	var item Item
	switch head.Type {
	case "message":
		item = new(Message)
	case "function_call":
		item = new(FunctionCall)
	case "function_call_output":
		item = new(FunctionCallOutput)
	case "reasoning":
		item = new(ReasoningItem)
	case "compaction":
		item = new(Compaction)
	case "item_reference":
		item = new(ItemReference)
	default:
		return &UnknownItem{Type: head.Type, Raw: append(json.RawMessage(nil), raw...)}, nil
	}
	if err := json.Unmarshal(raw, item); err != nil {
		return nil, fmt.Errorf("openresponses: %s item: %w", head.Type, err)
	}
	return item, nil
}

// Message is a turn of speech: the caller's input (user, system, developer)
// or a model's answer (assistant).
type Message struct {
	ID      string   `json:"id,omitempty"`
	Status  Status   `json:"status,omitempty"`
	Role    Role     `json:"role"`
	Content Contents `json:"content"`
	Phase   Phase    `json:"phase,omitempty"`
}

// ItemType is "message".
func (*Message) ItemType() string { return "message" }

// Text concatenates the text of the message's parts (see [Contents.Text]).
func (m *Message) Text() string { return m.Content.Text() }

// MarshalJSON encodes the message with its "type" first.
func (m *Message) MarshalJSON() ([]byte, error) {
	type plain Message
	return marshalTyped(m.ItemType(), (*plain)(m))
}

// UnmarshalJSON decodes a message; besides an array of parts it accepts the
// content as a bare string, which becomes one [OutputText] for an assistant
// and one [InputText] for every other role.
func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	var shape struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &shape); err != nil {
		return err
	}
	*m = Message(shape.plain)
	content := bytes.TrimSpace(shape.Content)
	if len(content) == 0 || content[0] != '"' {
		if len(content) == 0 {
			return nil
		}
		return json.Unmarshal(content, &m.Content)
	}
	var text string
	if err := json.Unmarshal(content, &text); err != nil {
		return err
	}
	if m.Role == RoleAssistant {
		m.Content = Contents{&OutputText{Text: text}}
	} else {
		m.Content = Contents{&InputText{Text: text}}
	}
	return nil
}

// FunctionCall is a model's request to run a tool; Arguments is the JSON
// object of arguments as a string.
type FunctionCall struct {
	ID        string `json:"id,omitempty"`
	Status    Status `json:"status,omitempty"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ItemType is "function_call".
func (*FunctionCall) ItemType() string { return "function_call" }

// MarshalJSON encodes the call with its "type" first.
func (c *FunctionCall) MarshalJSON() ([]byte, error) {
	type plain FunctionCall
	return marshalTyped(c.ItemType(), (*plain)(c))
}

// FunctionCallOutput answers the [FunctionCall] with the same CallID.
type FunctionCallOutput struct {
	ID     string                 `json:"id,omitempty"`
	Status Status                 `json:"status,omitempty"`
	CallID string                 `json:"call_id"`
	Output FunctionCallOutputData `json:"output"`
}

// ItemType is "function_call_output".
func (*FunctionCallOutput) ItemType() string { return "function_call_output" }

// MarshalJSON encodes the output with its "type" first.
func (o *FunctionCallOutput) MarshalJSON() ([]byte, error) {
	type plain FunctionCallOutput
	return marshalTyped(o.ItemType(), (*plain)(o))
}

// FunctionCallOutputData is what a tool returned: plain text, or parts when
// Parts is non-nil (then Parts is what goes on the wire and Text is unused).
type FunctionCallOutputData struct {
	Text  string
	Parts Contents
}

// String is the text of the output: the text of Parts when Parts is non-nil,
// else Text.
func (d FunctionCallOutputData) String() string {
	if d.Parts != nil {
		return d.Parts.Text()
	}
	return d.Text
}

// MarshalJSON encodes Parts as an array when it is non-nil, else Text as a
// string.
func (d FunctionCallOutputData) MarshalJSON() ([]byte, error) {
	if d.Parts != nil {
		return d.Parts.MarshalJSON()
	}
	return json.Marshal(d.Text)
}

// UnmarshalJSON accepts either shape [FunctionCallOutputData.MarshalJSON]
// writes.
func (d *FunctionCallOutputData) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		*d = FunctionCallOutputData{}
		if err := d.Parts.UnmarshalJSON(trimmed); err != nil {
			return err
		}
		if d.Parts == nil {
			d.Parts = Contents{}
		}
		return nil
	}
	var text string
	if err := json.Unmarshal(trimmed, &text); err != nil {
		return fmt.Errorf("openresponses: function call output: %w", err)
	}
	*d = FunctionCallOutputData{Text: text}
	return nil
}

// ReasoningItem carries a model's reasoning: a readable Summary, optionally
// the raw Content, or an opaque EncryptedContent to hand back later.
type ReasoningItem struct {
	ID               string   `json:"id,omitempty"`
	Status           Status   `json:"status,omitempty"`
	Summary          Contents `json:"summary"`
	Content          Contents `json:"content,omitempty"`
	EncryptedContent string   `json:"encrypted_content,omitempty"`
}

// ItemType is "reasoning".
func (*ReasoningItem) ItemType() string { return "reasoning" }

// MarshalJSON encodes the item with its "type" first.
func (r *ReasoningItem) MarshalJSON() ([]byte, error) {
	type plain ReasoningItem
	return marshalTyped(r.ItemType(), (*plain)(r))
}

// Compaction stands for the part of a transcript a model compacted (see
// [Adapter.Compact]); its content is opaque.
type Compaction struct {
	ID               string `json:"id,omitempty"`
	EncryptedContent string `json:"encrypted_content"`
	CreatedBy        string `json:"created_by,omitempty"`
	Status           Status `json:"status,omitempty"`
}

// ItemType is "compaction".
func (*Compaction) ItemType() string { return "compaction" }

// MarshalJSON encodes the item with its "type" first.
func (c *Compaction) MarshalJSON() ([]byte, error) {
	type plain Compaction
	return marshalTyped(c.ItemType(), (*plain)(c))
}

// ItemReference points at an item the server already stores, by ID.
type ItemReference struct {
	ID string `json:"id"`
}

// ItemType is "item_reference".
func (*ItemReference) ItemType() string { return "item_reference" }

// MarshalJSON encodes the reference with its "type" first.
func (r *ItemReference) MarshalJSON() ([]byte, error) {
	type plain ItemReference
	return marshalTyped(r.ItemType(), (*plain)(r))
}

// UnknownItem is an item of a type this package does not know (an
// extension); it keeps the raw bytes so that a transcript survives a round
// trip unchanged.
type UnknownItem struct {
	Type string
	Raw  json.RawMessage
}

// ItemType is the item's own "type".
func (u *UnknownItem) ItemType() string { return u.Type }

// MarshalJSON writes the raw bytes back, or a bare typed object when there
// are none.
func (u *UnknownItem) MarshalJSON() ([]byte, error) {
	if len(u.Raw) > 0 {
		return u.Raw, nil
	}
	return marshalTyped(u.Type, struct{}{})
}
