# Java and Kotlin (java/): one JVM runtime (java/runtime), the code generated for the
# conformance schemas in each language (java/gen-java, java/gen-kotlin, built by
# conformance/java/build.py) with their JUnit 5 tests; java/mvn.sh runs Maven offline
# once ~/.m2 has what it needs. Build output goes to build/java.
.PHONY: test-java
FASTWIRE_CPP_SERVER ?= $(CURDIR)/$(BUILD)/examples/cpp/server

test-java:
	@$(BOOTSTRAP) java
	FASTWIRE_CPP_SERVER=$(FASTWIRE_CPP_SERVER) $(PYTHON) conformance/java/build.py --test java kotlin

LANGUAGE_TESTS += test-java
