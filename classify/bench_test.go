package classify

import (
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/guard"
	or "github.com/ChristopherDavenport/openresponses"
)

// A chatty model's answer: prose, a code fence, the object.
func BenchmarkReadAnswer(b *testing.B) {
	text := "The call pushes a feature branch, which the rubric allows.\n```json\n" +
		`{"allow": true, "reason": "a push to a feature branch"}` + "\n```"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readAnswer(text); err != nil {
			b.Fatal(err)
		}
	}
}

// A hostile output of 1 MiB that opens an object at every sixth byte and
// closes none: each opening tried is read to the end, the reader's worst
// case.
func BenchmarkReadAnswerUnclosedObjects(b *testing.B) {
	text := strings.Repeat(`{"a": `, 1<<20/6)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readAnswer(text); err == nil {
			b.Fatal("read an answer from no answer")
		}
	}
}

// What a guard does besides the model call: render an input of 100 items.
func BenchmarkRenderInput(b *testing.B) {
	items := make(or.Items, 0, 100)
	for i := range 50 {
		items = append(items, or.UserText(strings.Repeat("word ", 40+i)))
		items = append(items, or.NewFunctionCallOutput("call_1", strings.Repeat("line of output\n", 20)))
	}
	subject := guard.Input{Items: items, Instructions: strings.Repeat("Be careful. ", 100)}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := renderContent(subject, false); !ok {
			b.Fatal("nothing rendered")
		}
	}
}
