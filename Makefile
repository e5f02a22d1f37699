# Two commands do all the setup on a fresh clone: `make demo` and `make test`.
SHELL := /bin/bash
NPM_STAMP := node_modules/.package-lock.json
BUILD_STAMP := dist/.built
UI_STAMP := dist/console/.built

.PHONY: all build check test demo demo-echo demo-procedure bench bench-soak docs clean console-fixtures

all: build

# npm ci only when the lock file changed since the last install.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund

$(BUILD_STAMP): $(NPM_STAMP) tsconfig.json $(shell find lib spec bench fixtures quickstart -name '*.ts' 2>/dev/null)
	npx tsc -p tsconfig.json
	node dist/scripts/precompile-validators.js
	chmod +x dist/lib/cli/*.js
	touch $(BUILD_STAMP)

# The console's UI (console/, Vue + Vite) into dist/console, which `stretto console` serves.
$(UI_STAMP): $(NPM_STAMP) $(shell find console -type f -not -path '*/node_modules/*' 2>/dev/null)
	npx vite build --config console/vite.config.ts --logLevel warn
	touch $(UI_STAMP)

build: $(BUILD_STAMP) $(UI_STAMP)

# The layer rules (.dependency-cruiser.cjs) and the type-checked lint (the code, its specs and
# benchmarks), then the specs.
check: $(NPM_STAMP)
	npx depcruise lib --config .dependency-cruiser.cjs
	npx eslint lib spec bench
	npx vue-tsc --noEmit -p console/tsconfig.json

# The specs in a temporary folder of their own, which must be empty after them (scripts/run-specs.sh).
test: build check
	bash scripts/run-specs.sh

# The quickstart: record six customers, learn a flow, review it, serve two more with it.
demo: build
	node dist/quickstart/main.js

# The console's fixture data directory (fixtures/console/), made by our own tools.
console-fixtures: build
	node dist/scripts/console-fixtures.js

# The echo walkthrough: five messages through the proxy, then the session log.
demo-echo: build
	bash scripts/demo-echo.sh

# The published telecom procedure on one ticket against the demo's telecom world, no model.
demo-procedure: build
	bash scripts/demo-procedure.sh

bench: build
	node dist/bench/run.js

# One guarded session of 1,000,000 calls, RSS at 50k/250k/500k/1M (docs/benchmarks.md, "Soak"); a few minutes.
bench-soak: build
	node dist/bench/soak.bench.js --flow

# docs/options-reference.md, from each binary's --help (scripts/options-reference.ts; the
# drift spec is spec/docs/options-reference.spec.ts). The build leaves scripts/ out of its
# stamp, so a changed generator is compiled here.
docs: build
	@if [ ! -e dist/scripts/options-reference.js ] || [ scripts/options-reference.ts -nt dist/scripts/options-reference.js ]; then npx tsc -p tsconfig.json; fi
	node dist/scripts/options-reference.js

clean:
	rm -rf dist
