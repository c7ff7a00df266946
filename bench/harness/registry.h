// registry.h — how peers announce their rows and codecs to the runner.
//
// Each peer directory defines one function, `void fwb::register_<family>(Registry&)`,
// listed in the generated peer_list.inc (see bench/CMakeLists.txt). It declares its rows
// and, per data set, either a codec factory or the reason it cannot express that data set:
//
//   void register_protobuf(Registry& r) {
//     PeerInfo plain{"protobuf", "protobuf", Kind::binary, GOOGLE_PROTOBUF_VERSION_STR, "", "..."};
//     r.add<account::Account>(plain, [] { return std::make_unique<PbAccount>(); });
//     r.unsupported<record::Record>(plain, "why");
//   }
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../datasets/models.h"
#include "codec.h"

namespace benchmark {
class State;
}

namespace fwb {

enum class Op { serialize, deserialize, deserialize_fresh, verify, read_few };
const char* op_name(Op op);

// One peer x data set pair, type-erased for the runner.
class Case {
public:
    virtual ~Case() = default;
    // Round-trips the data set through the peer; returns "" on success or what went wrong.
    virtual std::string check() = 0;
    // The encoding produced by check().
    virtual ByteView encoded() const = 0;
    virtual bool has(Op op) const = 0;
    // Runs `op` repeatedly for at least `seconds` (untimed warm-up).
    virtual void warm(Op op, double seconds) = 0;
    // The timed loop.
    virtual void run(Op op, benchmark::State& state) = 0;
};

struct Entry {
    size_t peer = 0;  // index into Registry::peers()
    std::string dataset;
    std::string unsupported;  // non-empty: the peer cannot express this data set (why)
    std::function<std::unique_ptr<Case>()> make;
};

template <class Model>
std::unique_ptr<Case> make_codec_case(std::unique_ptr<Codec<Model>> codec, bool has_verify);

class Registry {
public:
    template <class Model, class Factory>
    void add(const PeerInfo& peer, Factory factory) {
        const size_t p = intern(peer);
        const bool verify = !peer.verifier.empty();
        entries_.push_back(
            {p, Dataset<Model>::name, "", [factory, verify]() { return make_codec_case<Model>(factory(), verify); }});
    }
    template <class Model>
    void unsupported(const PeerInfo& peer, std::string reason) {
        entries_.push_back({intern(peer), Dataset<Model>::name, std::move(reason), nullptr});
    }
    // A row whose cases are built by the runner itself (memcpy).
    void declare(const PeerInfo& peer) { intern(peer); }

    const std::vector<PeerInfo>& peers() const { return peers_; }
    const std::vector<Entry>& entries() const { return entries_; }

private:
    size_t intern(const PeerInfo& peer);
    std::vector<PeerInfo> peers_;
    std::vector<Entry> entries_;
};

}  // namespace fwb
