# tableweb: `make run` serves the demo app, `make test` runs every test (and `make lint`).
# Both install what a fresh Debian machine is missing first.
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# What building and serving need; the tests need more (browsers, a display, PostgreSQL,
# nginx), installed by `make test` only.
RUN_PACKAGES := libwebsockets-dev libsqlite3-dev libssl-dev libpq-dev zlib1g-dev libbrotli-dev pkg-config
# node-typescript: `tsc`, which checks the page's JSDoc types (`make typecheck`).
TEST_PACKAGES := $(RUN_PACKAGES) postgresql nginx chromium chromium-driver webkit2gtk-driver xvfb firefox-esr node-typescript
VENV := .venv
PORT ?= 8080
DB ?= tableweb.sqlite
# How long `make fuzz` runs each fuzz target, and how many inputs `make test` gives each.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_RUNS ?= 20000
# The Swift that `make lint` and `make format` cover: all of ours, no build folders.
SWIFT_DIRS := Sources Tests Benchmarks Examples Plugins Fuzz
SWIFT_FILES = Package.swift $(shell find $(SWIFT_DIRS) -name '*.swift' -not -path '*/.build*')

.PHONY: run test deps test-deps pydeps build release swift-test e2e-test examples bench screenshots format
.PHONY: fuzz fuzz-build fuzz-smoke tsan api-check api-baseline lint lint-report typecheck docs

# Installs the Debian packages of $(1) that are missing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call apt_install,$(RUN_PACKAGES))

test-deps:
	$(call apt_install,$(TEST_PACKAGES) $(shell python3 -c 'import venv, ensurepip' 2>/dev/null || echo python3-venv))

$(VENV)/.installed: Tests/e2e/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/e2e/requirements.txt
	touch $@

pydeps: test-deps $(VENV)/.installed

build: deps
	swift build

release: deps
	swift build -c release

run: release
	swift run -c release tableweb serve --port $(PORT) --db $(DB)

swift-test: test-deps
	swift test

# The example apps, a package that uses TableModel alone, and one that imports Foundation
# and Tableweb and adopts every protocol an app adopts (the public surface, as
# docs/swift-api.md describes it): each depends on this package by path, as an app would.
# An incremental build of a package that depends on this one by path can go stale when
# files are added or signatures change here (seen: missed sources, a stale object file):
# when one fails, it is built again from clean. A clean clone builds each once.
examples: test-deps
	for p in Examples/Files Examples/Monitor Examples/Hello Tests/Packages/ModelOnly Tests/Packages/AppSurface; do \
	  swift build --package-path $$p || { rm -rf $$p/.build && swift build --package-path $$p; } \
	    || exit 1; done
	Tests/Packages/ModelOnly/.build/debug/ModelOnly | grep -q '"type":"diff"'
	Tests/Packages/AppSurface/.build/debug/AppSurface | grep -q 'AppSurface: served on port'

# The public API of the library products (Tableweb with TableServer and TableStore,
# TableModel, TableClient) against the release tagged api-1.0 (API_BASELINE, its commit):
# fails on a change that would break an app built against it (a removed or renamed symbol,
# a changed signature). The baseline's API, as swift-api-digester read it, is kept in
# Tests/APIBaseline/COMMIT/, so `make test` does not build the old release again (5.5
# minutes on 2 cores; `make api-baseline` does, for the next release's commit). A
# deliberate break is listed, one message a line, in API_ALLOWLIST.
API_BASELINE ?= 93d635ce3e6a94a36136044f6334051094fb13d0
API_ALLOWLIST ?= docs/api-breaks.txt
API_CHECK = swift package diagnose-api-breaking-changes $(API_BASELINE) \
	  --products Tableweb TableModel TableClient \
	  $(if $(wildcard $(API_ALLOWLIST)),--breakage-allowlist-path $(API_ALLOWLIST))
api-check: deps
	$(API_CHECK) --baseline-dir Tests/APIBaseline

api-baseline: deps
	$(API_CHECK) --baseline-dir Tests/APIBaseline --regenerate-baseline

# Everything in Chromium, and beside it (the other core) the page suites again in WebKit
# and Firefox.
e2e-test: test-deps pydeps release examples
	$(VENV)/bin/python Tests/e2e/run_engines.py

test: lint swift-test api-check docs fuzz-smoke e2e-test

# swift-format in lint mode with the repository's .swift-format, every finding an error,
# after the page's types (`make typecheck`).
lint: typecheck
	swift format lint --strict --parallel $(SWIFT_FILES)

# What `make lint` finds, counted per rule (the pretty printer's are LineLength,
# Indentation, AddLines, RemoveLine, Spacing, TrailingWhitespace, TrailingComma):
# `make format` fixes most.
lint-report:
	@swift format lint --strict $(SWIFT_FILES) 2>&1 | sort -u | grep -o '\[[A-Za-z]*\]' \
	  | sort | uniq -c | sort -rn; true

# The page (Public/*.js, each `// @ts-check` with JSDoc types) checked by TypeScript
# without emitting anything: Tests/page/tsconfig.json.
typecheck: test-deps
	tsc --noEmit -p Tests/page

# The library's documentation: DocC (swift-docc-plugin) over the modules `import Tableweb`
# brings, combined into one archive, .build/plugins/Swift-DocC/outputs/tableweb.doccarchive;
# every warning (a broken ``link``, an undocumented parameter) an error. After swift-test,
# whose debug build it reuses.
DOC_TARGETS := Tableweb TableModel TableServer TableStore
docs: deps
	swift package generate-documentation $(DOC_TARGETS:%=--target %) \
	  --enable-experimental-combined-documentation --warnings-as-errors

# The libFuzzer targets (Fuzz/): the JSON parser, the client message decoder and the data
# file decoder, built with -sanitize=fuzzer,address into .build-fuzz/.
fuzz-build: deps
	Fuzz/fuzz.sh build

# Each target for FUZZ_SECONDS; prints the executions and fails on a crash.
fuzz: fuzz-build
	Fuzz/fuzz.sh run $(FUZZ_SECONDS)

# Each target for FUZZ_SMOKE_RUNS inputs from its seeds and a fixed random seed.
fuzz-smoke: fuzz-build
	Fuzz/fuzz.sh smoke $(FUZZ_SMOKE_RUNS)

# The Swift suites under ThreadSanitizer, in a build folder of their own. Not part of
# `make test` (about 6 minutes on 2 cores): see the README's "Testing".
tsan: test-deps
	swift test --sanitize=thread --scratch-path .build-tsan

bench: release pydeps
	swift run -c release tablebench diff
	swift run -c release tablebench store
	swift run -c release tablebench fanout
	swift run -c release tablebench twoservers
	swift run -c release tablebench biglist
	swift run -c release tablebench abuse
	$(VENV)/bin/python Benchmarks/pageframes.py
	$(VENV)/bin/python Benchmarks/latency.py

screenshots: test-deps pydeps release
	$(VENV)/bin/python Tests/e2e/screenshots.py

format:
	swift format --in-place --parallel $(SWIFT_FILES)
