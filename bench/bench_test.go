package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/guard"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// The benchmarks name the project's side first in each group and a peer
// after it, which is how cmd/ratios pairs them.

// BenchmarkDecide decides each call with the engine, the loop's hook with
// an observer installed, and with cedar-go from the same JSON arguments,
// reading the deciding policies' annotations back.
func BenchmarkDecide(b *testing.B) {
	for _, rules := range sizes {
		e, c := engines(b, rules)
		for _, call := range Calls {
			b.Run(fmt.Sprintf("rules=%d/%s/agentpolicy", rules, call.Name), func(b *testing.B) {
				in, ctx := info(call), context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if d, err := e.Decide(ctx, in); err != nil || d.Action != call.Want.Action {
						b.Fatalf("decision %+v, %v", d, err)
					}
				}
			})
			b.Run(fmt.Sprintf("rules=%d/%s/cedar", rules, call.Name), func(b *testing.B) {
				args := json.RawMessage(call.Args)
				b.ReportAllocs()
				for b.Loop() {
					if a, err := c.Decide(call.Tool, args); err != nil || a != call.Want {
						b.Fatalf("answer %+v, %v", a, err)
					}
				}
			})
		}
	}
}

// BenchmarkRedact reads 1 MiB of prose, clean and with 100 secrets, with
// guard.Redact over the default kinds, and with gitleaks' detector
// configured with the same kinds and with its default rules.
func BenchmarkRedact(b *testing.B) {
	defaults, err := GitleaksDefault()
	if err != nil {
		b.Fatal(err)
	}
	same := Gitleaks(guard.DefaultSecrets)
	clean := Prose(textSize)
	dirty, _ := PlantSecrets(clean, planted)
	for _, text := range []struct {
		name  string
		text  string
		found int
	}{{"clean", clean, 0}, {fmt.Sprintf("secrets=%d", planted), dirty, planted}} {
		b.Run(text.name+"/guard", func(b *testing.B) {
			g := guard.Redact()
			in := guard.Input{Instructions: text.text}
			b.SetBytes(textSize)
			b.ReportAllocs()
			for b.Loop() {
				v, err := g.Check(context.Background(), in)
				if err != nil || (v.Instructions != nil) != (text.found > 0) {
					b.Fatalf("verdict %q, %v", v.Reason, err)
				}
			}
		})
		for _, peer := range []struct {
			name string
			d    *detect.Detector
		}{{"gitleaks-same", same}, {"gitleaks-default", defaults}} {
			b.Run(text.name+"/"+peer.name, func(b *testing.B) {
				b.SetBytes(textSize)
				b.ReportAllocs()
				for b.Loop() {
					if found := peer.d.DetectString(text.text); len(found) != text.found {
						b.Fatalf("%d findings, want %d", len(found), text.found)
					}
				}
			})
		}
	}
}
