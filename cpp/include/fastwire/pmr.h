// fastwire/pmr.h - the allocator-aware types `fastwire compile --lang cpp --pmr` generates.
//
// With --pmr, strings and collections are std::pmr (std::pmr::string, std::pmr::vector,
// std::pmr::map, …) and every struct that holds one is allocator-aware: it has an
// allocator_type and constructors that take one, so a std::pmr container builds its
// elements, and a struct its members, from the same memory resource. Deserializing into a
// value made on a std::pmr::monotonic_buffer_resource then takes every string and vector
// from that resource's blocks (one allocation per block rather than one per string):
//
//   std::pmr::monotonic_buffer_resource arena(64 * 1024);
//   auto account = fastwire::pmr::make<Account>(&arena);    // or Account account(&arena);
//   model.attach(data, size);
//   model.deserialize(account);                              // strings, orders: in the arena
//
// The arena must outlive the value (std::pmr's rule). A copy made without an allocator
// (`Account b = a;`) uses the default resource, as std::pmr containers do; copy into a
// value made on an arena (`b = a;`) or use the allocator-extended copy constructor
// (`Account b(a, &arena);`) to keep it there. What still comes from the default resource:
// the value of a set optional (std::optional carries no allocator), the scratch element a
// set or map is rebuilt through, and schema `bytes` (fastwire::bytes is not allocator-aware).
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <array>
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace fastwire {
namespace pmr {

// The allocator of every generated allocator-aware struct (its allocator_type).
using allocator = std::pmr::polymorphic_allocator<std::byte>;

namespace internal {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_array : std::false_type {};
template <class T, std::size_t N>
struct is_array<std::array<T, N>> : std::true_type {};

}  // namespace internal

template <class T, class... Args>
T make(const allocator& alloc, Args&&... args);

namespace internal {

template <class T, std::size_t... I>
T make_array(const allocator& alloc, std::index_sequence<I...>) {
    return T{{((void)I, make<typename T::value_type>(alloc))...}};
}
template <class T, class Src, std::size_t... I>
T copy_array(const allocator& alloc, Src&& src, std::index_sequence<I...>) {
    return T{{make<typename T::value_type>(alloc, std::get<I>(std::forward<Src>(src)))...}};
}

}  // namespace internal

// A T whose memory comes from `alloc`, made from args: uses-allocator construction (what a
// std::pmr container does to its elements; C++20's std::make_obj_using_allocator), extended
// to std::optional (empty without args, else the value made from args with `alloc`) and
// std::array (each element made with `alloc`, or from the matching element of an array
// given as the one argument). A T that takes no allocator is made from args alone.
template <class T, class... Args>
T make(const allocator& alloc, Args&&... args) {
    if constexpr (internal::is_optional<T>::value) {
        using V = typename T::value_type;
        if constexpr (sizeof...(Args) == 0) {
            return T{};
        } else if constexpr (sizeof...(Args) == 1 && (internal::is_optional<std::decay_t<Args>>::value && ...)) {
            // a copy or a move of another optional
            const auto copy_one = [&](auto&& other) -> T {
                if (!other) return T{};
                return T(std::in_place, make<V>(alloc, *std::forward<decltype(other)>(other)));
            };
            return copy_one(std::forward<Args>(args)...);
        } else {
            return T(std::in_place, make<V>(alloc, std::forward<Args>(args)...));
        }
    } else if constexpr (internal::is_array<T>::value) {
        constexpr std::size_t n = std::tuple_size<T>::value;
        if constexpr (sizeof...(Args) == 0)
            return internal::make_array<T>(alloc, std::make_index_sequence<n>{});
        else
            return internal::copy_array<T>(alloc, std::forward<Args>(args)..., std::make_index_sequence<n>{});
    } else if constexpr (!std::uses_allocator<T, allocator>::value) {
        return T(std::forward<Args>(args)...);
    } else if constexpr (std::is_constructible<T, std::allocator_arg_t, const allocator&, Args...>::value) {
        return T(std::allocator_arg, alloc, std::forward<Args>(args)...);
    } else {
        return T(std::forward<Args>(args)..., alloc);
    }
}

}  // namespace pmr
}  // namespace fastwire
