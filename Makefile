# ragsearch: `make demo` runs the service with the demo corpus, `make test` runs every test.

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
WEB_SOURCES := $(wildcard web/src/*) web/index.html web/vite.config.js

.PHONY: demo test install web lint compose-check system-packages bench-latency clean

$(BIN)/ragsearch: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund

app/static/web-page/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && npm run build

install: $(BIN)/ragsearch app/static/web-page/index.html

web: app/static/web-page/index.html

demo: install
	$(BIN)/ragsearch serve --demo

lint: $(BIN)/ragsearch
	$(BIN)/ruff check app tests bench migrations
	$(BIN)/ruff format --check app tests bench migrations

# Debian packages the tests use: pgbouncer (the transaction-mode test) and a compose
# command (the compose file check); installed with apt-get when missing.
system-packages:
	@missing=""; \
	command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || missing="$$missing pgbouncer"; \
	docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null \
		|| missing="$$missing docker-compose"; \
	if [ -n "$$missing" ]; then \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

# The compose file and every profile, validated offline (nothing is pulled or built).
compose-check: system-packages
	@if docker compose version >/dev/null 2>&1; then compose="docker compose"; \
	else compose=docker-compose; fi; \
	RAG_API_KEYS=check $$compose --profile replica --profile pgbouncer config -q \
		&& echo "docker-compose.yml and its profiles are valid"

test: install lint compose-check
	cd web && npm test
	$(BIN)/pytest

bench-latency: install
	$(BIN)/python bench/latency.py

clean:
	rm -rf $(VENV) web/node_modules app/static/web-page
