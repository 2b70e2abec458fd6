package guard

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// awsKey is a secret every field test hides in one text field. (AWS's own
// example key, AKIAIOSFODNN7EXAMPLE, is a placeholder, by its word.)
const awsKey = "AKIA" + "IOSFODNN7Q3RZKXW"

func assistant(parts ...or.Content) *or.Message {
	return &or.Message{ID: "msg_1", Role: or.RoleAssistant, Content: parts, Phase: or.PhaseFinalAnswer}
}

func turn(items ...or.Item) Output {
	return Output{Response: &or.Response{ID: "resp_1", Output: items}, Final: true}
}

// fieldCase places a text in one field of one kind of subject. read says
// whether the guards read that field; redactRead whether Redact does, which
// differs over a finished turn.
type fieldCase struct {
	name       string
	subject    func(text string) any
	read       bool
	redactRead bool
}

func fieldCases() []fieldCase {
	in := func(items ...or.Item) Input { return Input{Items: items} }
	both := func(name string, subject func(string) any) fieldCase {
		return fieldCase{name: name, subject: subject, read: true, redactRead: true}
	}
	none := func(name string, subject func(string) any) fieldCase {
		return fieldCase{name: name, subject: subject}
	}
	return []fieldCase{
		both("input/instructions", func(s string) any { return Input{Instructions: s} }),
		both("input/message input_text", func(s string) any { return in(or.UserMessage(&or.InputText{Text: s})) }),
		both("input/message output_text", func(s string) any { return in(assistant(&or.OutputText{Text: s})) }),
		both("input/message refusal", func(s string) any { return in(assistant(&or.Refusal{Refusal: s})) }),
		both("input/message text", func(s string) any { return in(or.UserMessage(&or.Text{Text: s})) }),
		both("input/message summary_text", func(s string) any { return in(or.UserMessage(&or.SummaryText{Text: s})) }),
		both("input/message reasoning_text", func(s string) any { return in(or.UserMessage(&or.ReasoningText{Text: s})) }),
		both("input/message second part", func(s string) any {
			return in(or.UserMessage(&or.InputText{Text: "look:"}, &or.InputText{Text: s}))
		}),
		both("input/function call arguments", func(s string) any {
			return in(&or.FunctionCall{CallID: "call_1", Name: "bash", Arguments: `{"command":"echo ` + s + `"}`})
		}),
		both("input/function call output text", func(s string) any { return in(or.NewFunctionCallOutput("call_1", s)) }),
		both("input/function call output parts", func(s string) any {
			return in(&or.FunctionCallOutput{CallID: "call_1", Output: or.FunctionCallOutputData{Parts: or.Contents{&or.InputText{Text: s}}}})
		}),
		both("input/reasoning summary", func(s string) any { return in(&or.ReasoningItem{Summary: or.Contents{&or.SummaryText{Text: s}}}) }),
		both("input/reasoning content", func(s string) any {
			return in(&or.ReasoningItem{Content: or.Contents{&or.ReasoningText{Text: s}}})
		}),
		both("input/later item", func(s string) any { return in(or.UserText("hello"), or.SystemText(s)) }),
		none("input/image url", func(s string) any {
			return in(or.UserMessage(&or.InputImage{ImageURL: "https://example.com/" + s + ".png"}))
		}),
		none("input/compaction", func(s string) any { return in(&or.Compaction{EncryptedContent: s}) }),
		none("input/function call output text beside parts", func(s string) any {
			return in(&or.FunctionCallOutput{CallID: "call_1", Output: or.FunctionCallOutputData{Text: s, Parts: or.Contents{}}})
		}),
		none("input/reasoning encrypted content", func(s string) any { return in(&or.ReasoningItem{EncryptedContent: s}) }),
		none("input/item reference", func(s string) any { return in(&or.ItemReference{ID: s}) }),
		none("input/unknown part", func(s string) any {
			return in(or.UserMessage(&or.UnknownContent{Type: "x_note", Raw: json.RawMessage(`{"type":"x_note","v":"` + s + `"}`)}))
		}),
		none("input/unknown item", func(s string) any {
			return in(&or.UnknownItem{Type: "x_item", Raw: json.RawMessage(`{"type":"x_item","v":"` + s + `"}`)})
		}),
		both("message/output_text", func(s string) any { return Message{Message: assistant(&or.OutputText{Text: s})} }),
		both("message/refusal", func(s string) any { return Message{Message: assistant(&or.Refusal{Refusal: s})} }),
		both("message/text", func(s string) any { return Message{Message: assistant(&or.Text{Text: s})} }),
		both("message/second part", func(s string) any {
			return Message{Message: assistant(&or.OutputText{Text: "here:"}, &or.OutputText{Text: s})}
		}),
		none("message/nil", func(string) any { return Message{} }),
		{name: "output/assistant message", subject: func(s string) any { return turn(assistant(&or.OutputText{Text: s})) }, read: true},
		{name: "output/assistant refusal", subject: func(s string) any { return turn(assistant(&or.Refusal{Refusal: s})) }, read: true},
		both("output/function call arguments", func(s string) any {
			return turn(assistant(&or.OutputText{Text: "running it"}), &or.FunctionCall{CallID: "call_1", Name: "bash", Arguments: `{"command":"` + s + `"}`})
		}),
		both("output/reasoning summary", func(s string) any { return turn(&or.ReasoningItem{Summary: or.Contents{&or.SummaryText{Text: s}}}) }),
		both("output/reasoning content", func(s string) any {
			return turn(&or.ReasoningItem{Content: or.Contents{&or.ReasoningText{Text: s}}})
		}),
		both("output/user message", func(s string) any { return turn(or.UserText(s)) }),
		none("output/compaction", func(s string) any { return turn(&or.Compaction{EncryptedContent: s}) }),
		none("output/no response", func(string) any { return Output{} }),
		none("unknown subject/string", func(s string) any { return s }),
		none("unknown subject/pointer to input", func(s string) any { return &Input{Instructions: s} }),
		none("unknown subject/request", func(s string) any { return or.Request{Instructions: s} }),
	}
}

// wire is the JSON a subject is sent or kept as, to compare it before and
// after a guard and to look for text in it.
func wire(t *testing.T, subject any) string {
	t.Helper()
	data, err := json.Marshal(subject)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDenyReadsEveryTextField(t *testing.T) {
	g := Deny(regexp.MustCompile(`AKIA[A-Z0-9]{16}`))
	for _, tc := range fieldCases() {
		t.Run(tc.name, func(t *testing.T) {
			v, err := g.Check(context.Background(), tc.subject(awsKey))
			if err != nil {
				t.Fatal(err)
			}
			want := Verdict{}
			if tc.read {
				want = Verdict{Action: agentturn.Block, Reason: `matched denied pattern "AKIA[A-Z0-9]{16}"`}
			}
			if v.Action != want.Action || v.Reason != want.Reason || v.Items != nil || v.Instructions != nil {
				t.Fatalf("verdict %+v, want %+v", v, want)
			}
		})
	}
}

func TestSecretsReadsEveryTextField(t *testing.T) {
	g := Secrets()
	for _, tc := range fieldCases() {
		t.Run(tc.name, func(t *testing.T) {
			v, err := g.Check(context.Background(), tc.subject(awsKey))
			if err != nil {
				t.Fatal(err)
			}
			want := Verdict{}
			if tc.read {
				want = Verdict{Action: agentturn.Block, Reason: "secret detected: aws_access_key"}
			}
			if v.Action != want.Action || v.Reason != want.Reason || v.Items != nil || v.Instructions != nil {
				t.Fatalf("verdict %+v, want %+v", v, want)
			}
		})
	}
}

func TestRedactRewritesEveryTextField(t *testing.T) {
	g := Redact()
	for _, tc := range fieldCases() {
		t.Run(tc.name, func(t *testing.T) {
			subject := tc.subject(awsKey)
			before := wire(t, subject)
			v, err := g.Check(context.Background(), subject)
			if err != nil {
				t.Fatal(err)
			}
			if after := wire(t, subject); after != before {
				t.Fatalf("the subject changed:\n%s\nwas\n%s", after, before)
			}
			_, isOutput := subject.(Output)
			switch {
			case !tc.redactRead:
				if v.Action != agentturn.Allow || v.Reason != "" || v.Items != nil || v.Instructions != nil {
					t.Fatalf("verdict %+v, want a pass", v)
				}
			case isOutput:
				if v.Action != agentturn.Block || v.Reason != "secret detected: aws_access_key" || v.Items != nil {
					t.Fatalf("verdict %+v, want a block with the secret's kind", v)
				}
			default:
				if v.Action != agentturn.Allow || v.Reason != "redacted 1 secret: aws_access_key" {
					t.Fatalf("verdict %+v, want an allow that redacted one secret", v)
				}
				rewritten := wire(t, v.Items)
				if v.Instructions != nil {
					rewritten += *v.Instructions
				}
				if strings.Contains(rewritten, awsKey) || !strings.Contains(rewritten, "[REDACTED aws_access_key]") {
					t.Fatalf("rewrite %s still holds the key or lacks its redaction", rewritten)
				}
			}
		})
	}
}

func TestRedactKeepsWhatItDoesNotRewrite(t *testing.T) {
	items := or.Items{
		or.UserText("plain"),
		&or.FunctionCall{CallID: "call_1", Name: "read", Arguments: `{"path":"` + awsKey + `"}`},
		or.UserMessage(&or.InputImage{ImageURL: "https://example.com/a.png"}),
	}
	v, err := Redact().Check(context.Background(), Input{Items: items, Instructions: "be brief"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Instructions != nil {
		t.Fatalf("instructions without a secret were rewritten to %q", *v.Instructions)
	}
	want := `[{"type":"message","role":"user","content":[{"type":"input_text","text":"plain"}]},` +
		`{"type":"function_call","call_id":"call_1","name":"read","arguments":"{\"path\":\"[REDACTED aws_access_key]\"}"},` +
		`{"type":"message","role":"user","content":[{"type":"input_image","image_url":"https://example.com/a.png"}]}]`
	if got := wire(t, v.Items); got != want {
		t.Fatalf("rewritten items\n%s\nwant\n%s", got, want)
	}
}

func TestRedactInstructionsOnly(t *testing.T) {
	v, err := Redact().Check(context.Background(), Input{Items: or.Items{or.UserText("hi")}, Instructions: "key " + awsKey})
	if err != nil {
		t.Fatal(err)
	}
	if v.Items != nil {
		t.Fatalf("items without a secret were rewritten: %s", wire(t, v.Items))
	}
	if v.Instructions == nil || *v.Instructions != "key [REDACTED aws_access_key]" {
		t.Fatalf("instructions %v, want the key redacted", v.Instructions)
	}
}
