# C#: built with Debian's Mono (mcs) by csharp/build.py, tested with NUnit 2.6
# (nunit-console), outputs under build/csharp. Included by the top-level Makefile.
.PHONY: test-csharp bench-csharp fuzz-csharp

test-csharp:
	@$(BOOTSTRAP) csharp
	$(PYTHON) csharp/build.py test
	$(PYTHON) conformance/run.py --lang csharp

LANGUAGE_TESTS += test-csharp
