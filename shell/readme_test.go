package shell

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeTables are the sections of shell/README.md whose tables list, in
// their first column, the commands the tables know.
var readmeTables = []string{"### Read-only commands", "### Commands that write", "### Options that run a program"}

// TestReadmeListsTheTables keeps the README's per-command lists and the
// tables in step: every command of the table read against its options is
// listed, and every command listed is an entry of the table.
func TestReadmeListsTheTables(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := readmeCommands(t, string(data))
	for name, prog := range programs() {
		if !listed[name] && prog.hook == nil && prog.wraps == nil && !prog.printsOnly {
			t.Errorf("%s is in the table of programs but in none of the README's tables", name)
		}
	}
	for name := range listed {
		if _, program := programs()[name]; !program {
			t.Errorf("the README lists %s, which no table knows", name)
		}
	}
}

// readmeCommands are the commands named in the first column of the
// README's tables: the first word of each quoted name.
func readmeCommands(t *testing.T, readme string) map[string]bool {
	t.Helper()
	quoted := regexp.MustCompile("`([^`]+)`")
	listed := map[string]bool{}
	for _, heading := range readmeTables {
		at := strings.Index(readme, "\n"+heading+"\n")
		if at < 0 {
			t.Fatalf("the README has no section %q", heading)
		}
		section := readme[at+len(heading)+2:]
		if end := strings.Index(section, "\n#"); end >= 0 {
			section = section[:end]
		}
		for _, line := range strings.Split(section, "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "command" {
				continue
			}
			git := false
			for i, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
				name, sub, _ := strings.Cut(m[1], " ")
				switch {
				case i == 0 && name == "git":
					git = true
					if words := strings.Fields(sub); len(words) > 0 {
						checkGitSubcommand(t, words[0])
					}
				case git:
					checkGitSubcommand(t, name)
				case !strings.HasPrefix(name, "-"):
					listed[name] = true
				}
			}
		}
	}
	return listed
}

// checkGitSubcommand fails unless the git tables know the subcommand the
// README names.
func checkGitSubcommand(t *testing.T, sub string) {
	t.Helper()
	for name := range gitCommands() {
		if first, _, _ := strings.Cut(name, " "); first == sub {
			return
		}
	}
	if sub != "init" && sub != "clone" && sub != "config" {
		t.Errorf("the README lists git %s, which no git table knows", sub)
	}
}
