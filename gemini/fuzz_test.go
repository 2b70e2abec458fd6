package gemini

import (
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// FuzzParse: any source either is refused with a *FileError or gives
// rule sets that build with the module's matchers.
func FuzzParse(f *testing.F) {
	f.Add(rule(`toolName = "run_shell_command"` + "\ncommandPrefix = [\"git status\", \"ls\"]\ndecision = \"allow\"\npriority = 100"))
	f.Add(rule(`toolName = "read_file"` + "\nargsPattern = '\"file_path\":\"[^\"]*\\.env\"'\ndecision = \"deny\""))
	f.Add(rule(`mcpName = "gh"` + "\ntoolName = \"*\"\ndecision = \"ask_user\"\nmodes = [\"yolo\"]"))
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("f.toml", []byte(src), TierUser)
		if err != nil {
			return
		}
		rules := New(Session{}, []*File{file}, []string{"gemini:f"})
		p, err := rules.Policy(agentpolicy.Ask())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := agentpolicy.Build(p, rules.Matchers()); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	})
}
