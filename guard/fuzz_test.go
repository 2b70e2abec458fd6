package guard

import (
	"context"
	"testing"

	or "github.com/ChristopherDavenport/openresponses"
)

// FuzzRedact checks Redact over any text: it never panics, what it returns
// holds no match of any default pattern, redacting that again changes
// nothing, a text without a secret passes unchanged, and the caller's
// subject is left as it was. Seeds are in testdata/fuzz/FuzzRedact.
func FuzzRedact(f *testing.F) {
	g := Redact()
	f.Fuzz(func(t *testing.T, text string) {
		redacted := redactOnce(t, g, text)
		if kind := secretIn(redacted); kind != "" {
			t.Fatalf("redacted text %q still holds %s", redacted, kind)
		}
		if again := redactOnce(t, g, redacted); again != redacted {
			t.Fatalf("redacting twice changed %q to %q", redacted, again)
		}
	})
}

// redactOnce runs g over text as instructions, as a user message and as a
// function call output, checks the three agree and the subject is
// untouched, and returns the redacted text.
func redactOnce(t *testing.T, g Guard, text string) string {
	t.Helper()
	subject := Input{Instructions: text, Items: or.Items{or.UserText(text), or.NewFunctionCallOutput("call_1", text)}}
	v, err := g.Check(context.Background(), subject)
	if err != nil {
		t.Fatal(err)
	}
	if subject.Items[0].(*or.Message).Text() != text || subject.Items[1].(*or.FunctionCallOutput).Output.Text != text {
		t.Fatalf("Redact changed the caller's items")
	}
	if v.Instructions == nil {
		if v.Items != nil || v.Reason != "" {
			t.Fatalf("instructions %q passed unchanged but the verdict is %+v", text, v)
		}
		return text
	}
	redacted := *v.Instructions
	if redacted == text {
		t.Fatalf("a rewrite of %q changed nothing", text)
	}
	if got := v.Items[0].(*or.Message).Text(); got != redacted {
		t.Fatalf("message redacted to %q, instructions to %q", got, redacted)
	}
	if got := v.Items[1].(*or.FunctionCallOutput).Output.Text; got != redacted {
		t.Fatalf("output redacted to %q, instructions to %q", got, redacted)
	}
	return redacted
}
