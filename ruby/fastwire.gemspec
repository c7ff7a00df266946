# frozen_string_literal: true

require_relative "lib/fastwire/errors"
require_relative "lib/fastwire/version"

Gem::Specification.new do |s|
  s.name = "fastwire"
  s.version = Fastwire::VERSION
  s.summary = "Fast Binary Encoding (FBE) runtime for Ruby: versioned and final formats, JSON, protocol"
  s.description = "The runtime under the Ruby code fastwire's schema compiler generates: " \
                  "byte-exact FBE wire formats, verify for untrusted input, JSON, Sender/Receiver " \
                  "and a TCP transport. Standard library only."
  s.authors = ["fastwire"]
  s.license = "MIT"
  s.required_ruby_version = ">= 3.1"
  s.files = Dir.chdir(__dir__) { Dir["lib/**/*.rb"] + ["README.md"] }
  s.require_paths = ["lib"]
  s.metadata["rubygems_mfa_required"] = "true"
end
