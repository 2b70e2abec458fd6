package bench

import (
	"context"

	"github.com/ChristopherDavenport/agentpolicy/guard"
)

// Miss is a sample of a gitleaks rule that a guard let pass.
type Miss struct {
	Rule, Sample string
}

// Recall runs g, a guard.Secrets, over every sample of rules, each as an
// input's instructions, and returns how many it blocked, how many there
// were, and the ones it let pass, by rule.
func Recall(g guard.Guard, rules []Rule) (found, total int, misses []Miss) {
	for _, r := range rules {
		for _, s := range r.Samples {
			total++
			v, err := g.Check(context.Background(), guard.Input{Instructions: s})
			if err == nil && v.Reason != "" {
				found++
			} else {
				misses = append(misses, Miss{Rule: r.ID, Sample: s})
			}
		}
	}
	return found, total, misses
}
