# The gate is `make check`: everything here runs offline once the module
# cache holds the pinned tools and conformance/claudecode holds the pinned
# Claude Code (the Go module proxy and, once, the npm registry are the only
# network use).

GO ?= go

# Every module is built, vetted and tested on its own, as a host that
# requires it builds it: the workspace (go.work) is for running the
# repository's commands from its root, not for the gate.
export GOWORK := off

# Pinned tools, run with `go run pkg@version` so the Go build cache keeps them
# built between runs.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOVULNCHECK := golang.org/x/vuln/cmd/govulncheck@v1.9.0

# govulncheck cannot reach its online database here, so it reads one built
# from the golang.org/x/vulndb module's data/osv with its cmd/indexdb. The
# database is built once per machine, under the user's cache folder, and
# reused by every clone and every run.
VULNDB_VERSION := v0.0.0-20261105234957-e22db6528018
VULNDB_MODULE := golang.org/x/vulndb@$(VULNDB_VERSION)
VULNDB_DIR ?= $(HOME)/.cache/agentpolicy/vulndb-$(VULNDB_VERSION)

# The root module and every nested module (the loop stand-ins and any
# nested module added later).
MODULES := $(patsubst %/go.mod,%,$(shell find . -name go.mod -not -path './.cache/*' | sort))

# What the root module's packages may import besides the standard library
# and the module itself.
ALLOWED_DEPS := github.com/ChristopherDavenport/agentturn github.com/ChristopherDavenport/agenttool github.com/ChristopherDavenport/openresponses

.PHONY: check build test postgres vet fmt tidy-check deps lint vuln vulndb bench record-claudecode claude-code codex gemini

check: fmt tidy-check build vet deps lint vuln test

build:
	@for m in $(MODULES); do echo "build $$m"; (cd $$m && $(GO) build -o /dev/null ./...) || exit 1; done

# The secrets finder (internal/secret, under guard) scans with AVX2
# assembly where the processor has it and with strings.IndexByte
# elsewhere; the purego tag makes it take the portable path here too, so
# both are tested, vetted and linted on every machine.
test: claude-code codex gemini postgres
	@for m in $(MODULES); do echo "test $$m"; (cd $$m && $(GO) test -race -count=1 ./...) || exit 1; done
	@echo "test ./guard ./internal/secret -tags purego"; $(GO) test -race -count=1 -tags purego ./guard/ ./internal/secret/

# The PostgreSQL tests (pgjournal, cmd/agentpolicy) start throwaway
# clusters with PostgreSQL's server programs (see pgjournal/pgtest).
postgres:
	@command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
		echo "PostgreSQL's server programs (pg_ctl, initdb) are not installed; the tests of pgjournal and"; \
		echo "cmd/agentpolicy start a throwaway cluster with them. On Debian: apt-get install postgresql"; exit 1; }

vet:
	@for m in $(MODULES); do echo "vet $$m"; (cd $$m && $(GO) vet ./...) || exit 1; done
	@echo "vet ./guard ./internal/secret -tags purego, and for arm64"; $(GO) vet -tags purego ./guard/ ./internal/secret/ && GOARCH=arm64 $(GO) vet ./guard/ ./internal/secret/

fmt:
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

tidy-check:
	@for m in $(MODULES); do echo "tidy $$m"; (cd $$m && $(GO) mod tidy -diff) || exit 1; done

deps:
	@bad=$$($(GO) list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./... | \
		grep -v -e '^github.com/ChristopherDavenport/agentpolicy\(/\|$$\)' \
		$(foreach d,$(ALLOWED_DEPS),-e '^$(d)\(/\|$$\)')); \
	if [ -n "$$bad" ]; then echo "the root module imports what it may not:"; echo "$$bad"; exit 1; fi; \
	echo "deps: standard library, the stack and the module only"

lint:
	@for m in $(MODULES); do echo "staticcheck $$m"; (cd $$m && $(GO) run $(STATICCHECK) ./...) || exit 1; done
	@echo "staticcheck ./guard ./internal/secret -tags purego"; $(GO) run $(STATICCHECK) -tags purego ./guard/ ./internal/secret/

# A module may list, in govulncheck-accepted.txt, the IDs of findings it
# accepts, each with why; the check then passes only when govulncheck
# reports exactly those, so a new finding fails it and so does an accepted
# one that went away and should be struck off.
vuln: vulndb
	@for m in $(MODULES); do echo "govulncheck $$m"; \
		out=$$(cd $$m && $(GO) run $(GOVULNCHECK) -db file://$(VULNDB_DIR) ./... 2>&1); status=$$?; \
		[ $$status -eq 0 ] && continue; \
		if ! echo "$$out" | grep -q '^Your code is affected by' || [ ! -f $$m/govulncheck-accepted.txt ]; then echo "$$out"; exit 1; fi; \
		found=$$(echo "$$out" | sed -n 's/^Vulnerability #[0-9]*: \(GO-[0-9-]*\)$$/\1/p' | sort -u | tr '\n' ' '); \
		accepted=$$(grep -o '^GO-[0-9-]*' $$m/govulncheck-accepted.txt | sort -u | tr '\n' ' '); \
		if [ "$$found" != "$$accepted" ]; then echo "$$out"; echo "reported: $$found"; echo "accepted: $$accepted"; exit 1; fi; \
		echo "  accepted, see $$m/govulncheck-accepted.txt: $$found"; \
	done

vulndb: $(VULNDB_DIR)/index/db.json

$(VULNDB_DIR)/index/db.json:
	@echo "building the vulnerability database in $(VULNDB_DIR) (once per machine)"
	@src=$$($(GO) mod download -json $(VULNDB_MODULE) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	test -n "$$src" || { echo "cannot download $(VULNDB_MODULE)"; exit 1; }; \
	mkdir -p "$(dir $(VULNDB_DIR))" && tmp=$$(mktemp -d "$(dir $(VULNDB_DIR)).vulndb.XXXXXX"); \
	$(GO) run golang.org/x/vulndb/cmd/indexdb@$(VULNDB_VERSION) -vulns "$$src/data/osv" -out "$$tmp/db" && \
	rm -rf "$(VULNDB_DIR)" && mv "$$tmp/db" "$(VULNDB_DIR)" && rmdir "$$tmp"

# The project beside its peers (bench/): the benchmarks, then a table of
# ratios. Not part of check, which builds, vets, lints, vuln-checks and tests
# bench/ as it does every module but runs no benchmark.
BENCHFLAGS ?= -benchtime=1s -count=1

bench:
	@out=$$(mktemp); \
	(cd bench && $(GO) test -run '^$$' -bench . -benchmem $(BENCHFLAGS) ./...) > $$out || { cat $$out; rm -f $$out; exit 1; }; \
	cat $$out; echo; (cd bench && $(GO) run ./cmd/ratios) < $$out; status=$$?; rm -f $$out; exit $$status

# Claude Code's answers to the conformance cases (testdata/claudecode), from
# the real Claude Code the lockfile of conformance/claudecode pins: npm ci
# installs it (the npm registry, once), then every case runs against it,
# two sessions at a time. check holds the importer to the recording offline
# and re-records a sample live; see conformance/claudecode/README.md.
record-claudecode:
	cd conformance/claudecode && npm ci --no-audit --no-fund && $(GO) run ./cmd/record

# The Claude Code the tests run (the hook's end-to-end tests and the live
# sample of the recorded cases), installed from the lockfile when missing
# (npm gives its files a date in 1985, so a date is no guide to staleness:
# `make record-claudecode` installs afresh).
claude-code: conformance/claudecode/node_modules/.bin/claude

conformance/claudecode/node_modules/.bin/claude:
	cd conformance/claudecode && npm ci --no-audit --no-fund

# The Codex CLI and Gemini CLI the hook's end-to-end tests run
# (cmd/agentpolicy/hook_codex_e2e_test.go, hook_gemini_e2e_test.go), each
# installed from its lockfile when missing, as Claude Code is. Codex's
# native binary comes in a per-platform npm package its lockfile pins.
codex: conformance/codex/node_modules/.bin/codex

conformance/codex/node_modules/.bin/codex:
	cd conformance/codex && npm ci --no-audit --no-fund

gemini: conformance/gemini/node_modules/.bin/gemini

conformance/gemini/node_modules/.bin/gemini:
	cd conformance/gemini && npm ci --no-audit --no-fund
