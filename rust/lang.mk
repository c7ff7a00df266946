# Rust (rust/, a cargo workspace): the runtime crate `fastwire`, the build helper
# `fastwire-build`, the conformance testee and its tests. Included by the root Makefile.
#
#   make test-rust     rustfmt --check (runtime and generated code), clippy -D warnings,
#                      cargo test (unit, golden, malformed, property, transport tests)
#   make bench-rust    the criterion benchmark (rust/bench), medians
#   make fuzz-rust     the cargo-fuzz targets for longer (FUZZ_SECONDS)

RUST_TARGET_DIR := $(CURDIR)/build/rust/target
CARGO := CARGO_TARGET_DIR=$(RUST_TARGET_DIR) FASTWIRE_PYTHON=$(PYTHON) cargo
RUST_MANIFEST := --manifest-path rust/Cargo.toml

.PHONY: test-rust
test-rust:
	@$(BOOTSTRAP) rust
	$(CARGO) fmt $(RUST_MANIFEST) --all -- --check
	rustfmt --edition 2021 --config-path rust/rustfmt.toml --check tests/golden/rust/*.rs
	$(CARGO) clippy $(RUST_MANIFEST) -j$(JOBS) --all-targets -- -D warnings
	FASTWIRE_CPP_SERVER=$(CURDIR)/$(BUILD)/examples/cpp/server $(CARGO) test $(RUST_MANIFEST) -j$(JOBS) -q

LANGUAGE_TESTS += test-rust
