# frozen_string_literal: true

require_relative "test_helper"
require "open3"
require "timeout"

# examples/ruby: the protocol example prints the C++ example's lines; the Ruby client and
# the C++ server, and the C++ client and the Ruby server, exchange the seed messages over
# loopback in both formats.
class TestExamples < Minitest::Test
  EXAMPLES = File.join(REPO, "examples", "ruby")

  def ruby(*args, **opts)
    ["ruby", "-w", "-I", File.join(REPO, "ruby", "lib"), *args, opts]
  end

  def env
    { "FASTWIRE_GEN" => GEN }
  end

  def cpp(name)
    server = ENV.fetch("FASTWIRE_CPP_SERVER", File.join(REPO, "build", "release", "examples", "cpp", "server"))
    path = File.join(File.dirname(server), name)
    flunk "the C++ example #{name} is missing at #{path}: build it (make build) or set FASTWIRE_CPP_SERVER" unless File.executable?(path)
    path
  end

  def test_protocol_example_prints_the_cpp_lines
    out, err, status = Open3.capture3(env, *ruby(File.join(EXAMPLES, "protocol.rb")))
    assert status.success?, err
    assert_equal "", err
    assert_equal File.read(File.join(REPO, "examples", "cpp", "expected_protocol.txt")), out
  end

  def test_account_example
    out, err, status = Open3.capture3(env, *ruby(File.join(EXAMPLES, "account.rb")))
    assert status.success?, err
    assert_includes out, "versioned 252 bytes, round trip ok"
  end

  # Starts a server command, yields its port, stops it with SIGTERM; returns its stdout.
  def serve(cmd, extra_env = {})
    stdin, stdout, stderr, wait = Open3.popen3(extra_env, *cmd)
    stdin.close
    line = Timeout.timeout(10) { stdout.gets }
    assert_match(/\Alistening \S+ \d+\n\z/, line.to_s, stderr.read_nonblock(4096, exception: false).to_s)
    yield Integer(line.split[2])
    Process.kill("TERM", wait.pid)
    rest = Timeout.timeout(15) { stdout.read }
    stderr.read
    assert wait.value.success?, "server exit #{wait.value.inspect}"
    rest
  end

  def test_ruby_client_with_the_cpp_server
    [[], ["--final"]].each do |flag|
      rest = serve([cpp("server"), "127.0.0.1", "0", *flag]) do |port|
        out, err, status = Open3.capture3(env, *ruby(File.join(EXAMPLES, "client.rb"), "127.0.0.1", port.to_s, *flag))
        assert status.success?, out + err
        assert_equal "", err
        assert_equal "ok", out.lines.last.chomp
        assert_equal 3, out.lines.grep(/\Aecho: /).size
      end
      assert_match(/stopped: 1 connections, 5 messages/, rest)
    end
  end

  def test_cpp_client_with_the_ruby_server
    [[], ["--final"]].each do |flag|
      rest = serve(ruby(File.join(EXAMPLES, "server.rb"), "127.0.0.1", "0", *flag)[0..-2], env) do |port|
        out, err, status = Open3.capture3(cpp("client"), "127.0.0.1", port.to_s, *flag)
        assert status.success?, out + err
        assert_equal "ok", out.lines.last.chomp
      end
      assert_match(/stopped: 1 connections, 5 messages/, rest)
    end
  end
end
