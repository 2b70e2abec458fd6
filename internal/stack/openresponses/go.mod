module github.com/ChristopherDavenport/openresponses

go 1.25
