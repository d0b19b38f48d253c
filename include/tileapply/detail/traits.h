//===- tileapply/detail/traits.h - tile.h's type traits -------*- CUDA -*-===//
//
// The few generic type traits tile.h needs, written out here instead of taken
// from <type_traits> and <utility>: remove_cvref_t, remove_ref (for
// remove_reference), same_v (is_same_v), is_const_v and index_seq (for
// integer_sequence). tile.h depends on nothing beyond <stdint.h> and
// tileapply's own headers: host C++ includes it without any C++ standard
// library headers (-nostdinc++), and it adds none to the translation units
// that include it. This file keeps that so: it includes nothing.
//
// Internal to tile.h: everything here is in tile::detail, included by tile.h
// (not meant to be included on its own).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_DETAIL_TRAITS_H
#define TILEAPPLY_DETAIL_TRAITS_H

#pragma clang system_header

namespace tile {
namespace detail {

template <class T> struct remove_cvref {
  using type = T;
};
template <class T> struct remove_cvref<const T> : remove_cvref<T> {};
template <class T> struct remove_cvref<volatile T> : remove_cvref<T> {};
template <class T> struct remove_cvref<const volatile T> : remove_cvref<T> {};
template <class T> struct remove_cvref<T &> : remove_cvref<T> {};
template <class T> struct remove_cvref<T &&> : remove_cvref<T> {};
template <class T> using remove_cvref_t = typename remove_cvref<T>::type;

template <class T> struct remove_ref {
  using type = T;
};
template <class T> struct remove_ref<T &> {
  using type = T;
};
template <class T> struct remove_ref<T &&> {
  using type = T;
};

template <class A, class B> inline constexpr bool same_v = false;
template <class A> inline constexpr bool same_v<A, A> = true;

template <class T> inline constexpr bool is_const_v = false;
template <class T> inline constexpr bool is_const_v<const T> = true;

/// A pack of integers of type T, what __make_integer_seq<index_seq, T, N>
/// fills with 0 .. N-1 (std::integer_sequence without <utility>).
template <class T, T... I> struct index_seq {};

} // namespace detail
} // namespace tile

#endif
