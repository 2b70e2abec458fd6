module github.com/ChristopherDavenport/agentpolicy/codex

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/ChristopherDavenport/agentpolicy v0.0.0
	github.com/ChristopherDavenport/agentpolicy/claudecode v0.0.0
	github.com/ChristopherDavenport/agentpolicy/shell v0.0.0
	github.com/ChristopherDavenport/agentturn v0.0.22
	github.com/ChristopherDavenport/openresponses v0.0.14
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
)

require (
	github.com/ChristopherDavenport/agenttool v0.0.22 // indirect
	github.com/benhoyt/goawk v1.29.1 // indirect
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

replace (
	github.com/ChristopherDavenport/agentpolicy => ../
	github.com/ChristopherDavenport/agentpolicy/claudecode => ../claudecode
	github.com/ChristopherDavenport/agentpolicy/shell => ../shell
	github.com/ChristopherDavenport/agenttool => ../internal/stack/agenttool
	github.com/ChristopherDavenport/agentturn => ../internal/stack/agentturn
	github.com/ChristopherDavenport/openresponses => ../internal/stack/openresponses
)
