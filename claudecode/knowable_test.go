package claudecode

import "testing"

// TestBashKnowableValues holds a path written with a value known before
// the command runs, $PWD, $HOME, ~ or the directory a literal cd moves
// to, to the Read deny rules, as Claude Code itself does (issue 30); a
// read outside the working directories still asks, and one inside them
// after a cd followed exactly is allowed.
func TestBashKnowableValues(t *testing.T) {
	rows := []commandRow{
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat $PWD/secrets/api.key", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, `cat "${PWD}/secrets/api.key"`, "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cd secrets && cat api.key", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cd {secrets,} && cat api.key", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, `\cd secrets && cat api.key`, "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cd secrets && cd /tmp && cd - && cat api.key", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(/secrets/**)"}}, "cat $PWD/README.md", "allow"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cd ~/.ssh && cat id_rsa", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cat ~/.ssh/id_rsa", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cat $HOME/.ssh/id_rsa", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cd && cat .ssh/id_rsa", "deny"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cd ~/.ssh && cat ../.gitconfig", "ask"},
		{lists{Allow: []string{"Bash"}, Deny: []string{"Read(~/.ssh/**)"}}, "cd src && cat main.go", "allow"},
	}
	decideCommands(t, "Bash", rows)
}
