module github.com/ChristopherDavenport/agentpolicy/conformance/claudecode

go 1.26.0
