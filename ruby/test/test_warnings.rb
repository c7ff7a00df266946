# frozen_string_literal: true

require_relative "test_helper"
require "open3"

# The runtime and every generated file load without a warning under `ruby -w`.
class TestWarnings < Minitest::Test
  def test_generated_code_is_warning_free
    files = Dir[File.join(GEN, "*_fbe.rb")]
    refute_empty files
    script = "$LOAD_PATH.unshift(ARGV.shift); require 'fastwire'; ARGV.each { |f| require f }; " \
             "Proto::AccountModel.new.serialize(Proto::Account.new).then { |d| Proto::AccountModel.new.deserialize(d) }"
    out, err, status = Open3.capture3("ruby", "-w", "-e", script, File.join(REPO, "ruby", "lib"), *files)
    assert status.success?, out + err
    assert_equal "", err
  end

  def test_generated_code_is_valid_syntax
    Dir[File.join(GEN, "*_fbe.rb")].each do |f|
      _out, err, status = Open3.capture3("ruby", "-wc", f)
      assert status.success?, err
      assert_equal "", err, f
    end
  end
end
