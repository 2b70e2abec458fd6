package openresponses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Content is one part of a [Message], a [ReasoningItem] or a
// [FunctionCallOutputData]; the concrete parts are pointers such as
// *[InputText] and *[OutputText].
type Content interface {
	// ContentType is the part's wire "type" ("input_text", "output_text", …).
	ContentType() string
}

// Contents is a list of parts. It is always encoded as an array (nil as
// []) and decoded by each part's "type".
type Contents []Content

// Text concatenates the text of the text-bearing parts ([InputText],
// [OutputText], [Refusal], [Text], [SummaryText], [ReasoningText]); images
// and unknown parts carry no text.
func (c Contents) Text() string {
	var b strings.Builder
	for _, part := range c {
		switch p := part.(type) {
		case *InputText:
			b.WriteString(p.Text)
		case *OutputText:
			b.WriteString(p.Text)
		case *Refusal:
			b.WriteString(p.Refusal)
		case *Text:
			b.WriteString(p.Text)
		case *SummaryText:
			b.WriteString(p.Text)
		case *ReasoningText:
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// MarshalJSON encodes the parts as an array, nil as [] so that a message's
// content member is always present.
func (c Contents) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Content(c))
}

// UnmarshalJSON decodes an array of parts, choosing each part's type by its
// "type" member; a type this package does not know becomes an
// [UnknownContent] that keeps the raw bytes.
func (c *Contents) UnmarshalJSON(data []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("openresponses: content: %w", err)
	}
	if raws == nil {
		*c = nil
		return nil
	}
	out := make(Contents, 0, len(raws))
	for _, raw := range raws {
		part, err := unmarshalContent(raw)
		if err != nil {
			return err
		}
		out = append(out, part)
	}
	*c = out
	return nil
}

func unmarshalContent(raw json.RawMessage) (Content, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	typ, err := typeOf(raw)
	if err != nil {
		return nil, err
	}
	var part Content
	switch typ {
	case "input_text":
		part = new(InputText)
	case "output_text":
		part = new(OutputText)
	case "refusal":
		part = new(Refusal)
	case "text":
		part = new(Text)
	case "summary_text":
		part = new(SummaryText)
	case "reasoning_text":
		part = new(ReasoningText)
	case "input_image":
		part = new(InputImage)
	default:
		return &UnknownContent{Type: typ, Raw: append(json.RawMessage(nil), raw...)}, nil
	}
	if err := json.Unmarshal(raw, part); err != nil {
		return nil, fmt.Errorf("openresponses: %s part: %w", typ, err)
	}
	return part, nil
}

// InputText is text the caller puts into the window (user, system and
// developer messages).
type InputText struct {
	Text string `json:"text"`
}

// ContentType is "input_text".
func (*InputText) ContentType() string { return "input_text" }

// MarshalJSON encodes the part with its "type" first.
func (p *InputText) MarshalJSON() ([]byte, error) {
	type plain InputText
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// OutputText is text a model wrote in an assistant [Message].
type OutputText struct {
	Text        string       `json:"text"`
	Annotations []Annotation `json:"annotations,omitempty"`
	Logprobs    []LogProb    `json:"logprobs,omitempty"`
}

// ContentType is "output_text".
func (*OutputText) ContentType() string { return "output_text" }

// MarshalJSON encodes the part with its "type" first.
func (p *OutputText) MarshalJSON() ([]byte, error) {
	type plain OutputText
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// Annotation marks a span of an [OutputText], such as a citation.
type Annotation struct {
	Type       string `json:"type"`
	URL        string `json:"url,omitempty"`
	Title      string `json:"title,omitempty"`
	FileID     string `json:"file_id,omitempty"`
	Filename   string `json:"filename,omitempty"`
	StartIndex int    `json:"start_index,omitempty"`
	EndIndex   int    `json:"end_index,omitempty"`
}

// LogProb is the log probability of one output token of an [OutputText].
type LogProb struct {
	Token       string       `json:"token"`
	Logprob     float64      `json:"logprob"`
	Bytes       []int        `json:"bytes,omitempty"`
	TopLogprobs []TopLogProb `json:"top_logprobs,omitempty"`
}

// TopLogProb is one of the likeliest alternatives to a [LogProb] token.
type TopLogProb struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	Bytes   []int   `json:"bytes,omitempty"`
}

// Refusal is a model's refusal to answer, in place of [OutputText].
type Refusal struct {
	Refusal string `json:"refusal"`
}

// ContentType is "refusal".
func (*Refusal) ContentType() string { return "refusal" }

// MarshalJSON encodes the part with its "type" first.
func (p *Refusal) MarshalJSON() ([]byte, error) {
	type plain Refusal
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// Text is plain text, as in a [FunctionCallOutputData] made of parts.
type Text struct {
	Text string `json:"text"`
}

// ContentType is "text".
func (*Text) ContentType() string { return "text" }

// MarshalJSON encodes the part with its "type" first.
func (p *Text) MarshalJSON() ([]byte, error) {
	type plain Text
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// SummaryText is a readable summary of a model's reasoning, in
// [ReasoningItem.Summary].
type SummaryText struct {
	Text string `json:"text"`
}

// ContentType is "summary_text".
func (*SummaryText) ContentType() string { return "summary_text" }

// MarshalJSON encodes the part with its "type" first.
func (p *SummaryText) MarshalJSON() ([]byte, error) {
	type plain SummaryText
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// ReasoningText is a model's raw reasoning, in [ReasoningItem.Content].
type ReasoningText struct {
	Text string `json:"text"`
}

// ContentType is "reasoning_text".
func (*ReasoningText) ContentType() string { return "reasoning_text" }

// MarshalJSON encodes the part with its "type" first.
func (p *ReasoningText) MarshalJSON() ([]byte, error) {
	type plain ReasoningText
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// InputImage is an image put into the window, by URL or by file ID; it
// carries no text.
type InputImage struct {
	ImageURL string `json:"image_url,omitempty"`
	FileID   string `json:"file_id,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// ContentType is "input_image".
func (*InputImage) ContentType() string { return "input_image" }

// MarshalJSON encodes the part with its "type" first.
func (p *InputImage) MarshalJSON() ([]byte, error) {
	type plain InputImage
	return marshalTyped(p.ContentType(), (*plain)(p))
}

// UnknownContent is a part of a type this package does not know; it keeps
// the raw bytes so that a transcript survives a round trip unchanged.
type UnknownContent struct {
	Type string
	Raw  json.RawMessage
}

// ContentType is the part's own "type".
func (p *UnknownContent) ContentType() string { return p.Type }

// MarshalJSON writes the raw bytes back, or a bare typed object when there
// are none.
func (p *UnknownContent) MarshalJSON() ([]byte, error) {
	if len(p.Raw) > 0 {
		return p.Raw, nil
	}
	return marshalTyped(p.Type, struct{}{})
}
