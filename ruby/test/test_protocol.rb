# frozen_string_literal: true

require_relative "test_helper"

# Sender/Receiver/Proxy/Client without sockets: any chunking, unknown types skipped,
# malformed messages and bad sizes reported, requests matched on [id].
class TestProtocol < Minitest::Test
  def stream(sender_class, values)
    s = sender_class.new
    values.each { |v| s.send_message(v) }
    s.buffer
  end

  def messages
    a = Vectors.account
    [Service::OrderMessage.new(body: a.orders[0]), Service::BalanceMessage.new(body: a.wallet),
     Service::AccountMessage.new(body: a)]
  end

  def test_proxy_passes_verified_bytes
    [[Service::Sender, Service::Proxy], [Service::FinalSender, Service::FinalProxy]].each do |sender, proxy|
      data = stream(sender, messages)
      got = []
      p = Class.new(proxy) do
        define_method(:on_proxy_order_message) { |d| got << [:order, d] }
        define_method(:on_proxy_account_message) { |d| got << [:account, d] }
      end.new
      data.each_char.each_slice(5) { |c| p.receive(c.join) }
      assert_equal %i[order account], got.map(&:first)
      assert_equal stream(sender, messages[2, 1]), got[1][1]
    end
  end

  def test_client_matches_responses_and_rejects
    client = Service::Client.new
    good = client.request(Service::OrderRequest.new(order: Proto::Order.new(uid: 1, volume: 1.0)))
    bad = client.request(Service::OrderRequest.new(order: Proto::Order.new(uid: 2)))
    requests = []
    server = Class.new(Service::Receiver) { define_method(:on_receive_order_request) { |q| requests << q } }.new
    server.receive(client.buffer)
    answers = stream(Service::Sender, [Service::OrderAck.new(id: requests[0].id, seq: 1, order: requests[0].order),
                                       Service::OrderReject.new(id: requests[1].id, reason: "no")])
    client.receive(answers)
    assert_equal 1, good.value.seq
    err = assert_raises(Fastwire::Transport::RequestError) { bad.value }
    assert_equal [:rejected, "no"], [err.kind, err.reject.reason]
    late = client.request(Service::OrderRequest.new, timeout: 5)
    client.watchdog(Fastwire::Transport.now + 10)
    assert_equal :timeout, assert_raises(Fastwire::Transport::RequestError) { late.value }.kind
  end

  def test_unknown_types_are_skipped_and_errors_reported
    unknown = stream(Everything::Sender, [Everything::Ping.new])
    r = Service::Receiver.new
    assert_equal 1, r.receive(unknown)
    bad = stream(Service::Sender, messages[0, 1])
    bad.setbyte(bad.bytesize - 1, 0xFF) # the order's volume: still valid
    bad.setbyte(20, 0xEE) # the body's offset: not valid
    assert_raises(Fastwire::DecodeError) { r.receive(bad) }
    errors = []
    quiet = Class.new(Service::Receiver) { define_method(:on_receive_error) { |e, _| errors << e.code } }.new
    quiet.receive([0xFFFFFFFF].pack("V") + "junk")
    assert_equal ["too_large"], errors
    assert_equal 0, quiet.pending
  end
end
