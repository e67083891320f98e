# ragsearch: `make demo` runs the service with the demo corpus, `make test` runs every test.

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
TORCH_VERSION := 2.13.0
# setuptools says, for every editable install whose packages are mapped from other folders
# (sql/ and migrations/ here), that such installs import from the working tree: we know.
QUIET_EDITABLE := ignore:Editable installation
WEB_SOURCES := $(shell find web/src -type f) web/index.html web/vite.config.js web/tsconfig.json

.PHONY: demo test test-clients install web lint docs compose-check system-packages citus bench-latency clean

# The CPU build of torch first, so that the embed extra (the query embedder) pulls no CUDA build.
# The bench extra (the search benchmark's in-process peers) too: tests/bench runs them.
$(BIN)/ragsearch: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==$(TORCH_VERSION)
	PYTHONWARNINGS="$(QUIET_EDITABLE)" $(BIN)/pip install --quiet -e '.[test,embed,docs,bench]'
	@touch $@

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund

app/static/web-page/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && npm run build

install: $(BIN)/ragsearch app/static/web-page/index.html

web: app/static/web-page/index.html

# The demo embeds typed questions with the packaged all-MiniLM-L6-v2 (the embed extra).
demo: install
	RAG_EMBEDDER=local $(BIN)/ragsearch serve --demo

lint: $(BIN)/ragsearch
	$(BIN)/ruff check app tests bench migrations docs/hooks
	$(BIN)/ruff format --check app tests bench migrations docs/hooks
	$(BIN)/mypy

# The documentation site (mkdocs.yml), built offline into build/site; strict: a broken link
# or anchor, or a page missing from the nav, fails it. NO_MKDOCS_2_WARNING quiets a banner
# about a future MkDocs release.
docs: $(BIN)/ragsearch
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Debian packages the tests use: pgbouncer (the transaction-mode test), a compose command
# (the compose file check) and Chromium (the page's browser tests); installed with
# apt-get when missing.
system-packages:
	@missing=""; \
	command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || missing="$$missing pgbouncer"; \
	docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null \
		|| missing="$$missing docker-compose"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

# The compose file and every profile, validated offline (nothing is pulled or built).
compose-check: system-packages
	@if docker compose version >/dev/null 2>&1; then compose="docker compose"; \
	else compose=docker-compose; fi; \
	RAG_API_KEYS=check $$compose --profile replica --profile pgbouncer --profile citus config -q \
		&& echo "docker-compose.yml and its profiles are valid"

# The Python client (clients/python) in a venv of its own, with its extras and LangChain's
# standard test suites; its tests start `ragsearch serve` from the server's venv.
CLIENT := clients/python
CLIENT_BIN := $(CLIENT)/.venv/bin

$(CLIENT_BIN)/pytest: $(CLIENT)/pyproject.toml
	$(PYTHON) -m venv $(CLIENT)/.venv
	$(CLIENT_BIN)/pip install --quiet --upgrade pip
	$(CLIENT_BIN)/pip install --quiet -e '$(CLIENT)[langchain,llama-index,test]'
	@touch $@

test-clients: install $(CLIENT_BIN)/pytest
	cd $(CLIENT) && .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy
	cd $(CLIENT) && RAGSEARCH_SERVER_PYTHON=$(abspath $(BIN))/python .venv/bin/pytest

# PostgreSQL with Citus for the cluster tests (tests/cluster), built from the vendored
# source (../shared/vendor/citus) into RAG_CITUS_CACHE_DIR once per pair of versions.
citus: $(BIN)/ragsearch
	$(BIN)/ragsearch cluster build

test: install lint docs system-packages compose-check test-clients citus
	cd web && npm test
	$(BIN)/pytest

bench-latency: install
	$(BIN)/python bench/latency.py

clean:
	rm -rf $(VENV) $(CLIENT)/.venv web/node_modules app/static/web-page
