// libFuzzer target: arbitrary bytes, in arbitrary chunks, into the protocol receivers.
//
// The first input byte picks the chunk size pattern; the rest is the stream. Every
// receiver must survive any stream: no crash, no sanitizer report, no unbounded memory,
// errors reported through the hooks. Both families (versioned and, when built, final)
// and both packages (messages of `protocol`, structs of `proto`) are fed the same bytes.
#include <cstddef>
#include <cstdint>

#include "proto_protocol.h"
#include "protocol_final_protocol.h"
#include "protocol_protocol.h"

namespace {

template <class Base>
class Sink : public Base {
public:
    std::size_t seen = 0;

protected:
    void onReceiveLog(const std::string& m) const override { const_cast<Sink*>(this)->seen += m.size(); }
};

class MessageSink : public Sink<protocol::Receiver> {
public:
    using Sink<protocol::Receiver>::onReceive;

protected:
    void onReceive(const protocol::AccountMessage& m) override { seen += m.body.orders.size(); }
};

template <class R>
void feed(R& r, const std::uint8_t* data, std::size_t size, std::uint8_t pattern) {
    std::size_t pos = 0, step = 1u + pattern % 17u;
    while (pos < size) {
        const std::size_t n = std::min(step, size - pos);
        r.receive(data + pos, n);
        pos += n;
        step = (step * 7 + pattern) % 97 + 1;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t pattern = data[0];
    ++data;
    --size;
    fastwire::limits lim;
    lim.max_message_size = 1 << 20;  // keep the fuzzer's memory bounded

    MessageSink a;
    a.set_limits(lim);
    a.logging(pattern & 1);
    feed(a, data, size, pattern);
    a.receive(data, size);  // and in one piece

    Sink<proto::Receiver> b;
    b.set_limits(lim);
    feed(b, data, size, pattern);

    Sink<protocol::Proxy> c;
    c.set_limits(lim);
    feed(c, data, size, pattern);
    Sink<protocol::FinalReceiver> d;
    d.set_limits(lim);
    d.logging(pattern & 1);
    feed(d, data, size, pattern);
    return 0;
}
