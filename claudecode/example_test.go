package claudecode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// A project's committed settings, read and decided as Claude Code would.
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	project := filepath.Join(dir, "repo")
	_ = os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	_ = os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte(`{
	  "permissions": {
	    "allow": ["Bash(npm run *)", "Read(src/**)"],
	    "deny": ["Bash(curl *)", "Read(./.env)"]
	  }
	}`), 0o644)

	s, err := claudecode.Load(claudecode.LoadOptions{
		Project:    project,
		Home:       filepath.Join(dir, "home"),
		ConfigDir:  filepath.Join(dir, "home", ".claude"),
		ManagedDir: filepath.Join(dir, "none"),
		Trusted:    true, // the user trusted the folder
	})
	if err != nil {
		panic(err)
	}
	policy, err := s.Policy()
	if err != nil {
		panic(err)
	}
	eng, err := agentpolicy.Build(policy, s.Matchers(claudecode.Options{}), agentpolicy.WithAliases(s.Aliases()))
	if err != nil {
		panic(err)
	}
	decide := func(tool string, args any) {
		data, _ := json.Marshal(args)
		call := &openresponses.FunctionCall{CallID: "c1", Name: tool, Arguments: string(data)}
		v, _ := eng.Would(context.Background(), agentturn.ToolCallInfo{Call: call, Args: data, Batch: []*openresponses.FunctionCall{call}})
		fmt.Println(v.Reason)
	}
	decide("Bash", map[string]string{"command": "npm run build && curl https://x.example"})
	decide("Bash", map[string]string{"command": "npm run test"})
	decide("Read", map[string]string{"file_path": filepath.Join(project, "src", "..", ".env")})
	// Output:
	// denied by Bash(curl:*) on "curl https://x.example"; nothing in this command ran, including "npm run build"
	// allowed by Bash(as_written:npm run *)
	// denied by Read(.env)
}
