package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TrustProject marks dir trusted in home/.claude.json, as accepting Claude
// Code's trust dialog does: projects[dir].hasTrustDialogAccepted. Other
// members of the file are kept.
func TrustProject(home, dir string) error {
	path := filepath.Join(home, ".claude.json")
	config := map[string]any{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("agentpolicy/conformance/claude: %w", err)
	default:
		if err := json.Unmarshal(data, &config); err != nil {
			return fmt.Errorf("agentpolicy/conformance/claude: %s: %w", path, err)
		}
	}
	projects, _ := config["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	project, _ := projects[dir].(map[string]any)
	if project == nil {
		project = map[string]any{}
	}
	project["hasTrustDialogAccepted"] = true
	projects[dir] = project
	config["projects"] = projects
	out, err := json.MarshalIndent(config, "", "  ")
	if err != nil {
		return fmt.Errorf("agentpolicy/conformance/claude: %w", err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		return fmt.Errorf("agentpolicy/conformance/claude: %w", err)
	}
	return nil
}
