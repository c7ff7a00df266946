# frozen_string_literal: true

# A Ruby client of the service server (examples/cpp/server, examples/ruby/server.rb):
# the same exchange as examples/cpp/client. Prints the echoes, the ack and the reject,
# then "ok" (exit 0) when every answer was the expected one.
#
#   python3 -m fastwire compile schemas/service.fbe --lang ruby --final --proto -o gen
#   FASTWIRE_GEN=gen ruby -I ruby/lib examples/ruby/client.rb HOST PORT [--final]

$LOAD_PATH.unshift(ENV.fetch("FASTWIRE_GEN", Dir.pwd))
require "fastwire"
require "service_fbe"

abort "usage: client.rb HOST PORT [--final]" if ARGV.size < 2
host, port = ARGV
final = ARGV.include?("--final")

# Prints each echo the server sends back.
class Printer < (final ? Service::FinalReceiver : Service::Receiver)
  attr_reader :echoes

  def initialize(*)
    super
    @echoes = Queue.new
  end

  def print_echo(value)
    puts "echo: #{value}"
    $stdout.flush
    @echoes << value
  end
  alias on_receive_order_message print_echo
  alias on_receive_balance_message print_echo
  alias on_receive_account_message print_echo
end

client = Fastwire::Transport::Client.new(Printer, final ? Service::FinalSender : Service::Sender)
client.connect(host, Integer(port))
account = Proto::Account.new(
  uid: 1, name: "Test", state: Proto::State::GOOD,
  wallet: Proto::Balance.new(currency: "USD", amount: 1000.0),
  asset: Proto::Balance.new(currency: "EUR", amount: 100.0),
  orders: [
    Proto::Order.new(uid: 1, symbol: "EURUSD", side: Proto::OrderSide::BUY,
                     type: Proto::OrderType::MARKET, price: 1.23456, volume: 1000.0),
    Proto::Order.new(uid: 2, symbol: "EURUSD", side: Proto::OrderSide::SELL,
                     type: Proto::OrderType::LIMIT, price: 1.0, volume: 100.0),
    Proto::Order.new(uid: 3, symbol: "EURUSD", side: Proto::OrderSide::BUY,
                     type: Proto::OrderType::STOP, price: 1.5, volume: 10.0)
  ]
)
failures = 0
sent = [Service::OrderMessage.new(body: account.orders[0]), Service::BalanceMessage.new(body: account.wallet),
        Service::AccountMessage.new(body: account)]
sent.each { |m| client.send_message(m) }
good = Service::OrderRequest.new(order: account.orders[1])
ack = client.request(good)
puts "ack: #{ack}"
failures += 1 unless ack.id == good.id && ack.order.uid == 2
begin
  client.request(Service::OrderRequest.new(order: Proto::Order.new(uid: 3, symbol: "EURUSD", volume: 0.0)))
  failures += 1
rescue Fastwire::Transport::RequestError => e
  puts "reject: #{e.reject}"
  failures += 1 unless e.kind == :rejected
end
# The echoes came before the ack: one connection keeps the order.
echoes = []
echoes << client.receiver.echoes.pop until client.receiver.echoes.empty?
failures += 1 unless echoes.map(&:to_s) == sent.map(&:to_s)
client.close
puts failures.zero? ? "ok" : "FAILED"
exit(failures.zero? ? 0 : 1)
