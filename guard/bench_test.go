package guard

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// benchSize is the text a benchmark reads per operation.
const benchSize = 1 << 20

// benchWords is the vocabulary of the benchmarks' prose: English words,
// some capitalised, some hyphenated, a few numbers and code-like tokens,
// none of which begins a secret.
var benchWords = strings.Fields(`the of and to in is that for it as with was on be by at this
	from are or an have not which but all were when we there can more if one
	will their has been would about into than other some what time only its
	also them these could may first then do any like my now over such our
	man me even most made after before where through back much should well
	System The It In This A We Kit Stack Ask Sky Key June Jazz Zone Quiz
	well-known long-term self-contained read-only error-prone 2026 42 3.14
	user_id main.go go.mod config.yaml fmt.Println(x) {"ok": true} [1, 2]`)

// prose is n bytes of clean text, in lines of about 80 bytes.
func prose(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.Grow(n + 64)
	line := 0
	for b.Len() < n {
		w := benchWords[r.IntN(len(benchWords))]
		b.WriteString(w)
		line += len(w) + 1
		if line > 80 {
			b.WriteString(".\n")
			line = 0
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// benchSecrets are one secret of each default kind.
var benchSecrets = func() []string {
	out := make([]string, len(kindCases))
	for i, tc := range kindCases {
		out[i] = tc.Secrets[0]
	}
	return out
}()

// proseWithSecrets is n bytes of prose with count secrets spread evenly
// through it, each on a line of its own.
func proseWithSecrets(n, count int) string {
	text := prose(n)
	var b strings.Builder
	b.Grow(n)
	step := n / count
	for i := range count {
		secret := benchSecrets[i%len(benchSecrets)]
		chunk := text[i*step : (i+1)*step]
		b.WriteString(chunk[:len(chunk)-len(secret)-2])
		b.WriteString("\n" + secret + "\n")
	}
	return b.String()
}

// benchInput splits text into user messages of 4 KiB, a transcript's worth.
func benchInput(text string) Input {
	var items openresponses.Items
	for len(text) > 0 {
		n := min(4096, len(text))
		items = append(items, openresponses.UserText(text[:n]))
		text = text[n:]
	}
	return Input{Items: items}
}

func runGuard(b *testing.B, g Guard, in Input, want agentturn.ToolAction) {
	b.Helper()
	b.SetBytes(benchSize)
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		v, err := g.Check(ctx, in)
		if err != nil || v.Action != want {
			b.Fatalf("verdict %+v, error %v; want action %d", v, err, want)
		}
	}
}

func BenchmarkSecretsClean(b *testing.B) {
	runGuard(b, Secrets(), benchInput(prose(benchSize)), agentturn.Allow)
}

func BenchmarkRedactClean(b *testing.B) {
	runGuard(b, Redact(), benchInput(prose(benchSize)), agentturn.Allow)
}

func BenchmarkRedactWithSecrets(b *testing.B) {
	runGuard(b, Redact(), benchInput(proseWithSecrets(benchSize, 100)), agentturn.Allow)
}

// denyBench are ten patterns of the kind a host denies: prompt-injection
// phrases and commands.
var denyBench = []*regexp.Regexp{
	regexp.MustCompile(`(?i)ignore (?:all )?previous instructions`),
	regexp.MustCompile(`(?i)disregard (?:the|your) (?:system )?prompt`),
	regexp.MustCompile(`you are now DAN`),
	regexp.MustCompile(`BEGIN SYSTEM OVERRIDE`),
	regexp.MustCompile(`rm -rf /`),
	regexp.MustCompile(`curl [^ ]+ \| (?:ba)?sh`),
	regexp.MustCompile(`<\|im_start\|>`),
	regexp.MustCompile(`\[INST\]`),
	regexp.MustCompile(`exfiltrate`),
	regexp.MustCompile(`base64 -d \|`),
}

func BenchmarkDenyClean(b *testing.B) {
	runGuard(b, Deny(denyBench...), benchInput(prose(benchSize)), agentturn.Allow)
}

func BenchmarkDenyWithSecrets(b *testing.B) {
	runGuard(b, Deny(denyBench...), benchInput(proseWithSecrets(benchSize, 100)), agentturn.Allow)
}

func BenchmarkLimit(b *testing.B) {
	runGuard(b, Limit(2*benchSize), benchInput(prose(benchSize)), agentturn.Allow)
}

func BenchmarkLimitArguments(b *testing.B) {
	runGuard(b, Limit(2*benchSize), benchCalls(prose(benchSize)), agentturn.Allow)
}

// BenchmarkSecretsWithSecrets checks each 4 KiB message of the text with
// secrets on its own, as an output guard sees them: over the whole megabyte
// at once Secrets would stop at the first secret, about 10 KiB in, and the
// figure would say nothing. Here every byte is read and about 100 of the 256
// messages block.
func BenchmarkSecretsWithSecrets(b *testing.B) {
	g := Secrets()
	in := benchInput(proseWithSecrets(benchSize, 100))
	b.SetBytes(benchSize)
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		blocked := 0
		for _, item := range in.Items {
			v, err := g.Check(ctx, Message{Message: item.(*openresponses.Message)})
			if err != nil {
				b.Fatal(err)
			}
			if v.Action == agentturn.Block {
				blocked++
			}
		}
		if blocked < 90 {
			b.Fatalf("%d messages blocked, want one per secret", blocked)
		}
	}
}

// benchCalls splits text into function calls whose arguments carry it, as
// a transcript of tool calls does: each call's arguments are a JSON object
// of about 1 KiB, its text in a command, a path and a nested list, encoded
// as encoding/json encodes them, so the quotes of the prose are escaped.
func benchCalls(text string) Input {
	var items openresponses.Items
	for i := 0; len(text) > 0; i++ {
		n := min(1024, len(text))
		chunk := text[:n]
		text = text[n:]
		args, err := json.Marshal(map[string]any{
			"command": chunk[:n/2],
			"path":    "src/main.go",
			"options": map[string]any{"timeout": 30, "env": []string{chunk[n/2:]}},
		})
		if err != nil {
			panic(err)
		}
		items = append(items, &openresponses.FunctionCall{CallID: "call_" + strconv.Itoa(i), Name: "bash", Arguments: string(args)})
	}
	return Input{Items: items}
}

func BenchmarkSecretsArguments(b *testing.B) {
	runGuard(b, Secrets(), benchCalls(prose(benchSize)), agentturn.Allow)
}

// BenchmarkSecretsArgumentsUnescaped is BenchmarkSecretsArguments over
// prose without newlines or quotes, so no string of the arguments holds an
// escape and none is decoded.
func BenchmarkSecretsArgumentsUnescaped(b *testing.B) {
	text := strings.NewReplacer("\n", " ", `"`, " ").Replace(prose(benchSize))
	runGuard(b, Secrets(), benchCalls(text), agentturn.Allow)
}

func BenchmarkRedactArguments(b *testing.B) {
	runGuard(b, Redact(), benchCalls(prose(benchSize)), agentturn.Allow)
}

func BenchmarkRedactArgumentsWithSecrets(b *testing.B) {
	runGuard(b, Redact(), benchCalls(proseWithSecrets(benchSize, 100)), agentturn.Allow)
}

func BenchmarkDenyArguments(b *testing.B) {
	runGuard(b, Deny(denyBench...), benchCalls(prose(benchSize)), agentturn.Allow)
}
