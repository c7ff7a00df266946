// fastwire/internal/view_check.h - does a view show the value deserialize() gives? For tests
// (cpp/tests/test_views.cpp, the conformance testee): one generic walker over every type a
// view can show, driven by struct_schema (the fields) and the views' fields_().
//
//   S value; model.deserialize(value);
//   assert(fastwire::internal::view_matches(value, model.view()));
#pragma once

#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fastwire/view.h>

// Generated structs may mark fields [[deprecated]]; the walk names every field through its
// member pointer, which must not warn in the user's build (clang warns where g++ does not).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace fastwire {
namespace internal {

template <class T, class V>
bool view_matches(const T& value, const V& view);

// Whether a field of type T can default to a value made afresh each time it is asked for
// (uuid1, uuid4, utc): a uuid or a timestamp (uint64), optional or not.
template <class T>
constexpr bool fresh_default_kind() {
    if constexpr (is_optional<T>::value)
        return fresh_default_kind<typename T::value_type>();
    else
        return std::is_same_v<T, uuid> || std::is_same_v<T, std::uint64_t>;
}

// The fields of `value` against the views of a struct body of `stored` bytes. A field
// whose slot lies beyond the body (an older writer's) shows its default in both; where
// that default may be made afresh (a uuid1 or uuid4, the time), deserialize() and the
// view each made their own, so they are not compared.
template <class S, auto... Ms, std::size_t... I, class... Vs>
bool fields_match([[maybe_unused]] const S& value, [[maybe_unused]] std::size_t stored, fields<Ms...>,
                  std::index_sequence<I...>, const Vs&... views) {
    using L = versioned::layout<S>;
    return (((fresh_default_kind<member_type_t<Ms>>() && L::offsets[I] + L::slots[I] > stored) ||
             view_matches(value.*Ms, views)) &&
            ...);
}

// Every element of `view` matches a distinct element of `value`, in any order (sets and
// hashes: the order in the buffer is the writer's, the container's may differ).
template <class C, class V, class Match>
bool same_elements_any_order(const C& value, const V& view, Match match) {
    if (value.size() != view.size()) return false;
    std::vector<bool> used(value.size());
    for (auto v : view) {
        bool found = false;
        std::size_t i = 0;
        for (auto it = value.begin(); it != value.end(); ++it, ++i)
            if (!used[i] && match(*it, v)) {
                used[i] = found = true;
                break;
            }
        if (!found) return false;
    }
    return true;
}

template <class T, class V>
bool view_matches(const T& value, const V& view) {
    if constexpr (is_fixed_value_v<T>) {
        // Compared as wire bytes: NaNs and -0.0 are told apart as the format tells them.
        std::uint8_t a[fixed_value<T>::size], b[fixed_value<T>::size];
        fixed_value<T>::store(a, value);
        fixed_value<T>::store(b, view);
        return std::memcmp(a, b, sizeof a) == 0;
    } else if constexpr (is_string_v<T>) {
        return std::string_view(value) == view;
    } else if constexpr (std::is_same_v<T, bytes>) {
        return value.size() == view.size() &&
               (view.empty() || std::memcmp(value.data(), view.data(), view.size()) == 0);
    } else if constexpr (is_struct_v<T>) {
        return view.fields_([&](const auto&... vs) {
            return fields_match(value, view.size(), all_fields_t<T>{}, std::index_sequence_for<decltype(vs)...>{},
                                vs...);
        });
    } else if constexpr (is_optional<T>::value) {
        return value.has_value() == view.has_value() && (!value || view_matches(*value, *view));
    } else if constexpr (is_set<T>::value) {
        return same_elements_any_order(value, view, [](const auto& a, const auto& b) { return view_matches(a, b); });
    } else if constexpr (is_map_v<T>) {
        return same_elements_any_order(value, view, [](const auto& a, const auto& b) {
            return view_matches(a.first, b.key) && view_matches(a.second, b.value);
        });
    } else {  // vector, list, array: in order
        if (static_cast<std::size_t>(std::distance(value.begin(), value.end())) != view.size()) return false;
        auto it = value.begin();
        for (auto v : view)
            if (!view_matches(*it++, v)) return false;
        return true;
    }
}

template <class T>
struct is_map_view : std::false_type {};
template <class K, class V, class P>
struct is_map_view<versioned::map_view<K, V, P>> : std::true_type {};

// Reads everything a view shows (every field, element and byte of every string) and sums
// it, so that a test under AddressSanitizer proves no view reads outside the message.
// Not for recursive types over hostile bytes: an offset 0 makes a struct its own child.
template <class V>
std::uint64_t touch_all(const V& v) {
    if constexpr (versioned::is_struct_view_v<V>) {
        return v.fields_([](const auto&... f) { return (std::uint64_t{1} + ... + touch_all(f)); });
    } else if constexpr (is_optional<V>::value) {
        return v ? 1 + touch_all(*v) : 0;
    } else if constexpr (std::is_same_v<V, std::string_view> || std::is_same_v<V, versioned::byte_view>) {
        std::uint64_t sum = v.size();
        for (auto c : v) sum += static_cast<unsigned char>(c);
        return sum;
    } else if constexpr (is_map_view<V>::value) {
        std::uint64_t sum = v.size();
        for (auto e : v) sum += touch_all(e.key) + touch_all(e.value);
        return sum;
    } else if constexpr (std::is_class_v<V> && !is_fixed_value_v<V>) {  // sequence and array views
        std::uint64_t sum = v.size();
        for (auto e : v) sum += touch_all(e);
        return sum;
    } else {
        return 1;  // a value
    }
}

}  // namespace internal
}  // namespace fastwire

#pragma GCC diagnostic pop
