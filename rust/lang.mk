# Rust (rust/, a cargo workspace): the runtime crate `fastwire`, the build helper
# `fastwire-build`, the conformance testee and its tests. Included by the root Makefile.
#
#   make test-rust     rustfmt --check (runtime and generated code), clippy -D warnings,
#                      cargo test --features tokio,tls (unit, golden, malformed, property,
#                      transport tests: std::net with and without TLS, and tokio); the
#                      default build without tokio and rustls
#   make bench-rust    the criterion benchmark (rust/bench), medians
#   make fuzz-rust     the cargo-fuzz targets for longer (FUZZ_SECONDS)

RUST_TARGET_DIR := $(CURDIR)/build/rust/target
CARGO := CARGO_TARGET_DIR=$(RUST_TARGET_DIR) FASTWIRE_PYTHON=$(PYTHON) cargo
RUST_MANIFEST := --manifest-path rust/Cargo.toml

.PHONY: test-rust lint-rust

# make lint: rustfmt --check over the workspace and the generated goldens (clippy needs a
# build: it runs in test-rust).
lint-rust:
	@$(BOOTSTRAP) rust
	$(CARGO) fmt $(RUST_MANIFEST) --all -- --check
	rustfmt --edition 2021 --config-path rust/rustfmt.toml --check tests/golden/rust/*.rs
LANGUAGE_LINTS += lint-rust
test-rust:
	@$(BOOTSTRAP) rust
	$(CARGO) fmt $(RUST_MANIFEST) --all -- --check
	rustfmt --edition 2021 --config-path rust/rustfmt.toml --check tests/golden/rust/*.rs
	$(CARGO) clippy $(RUST_MANIFEST) -j$(JOBS) --all-targets --features tokio,tls -- -D warnings
	@! $(CARGO) tree $(RUST_MANIFEST) -q -e normal --workspace | grep -qwE 'tokio|rustls|ring' || \
	    { echo "tokio or rustls is in the default build (they must be behind the tokio and tls features)"; exit 1; }
	FASTWIRE_CPP_SERVER=$(abspath $(BUILD))/examples/cpp/server $(CARGO) test $(RUST_MANIFEST) -j$(JOBS) -q --features tokio,tls

LANGUAGE_TESTS += test-rust

# The fuzz target (rust/fuzz: libFuzzer via libfuzzer-sys, nightly, AddressSanitizer):
# a short run in make test (skipped, with a message, where no nightly toolchain is), and
# as long as asked in make fuzz-rust FUZZ_SECONDS=3600.
RUST_FUZZ_SECONDS ?= 20
.PHONY: test-rust-fuzz fuzz-rust
test-rust-fuzz:
	@$(BOOTSTRAP) rust
	JOBS=$(JOBS) rust/fuzz/run.sh $(RUST_FUZZ_SECONDS)
fuzz-rust:
	@$(BOOTSTRAP) rust
	JOBS=$(JOBS) rust/fuzz/run.sh $(or $(FUZZ_SECONDS),600)
LANGUAGE_TESTS += test-rust-fuzz

# The criterion benchmark of the seed account (rust/bench: wall-clock medians, and JSON),
# then the goal table: Rust's CPU time per call beside fastwire C++'s account benchmark
# (CPU-time medians) in the same session, with the ratios and the load.
.PHONY: bench-rust
bench-rust:
	@$(BOOTSTRAP) rust
	@uptime
	$(CARGO) build $(RUST_MANIFEST) -j$(JOBS) --release -q -p fastwire-bench --bin profile
	$(BENCH_RECORD) rust --toolchain 'rustc --version' $(CPP_PEER) -- bash -c '\
	    $(CARGO) bench $(RUST_MANIFEST) -j$(JOBS) -p fastwire-bench --bench account -- --noplot >&2 && \
	    $(PYTHON) rust/bench/medians.py $(RUST_TARGET_DIR)/criterion && \
	    $(PYTHON) rust/bench/compare.py $(RUST_TARGET_DIR)/release/profile $(CPP_ACCOUNT_BENCH)' 
LANGUAGE_BENCHES += bench-rust

# The transports' full-size runs: FASTWIRE_RUST_MESSAGES mixed messages over std::net (make
# test: a million), FASTWIRE_RUST_TOKIO_MESSAGES over tokio (make test: 100,000).
.PHONY: soak-rust
soak-rust:
	@$(BOOTSTRAP) rust
	FASTWIRE_RUST_MESSAGES=10000000 $(CARGO) test $(RUST_MANIFEST) -j$(JOBS) -q -p fastwire-testee \
	    --test transport mixed
	FASTWIRE_RUST_TOKIO_MESSAGES=1000000 $(CARGO) test $(RUST_MANIFEST) -j$(JOBS) -q -p fastwire-testee \
	    --features tokio --test transport_tokio mixed
