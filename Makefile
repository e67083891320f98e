# ragsearch: `make demo` runs the service with the demo corpus, `make test` runs every test.

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
WEB_SOURCES := $(wildcard web/src/*) web/index.html web/vite.config.js

.PHONY: demo test install web lint bench-latency clean

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

test: install lint
	cd web && npm test
	$(BIN)/pytest

bench-latency: install
	$(BIN)/python bench/latency.py

clean:
	rm -rf $(VENV) web/node_modules app/static/web-page
