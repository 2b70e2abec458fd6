module github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook

go 1.26.0
