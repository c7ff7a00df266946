# Java and Kotlin (java/): one JVM runtime (java/runtime), the hand-written JUnit 5 tests of
# each language (java/tests-java, java/tests-kotlin), compiled with the code generated for
# the conformance schemas (by conformance/java/prepare.py); java/mvn.sh runs Maven offline
# once ~/.m2 has what it needs. Build output goes to build/java.
.PHONY: test-java lint-java

# make lint: Checkstyle, ktlint and javac -Xlint:all over the hand-written Java and Kotlin
# (java/lint/run.py says what and which exceptions; java/lint/pom.xml pins the tools).
lint-java:
	@$(BOOTSTRAP) java lint
	$(PYTHON) java/lint/run.py
LANGUAGE_LINTS += lint-java
FASTWIRE_CPP_SERVER ?= $(CURDIR)/$(BUILD)/examples/cpp/server

test-java:
	@$(BOOTSTRAP) java
	FASTWIRE_CPP_SERVER=$(FASTWIRE_CPP_SERVER) $(PYTHON) conformance/java/prepare.py --test java kotlin
	JAZZER_FUZZ=1 java/mvn.sh -pl tests-java -am test -Dtest=FuzzTargetsTest -Dsurefire.failIfNoSpecifiedTests=false -Dfastwire.skipNoUnsafe=true
	java/install-check.sh

# Longer fuzzing: the Jazzer target again and again (20 s a run, its corpus kept under
# build/java/tests-java/surefire-work/.cifuzz-corpus), for JAVA_FUZZ_RUNS runs: by default
# enough runs to fill FUZZ_SECONDS. `make fuzz` runs it too (make fuzz FUZZ_SECONDS=3600).
JAVA_FUZZ_RUNS ?= $(shell echo $$(( ($(FUZZ_SECONDS) + 19) / 20 )))
.PHONY: fuzz-java
fuzz-java:
	@$(BOOTSTRAP) java
	$(PYTHON) conformance/java/prepare.py java
	for i in $$(seq $(JAVA_FUZZ_RUNS)); do \
	    JAZZER_FUZZ=1 java/mvn.sh -pl tests-java -am test -Dtest=FuzzTargetsTest -Dsurefire.failIfNoSpecifiedTests=false -Dfastwire.skipNoUnsafe=true || exit 1; done

fuzz: fuzz-java

LANGUAGE_TESTS += test-java

# The JMH benchmark of the seed account, Java and Kotlin, medians (java/bench/run.py), with
# fastwire C++'s account benchmark in the same run when it is built.
.PHONY: bench-java
bench-java:
	@$(BOOTSTRAP) java
	$(PYTHON) conformance/java/prepare.py java kotlin
	java/mvn.sh -pl bench-java,bench-kotlin -am package -DskipTests
	$(BENCH_RECORD) java --toolchain 'java -version 2>&1' --peer 'fastwire Kotlin (the same JMH run)' $(CPP_PEER) -- \
	    $(PYTHON) java/bench/run.py --cpu $(if $(wildcard $(CPP_ACCOUNT_BENCH)),--cpp $(CPP_ACCOUNT_BENCH))

LANGUAGE_BENCHES += bench-java
