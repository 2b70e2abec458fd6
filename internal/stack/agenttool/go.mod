module github.com/ChristopherDavenport/agenttool

go 1.25

require github.com/ChristopherDavenport/openresponses v0.0.14

replace github.com/ChristopherDavenport/openresponses => ../openresponses
