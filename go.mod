module github.com/ChristopherDavenport/agentpolicy

go 1.25

require (
	github.com/ChristopherDavenport/agenttool v0.0.22
	github.com/ChristopherDavenport/agentturn v0.0.22
	github.com/ChristopherDavenport/openresponses v0.0.14
)

replace (
	github.com/ChristopherDavenport/agenttool => ./internal/stack/agenttool
	github.com/ChristopherDavenport/agentturn => ./internal/stack/agentturn
	github.com/ChristopherDavenport/openresponses => ./internal/stack/openresponses
)
