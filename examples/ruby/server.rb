# frozen_string_literal: true

# The service server in Ruby (behaves as examples/cpp/server): answers OrderRequest with
# OrderAck (this connection's count of accepted orders) or OrderReject (a volume that is
# not positive), echoes the other messages. Prints "listening HOST PORT"; SIGINT or
# SIGTERM stops it gracefully and prints "stopped: C connections, M messages".
#
#   FASTWIRE_GEN=gen ruby -I ruby/lib examples/ruby/server.rb HOST PORT [--final]

$LOAD_PATH.unshift(ENV.fetch("FASTWIRE_GEN", Dir.pwd))
require "fastwire"
require "service_fbe"

abort "usage: server.rb HOST PORT [--final]" if ARGV.size < 2
host, port = ARGV
final = ARGV.include?("--final")
MESSAGES = Queue.new # one entry per message handled

# One per connection.
class Handler < (final ? Service::FinalReceiver : Service::Receiver)
  def initialize(peer)
    super()
    @peer = peer
    @accepted = 0
  end

  def on_receive_order_request(request)
    MESSAGES << 1
    if request.order.volume.positive?
      @peer.send_message(Service::OrderAck.new(id: request.id, seq: @accepted += 1, order: request.order))
    else
      @peer.send_message(Service::OrderReject.new(id: request.id, reason: "volume must be positive"))
    end
  end

  def echo(value)
    MESSAGES << 1
    @peer.send_message(value)
  end
  alias on_receive_order_message echo
  alias on_receive_balance_message echo
  alias on_receive_account_message echo
end

server = Fastwire::Transport::Server.new(Handler, final ? Service::FinalSender : Service::Sender, host,
                                         Integer(port), log: ->(line) { warn "server: #{line}" })
server.start
puts "listening #{host} #{server.port}"
$stdout.flush
stop = Queue.new
%w[INT TERM].each { |sig| trap(sig) { stop << sig } }
stop.pop
server.stop
puts "stopped: #{server.accepted} connections, #{MESSAGES.size} messages"
