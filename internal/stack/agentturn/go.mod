module github.com/ChristopherDavenport/agentturn

go 1.25

require (
	github.com/ChristopherDavenport/agenttool v0.0.22
	github.com/ChristopherDavenport/openresponses v0.0.14
)

replace (
	github.com/ChristopherDavenport/agenttool => ../agenttool
	github.com/ChristopherDavenport/openresponses => ../openresponses
)
