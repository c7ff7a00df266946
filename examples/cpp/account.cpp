// The FBE README's first C++ example, on fastwire: build the sample account, serialize it
// into the versioned FBE format (252 bytes, byte-identical to the reference), verify the
// buffer, read it back and print it.
//
//   make examples        (or: cmake --build build --target account && build/examples/cpp/account)
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "proto_models.h"

// operator<< prints a value on one line (as the protocol log shows). The FBE README lays
// the account out over several lines: one line per field of the root struct, and one per
// element of a collection field. This re-flows the one-line text that way.
static std::string readme_layout(const std::string& text) {
    std::string out;
    std::vector<bool> broken;  // per open bracket: are its contents split into lines?
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char prev = i > 0 ? text[i - 1] : '\0';
        if (quoted || c == '"') {
            if (c == '"') quoted = !quoted;
            out += c;
        } else if (c == '(' || c == '[' || c == '{' || c == '<') {
            // The root struct's fields, and the elements of "[N][...]" directly inside it.
            const bool split = broken.empty() || (broken.size() == 1 && c == '[' && prev == ']');
            broken.push_back(split);
            out += c;
            if (split) out += '\n';
        } else if ((c == ')' || c == ']' || c == '}' || c == '>') && !(c == '>' && prev == '-') && !broken.empty()) {
            if (broken.back()) out += '\n';
            broken.pop_back();
            out += c;
        } else if (c == ',' && !broken.empty() && broken.back()) {
            out += ",\n";
        } else {
            out += c;
        }
    }
    return out;
}

int main() {
    // Create a new account with some orders
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);

    // Serialize the account to the FBE stream
    proto::AccountModel writer;
    writer.serialize(account);
    if (!writer.verify()) {
        std::cerr << "the serialized account does not verify\n";
        return 1;
    }

    // Show the serialized FBE size
    std::cout << "FBE size: " << writer.buffer().size() << std::endl;

    // Deserialize the account from the FBE stream
    proto::AccountModel reader;
    reader.attach(writer.buffer());
    if (!reader.verify() || !reader.deserialize(account)) {
        std::cerr << "the account does not read back\n";
        return 1;
    }

    // Show account content
    std::ostringstream text;
    text << account;
    std::cout << std::endl;
    std::cout << readme_layout(text.str()) << std::endl;
    return 0;
}
