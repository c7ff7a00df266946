// Serializes a Balance with code generated from schemas/proto.fbe and checks the reference
// size (35 bytes, tests/vectors/balance.fbe.hex).
#include <iostream>

#include "proto_models.h"

int main() {
    proto::BalanceModel writer;
    writer.serialize(proto::Balance("USD", 1000.0));
    proto::BalanceModel reader;
    reader.attach(writer.buffer());
    proto::Balance back;
    if (writer.buffer().size() != 35 || !reader.verify() || !reader.deserialize(back) || back.currency != "USD" ||
        back.amount != 1000.0) {
        std::cerr << "consumer: unexpected result\n";
        return 1;
    }
    std::cout << back << "\n";
    return 0;
}
