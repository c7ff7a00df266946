# frozen_string_literal: true

require_relative "test_helper"
require "open3"

# The generated code, the runtime, the tests and the examples are laid out as RuboCop's
# Layout cops want (ruby/.rubocop.yml): the formatter would change nothing.
class TestFormat < Minitest::Test
  def test_layout_is_rubocops
    rubocop = ENV.fetch("RUBOCOP", "rubocop")
    files = Dir[File.join(GEN, "*_fbe.rb")] +
            [File.join(REPO, "ruby"), File.join(REPO, "examples", "ruby"), File.join(REPO, "conformance", "ruby")]
    out, err, status = Open3.capture3(rubocop, "-c", File.join(REPO, "ruby", ".rubocop.yml"), "--only", "Layout",
                                      "--format", "simple", "--no-color", *files)
    assert status.success?, "rubocop (Debian's rubocop, `scripts/bootstrap ruby`) found layout offenses:\n#{out}#{err}"
  rescue Errno::ENOENT
    flunk "rubocop is missing: run scripts/bootstrap ruby (Debian's rubocop package)"
  end
end
