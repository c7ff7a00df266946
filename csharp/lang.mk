# C#: built with Debian's Mono (mcs) by csharp/build.py, tested with NUnit 2.6
# (nunit-console), outputs under build/csharp. Included by the top-level Makefile.
#   test-csharp   NUnit tests, the conformance suite, the examples, the transport over
#                 loopback (20,000 messages per format; reconnect; the block policy; TLS
#                 with a certificate made by openssl) and the C# client against
#                 examples/cpp/server (both formats, TCP and TLS)
#   soak-csharp   the loopback transport test with 1,000,000 messages per format
#   bench-csharp  the Stopwatch benchmark of the seed account (csharp/Bench/Bench.cs) in five
#                 processes: their medians, the median across them, the goal table
#   fuzz-csharp   the corpus-mutation fuzzer of verify/deserialize for FUZZ_SECONDS (no
#                 coverage-guided .NET fuzzer is reachable here; make test runs it 10 s)
.PHONY: test-csharp soak-csharp bench-csharp fuzz-csharp lint-csharp

# make lint: the runtime built with every warning an error (mcs -warnaserror+; C# has no
# formatter here); test-csharp builds the tests and examples the same way.
lint-csharp:
	@$(BOOTSTRAP) csharp
	$(PYTHON) csharp/build.py runtime
LANGUAGE_LINTS += lint-csharp

test-csharp:
	@$(BOOTSTRAP) csharp
	$(PYTHON) csharp/build.py test
	$(LANG_CONFORMANCE) csharp
	$(PYTHON) csharp/build.py examples
	$(PYTHON) csharp/build.py fuzz 10
	FASTWIRE_CPP_SERVER=$(CURDIR)/$(BUILD)/examples/cpp/server $(PYTHON) csharp/build.py transport

soak-csharp:
	@$(BOOTSTRAP) csharp
	FASTWIRE_CSHARP_MESSAGES=1000000 FASTWIRE_CPP_SERVER=$(CURDIR)/$(BUILD)/examples/cpp/server \
		$(PYTHON) csharp/build.py transport

fuzz-csharp:
	@$(BOOTSTRAP) csharp
	$(PYTHON) csharp/build.py fuzz $(FUZZ_SECONDS)

bench-csharp:
	@$(BOOTSTRAP) csharp
	$(BENCH_RECORD) csharp --toolchain 'mono --version' -- $(PYTHON) csharp/build.py bench

LANGUAGE_TESTS += test-csharp
LANGUAGE_BENCHES += bench-csharp
