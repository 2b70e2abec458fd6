package openresponses

import (
	"encoding/json"
	"slices"
)

// Clone returns a deep copy: every item and part of this package is copied,
// so rewriting the copy through its pointers never touches the original. Nil
// stays nil and empty stays empty. Items of types defined outside this
// package cannot be copied and are shared.
func (it Items) Clone() Items {
	if it == nil {
		return nil
	}
	out := make(Items, len(it))
	for i, item := range it {
		out[i] = cloneItem(item)
	}
	return out
}

func cloneItem(item Item) Item {
	switch v := item.(type) {
	case *Message:
		if v == nil {
			return v
		}
		c := *v
		c.Content = v.Content.Clone()
		return &c
	case *FunctionCall:
		if v == nil {
			return v
		}
		c := *v
		return &c
	case *FunctionCallOutput:
		if v == nil {
			return v
		}
		c := *v
		c.Output.Parts = v.Output.Parts.Clone()
		return &c
	case *ReasoningItem:
		if v == nil {
			return v
		}
		c := *v
		c.Summary = v.Summary.Clone()
		c.Content = v.Content.Clone()
		return &c
	case *Compaction:
		if v == nil {
			return v
		}
		c := *v
		return &c
	case *ItemReference:
		if v == nil {
			return v
		}
		c := *v
		return &c
	case *UnknownItem:
		if v == nil {
			return v
		}
		return &UnknownItem{Type: v.Type, Raw: cloneRaw(v.Raw)}
	}
	return item
}

// Clone returns a deep copy of the parts, like [Items.Clone].
func (c Contents) Clone() Contents {
	if c == nil {
		return nil
	}
	out := make(Contents, len(c))
	for i, part := range c {
		out[i] = cloneContent(part)
	}
	return out
}

func cloneContent(part Content) Content {
	switch p := part.(type) {
	case *InputText:
		if p == nil {
			return p
		}
		c := *p
		return &c
	case *OutputText:
		if p == nil {
			return p
		}
		c := *p
		c.Annotations = slices.Clone(p.Annotations)
		c.Logprobs = cloneLogprobs(p.Logprobs)
		return &c
	case *Refusal:
		if p == nil {
			return p
		}
		c := *p
		return &c
	case *Text:
		if p == nil {
			return p
		}
		c := *p
		return &c
	case *SummaryText:
		if p == nil {
			return p
		}
		c := *p
		return &c
	case *ReasoningText:
		if p == nil {
			return p
		}
		c := *p
		return &c
	case *InputImage:
		if p == nil {
			return p
		}
		c := *p
		return &c
	case *UnknownContent:
		if p == nil {
			return p
		}
		return &UnknownContent{Type: p.Type, Raw: cloneRaw(p.Raw)}
	}
	return part
}

func cloneLogprobs(in []LogProb) []LogProb {
	if in == nil {
		return nil
	}
	out := make([]LogProb, len(in))
	for i, lp := range in {
		out[i] = lp
		out[i].Bytes = slices.Clone(lp.Bytes)
		if lp.TopLogprobs != nil {
			out[i].TopLogprobs = make([]TopLogProb, len(lp.TopLogprobs))
			for j, top := range lp.TopLogprobs {
				out[i].TopLogprobs[j] = top
				out[i].TopLogprobs[j].Bytes = slices.Clone(top.Bytes)
			}
		}
	}
	return out
}

func cloneRaw(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	return append(json.RawMessage{}, raw...)
}
