module github.com/ChristopherDavenport/agentpolicy/pgjournal

go 1.26.0

require (
	github.com/ChristopherDavenport/agentpolicy v0.0.0
	github.com/ChristopherDavenport/agentturn v0.0.22
	github.com/jackc/pgx/v5 v5.13.0
)

require (
	github.com/ChristopherDavenport/agenttool v0.0.22 // indirect
	github.com/ChristopherDavenport/openresponses v0.0.14 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)

replace (
	github.com/ChristopherDavenport/agentpolicy => ..
	github.com/ChristopherDavenport/agenttool => ../internal/stack/agenttool
	github.com/ChristopherDavenport/agentturn => ../internal/stack/agentturn
	github.com/ChristopherDavenport/openresponses => ../internal/stack/openresponses
)
