package fastwire

import (
	"bytes"
	"cmp"
	"slices"
)

// Version is the runtime's version (generated code refers to it).
const Version = "0.1"

// Pair is one entry of a map or hash whose key cannot be a Go map key (a struct, bytes).
type Pair[K, V any] struct {
	Key   K
	Value V
}

// Ptr is a pointer to a copy of v (optional values).
func Ptr[T any](v T) *T { return &v }

// Resize returns s with n elements, reusing its capacity (and its elements' memory).
func Resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// ClearMap empties m for reuse, or makes one for n entries.
func ClearMap[K comparable, V any](m map[K]V, n int) map[K]V {
	if m == nil {
		return make(map[K]V, n)
	}
	clear(m)
	return m
}

// SortedSet returns s when it is strictly ascending, else a sorted copy without
// duplicates (a set is written in ascending order).
func SortedSet[T any](s []T, c func(a, b T) int) []T {
	for i := 1; i < len(s); i++ {
		if c(s[i-1], s[i]) >= 0 {
			return SortSet(slices.Clone(s), c)
		}
	}
	return s
}

// SortSet sorts s in place and drops later duplicates.
func SortSet[T any](s []T, c func(a, b T) int) []T {
	for i := 1; i < len(s); i++ {
		if c(s[i-1], s[i]) >= 0 {
			slices.SortStableFunc(s, c)
			return slices.CompactFunc(s, func(a, b T) bool { return c(a, b) == 0 })
		}
	}
	return s
}

// SortedKeys is m's keys in ascending order.
func SortedKeys[K comparable, V any](m map[K]V, c func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, c)
	return keys
}

// SortedPairs returns s when its keys ascend strictly, else a sorted copy without
// duplicate keys.
func SortedPairs[K, V any](s []Pair[K, V], c func(a, b K) int) []Pair[K, V] {
	for i := 1; i < len(s); i++ {
		if c(s[i-1].Key, s[i].Key) >= 0 {
			return SortPairs(slices.Clone(s), c)
		}
	}
	return s
}

// SortPairs sorts s by key in place and drops later duplicate keys.
func SortPairs[K, V any](s []Pair[K, V], c func(a, b K) int) []Pair[K, V] {
	pc := func(a, b Pair[K, V]) int { return c(a.Key, b.Key) }
	for i := 1; i < len(s); i++ {
		if pc(s[i-1], s[i]) >= 0 {
			slices.SortStableFunc(s, pc)
			return slices.CompactFunc(s, func(a, b Pair[K, V]) bool { return pc(a, b) == 0 })
		}
	}
	return s
}

// CompareDecimal orders decimals by value.
func CompareDecimal(a, b Decimal) int { return a.Compare(b) }

// CompareUUID orders uuids by their bytes.
func CompareUUID(a, b UUID) int { return bytes.Compare(a[:], b[:]) }

// CompareBool orders false before true.
func CompareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// CompareFloat orders floats (NaN first, as cmp.Compare).
func CompareFloat[T float32 | float64](a, b T) int { return cmp.Compare(a, b) }
