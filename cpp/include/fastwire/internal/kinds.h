// fastwire/internal/kinds.h - which standard container a schema type maps to, decided once.
//
// The versioned and final codecs (versioned.h, final.h) and the JSON writer and reader
// (json.h, json_reader.h) all branch on the same question: is this C++ type a schema
// optional, array, vector, list, set, map or hash? The answers live here, with the few
// container operations that differ by kind (rebuilding a set or a map in key order).
//
//   fastwire::internal::is_sequence_v<std::list<int>>;          // true: vector, list, set
//   fastwire::internal::is_map_v<std::unordered_map<int, int>>;  // true: map, hash
#pragma once

#include <array>
#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fastwire/internal/wire.h>

namespace fastwire {
namespace internal {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_std_array : std::false_type {};  // T[N]
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_list : std::false_type {};
template <class T, class A>
struct is_list<std::list<T, A>> : std::true_type {};

template <class T>
struct is_set : std::false_type {};
template <class T, class C, class A>
struct is_set<std::set<T, C, A>> : std::true_type {};

// vector, list and set share one wire form (and one JSON form, an array).
template <class T>
struct is_sequence : std::bool_constant<is_vector<T>::value || is_list<T>::value || is_set<T>::value> {};

template <class T>
struct is_ordered_map : std::false_type {};  // the schema's map
template <class K, class V, class C, class A>
struct is_ordered_map<std::map<K, V, C, A>> : std::true_type {};

template <class T>
struct is_hash_map : std::false_type {};  // the schema's hash
template <class K, class V, class H, class E, class A>
struct is_hash_map<std::unordered_map<K, V, H, E, A>> : std::true_type {};

template <class T>
struct is_map : std::bool_constant<is_ordered_map<T>::value || is_hash_map<T>::value> {};

// std::string, and strings with another allocator (std::pmr::string: the types `fastwire
// compile --pmr` generates). Every codec treats them alike.
template <class T>
struct is_string : std::false_type {};
template <class A>
struct is_string<std::basic_string<char, std::char_traits<char>, A>> : std::true_type {};
template <class T>
inline constexpr bool is_string_v = is_string<T>::value;

// std::vector<bool> with any allocator: bits, not bools, so its codecs are its own.
template <class T>
struct is_bool_vector : std::false_type {};
template <class A>
struct is_bool_vector<std::vector<bool, A>> : std::true_type {};
template <class T>
inline constexpr bool is_bool_vector_v = is_bool_vector<T>::value;

template <class T>
inline constexpr bool is_sequence_v = is_sequence<T>::value;
template <class T>
inline constexpr bool is_map_v = is_map<T>::value;

// A fresh vector filled from the wire without building its elements first (libstdc++):
// fill_fresh(v, p, n) gives v, which has no storage yet (capacity() == 0), one allocation
// of n elements from its allocator and copies the n elements' bytes at p into it
// (trivially copyable elements only). The public ways build every element twice:
// `Seq(n, alloc)` value-initialises the n elements (a memset call) that the read then
// overwrites, and `assign(first, last)` with an allocator other than std::allocator
// (std::pmr) copies one element at a time. Measured (callgrind, arena fresh reads):
// monsters' `byte[]` and `Vec3[]` 32.7 k -> 31.4 k instructions a read, record's
// 1,000-element `int64[]` 21.1 k -> 13.0 k.
// libstdc++'s std::vector keeps its three pointers in `_Vector_base::_M_impl`, public in
// a base the vector inherits protected: a cast in C-style notation, the one the standard
// lets name an inaccessible base, reaches it. Not in debug mode (`_GLIBCXX_DEBUG` wraps
// the vector) nor with the library's ASan annotations (`_GLIBCXX_SANITIZE_VECTOR`); other
// standard libraries build the elements first.
#if defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG) && !defined(_GLIBCXX_SANITIZE_VECTOR)
#define FASTWIRE_VECTOR_STORAGE 1
template <class T, class A>
FASTWIRE_INLINE void fill_fresh(std::vector<T, A>& v, const std::uint8_t* p, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
    auto& base = (std::_Vector_base<T, A>&)v;  // the base is protected: only this cast may name it
#pragma GCC diagnostic pop
    T* first = base._M_allocate(n);
    copy_short(first, p, n * sizeof(T));
    base._M_impl._M_start = first;
    base._M_impl._M_finish = first + n;
    base._M_impl._M_end_of_storage = first + n;
}
#else
#define FASTWIRE_VECTOR_STORAGE 0
#endif

// out.resize(n), for a decoder: a vector that has no storage yet (a fresh target) gets
// exactly n elements in one allocation (reserve, then the elements built in place: no
// temporary vector to move from, no growth path; measured against building a temporary
// and move-assigning it, ~40 instructions less per vector on std::pmr, where the move
// compares the two memory resources); any other keeps its elements and their capacity.
template <class Seq>
FASTWIRE_INLINE void resize_for_read(Seq& out, std::size_t n) {
    if (n == out.size()) return;  // a reused target read again: the usual case
    if constexpr (is_vector<Seq>::value) {
        if (out.capacity() == 0) {
            if constexpr (std::allocator_traits<typename Seq::allocator_type>::is_always_equal::value) {
                out = Seq(n, out.get_allocator());
            } else {
                // std::pmr: a swap with a vector of the same allocator skips the move's
                // comparison of the two memory resources (~10 instructions a vector).
                Seq fresh(n, out.get_allocator());
                out.swap(fresh);
            }
            return;
        }
    }
    out.resize(n);
}

template <class Set, class T>
FASTWIRE_INLINE void add_element(Set& out, T&& value) {
    out.emplace_hint(out.end(), std::forward<T>(value));
}

template <class M, class K, class V>
FASTWIRE_INLINE void add_pair(M& out, K&& key, V&& value) {
    if constexpr (is_ordered_map<M>::value)
        out.emplace_hint(out.end(), std::forward<K>(key), std::forward<V>(value));
    else
        out.emplace(std::forward<K>(key), std::forward<V>(value));
}

// Refills a set with n elements read in wire order (key order, so the end is the right
// hint), each by read(value&) (false: stop, the read failed). The old nodes are recycled:
// each element is read into a node taken from the old contents, whose strings and vectors
// keep their capacity, and linked back in, so a reused set of the same size allocates
// nothing. A duplicate is dropped, as emplace would drop it. Elements beyond the old size
// are read into a scratch value and moved into a new node (a set's value is its key: it
// must be read before the node can be placed).
template <class C, class Read>
FASTWIRE_INLINE void refill(C& out, std::size_t n, Read&& read) {
    std::size_t i = 0;
    if (!out.empty()) {
        C old(out.get_allocator());  // equal allocators: swap is allowed and O(1)
        old.swap(out);
        for (; i < n && !old.empty(); ++i) {
            auto node = old.extract(old.begin());
            if (!read(node.value())) return;
            out.insert(out.end(), std::move(node));
        }
    }
    if (i == n) return;
    typename C::value_type scratch{};
    for (; i < n; ++i) {
        if (!read(scratch)) return;
        add_element(out, std::move(scratch));
    }
}

// Refills a map or hash with n entries read in wire order (key order for a map, so the end
// is the right hint), each by read_key(key&) then read_value(mapped&) (false: stop, the
// read failed). A map's old nodes are recycled as a set's are; a hash is cleared and
// reserves its buckets first. A new entry's key is read, its node placed with a
// default-constructed value, and the value read straight into that node: no scratch value
// moved in (measured on map<int32, string> of 20 fresh entries: ~65 instructions an entry
// less than reading a scratch pair and emplacing it). A duplicate key is dropped, as
// emplace would drop it: its value is read into a scratch value that is then discarded.
template <class C, class ReadKey, class ReadValue>
FASTWIRE_INLINE void refill(C& out, std::size_t n, ReadKey&& read_key, ReadValue&& read_value) {
    std::size_t i = 0;
    if constexpr (is_hash_map<C>::value) {
        out.clear();
        out.reserve(n);
    } else if (!out.empty()) {
        C old(out.get_allocator());  // equal allocators: swap is allowed and O(1)
        old.swap(out);
        for (; i < n && !old.empty(); ++i) {
            auto node = old.extract(old.begin());
            if (!read_key(node.key()) || !read_value(node.mapped())) return;
            out.insert(out.end(), std::move(node));
        }
    }
    if (i == n) return;
    typename C::key_type key{};
    for (; i < n; ++i) {
        if (!read_key(key)) return;
        typename C::iterator it;
        bool added;
        if constexpr (is_hash_map<C>::value) {
            std::tie(it, added) = out.try_emplace(std::move(key));
        } else {
            const std::size_t before = out.size();
            // Not try_emplace(hint, key): libstdc++'s looks the position up, then passes
            // the node's neighbour as emplace_hint's hint, which looks it up again.
            it = out.emplace_hint(out.end(), std::piecewise_construct, std::forward_as_tuple(std::move(key)),
                                  std::forward_as_tuple());
            added = out.size() != before;
        }
        if (FASTWIRE_LIKELY(added)) {
            if (!read_value(it->second)) return;
        } else {
            typename C::mapped_type dropped{};
            if (!read_value(dropped)) return;
        }
    }
}

}  // namespace internal
}  // namespace fastwire
