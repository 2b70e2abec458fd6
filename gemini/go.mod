module github.com/ChristopherDavenport/agentpolicy/gemini

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/ChristopherDavenport/agentpolicy v0.0.0
	github.com/ChristopherDavenport/agentpolicy/shell v0.0.0-00010101000000-000000000000
	github.com/ChristopherDavenport/agentturn v0.0.22
	github.com/ChristopherDavenport/openresponses v0.0.14
)

require (
	github.com/ChristopherDavenport/agenttool v0.0.22 // indirect
	github.com/benhoyt/goawk v1.29.1 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

replace (
	github.com/ChristopherDavenport/agentpolicy => ../
	github.com/ChristopherDavenport/agentpolicy/shell => ../shell
	github.com/ChristopherDavenport/agenttool => ../internal/stack/agenttool
	github.com/ChristopherDavenport/agentturn => ../internal/stack/agentturn
	github.com/ChristopherDavenport/openresponses => ../internal/stack/openresponses
)
