package guard

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRedactStaysLinearOnRepeatedPrefixes feeds Redact text a hostile page
// could hold, a literal repeated through a long run that never completes a
// secret or completes one that swallows the rest, which costs a search per
// literal a pass over the run each unless the search is linear. Each text
// is 256 KiB; the bound is loose enough for a loaded machine and far below
// what a search per literal would take.
func TestRedactStaysLinearOnRepeatedPrefixes(t *testing.T) {
	const size = 256 << 10
	texts := map[string]string{
		"jwt prefixes":      "eyJ",
		"slack prefixes":    "xoxb-",
		"openai prefixes":   "sk-",
		"openai projects":   "sk-proj-",
		"figma prefixes":    "figd_",
		"placeholder words": "sk_test_placeholder ",
		"pem begin lines":   "-----BEGIN PRIVATE KEY-----\n",
		"github prefixes":   "ghp_a",
		"aws prefixes":      "AKIA",
		"mixed":             "eyJsk-xoxb-AKIAghp_",
		"authress parts":    "sc_abcde.abcd.acc_abcdefghij.",
		"harness parts":     "pat.abcdefghijklmnopqrstuv.",
		"airtable parts":    "patabcdefghijklmn.",
	}
	g := Redact()
	for name, unit := range texts {
		t.Run(name, func(t *testing.T) {
			text := strings.Repeat(unit, size/len(unit))
			began := time.Now()
			if _, err := g.Check(context.Background(), Input{Instructions: text}); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(began); took > 5*time.Second {
				t.Fatalf("Redact took %v over %d bytes", took, len(text))
			}
		})
	}
}
