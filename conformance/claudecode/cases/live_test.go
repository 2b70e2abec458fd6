package cases

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/claude"
)

// liveSessionSize is the most cases one session of the live sample makes.
const liveSessionSize = 12

// liveSample is the sample the live test re-records: from every area, the
// session of [Group] that holds the most of its cases, so the sample spans
// every area while the runs stay few.
func liveSample(all []Case) [][]Case {
	best := map[string][]Case{}
	var areas []string
	for _, run := range Group(all, liveSessionSize) {
		area := run[0].Area
		if _, seen := best[area]; !seen {
			areas = append(areas, area)
		}
		if len(run) > len(best[area]) {
			best[area] = run
		}
	}
	var sample [][]Case
	for _, area := range areas {
		sample = append(sample, best[area])
	}
	return sample
}

// TestLiveSampleMatchesTheRecording re-records a sample of the cases with
// the installed Claude Code and fails when an answer drifted from
// recorded.json: a decision, or the text of an ask or a denial (an allowed
// call's text is the tool's output, which names times and sizes). It fails,
// not skips, when Claude Code is not installed: `npm ci` in this module
// installs the pinned version.
func TestLiveSampleMatchesTheRecording(t *testing.T) {
	if _, err := claude.Binary(); err != nil {
		t.Fatal(err)
	}
	dir := Dir(claude.ModuleDir())
	all, err := Load(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := LoadRecorded(filepath.Join(dir, "recorded.json"))
	if err != nil {
		t.Fatal(err)
	}
	sample := liveSample(all)
	n := 0
	for _, run := range sample {
		n += len(run)
	}
	if n < 50 {
		t.Fatalf("the live sample holds %d cases; it must hold at least 50", n)
	}
	t.Logf("live sample: %d cases in %d sessions", n, len(sample))
	for _, run := range sample {
		t.Run(run[0].Name, func(t *testing.T) {
			t.Parallel()
			got, err := Run(context.Background(), t.TempDir(), run)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range run {
				want, ok := recorded[c.Name]
				switch {
				case !ok:
					t.Errorf("%s: not in recorded.json", c.Name)
				case got[i].Decision != want.Decision:
					t.Errorf("%s: Claude Code now decides %s (%q); recorded %s (%q)", c.Name, got[i].Decision, got[i].Text, want.Decision, want.Text)
				case got[i].Decision != claude.Allow && got[i].Text != want.Text:
					t.Errorf("%s: Claude Code's %s now reads %q; recorded %q", c.Name, got[i].Decision, got[i].Text, want.Text)
				}
			}
		})
	}
}

func TestGroupKeepsOrderAndSize(t *testing.T) {
	a := func(name, mode string) Case { return Case{Name: name, Tool: "Bash", Mode: mode} }
	runs := Group([]Case{a("1", ""), a("2", "plan"), a("3", ""), a("4", ""), a("5", "plan")}, 2)
	var got [][]string
	for _, run := range runs {
		var names []string
		for _, c := range run {
			names = append(names, c.Name)
		}
		got = append(got, names)
	}
	want := [][]string{{"1", "3"}, {"4"}, {"2", "5"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Group = %v, want %v", got, want)
	}
}
