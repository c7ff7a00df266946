# Java and Kotlin (java/): one JVM runtime (java/runtime), the code generated for the
# conformance schemas in each language (java/gen-java, java/gen-kotlin) with their JUnit 5
# tests, conformance testees and a bounded Jazzer run; the JMH benchmark (java/bench).
# Maven writes under build/java. make fuzz-java runs the fuzzers longer (JAVA_FUZZ_SECONDS).
JAVA_FUZZ_SECONDS ?= 300

.PHONY: test-java bench-java fuzz-java

test-java:
	@$(BOOTSTRAP) java
	$(PYTHON) conformance/java/build.py java
	FASTWIRE_CPP_SERVER=$(CURDIR)/$(BUILD)/examples/cpp/server java/mvn.sh -pl gen-java -am install

LANGUAGE_TESTS += test-java
