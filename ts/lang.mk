# TypeScript / JavaScript (issue 20): the runtime in ts/ (npm package @fastwire/runtime,
# built with tsc), its tests with Node's test runner, the browser test, the fuzz run.
# Node packages come from the npm registry, pinned by ts/package-lock.json.
TS_GEN := build/ts/gen
FASTWIRE_CPP_SERVER ?= $(CURDIR)/$(BUILD)/examples/cpp/server
TS_FUZZ_SECONDS ?= 15
# make test-ts checks the random schemas' TypeScript and JavaScript too; under make test,
# test-compiler has (it builds the runtime itself first).
TS_RANDOM_SCHEMAS = CI=true
test: TS_RANDOM_SCHEMAS = : test-compiler built the random schemas:

.PHONY: test-ts ts-build ts-gen bench-ts fuzz-ts lint-ts

# make lint: the hand-written TypeScript and JavaScript (src, test, bench, fuzz) as prettier
# formats it (.prettierrc.json: 2 spaces here, 4 in generated code), ESLint's and
# typescript-eslint's recommended rules (eslint.config.js), and tsc --strict without output.
# The tools are pinned by package-lock.json.
TS_HANDWRITTEN = src test bench fuzz eslint.config.js
lint-ts: ts/node_modules/.package-lock.json
	@$(BOOTSTRAP) ts
	cd ts && ./node_modules/.bin/prettier --check --log-level warn $(TS_HANDWRITTEN)
	cd ts && ./node_modules/.bin/eslint --max-warnings 0 $(TS_HANDWRITTEN)
	cd ts && ./node_modules/.bin/tsc -p tsconfig.json --noEmit
LANGUAGE_LINTS += lint-ts

ts/node_modules/.package-lock.json: ts/package-lock.json
	cd ts && npm ci --no-audit --no-fund --ignore-scripts

# The runtime (tsc) and the generated JavaScript of the test schemas (build/ts/gen).
ts-build: ts/node_modules/.package-lock.json
	cd ts && ./node_modules/.bin/tsc -p tsconfig.json
	rm -rf $(TS_GEN) && mkdir -p $(TS_GEN)/node_modules/@fastwire
	ln -s $(CURDIR)/ts $(TS_GEN)/node_modules/@fastwire/runtime
	printf '{"type": "module", "private": true}\n' > $(TS_GEN)/package.json
	PYTHONPATH=$(CURDIR)/compiler $(PYTHON) -m fastwire compile schemas/proto.fbe schemas/protoex.fbe \
		schemas/service.fbe schemas/everything.fbe conformance/schemas/hostile.fbe \
		--lang javascript --final --json --proto -q -o $(TS_GEN)

# Generated code as prettier formats it (goldens and the test schemas' modules), the
# JavaScript flavor's .d.ts files under tsc --strict, random valid schemas' modules under tsc
# and node (compiler/tests/test_generated_code.py); unit, transport (with examples/cpp/server), browser and install tests; the examples,
# whose output must be the C++ examples'; a bounded Jazzer.js run.
test-ts:
	@$(BOOTSTRAP) ts
	$(MAKE) --no-print-directory ts-build
	cd ts && ./node_modules/.bin/prettier --config .prettierrc.json --check \
		../tests/golden/typescript ../tests/golden/javascript '../$(TS_GEN)/*.js' '../$(TS_GEN)/*.d.ts'
	printf '%s\n' '{"compilerOptions": {"target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",' \
		'"strict": true, "noEmit": true, "types": []}, "include": ["*.d.ts"]}' > $(TS_GEN)/tsconfig.json
	ts/node_modules/.bin/tsc -p $(TS_GEN)
	$(TS_RANDOM_SCHEMAS) $(PYTHON) -m pytest -q -p no:cacheprovider compiler/tests/test_generated_code.py \
		-k random_schemas_typescript
	cd ts && PYTHON=$(PYTHON) FASTWIRE_CPP_SERVER=$(FASTWIRE_CPP_SERVER) node --test test/*.test.mjs
	node examples/ts/account.mjs $(TS_GEN) | diff - examples/cpp/expected_account.txt
	node examples/ts/protocol.mjs $(TS_GEN) | diff - examples/cpp/expected_protocol.txt
	$(MAKE) --no-print-directory ts-jazzer
	$(TS_JAZZER)$(TS_FUZZ_SECONDS)
LANGUAGE_TESTS += test-ts

# Jazzer.js (@jazzer.js/core 2.1.0, pinned by ts/package-lock.json): its native addon built
# here against Debian's libFuzzer, the CommonJS build it instruments (ts/fuzz/jazzer-build.sh),
# the seed corpus (golden vectors, every conformance type's messages and JSON). New inputs
# are kept in build/ts/fuzz/corpus, findings written to build/ts/fuzz/crash-*; inputs in
# ts/fuzz/regressions (if any) are replayed by every run. A finding fails the run (exit 77).
TS_JAZZER = cd ts && mkdir -p ../build/ts/fuzz/corpus && node_modules/.bin/jazzer fuzz/jazzer.cjs \
	../build/ts/fuzz/corpus ../build/ts/fuzz/seeds $(if $(wildcard ts/fuzz/regressions),fuzz/regressions) \
	--sync -- -artifact_prefix=../build/ts/fuzz/ -print_final_stats=1 -max_total_time=
.PHONY: ts-jazzer
ts-jazzer:
	cd ts && fuzz/jazzer-build.sh
	cd ts && node fuzz/run.mjs --corpus ../build/ts/fuzz/seeds

# Jazzer.js as long as asked: make fuzz-ts FUZZ_SECONDS=3600 (make fuzz runs it too)
fuzz-ts:
	@$(BOOTSTRAP) ts
	$(MAKE) --no-print-directory ts-build
	$(MAKE) --no-print-directory ts-jazzer
	$(TS_JAZZER)$(FUZZ_SECONDS)
fuzz: fuzz-ts

# The seed account benchmark (tinybench medians), with fastwire C++ of the same session.
bench-ts:
	$(MAKE) --no-print-directory ts-build
	$(BENCH_RECORD) ts --toolchain 'node --version' $(CPP_PEER) -- bash -c '\
	    cd ts && FASTWIRE_CPP_BENCH=$(CURDIR)/$(CPP_ACCOUNT_BENCH) node bench/account.bench.mjs' 
LANGUAGE_BENCHES += bench-ts

# The full-size loopback run of the issue: 1,000,000 mixed messages through `net`.
.PHONY: soak-ts
soak-ts:
	$(MAKE) --no-print-directory ts-build
	cd ts && FASTWIRE_TS_MESSAGES=1000000 FASTWIRE_CPP_SERVER=$(FASTWIRE_CPP_SERVER) \
		node --test --test-name-pattern loopback test/transport.test.mjs
