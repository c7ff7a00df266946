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
//
// fastwire::pmr::arena (below) is a faster bump-pointer resource for this, and its
// make<T>() a value that is never destroyed, for types all of whose memory is the
// arena's (releasable_v<T>).
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <memory_resource>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fastwire/internal/wire.h>  // FASTWIRE_LIKELY
#include <fastwire/schema.h>

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

// ---- releasable: values whose every byte comes from their allocator ------------------

namespace internal {

// releasable<T, D>: true when a T made with an allocator (and changed only through its
// public members afterwards) holds no memory but from that allocator's resource, so that
// dropping the resource without running ~T frees all of it. D bounds the nesting looked
// at (a struct that reaches itself through a collection counts as not releasable beyond
// it): false is always the safe answer.
template <class T, int D, class = void>
struct releasable : std::is_trivially_destructible<T> {};

template <class T, int D>
inline constexpr bool releasable_v = std::conditional_t<(D > 0), releasable<T, D>, std::false_type>::value;

template <class C, class Tr, int D>
struct releasable<std::basic_string<C, Tr, std::pmr::polymorphic_allocator<C>>, D> : std::true_type {};
template <class T, int D>
struct releasable<std::vector<T, std::pmr::polymorphic_allocator<T>>, D>
    : std::bool_constant<std::is_same_v<T, bool> || releasable_v<T, D - 1>> {};
template <class T, int D>
struct releasable<std::list<T, std::pmr::polymorphic_allocator<T>>, D> : std::bool_constant<releasable_v<T, D - 1>> {};
template <class T, class L, int D>
struct releasable<std::set<T, L, std::pmr::polymorphic_allocator<T>>, D> : std::bool_constant<releasable_v<T, D - 1>> {
};
template <class K, class V, class L, int D>
struct releasable<std::map<K, V, L, std::pmr::polymorphic_allocator<std::pair<const K, V>>>, D>
    : std::bool_constant<releasable_v<K, D - 1> && releasable_v<V, D - 1>> {};
template <class K, class V, class H, class E, int D>
struct releasable<std::unordered_map<K, V, H, E, std::pmr::polymorphic_allocator<std::pair<const K, V>>>, D>
    : std::bool_constant<releasable_v<K, D - 1> && releasable_v<V, D - 1>> {};
template <class T, std::size_t N, int D>
struct releasable<std::array<T, N>, D> : std::bool_constant<releasable_v<T, D - 1>> {};

template <class Fields, int D>
struct fields_releasable;
template <auto... Ms, int D>
struct fields_releasable<fields<Ms...>, D>
    : std::bool_constant<(true && ... &&
                          releasable_v<typename fastwire::internal::member_pointer<decltype(Ms)>::type, D - 1>)> {};

// A generated allocator-aware struct: releasable when every field is.
template <class S, int D>
struct releasable<S, D,
                  std::enable_if_t<!std::is_trivially_destructible_v<S> && is_struct_v<S> &&
                                   std::is_same_v<typename S::allocator_type, allocator>>>
    : fields_releasable<all_fields_t<S>, D> {};

}  // namespace internal

// True when every byte a T made on a memory resource holds comes from that resource, so
// the resource may be dropped without running T's destructor (what arena::make relies
// on): std::pmr strings, std::pmr collections of releasable elements, trivially
// destructible types, and generated --pmr structs all of whose fields are releasable. Not:
// schema `bytes` (fastwire::bytes is not allocator-aware), an optional whose value is not
// trivially destructible (std::optional carries no allocator), and anything nested deeper
// than 16 levels (e.g. a struct that holds a vector of itself).
template <class T>
inline constexpr bool releasable_v = internal::releasable_v<T, 16>;

// ---- arena: a bump-pointer memory resource ------------------------------------------

// A std::pmr::memory_resource that hands out memory by bumping a pointer through blocks
// and frees nothing until release() or its destruction (as std::pmr::monotonic_buffer_resource,
// with a shorter allocation path: a final class whose do_allocate is a compare and an add).
// Blocks come from `upstream` (default: std::pmr::get_default_resource()), doubling in
// size (and at least twice a request larger than the next one, up to 1 MiB); an initial
// buffer the caller keeps is used first, and again after every release().
//
//   fastwire::pmr::arena arena;                 // 512 bytes inline, then 4 KiB, 8 KiB, ... blocks
//   auto& monsters = arena.make<game::Monsters>();  // on the arena; never destroyed
//   model.attach(bytes, size);
//   model.deserialize(monsters);
//   arena.release();                             // monsters is gone; the memory is reused
//
// make<T>() constructs a T on the arena with the arena as its allocator and returns a
// reference; the T is not destroyed: release() and ~arena drop its memory with the rest.
// Only for types where that frees everything (releasable_v<T>, checked at compile time).
// Not thread-safe (as monotonic_buffer_resource).
class arena final : public std::pmr::memory_resource {
public:
    static constexpr std::size_t default_block_size = 4096;

    // Bytes inside the arena object itself, used first when no buffer is given: a small
    // value (and a small message's strings) takes no block from upstream.
    static constexpr std::size_t inline_size = 512;

    arena() noexcept : arena(default_block_size) {}
    // Blocks from upstream, the first first_block bytes, after the arena's own inline bytes.
    explicit arena(std::size_t first_block,
                   std::pmr::memory_resource* upstream = std::pmr::get_default_resource()) noexcept
        : upstream_(upstream),
          plain_(is_new_delete(upstream)),
          buffer_(inline_),
          buffer_size_(inline_size),
          next_size_(first_block < 64 ? 64 : first_block) {
        rewind();
    }
    // `buffer` (size bytes, the caller keeps it) first, then blocks from upstream.
    arena(void* buffer, std::size_t size,
          std::pmr::memory_resource* upstream = std::pmr::get_default_resource()) noexcept
        : upstream_(upstream),
          plain_(is_new_delete(upstream)),
          buffer_(static_cast<std::byte*>(buffer)),
          buffer_size_(size),
          next_size_(size < 64 ? 64 : size) {
        rewind();
    }
    arena(const arena&) = delete;
    arena& operator=(const arena&) = delete;
    ~arena() override { free_blocks(); }

    // Frees every block taken from upstream (and so every value made on the arena); the
    // next allocation starts again at the beginning of the caller's buffer, if any.
    void release() noexcept {
        free_blocks();
        rewind();
    }

    std::pmr::memory_resource* upstream_resource() const noexcept { return upstream_; }

    // A T on the arena, made with the arena as its allocator (fastwire::pmr::make); its
    // destructor is never run. The reference is valid until release() or ~arena.
    template <class T, class... Args>
    T& make(Args&&... args) {
        static_assert(releasable_v<T>,
                      "fastwire::pmr::arena::make: T holds memory that does not come from its allocator (schema "
                      "bytes, an optional of a string or struct, ...): make it with fastwire::pmr::make and let it "
                      "be destroyed");
        void* p = allocate(sizeof(T), alignof(T));
        return *::new (p) T(fastwire::pmr::make<T>(allocator(this), std::forward<Args>(args)...));
    }

private:
    static bool is_new_delete(const std::pmr::memory_resource* r) noexcept {
        return __STDCPP_DEFAULT_NEW_ALIGNMENT__ >= alignof(std::max_align_t) && r == std::pmr::new_delete_resource();
    }

    struct block {
        block* prev;
        std::size_t size;
    };
    static constexpr std::size_t header =
        (sizeof(block) + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);

    void* do_allocate(std::size_t bytes, std::size_t align) override {
        const std::uintptr_t p = (cur_ + (align - 1)) & ~static_cast<std::uintptr_t>(align - 1);
        if (FASTWIRE_LIKELY(p <= end_ && bytes <= end_ - p)) {
            cur_ = p + bytes;
            return reinterpret_cast<void*>(p);
        }
        return grow(bytes, align);
    }
    void do_deallocate(void*, std::size_t, std::size_t) override {}
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

    FASTWIRE_NOINLINE void* grow(std::size_t bytes, std::size_t align) {
        const std::size_t room = bytes + (align > alignof(std::max_align_t) ? align : 0);
        if (room < bytes || room > SIZE_MAX / 4) throw std::bad_alloc();
        // A request the next block cannot take gets a block of at least twice its size (up
        // to 1 MiB; a larger one a block of its own size): what follows a large vector,
        // its elements' strings and vectors, then lands beside it instead of in a block
        // of its own (monsters' fresh read: one block instead of two, 3 % faster).
        const std::size_t want = room <= (std::size_t{1} << 20) ? 2 * room : room;
        std::size_t size = next_size_;
        while (size - header < want) size *= 2;
        void* raw = plain_ ? ::operator new(size) : upstream_->allocate(size, alignof(std::max_align_t));
        blocks_ = ::new (raw) block{blocks_, size};
        next_size_ = size * 2;
        cur_ = reinterpret_cast<std::uintptr_t>(raw) + header;
        end_ = reinterpret_cast<std::uintptr_t>(raw) + size;
        return do_allocate(bytes, align);
    }
    void free_blocks() noexcept {
        while (blocks_ != nullptr) {
            block* b = blocks_;
            blocks_ = b->prev;
            if (plain_)
                ::operator delete(b);
            else
                upstream_->deallocate(b, b->size, alignof(std::max_align_t));
        }
    }
    void rewind() noexcept {
        if (buffer_ != nullptr) {
            cur_ = reinterpret_cast<std::uintptr_t>(buffer_);
            end_ = cur_ + buffer_size_;
        } else {
            cur_ = 1;  // no room: the first allocation takes a block
            end_ = 0;
        }
    }

    std::pmr::memory_resource* upstream_;
    // upstream_ is std::pmr::new_delete_resource() (the default): blocks come straight from
    // ::operator new, whose alignment suffices, rather than through libstdc++'s resource,
    // which always takes the aligned operator new (memalign: ~250 instructions more a block).
    const bool plain_ = false;
    std::byte* buffer_ = nullptr;
    std::size_t buffer_size_ = 0;
    std::size_t next_size_;
    block* blocks_ = nullptr;
    std::uintptr_t cur_ = 1, end_ = 0;
    alignas(std::max_align_t) std::byte inline_[inline_size];
};

}  // namespace pmr
}  // namespace fastwire
