package secret

import "github.com/ChristopherDavenport/openresponses"

// eachField calls fn with a pointer to every text field of items, in
// reading order, and whether the field is a function call's arguments,
// until fn returns false; it reports whether fn returned false. The fields
// are a message's parts (input_text, output_text, refusal, text,
// summary_text, reasoning_text), a function call's arguments, a function
// call output's parts when it has any and else its text, and a reasoning
// item's summary then its content. Images, compactions, item references
// and unknown items carry no text a guard reads. skip, when non-nil, leaves
// out the items it reports.
//
// A reader reads through [eachText]; a rewriter hands eachField a copy it
// owns (openresponses.Items.Clone) and writes through the pointers.
func eachField(items openresponses.Items, skip func(openresponses.Item) bool, fn func(field *string, arguments bool) bool) bool {
	for _, item := range items {
		if skip != nil && skip(item) {
			continue
		}
		if eachItemField(item, fn) {
			return true
		}
	}
	return false
}

// eachText calls fn with every text a guard reads in items, until fn
// returns false; it reports whether fn returned false. The texts are the
// fields of [eachField], each as it is, and after a function call's
// arguments each JSON string they hold, decoded, as the tool will read
// them. With escapedOnly, a string without an escape is not read again:
// it lies in the arguments already read, which is the same reading for a
// pattern without assertions (see matcher.local).
func eachText(items openresponses.Items, skip func(openresponses.Item) bool, escapedOnly bool, fn func(text string) bool) bool {
	return eachField(items, skip, func(field *string, arguments bool) bool {
		if !fn(*field) {
			return false
		}
		return !arguments || !eachDecoded(*field, escapedOnly, fn)
	})
}

// eachItemField is eachField for one item.
func eachItemField(item openresponses.Item, fn func(field *string, arguments bool) bool) bool {
	switch it := item.(type) {
	case *openresponses.Message:
		return eachPartField(it.Content, fn)
	case *openresponses.FunctionCall:
		return !fn(&it.Arguments, true)
	case *openresponses.FunctionCallOutput:
		if it.Output.Parts != nil {
			return eachPartField(it.Output.Parts, fn)
		}
		return !fn(&it.Output.Text, false)
	case *openresponses.ReasoningItem:
		return eachPartField(it.Summary, fn) || eachPartField(it.Content, fn)
	}
	return false
}

// eachPartField is eachField for the text-bearing parts of a content list.
func eachPartField(parts openresponses.Contents, fn func(field *string, arguments bool) bool) bool {
	for _, part := range parts {
		var field *string
		switch p := part.(type) {
		case *openresponses.InputText:
			field = &p.Text
		case *openresponses.OutputText:
			field = &p.Text
		case *openresponses.Refusal:
			field = &p.Refusal
		case *openresponses.Text:
			field = &p.Text
		case *openresponses.SummaryText:
			field = &p.Text
		case *openresponses.ReasoningText:
			field = &p.Text
		default:
			continue
		}
		if !fn(field, false) {
			return true
		}
	}
	return false
}
