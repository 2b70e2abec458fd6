package shell

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestWordsField: each command's subject carries its words, a word with a
// blank kept whole, where the normalised command cannot show it; without
// the option the subjects carry no such member.
func TestWordsField(t *testing.T) {
	for _, c := range []struct {
		command string
		want    [][]string
	}{
		{`git commit -m "fix it"`, [][]string{{"git", "commit", "-m", "fix it"}}},
		{`git commit -m fix it`, [][]string{{"git", "commit", "-m", "fix", "it"}}},
		{`echo '' && /bin/rm -f x`, [][]string{{"echo", ""}, {"/bin/rm", "-f", "x"}, {"rm", "-f", "x"}}},
		{`timeout 5 "git" status`, [][]string{{"timeout", "5", "git", "status"}, {"git", "status"}}},
	} {
		args, _ := json.Marshal(map[string]string{"command": c.command})
		subjects, err := Subjects(WithWordsField("words"), WithReadOnlyField("read_only"))(args)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]string
		for _, s := range subjects {
			var member struct {
				Command string
				Words   []string
			}
			if err := json.Unmarshal(s.Args, &member); err != nil {
				t.Fatalf("%s: %s: %v", c.command, s.Args, err)
			}
			got = append(got, member.Words)
		}
		if !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("%s: got %q, want %q", c.command, got, c.want)
		}
		plain, _ := Subjects()(args)
		for _, s := range plain {
			var member map[string]any
			_ = json.Unmarshal(s.Args, &member)
			if _, ok := member["words"]; ok {
				t.Errorf("%s: a words member without the option: %s", c.command, s.Args)
			}
		}
	}
}
