# frozen_string_literal: true

require_relative "test_helper"
require "timeout"

# The transport (docs/transport.md) over real loopback sockets: the exchange with the C++
# example server in both formats, many messages in order, many clients at once, a
# garbage peer, requests that time out by themselves, overflow, and graceful shutdowns
# that lose nothing.
class TestTransport < Minitest::Test
  T = Fastwire::Transport
  MESSAGES = Integer(ENV.fetch("FASTWIRE_RUBY_LOOP_MESSAGES", "100000"))

  def account
    Vectors.account
  end

  # A server handler: answers OrderRequest (OrderAck with this connection's count, or
  # OrderReject for a volume that is not positive), echoes the other messages, records
  # everything.
  def self.handler(base)
    Class.new(base) do
      attr_reader :got

      def initialize(peer)
        super()
        @peer = peer
        @got = []
        @seq = 0
        self.class.instances << self
      end

      class << self
        attr_accessor :instances, :silent
      end

      def on_receive_order_request(q)
        @got << q
        return if self.class.silent

        if q.order.volume.positive?
          @peer.send_message(Service::OrderAck.new(id: q.id, seq: @seq += 1, order: q.order))
        else
          @peer.send_message(Service::OrderReject.new(id: q.id, reason: "volume must be positive"))
        end
      end

      def echo(value)
        @got << value
        @peer.send_message(value) unless self.class.silent
      end
      alias_method :on_receive_order_message, :echo
      alias_method :on_receive_balance_message, :echo
      alias_method :on_receive_account_message, :echo
    end.tap { |c| c.instances = [] }
  end

  def self.recorder(base)
    Class.new(base) do
      attr_reader :got

      def initialize(*)
        super
        @got = Queue.new
      end

      def record(value)
        @got << value
      end
      alias_method :on_receive_order_message, :record
      alias_method :on_receive_balance_message, :record
      alias_method :on_receive_account_message, :record
    end
  end

  def with_server(final: false, options: T::Options.new, silent: false)
    logs = Queue.new
    handler = self.class.handler(final ? Service::FinalReceiver : Service::Receiver)
    handler.silent = silent
    server = T::Server.new(handler, final ? Service::FinalSender : Service::Sender, "127.0.0.1", 0,
                           options: options, log: ->(line) { logs << line })
    server.start
    yield server, handler, logs
  ensure
    server&.stop
  end

  def client_for(port, final: false, options: T::Options.new, log: nil)
    c = T::Client.new(self.class.recorder(final ? Service::FinalReceiver : Service::Receiver),
                      final ? Service::FinalSender : Service::Sender, options: options, log: log)
    c.connect("127.0.0.1", port)
  end

  def drain(queue, n, timeout = 20)
    Timeout.timeout(timeout) { Array.new(n) { queue.pop } }
  end

  # ---- the C++ example server -----------------------------------------------------------

  def cpp_server
    path = ENV.fetch("FASTWIRE_CPP_SERVER", File.join(REPO, "build", "release", "examples", "cpp", "server"))
    flunk "the C++ example server is missing at #{path}: build it (make build) or set FASTWIRE_CPP_SERVER" unless File.executable?(path)
    path
  end

  def test_exchange_with_the_cpp_server_in_both_formats
    [false, true].each do |final|
      args = [cpp_server, "127.0.0.1", "0"]
      args << "--final" if final
      io = IO.popen(args, err: File::NULL)
      begin
        line = Timeout.timeout(10) { io.gets }
        assert_match(/\Alistening \S+ \d+\n\z/, line)
        client = client_for(Integer(line.split[2]), final: final)
        a = account
        sent = [Service::OrderMessage.new(body: a.orders[0]), Service::BalanceMessage.new(body: a.wallet),
                Service::AccountMessage.new(body: a)]
        sent.each { |m| assert client.send_message(m) }
        echoes = drain(client.receiver.got, 3)
        assert_equal sent.map(&:class), echoes.map(&:class)
        assert_equal a.to_s, echoes[2].body.to_s
        assert_equal a.orders[0].to_s, echoes[0].body.to_s
        good = Service::OrderRequest.new(order: a.orders[1])
        ack = client.request(good)
        assert_equal [good.id, 1, 2], [ack.id, ack.seq, ack.order.uid]
        bad = Service::OrderRequest.new(order: Proto::Order.new(uid: 9, volume: 0.0))
        err = assert_raises(T::RequestError) { client.request(bad) }
        assert_equal :rejected, err.kind
        assert_equal "volume must be positive", err.reject.reason
        client.close
      ensure
        Process.kill("TERM", io.pid)
        rest = io.read
        io.close
      end
      assert $?.success?, "server exit status #{$?.inspect}"
      assert_match(/stopped: \d+ connections, \d+ messages/, rest)
    end
  end

  # ---- Ruby server and client --------------------------------------------------------------

  def test_many_mixed_messages_arrive_once_in_order_and_equal
    with_server(silent: true) do |server, handler, _logs|
      client = client_for(server.port, options: T::Options.new(overflow: :block)) # waits for room
      a = account
      kinds = [Service::OrderMessage.new(body: a.orders[1]), Service::BalanceMessage.new(body: a.asset),
               Service::AccountMessage.new(body: a)]
      sent = Array.new(MESSAGES) do |i|
        m = kinds[i % 3]
        case m
        when Service::OrderMessage then Service::OrderMessage.new(body: Proto::Order.new(uid: i, symbol: "S#{i}", price: i * 0.5))
        else m
        end
      end
      sent.each { |m| assert client.send_message(m) }
      client.close
      got = Timeout.timeout(60) do
        sleep 0.01 until handler.instances.first&.got&.size == MESSAGES
        handler.instances.first.got
      end
      assert_equal MESSAGES, got.size
      got.zip(sent).each_with_index do |(g, s), i|
        assert_equal s.class, g.class, "message #{i}"
        assert_equal s.body.to_s, g.body.to_s, "message #{i}" if i < 1000 || (i % 97).zero?
      end
      assert_equal (0...MESSAGES).step(3).to_a, got.each_slice(3).map { |o, _, _| o.body.uid }
    end
  end

  def test_many_clients_are_answered_each_on_its_own_connection
    with_server do |server, _handler, _logs|
      threads = Array.new(8) do |k|
        Thread.new do
          c = client_for(server.port)
          acks = Array.new(25) do |i|
            c.request(Service::OrderRequest.new(order: Proto::Order.new(uid: (k * 100) + i, volume: 1.0)))
          end
          c.close
          acks
        end
      end
      threads.each_with_index do |t, k|
        acks = t.value
        assert_equal (1..25).to_a, acks.map(&:seq)
        assert_equal (0...25).map { |i| (k * 100) + i }, acks.map { |x| x.order.uid }
      end
    end
  end

  def test_a_server_on_every_address_takes_ipv4_and_ipv6
    handler = self.class.handler(Service::Receiver)
    server = T::Server.new(handler, Service::Sender, "::", 0).start
    %w[127.0.0.1 ::1].each do |host|
      c = T::Client.new(Service::Receiver, Service::Sender)
      c.connect(host, server.port)
      assert_equal 1, c.request(Service::OrderRequest.new(order: Proto::Order.new(volume: 1.0))).seq
      c.close
    end
  ensure
    server&.stop
  end

  def test_a_garbage_peer_is_dropped_with_a_logged_reason
    with_server do |server, _handler, logs|
      good = client_for(server.port)
      bad = TCPSocket.new("127.0.0.1", server.port)
      bad.write(Random.new(3).bytes(4096).tap { |b| b[0, 4] = [0xF6A8B9AF].pack("V") })
      assert_nil Timeout.timeout(5) { bad.read } && nil
      line = nil
      Timeout.timeout(5) { line = logs.pop until line&.include?("protocol error") }
      assert_match(/\Aconnection \d+ 127\.0\.0\.1:\d+ closed: protocol error: bad message size 4138252719 at stream offset 0\z/, line)
      ack = good.request(Service::OrderRequest.new(order: Proto::Order.new(uid: 1, volume: 1.0)))
      assert_equal 1, ack.seq # the well-behaved client is still served
      good.close
    end
  end

  def test_a_peer_sending_a_byte_at_a_time_is_dropped_after_message_timeout
    with_server(options: T::Options.new(message_timeout: 0.5)) do |server, _handler, logs|
      slow = TCPSocket.new("127.0.0.1", server.port)
      data = Service::Sender.new.tap { |s| s.send_message(Service::OrderMessage.new(body: Proto::Order.new)) }.buffer
      started = T.now
      begin
        data.each_byte do |b|
          slow.write(b.chr)
          sleep 0.1
        end
      rescue SystemCallError
        nil # the server closed it
      end
      line = nil
      Timeout.timeout(5) { line = logs.pop until line&.include?("closed") }
      assert_match(/closed: message incomplete after 500 ms \(\d+ bytes received\)/, line)
      assert_operator T.now - started, :<, 3
      slow.close
    end
  end

  def test_a_peer_that_does_not_read_is_dropped
    options = T::Options.new(max_queued_bytes: 256 * 1024, write_timeout: 0.5)
    with_server(options: options) do |server, _handler, logs|
      peer = TCPSocket.new("127.0.0.1", server.port)
      big = Service::AccountMessage.new(body: Proto::Account.new(name: "x" * 12_000))
      data = Service::Sender.new.tap { |s| s.send_message(big) }.buffer
      deadline = T.now + 10
      begin
        peer.write(data) while T.now < deadline # echoes are never read
      rescue SystemCallError, IOError
        nil # the server closed it
      end
      line = nil
      Timeout.timeout(5) { line = logs.pop until line&.include?("closed") }
      assert_match(/closed: (send queue full \(\d+ bytes queued, \d+ more, limit 262144\)|peer not reading: )/, line)
      peer.close
    end
  end

  def test_an_idle_connection_is_closed_gracefully
    with_server(options: T::Options.new(idle_timeout: 0.3)) do |server, _handler, logs|
      client = client_for(server.port)
      line = nil
      Timeout.timeout(5) { line = logs.pop until line&.include?("closed") }
      assert_match(/closed: idle for 300 ms\z/, line)
      Timeout.timeout(5) { sleep 0.01 while client.connected? }
      client.close
    end
  end

  def test_a_client_reconnects_after_a_drop
    handler = self.class.handler(Service::Receiver)
    first = T::Server.new(handler, Service::Sender, "127.0.0.1", 0).start
    port = first.port
    client = client_for(port, options: T::Options.new(reconnect_delay: 0.05, reconnect_max_delay: 0.2))
    assert_equal 1, client.request(Service::OrderRequest.new(order: Proto::Order.new(volume: 1.0))).seq
    first.stop
    Timeout.timeout(5) { sleep 0.01 while client.connected? }
    err = assert_raises(T::RequestError) { client.request(Service::OrderRequest.new(order: Proto::Order.new(volume: 1.0))) }
    assert_equal :disconnected, err.kind
    second = T::Server.new(handler, Service::Sender, "127.0.0.1", port).start
    Timeout.timeout(10) { sleep 0.01 until client.connected? }
    assert_equal 2, client.connects
    assert_equal 1, client.request(Service::OrderRequest.new(order: Proto::Order.new(volume: 1.0))).seq
    client.close
  ensure
    second&.stop
  end

  def test_requests_time_out_by_themselves
    with_server(silent: true) do |server, _handler, _logs|
      client = client_for(server.port, options: T::Options.new(request_timeout: 0.2))
      started = T.now
      err = assert_raises(T::RequestError) { client.request(Service::OrderRequest.new(order: Proto::Order.new(volume: 1.0))) }
      assert_equal :timeout, err.kind
      assert_operator T.now - started, :<, 2.0 # 0.2 s, and the tick, on a busy machine
      pending = client.request_async(Service::OrderRequest.new(order: Proto::Order.new(volume: 1.0)), timeout: 0.05)
      sleep 1.0 # nobody waits on it: the transport's timer fails it
      assert pending.done?
      assert_equal :timeout, assert_raises(T::RequestError) { pending.value }.kind
      client.close
    end
  end

  def test_overflow_policies
    big = Service::AccountMessage.new(body: Proto::Account.new(name: "x" * 5000))
    with_server(silent: true) do |server, _handler, _logs|
      failing = client_for(server.port, options: T::Options.new(max_queued_bytes: 1000, overflow: :fail))
      refute failing.send_message(big)
      assert failing.connected? # fail refuses the message, the connection stays
      assert failing.send_message(Service::OrderMessage.new(body: Proto::Order.new))
      failing.close
      logs = Queue.new
      dropping = client_for(server.port, options: T::Options.new(max_queued_bytes: 1000), log: ->(l) { logs << l })
      refute dropping.send_message(big)
      refute dropping.connected?
      assert_match(/closed: send queue full \(0 bytes queued, \d+ more, limit 1000\)/, logs.pop)
      err = assert_raises(T::RequestError) { dropping.request(Service::OrderRequest.new(order: Proto::Order.new)) }
      assert_equal :disconnected, err.kind
    end
  end

  def test_graceful_shutdowns_lose_nothing
    n = 3000
    with_server(silent: true) do |server, handler, _logs|
      client = client_for(server.port)
      n.times { |i| client.send_message(Service::OrderMessage.new(body: Proto::Order.new(uid: i))) }
      client.close # flushes what was queued before it
      Timeout.timeout(20) { sleep 0.01 until handler.instances.first&.got&.size == n }
      assert_equal (0...n).to_a, handler.instances.first.got.map { |m| m.body.uid }
    end
    with_server do |server, handler, _logs|
      client = client_for(server.port)
      n.times { |i| client.send_message(Service::OrderMessage.new(body: Proto::Order.new(uid: i))) }
      Timeout.timeout(20) { sleep 0.001 until handler.instances.first&.got&.size == n }
      server.stop # every echo queued before the stop reaches the client
      echoes = drain(client.receiver.got, n)
      assert_equal (0...n).to_a, echoes.map { |m| m.body.uid }
      client.close
    end
  end
end
