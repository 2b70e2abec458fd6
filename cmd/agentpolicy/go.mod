module github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy

go 1.26.0

require (
	github.com/ChristopherDavenport/agentpolicy v0.0.0
	github.com/ChristopherDavenport/agentpolicy/claudecode v0.0.0
	github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook v0.0.0
	github.com/ChristopherDavenport/agentpolicy/codex v0.0.0
	github.com/ChristopherDavenport/agentpolicy/conformance/claudecode v0.0.0
	github.com/ChristopherDavenport/agentpolicy/gemini v0.0.0
	github.com/ChristopherDavenport/agentpolicy/pgjournal v0.0.0
	github.com/ChristopherDavenport/agentpolicy/shell v0.0.0
	github.com/ChristopherDavenport/agenttool v0.0.22
	github.com/ChristopherDavenport/agentturn v0.0.22
	github.com/ChristopherDavenport/openresponses v0.0.14
	github.com/chromedp/chromedp v0.23.1
	github.com/jackc/pgx/v5 v5.13.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/benhoyt/goawk v1.29.1 // indirect
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	github.com/chromedp/cdproto v0.160.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

replace (
	github.com/ChristopherDavenport/agentpolicy => ../..
	github.com/ChristopherDavenport/agentpolicy/claudecode => ../../claudecode
	github.com/ChristopherDavenport/agentpolicy/cmd/agentpolicy-hook => ../agentpolicy-hook
	github.com/ChristopherDavenport/agentpolicy/codex => ../../codex
	github.com/ChristopherDavenport/agentpolicy/conformance/claudecode => ../../conformance/claudecode
	github.com/ChristopherDavenport/agentpolicy/gemini => ../../gemini
	github.com/ChristopherDavenport/agentpolicy/pgjournal => ../../pgjournal
	github.com/ChristopherDavenport/agentpolicy/shell => ../../shell
	github.com/ChristopherDavenport/agenttool => ../../internal/stack/agenttool
	github.com/ChristopherDavenport/agentturn => ../../internal/stack/agentturn
	github.com/ChristopherDavenport/openresponses => ../../internal/stack/openresponses
)
