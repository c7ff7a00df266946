# Ruby (ruby/): the runtime gem's minitest suite (golden vectors, versioning, every
# truncation and single-byte change, types, JSON, protocol and transport against the C++
# example server), the generated code under `ruby -w`, `gem build` + `gem install
# --local` into a temporary GEM_HOME with the seed example run from the installed gem,
# and the conformance suite. Debian's ruby only (no RubyGems registry).
RUBY_BUILD = build/ruby
RUBY_SCHEMAS = schemas/proto.fbe schemas/protoex.fbe schemas/protocol.fbe schemas/everything.fbe \
               schemas/service.fbe conformance/schemas/hostile.fbe

RUBY_FUZZ_SECONDS ?= 5

.PHONY: test-ruby bench-ruby fuzz-ruby lint-ruby

# make lint: RuboCop's default cops, as ruby/.rubocop.yml sets them (each one changed or off
# says why), over the hand-written Ruby; the generated code's layout is test_format.rb's.
lint-ruby:
	@$(BOOTSTRAP) ruby
	rubocop -c ruby/.rubocop.yml --format simple --no-color ruby examples/ruby conformance/ruby
LANGUAGE_LINTS += lint-ruby
test-ruby:
	@$(BOOTSTRAP) ruby
	rm -rf $(RUBY_BUILD)/gen $(RUBY_BUILD)/gem
	$(PYTHON) -m fastwire compile $(RUBY_SCHEMAS) --lang ruby --final --json --proto -q -o $(RUBY_BUILD)/gen
	FASTWIRE_RUBY_GEN=$(CURDIR)/$(RUBY_BUILD)/gen FASTWIRE_CPP_SERVER=$(CURDIR)/$(BUILD)/examples/cpp/server \
	    ruby -w -e 'ARGV.each { |f| require File.expand_path(f) }' ruby/test/test_*.rb
	FASTWIRE_RUBY_GEN=$(CURDIR)/$(RUBY_BUILD)/gen ruby -w ruby/test/fuzz.rb $(RUBY_FUZZ_SECONDS)
	mkdir -p $(RUBY_BUILD)/gem
	cd ruby && gem build fastwire.gemspec -o ../$(RUBY_BUILD)/gem/fastwire.gem --quiet
	GEM_HOME=$(CURDIR)/$(RUBY_BUILD)/gem/home gem install --local --no-document --quiet $(RUBY_BUILD)/gem/fastwire.gem
	$(PYTHON) -m fastwire compile schemas/proto.fbe --lang ruby -q -o $(RUBY_BUILD)/gem/app
	cd $(RUBY_BUILD)/gem/app && GEM_HOME=$(CURDIR)/$(RUBY_BUILD)/gem/home GEM_PATH= \
	    ruby -w $(CURDIR)/examples/ruby/account.rb
	$(LANG_CONFORMANCE) ruby
LANGUAGE_TESTS += test-ruby

bench-ruby:
	@$(BOOTSTRAP) ruby
	$(PYTHON) -m fastwire compile schemas/proto.fbe --lang ruby --final --json -q -o $(RUBY_BUILD)/bench
	$(BENCH_RECORD) ruby --toolchain 'ruby --version' -- bash -c '\
	    export FASTWIRE_RUBY_GEN=$(CURDIR)/$(RUBY_BUILD)/bench; echo "ruby:"; ruby ruby/bench/account_bench.rb && \
	    echo && echo "ruby --yjit:" && ruby --yjit ruby/bench/account_bench.rb' 
LANGUAGE_BENCHES += bench-ruby

# The mutation fuzzer at length (Ruby has no standard coverage-guided fuzzer; make test
# runs it for RUBY_FUZZ_SECONDS).
fuzz-ruby:
	@$(BOOTSTRAP) ruby
	$(PYTHON) -m fastwire compile $(RUBY_SCHEMAS) --lang ruby --final --json --proto -q -o $(RUBY_BUILD)/gen
	FASTWIRE_RUBY_GEN=$(CURDIR)/$(RUBY_BUILD)/gen ruby -w ruby/test/fuzz.rb $(FUZZ_SECONDS)
