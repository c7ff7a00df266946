// The FBE README's Sender/Receiver example, on fastwire: a sender serializes an order, a
// balance and an account into its queue (its onSend takes nothing, so the bytes stay
// queued), and a receiver is fed that queue and logs what it decodes. The output is the
// README's, line for line.
//
//   make examples        (or: cmake --build build --target protocol && build/examples/cpp/protocol)
#include <iostream>

#include "proto_protocol.h"

class MySender : public proto::Sender {
protected:
    std::size_t onSend(const void* /*data*/, std::size_t /*size*/) override {
        // Send nothing...
        return 0;
    }
    void onSendLog(const std::string& message) const override { std::cout << "onSend: " << message << std::endl; }
};

class MyReceiver : public proto::Receiver {
protected:
    void onReceive(const proto::Order& /*value*/) override {}
    void onReceive(const proto::Balance& /*value*/) override {}
    void onReceive(const proto::Account& /*value*/) override {}
    void onReceiveLog(const std::string& message) const override { std::cout << "onReceive: " << message << std::endl; }
};

int main() {
    MySender sender;
    // Enable logging
    sender.logging(true);

    // Create and send a new order
    proto::Order order = {1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0};
    sender.send(order);

    // Create and send a new balance wallet
    proto::Balance balance = {"USD", 1000.0};
    sender.send(balance);

    // Create and send a new account with some orders
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    sender.send(account);

    MyReceiver receiver;
    // Enable logging
    receiver.logging(true);

    // Receive all data from the sender
    receiver.receive(sender.buffer().data(), sender.buffer().size());
    return 0;
}
