//===- tileapply/tile.h - The user surface of tileapply -------*- CUDA -*-===//
//
// What a CUDA author includes: register tensors, memory tensors, strided views,
// predicates and `__tile_apply`. Every type here is a thin, trivially copyable
// description; nothing is computed at run time. The header lowers each call to
// the marker described in tileapply/abi.h: the Clang plugin checks the call and
// the LLVM pass replaces the marker with one inline-asm instruction per repeat.
//
// Requires C++20 (class-type constants, requires-clauses).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_TILE_H
#define TILEAPPLY_TILE_H

// Clang compiles CUDA as C++17 unless told otherwise: say so once, instead of
// the errors every requires-clause below would give.
#if __cplusplus < 202002L
#error "tileapply/tile.h needs C++20: compile with -std=c++20 (clang's CUDA default is C++17)"
#else

// The header's own template machinery is not the user's code: keep -Weverything
// and friends about it quiet, wherever the header was found.
#pragma clang system_header

#include <stdint.h>
#include <tileapply/abi.h>
#include <tileapply/version.h>
// remove_cvref_t and the other generic traits, without <type_traits>.
#include <tileapply/detail/traits.h>
// tile::packed::f16x2(2.0f) and friends: packed constants built at compile
// time (runtime/include/tileapply/packed.h; installed next to this header).
#include <tileapply/packed.h>

#if !defined(__CUDACC__) && !defined(__CUDA__)
#define TILEAPPLY_HD
#else
#define TILEAPPLY_HD __host__ __device__
#endif
// Every helper the marker's arguments go through is inlined before the pass
// runs, so constants reach it as constants at every -O level.
#define TILEAPPLY_INLINE __attribute__((always_inline)) inline

// CUDA's own vector and half types (the Half and Packed rows of
// tileapply/dtypes.def) are optional: only when their headers were included
// do they become carriers.
#define TILEAPPLY_DTYPE(Name, Value, CType, Bits, Kind, Constraint) TILEAPPLY_DECLARE_##Kind(CType)
#define TILEAPPLY_DECLARE_Half(T) struct T;
#define TILEAPPLY_DECLARE_Packed(T) struct T;
#define TILEAPPLY_DECLARE_Opaque(T) struct T;
#define TILEAPPLY_DECLARE_Unknown(T)
#define TILEAPPLY_DECLARE_Bool(T)
#define TILEAPPLY_DECLARE_Unsigned(T)
#define TILEAPPLY_DECLARE_Signed(T)
#define TILEAPPLY_DECLARE_Float(T)
#include <tileapply/dtypes.def>

namespace tile {

/// The tileapply version of this header (TILEAPPLY_VERSION). The plugin reads
/// it and refuses a header of a version other than its own.
inline constexpr int header_version = TILEAPPLY_VERSION;

template <int... E> struct shape {};
template <int... S> struct stride {};

namespace detail {

// ---- carrier dtypes (tileapply/dtypes.def) ---------------------------------
// One row of the table, as the header needs it.
struct dtype_row {
  int value, bits;
  bool integer, is_signed;
  bool pun; // a CUDA class whose bits are the value (Half, Packed)
};
#define TILEAPPLY_ROW_Unknown false, false, false
#define TILEAPPLY_ROW_Bool false, false, false
#define TILEAPPLY_ROW_Unsigned true, false, false
#define TILEAPPLY_ROW_Signed true, true, false
#define TILEAPPLY_ROW_Float false, true, false
#define TILEAPPLY_ROW_Half false, true, true
#define TILEAPPLY_ROW_Packed false, true, true
#define TILEAPPLY_ROW_Opaque false, false, false
inline constexpr dtype_row dtype_rows[] = {
#define TILEAPPLY_DTYPE(Name, Value, CType, Bits, Kind, Constraint)                                \
  {Value, Bits, TILEAPPLY_ROW_##Kind},
#include <tileapply/dtypes.def>
};

// Every C++ integer type maps to the row of its width and signedness (so
// `long` is int64_t on nvptx64, `char` follows the target's signedness).
template <class T> constexpr int integer_dtype() {
  for (const dtype_row &r : dtype_rows)
    if (r.integer && r.bits == 8 * static_cast<int>(sizeof(T)) && r.is_signed == __is_signed(T))
      return r.value;
  return TILEAPPLY_DT_UNKNOWN;
}

// An unscoped enumeration converts to its underlying integer implicitly, so
// an enumerator is that integer (an immediate, or a scalar). A scoped one
// does not: it stays unsupported, as it is everywhere else in C++.
template <class T, bool = __is_enum(T) && !__is_scoped_enum(T)> struct unscoped_enum_dtype {
  static constexpr int value = TILEAPPLY_DT_UNKNOWN;
};
template <class T> struct unscoped_enum_dtype<T, true> {
  static constexpr int value = integer_dtype<__underlying_type(T)>();
};
template <class T> struct dtype_of {
  static constexpr int value = __is_same(T, bool) ? TILEAPPLY_DT_BOOL
                               : __is_integral(T) ? integer_dtype<T>()
                                                  : unscoped_enum_dtype<T>::value;
};
template <class T> struct dtype_of<const T> : dtype_of<T> {};
template <class T> struct dtype_of<volatile T> : dtype_of<T> {};
template <class T> struct dtype_of<const volatile T> : dtype_of<T> {};
// The other carriers by name: float, double and CUDA's class types.
#define TILEAPPLY_DTYPE(Name, Value, CType, Bits, Kind, Constraint)                                \
  TILEAPPLY_DTYPE_OF_##Kind(CType, Value)
#define TILEAPPLY_DTYPE_OF_NAMED(T, V)                                                             \
  template <> struct dtype_of<T> {                                                                 \
    static constexpr int value = V;                                                                \
  };
#define TILEAPPLY_DTYPE_OF_Float(T, V) TILEAPPLY_DTYPE_OF_NAMED(T, V)
#define TILEAPPLY_DTYPE_OF_Half(T, V) TILEAPPLY_DTYPE_OF_NAMED(T, V)
#define TILEAPPLY_DTYPE_OF_Packed(T, V) TILEAPPLY_DTYPE_OF_NAMED(T, V)
#define TILEAPPLY_DTYPE_OF_Opaque(T, V) TILEAPPLY_DTYPE_OF_NAMED(T, V)
#define TILEAPPLY_DTYPE_OF_Unknown(T, V)
#define TILEAPPLY_DTYPE_OF_Bool(T, V)
#define TILEAPPLY_DTYPE_OF_Unsigned(T, V)
#define TILEAPPLY_DTYPE_OF_Signed(T, V)
#include <tileapply/dtypes.def>

// ---- shapes -----------------------------------------------------------------
template <class T, int... E> struct nested {
  using type = T;
};
template <class T, int E0, int... E> struct nested<T, E0, E...> {
  using type = typename nested<T, E...>::type[E0];
};

template <int... E> constexpr int product() { return (1 * ... * E); }

template <int I, int... E> constexpr int dense_stride_at() {
  const int ext[] = {E..., 0};
  int s = 1;
  for (int k = I + 1; k < static_cast<int>(sizeof...(E)); ++k)
    s *= ext[k];
  return s;
}
template <class Seq, int... E> struct dense_stride_impl;
template <int... I, int... E> struct dense_stride_impl<index_seq<int, I...>, E...> {
  using type = stride<dense_stride_at<I, E...>()...>;
};
template <int... E>
using dense_stride_t =
    typename dense_stride_impl<__make_integer_seq<index_seq, int, sizeof...(E)>, E...>::type;
} // namespace detail

/// A non-owning tensor: a typed pointer plus a compile-time shape, stride and
/// state space. `tile::global`, `tile::shared`, `tile::local`, `tile::constant`
/// and every `tile::view` are instances. Space TILEAPPLY_SPACE_NONE means the pointer
/// designates thread-owned register storage (a view over a register tensor).
template <class T, int Space, class Shape, class Stride, int StorageElems> struct ref {
  using element_type = T;
  T *ptr;
  TILEAPPLY_HD TILEAPPLY_INLINE constexpr ref(T *p) : ptr(p) {}
};

template <class T, int... E>
using global = ref<T, TILEAPPLY_SPACE_GLOBAL, shape<E...>, detail::dense_stride_t<E...>,
                   detail::product<E...>()>;
template <class T, int... E>
using shared = ref<T, TILEAPPLY_SPACE_SHARED, shape<E...>, detail::dense_stride_t<E...>,
                   detail::product<E...>()>;
template <class T, int... E>
using local = ref<T, TILEAPPLY_SPACE_LOCAL, shape<E...>, detail::dense_stride_t<E...>,
                  detail::product<E...>()>;
/// Constant memory (a `__constant__` variable); read by ld.const.
template <class T, int... E>
using constant = ref<T, TILEAPPLY_SPACE_CONST, shape<E...>, detail::dense_stride_t<E...>,
                     detail::product<E...>()>;

/// Memory named by a generic address: the operand of a PTX instruction that
/// names no state space (`ld.b32 d, [a]`, `atom.add.u32 d, [a], b`).
template <class T, int... E>
using generic = ref<T, TILEAPPLY_SPACE_GENERIC, shape<E...>, detail::dense_stride_t<E...>,
                    detail::product<E...>()>;

/// Memory in the .shared::cluster window: the shared memory of this CTA or of
/// another CTA of its cluster, named by a 32-bit window address (what `mapa`
/// returns, or tile::to_cluster of this CTA's own shared memory). Only
/// instructions whose address is .shared::cluster take it.
template <class T, class Shape, class Stride, int StorageElems> struct cluster_ref {
  using element_type = T;
  uint32_t addr;
  TILEAPPLY_HD TILEAPPLY_INLINE constexpr explicit cluster_ref(uint32_t a) : addr(a) {}
};
template <class T, int... E>
using cluster = cluster_ref<T, shape<E...>, detail::dense_stride_t<E...>, detail::product<E...>()>;

#if defined(__CUDACC__) || defined(__CUDA__)
/// This CTA's own shared memory as a .shared::cluster view: a .shared::cta
/// address is the cluster address of this CTA's copy.
template <class T, class Shape, class Stride, int Storage>
__device__ TILEAPPLY_INLINE cluster_ref<T, Shape, Stride, Storage>
to_cluster(ref<T, TILEAPPLY_SPACE_SHARED, Shape, Stride, Storage> s) {
  return cluster_ref<T, Shape, Stride, Storage>(
      static_cast<uint32_t>(__cvta_generic_to_shared(s.ptr)));
}
#endif

/// The tensor map (`CUtensorMap`) a TMA instruction reads, where it lives: a
/// `const __grid_constant__ CUtensorMap` kernel parameter, or a map in
/// constant or global memory. The operand is the map's generic address.
TILEAPPLY_HD TILEAPPLY_INLINE constexpr generic<const CUtensorMap_st, 1>
tensor_map(const CUtensorMap_st &m) {
  return generic<const CUtensorMap_st, 1>(&m);
}

/// A register tensor owned by the calling thread; same layout as the C array
/// `T r[E0]...[En]`, indexable the same way.
template <class T, int... E> struct reg {
  using element_type = T;
  typename detail::nested<T, E...>::type data;
  TILEAPPLY_HD constexpr decltype(auto) operator[](int i) { return data[i]; }
  TILEAPPLY_HD constexpr decltype(auto) operator[](int i) const { return data[i]; }
};

// ---- views at one variable or pointer ------------------------------------------
// What `tileapply-migrate` writes for an asm statement's operands
// (docs/asm-check.md#migration): the element type comes from the variable or
// the pointer, so the same text serves every instance of a template.

/// `N` registers starting at the variable `x` (a scalar, or an element of an
/// array with at least N elements from it on), as a register tensor of shape
/// [N]: a scalar can then be a destination, `__tile_apply("add.u32",
/// tile::reg_at(d), a, b)`. Nothing is copied; the call writes `x` itself.
template <int N = 1, class T>
TILEAPPLY_HD TILEAPPLY_INLINE constexpr ref<T, TILEAPPLY_SPACE_NONE, shape<N>, stride<1>, N>
reg_at(T &x) {
  return ref<T, TILEAPPLY_SPACE_NONE, shape<N>, stride<1>, N>(&x);
}
/// `N` consecutive elements of global, shared or generic memory from `p`.
template <int N = 1, class T> TILEAPPLY_HD TILEAPPLY_INLINE constexpr global<T, N> global_at(T *p) {
  return global<T, N>(p);
}
template <int N = 1, class T> TILEAPPLY_HD TILEAPPLY_INLINE constexpr shared<T, N> shared_at(T *p) {
  return shared<T, N>(p);
}
template <int N = 1, class T>
TILEAPPLY_HD TILEAPPLY_INLINE constexpr generic<T, N> generic_at(T *p) {
  return generic<T, N>(p);
}

namespace detail {

// ---- what each argument type is -----------------------------------------------
// `traits<T>` describes the decayed argument type: kind, element type, space,
// shape, strides and storage. Anything not listed is KIND_UNSUPPORTED, which
// the plugin reports at the call; it is never a hard error in this header.
template <int... V> struct ints {
  static constexpr int size = sizeof...(V);
};

template <class T> struct traits {
  static constexpr int kind = dtype_of<T>::value == TILEAPPLY_DT_UNKNOWN
                                  ? TILEAPPLY_KIND_UNSUPPORTED
                                  : TILEAPPLY_KIND_SCALAR;
  using element = T;
  static constexpr int space = TILEAPPLY_SPACE_NONE;
  // A scalar is one element; for a type tileapply does not know, the slot
  // says why (abi.h), so the plugin and the pass can say what to write.
  static constexpr int storage = kind != TILEAPPLY_KIND_UNSUPPORTED ? 1
                                 : __is_scoped_enum(T) ? TILEAPPLY_UNSUPPORTED_SCOPED_ENUM
                                                       : TILEAPPLY_UNSUPPORTED_TYPE;
  using extents = ints<>;
  using strides = ints<>;
};

template <class T, class Ext> struct array_shape;
template <class T, int... E> struct array_shape<T, ints<E...>> {
  using element = T;
  using extents = ints<E...>;
};
template <class T, int N, int... E>
struct array_shape<T[N], ints<E...>> : array_shape<T, ints<E..., N>> {};

template <class Stride> struct stride_ints;
template <int... S> struct stride_ints<stride<S...>> {
  using type = ints<S...>;
};

template <class T, int N> struct traits<T[N]> {
  using A = array_shape<T[N], ints<>>;
  static constexpr int kind = TILEAPPLY_KIND_REGISTER;
  using element = typename A::element;
  static constexpr int space = TILEAPPLY_SPACE_NONE;
  using extents = typename A::extents;
  template <class X> struct conv;
  template <int... E> struct conv<ints<E...>> {
    using strides = typename stride_ints<dense_stride_t<E...>>::type;
    static constexpr int storage = product<E...>();
  };
  using strides = typename conv<extents>::strides;
  static constexpr int storage = conv<extents>::storage;
};

template <class T, int... E> struct traits<reg<T, E...>> {
  static constexpr int kind = TILEAPPLY_KIND_REGISTER;
  using element = T;
  static constexpr int space = TILEAPPLY_SPACE_NONE;
  using extents = ints<E...>;
  using strides = typename stride_ints<dense_stride_t<E...>>::type;
  static constexpr int storage = product<E...>();
};
template <class T, int... E> struct traits<const reg<T, E...>> : traits<reg<const T, E...>> {};

template <class T, int... E, int... S, int Storage>
  requires(sizeof...(E) == sizeof...(S))
struct traits<cluster_ref<T, shape<E...>, stride<S...>, Storage>> {
  static constexpr int kind = TILEAPPLY_KIND_MEMORY;
  using element = T;
  static constexpr int space = TILEAPPLY_SPACE_SHARED_CLUSTER;
  using extents = ints<E...>;
  using strides = ints<S...>;
  static constexpr int storage = Storage;
};

// A shape and a stride of different ranks describe no tensor: such a ref (only
// a spelled-out tile::ref can be one; tile::view refuses them) is unsupported.
template <class T, int Space, int... E, int... S, int Storage>
  requires(sizeof...(E) == sizeof...(S))
struct traits<ref<T, Space, shape<E...>, stride<S...>, Storage>> {
  static constexpr int kind =
      Space == TILEAPPLY_SPACE_NONE ? TILEAPPLY_KIND_REGISTER : TILEAPPLY_KIND_MEMORY;
  using element = T;
  static constexpr int space = Space;
  using extents = ints<E...>;
  using strides = ints<S...>;
  static constexpr int storage = Storage;
};

template <class T>
inline constexpr bool is_tensor_v =
    traits<T>::kind == TILEAPPLY_KIND_REGISTER || traits<T>::kind == TILEAPPLY_KIND_MEMORY;

// Element 0 of any tensor argument, as a pointer.
template <class T> TILEAPPLY_HD TILEAPPLY_INLINE constexpr auto *first(T &t) {
  if constexpr (requires { t.ptr; })
    return t.ptr;
  else if constexpr (requires { t.data; })
    return first(t.data);
  else if constexpr (requires { t[0]; })
    return first(t[0]);
  else
    return &t;
}
} // namespace detail

// ---- options -----------------------------------------------------------------
struct preserve_dst_t {};
/// Keep the destination's old value where the predicate is off (the
/// destination becomes read-write). Only after `tile::pred(...)`.
inline constexpr preserve_dst_t preserve_dst{};

/// One predicate for every repeat.
struct pred_scalar {
  bool on;
};
/// One predicate per repeat: a bool / uint32_t register tensor shaped like the
/// repeat axes followed by a group axis of 1.
template <class T, class Shape, class Stride, int Storage> struct pred_tensor {
  T *ptr;
};

TILEAPPLY_HD TILEAPPLY_INLINE constexpr pred_scalar pred(bool on) { return pred_scalar{on}; }

template <class T>
  requires detail::is_tensor_v<detail::remove_cvref_t<T>>
TILEAPPLY_HD TILEAPPLY_INLINE constexpr auto pred(T &&t) {
  using Tr = detail::traits<detail::remove_cvref_t<T>>;
  using Elem = typename detail::remove_ref<decltype(*detail::first(t))>::type;
  return pred_tensor<Elem, typename Tr::extents, typename Tr::strides, Tr::storage>{
      detail::first(t)};
}

/// PTX's `{!}c`: the instruction reads this predicate source negated, written
/// `!c` in its text (setp and set with .and/.or/.xor). Takes a bool or a bool
/// register tensor; the plugin refuses it on any other operand.
template <class T> struct negated_t {
  T &inner;
};
namespace detail {
template <class T> inline constexpr bool is_negated_v = false;
template <class T> inline constexpr bool is_negated_v<negated_t<T>> = true;
} // namespace detail
template <class T>
TILEAPPLY_HD TILEAPPLY_INLINE constexpr negated_t<typename detail::remove_ref<T>::type>
negated(T &&t) {
  static_assert(!detail::is_negated_v<detail::remove_cvref_t<T>>,
                "tile::negated(tile::negated(c)) would read c itself: pass c");
  return {t};
}

#if defined(__CUDACC__) || defined(__CUDA__)
namespace detail {
template <class T> __device__ TILEAPPLY_INLINE void fence_one(T &x) {
  if constexpr (sizeof(T) == 4 && __is_same(remove_cvref_t<T>, float))
    asm volatile("" : "+f"(x)::"memory");
  else if constexpr (sizeof(T) == 8 && __is_same(remove_cvref_t<T>, double))
    asm volatile("" : "+d"(x)::"memory");
  else if constexpr (sizeof(T) == 2)
    asm volatile("" : "+h"(*reinterpret_cast<unsigned short *>(&x))::"memory");
  else if constexpr (sizeof(T) == 4)
    asm volatile("" : "+r"(*reinterpret_cast<unsigned int *>(&x))::"memory");
  else if constexpr (sizeof(T) == 8)
    asm volatile("" : "+l"(*reinterpret_cast<unsigned long long *>(&x))::"memory");
  else
    static_assert(sizeof(T) == 0, "tile::fence_operand: elements of 2, 4 or 8 bytes");
}
template <class T> __device__ TILEAPPLY_INLINE void fence_all(T &t);
// One fence per element, written out (a loop over 128 accumulators may stay
// a loop at -O2, and a loop keeps the array in local memory).
template <class T, int... I>
__device__ TILEAPPLY_INLINE void fence_each(T &t, index_seq<int, I...>) {
  (fence_all(t[I]), ...);
}
template <class T> __device__ TILEAPPLY_INLINE void fence_all(T &t) {
  if constexpr (requires { t.data; })
    fence_all(t.data);
  else if constexpr (__is_array(T))
    fence_each(t, __make_integer_seq<index_seq, int, sizeof(T) / sizeof(t[0])>{});
  else
    fence_one(t);
}
} // namespace detail

/// Pins every register of a register tensor here: nothing before this point
/// that computes them and nothing after that reads them moves across it
/// (CUTLASS's warpgroup_fence_operand). Put one on the accumulators before
/// `wgmma.fence` and after the `wgmma.wait_group` that retires them, so the
/// compiler neither moves nor spills them inside the asynchronous window.
template <class T> __device__ TILEAPPLY_INLINE void fence_operand(T &t) { detail::fence_all(t); }
#endif

/// A new shape and strides (in elements) over `t`'s storage, from its first
/// element. Keeps `t`'s state space and element type. A stride of 0 on a
/// repeat axis is an explicit broadcast (inputs only).
namespace detail {
template <class Shape, class Stride> inline constexpr bool rank_mismatch_v = false;
template <int... E, int... S>
inline constexpr bool rank_mismatch_v<shape<E...>, stride<S...>> = sizeof...(E) != sizeof...(S);
} // namespace detail
template <class Shape, class Stride, class T>
  requires detail::is_tensor_v<detail::remove_cvref_t<T>> && detail::rank_mismatch_v<Shape, Stride>
TILEAPPLY_HD void
view(T &&t) = delete ("tile::view needs one stride per axis: its tile::shape and tile::stride "
                      "have different numbers of entries (see the template arguments below)");
template <class Shape, class Stride, class T>
  requires detail::is_tensor_v<detail::remove_cvref_t<T>> &&
           (!detail::rank_mismatch_v<Shape, Stride>)
TILEAPPLY_HD TILEAPPLY_INLINE constexpr auto view(T &&t) {
  using Tr = detail::traits<detail::remove_cvref_t<T>>;
  if constexpr (Tr::space == TILEAPPLY_SPACE_SHARED_CLUSTER) {
    return cluster_ref<typename Tr::element, Shape, Stride, Tr::storage>(t.addr);
  } else {
    using Elem = typename detail::remove_ref<decltype(*detail::first(t))>::type;
    return ref<Elem, Tr::space, Shape, Stride, Tr::storage>(detail::first(t));
  }
}

namespace detail {
template <class T, class Shape, class Stride, int Storage>
struct traits<pred_tensor<T, Shape, Stride, Storage>> {
  static constexpr int kind = TILEAPPLY_KIND_PRED_TENSOR;
  using element = T;
  static constexpr int space = TILEAPPLY_SPACE_NONE;
  using extents = Shape;
  using strides = Stride;
  static constexpr int storage = Storage;
};
template <> struct traits<pred_scalar> {
  static constexpr int kind = TILEAPPLY_KIND_PRED_SCALAR;
  using element = bool;
  static constexpr int space = TILEAPPLY_SPACE_NONE;
  static constexpr int storage = 1;
  using extents = ints<>;
  using strides = ints<>;
};
template <> struct traits<preserve_dst_t> {
  static constexpr int kind = TILEAPPLY_KIND_PRESERVE_DST;
  using element = void;
  static constexpr int space = TILEAPPLY_SPACE_NONE;
  static constexpr int storage = 0;
  using extents = ints<>;
  using strides = ints<>;
};

// ---- the layout record of one argument, and of a whole call -------------------
template <class Ext, class Str> struct record_tail;
template <int... E, int... S> struct record_tail<ints<E...>, ints<S...>> {
  static constexpr int size = 1 + 2 * sizeof...(E);
  template <class Out> static constexpr void write(Out &out, int &at) {
    out[at++] = static_cast<int>(sizeof...(E));
    ((out[at++] = E), ...);
    ((out[at++] = S), ...);
  }
};

template <class A, class D = remove_cvref_t<A>> struct record {
  using Tr = traits<D>;
  using Tail = record_tail<typename Tr::extents, typename Tr::strides>;
  using E = typename Tr::element;
  // Registers cannot be volatile: a volatile register tensor (or predicate
  // tensor) is described as unsupported, and the plugin says why at the call.
  static constexpr bool volatile_registers =
      (Tr::kind == TILEAPPLY_KIND_REGISTER || Tr::kind == TILEAPPLY_KIND_PRED_TENSOR) &&
      (__is_volatile(E) || __is_volatile(typename remove_ref<A>::type));
  static constexpr int size = volatile_registers ? 5 : 4 + Tail::size;
  template <class Out> static constexpr void write(Out &out, int &at) {
    if constexpr (volatile_registers) {
      out[at++] = TILEAPPLY_KIND_UNSUPPORTED;
      out[at++] = TILEAPPLY_DT_UNKNOWN;
      out[at++] = TILEAPPLY_SPACE_NONE;
      out[at++] = TILEAPPLY_UNSUPPORTED_VOLATILE_REGISTER; // the reason (abi.h)
      out[at++] = 0; // rank 0
      return;
    }
    int kind = Tr::kind;
    // A const element type, or a const register tensor argument, cannot be
    // written: the plugin and the pass refuse it as a destination.
    if constexpr (!same_v<E, void>)
      if (is_const_v<E> || is_const_v<typename remove_ref<A>::type>)
        kind |= TILEAPPLY_QUAL_CONST;
    out[at++] = kind;
    if constexpr (same_v<E, void>)
      out[at++] = TILEAPPLY_DT_UNKNOWN;
    else
      out[at++] = dtype_of<E>::value;
    out[at++] = Tr::space;
    out[at++] = Tr::storage;
    Tail::write(out, at);
  }
};

// tile::negated(x): x's record, marked negated.
template <class A, class T> struct record<A, negated_t<T>> {
  using Inner = record<T &>;
  static constexpr int size = Inner::size;
  template <class Out> static constexpr void write(Out &out, int &at) {
    int start = at;
    Inner::write(out, at);
    out[start] |= TILEAPPLY_QUAL_NEGATE;
  }
};

template <int N> struct int_array {
  int v[N];
  constexpr int &operator[](int i) { return v[i]; }
};

template <class... A> constexpr auto make_layout() {
  int_array<2 + (0 + ... + record<A>::size)> out{};
  int at = 0;
  out[at++] = TILEAPPLY_LAYOUT_VERSION;
  out[at++] = static_cast<int>(sizeof...(A));
  (record<A>::write(out, at), ...);
  return out;
}

#if defined(__CUDA_ARCH__)
// One constant array per distinct argument-type list: the marker's `@layout`.
template <class... A> __device__ constexpr auto call_layout = make_layout<A...>();

template <class U, class T> __device__ TILEAPPLY_INLINE U bits(const T &t) {
  static_assert(sizeof(U) == sizeof(T), "carrier width");
  U u;
  __builtin_memcpy(&u, &t, sizeof(U));
  return u;
}

// The value each argument contributes to the marker call.
template <class T> __device__ TILEAPPLY_INLINE auto value(T &t) {
  using D = remove_cvref_t<T>;
  using Tr = traits<D>;
  if constexpr (is_negated_v<D>)
    return value(t.inner); // the value itself; the layout says "negated"
  else if constexpr (Tr::space == TILEAPPLY_SPACE_SHARED_CLUSTER)
    return t.addr; // the window address itself
  else if constexpr (Tr::kind == TILEAPPLY_KIND_REGISTER || Tr::kind == TILEAPPLY_KIND_MEMORY)
    // (A volatile element type is accepted only on memory tensors, whose
    // accesses are volatile asm anyway; the plugin refuses volatile register
    // tensors. The address itself carries no qualifier.)
    return (const void *)first(t);
  else if constexpr (Tr::kind == TILEAPPLY_KIND_PRED_TENSOR)
    return (const void *)t.ptr;
  else if constexpr (Tr::kind == TILEAPPLY_KIND_PRED_SCALAR)
    return static_cast<int>(t.on);
  else if constexpr (Tr::kind == TILEAPPLY_KIND_PRESERVE_DST)
    return 0;
  else if constexpr (Tr::kind == TILEAPPLY_KIND_SCALAR) {
    // CUDA's class carriers travel as their bits (a pun, never a conversion),
    // in the unsigned integer of their width, C-promoted like any integer.
    // They are not trivially copyable, so the bits are copied out.
    constexpr dtype_row row = dtype_rows[dtype_of<D>::value];
    if constexpr (row.pun && row.bits == 16)
      return static_cast<int>(bits<unsigned short>(t));
    else if constexpr (row.pun && row.bits == 32)
      return bits<unsigned int>(t);
    else if constexpr (row.pun && row.bits == 64)
      return bits<unsigned long long>(t);
    else
      return t;
  } else
    return 0; // unsupported: the plugin has already reported it
}
#endif
} // namespace detail
} // namespace tile

namespace tile {
// ---- opcodes built at compile time ----------------------------------------------
/// A string literal as a class-type template argument (tile::fmt's pattern).
template <int N> struct fixed_string {
  char text[N] = {};
  consteval fixed_string(const char (&s)[N]) {
    for (int i = 0; i < N; ++i)
      text[i] = s[i];
  }
};

namespace detail {
/// A NUL-terminated string in a constant: what tile::fmt produces. It
/// converts to `const char *`, so it is an opcode where a literal is.
template <int N> struct static_string {
  char text[N] = {};
  TILEAPPLY_HD constexpr operator const char *() const { return text; }
};

constexpr int decimal_digits(long long v) {
  int n = v < 0 ? 2 : 1;
  for (unsigned long long u = v < 0 ? 0ull - static_cast<unsigned long long>(v)
                                    : static_cast<unsigned long long>(v);
       u >= 10; u /= 10)
    ++n;
  return n;
}

/// Writes `pattern` with each `{}` replaced by the next value, in decimal;
/// returns the length written (without the NUL), or -1 when the number of
/// `{}` and of values differ. `out` may be null (to measure).
template <int N, int K>
constexpr int format_into(const char (&pattern)[N], const long long (&values)[K], int count,
                          char *out) {
  int len = 0, next = 0;
  for (int i = 0; i + 1 < N && pattern[i] != '\0'; ++i) {
    if (pattern[i] == '{' && pattern[i + 1] == '}') {
      if (next == count)
        return -1;
      long long v = values[next++];
      int digits = decimal_digits(v);
      if (out) {
        unsigned long long u =
            v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
        for (int d = digits - 1; d >= (v < 0 ? 1 : 0); --d, u /= 10)
          out[len + d] = static_cast<char>('0' + u % 10);
        if (v < 0)
          out[len] = '-';
      }
      len += digits;
      ++i;
      continue;
    }
    if (out)
      out[len] = pattern[i];
    ++len;
  }
  return next == count ? len : -1;
}

template <fixed_string Pattern, long long... V> consteval auto format() {
  constexpr long long values[sizeof...(V) + 1] = {V..., 0};
  constexpr int len = format_into(Pattern.text, values, sizeof...(V), nullptr);
  static_assert(len >= 0, "tile::fmt: the pattern needs one '{}' per integer "
                          "that follows it, and one integer per '{}'");
  static_string<(len < 0 ? 0 : len) + 1> out{};
  format_into(Pattern.text, values, sizeof...(V), out.text);
  return out;
}
} // namespace detail

/// A compile-time string: `Pattern` with each `{}` replaced by the next of
/// the integers `V...`, in decimal. An opcode for every width of one shape
/// in one call: `__tile_apply(tile::fmt<"wgmma.mma_async.sync.aligned.m64n{}k16.f32.bf16.bf16", BN>, ...)`.
template <fixed_string Pattern, long long... V>
inline constexpr auto fmt = detail::format<Pattern, V...>();
} // namespace tile

#if defined(__CUDACC__) || defined(__CUDA__)
namespace tile {
namespace detail {
template <class T> inline constexpr bool is_option_v = false;
template <> inline constexpr bool is_option_v<pred_scalar> = true;
template <> inline constexpr bool is_option_v<preserve_dst_t> = true;
template <class T, class Sh, class St, int N>
inline constexpr bool is_option_v<pred_tensor<T, Sh, St, N>> = true;

template <int I, class A0, class... A>
__device__ TILEAPPLY_INLINE decltype(auto) nth(A0 &&a0, A &&...a) {
  if constexpr (I == 0)
    return static_cast<A0 &&>(a0);
  else
    return nth<I - 1>(static_cast<A &&>(a)...);
}

template <class X> struct ints_array;
template <int... V> struct ints_array<ints<V...>> {
  static constexpr int rank = sizeof...(V);
  static constexpr int at(int k) {
    const int v[] = {V..., 0};
    return v[k];
  }
};

/// Element offset of repeat `r` (row-major over `Ext`, the destination's
/// repeat axes: all axes but the last, a group of one) in a tensor of strides
/// `Str`; a rank mismatch is the plugin's to report, and gives offset 0.
template <class Ext, class Str> constexpr int ewise_offset(int r) {
  using E = ints_array<Ext>;
  using S = ints_array<Str>;
  if constexpr (E::rank != S::rank || E::rank == 0)
    return 0;
  else {
    int off = 0;
    for (int k = E::rank - 2; k >= 0; --k) {
      off += (r % E::at(k)) * S::at(k);
      r /= E::at(k);
    }
    return off;
  }
}

template <class DstTr, int R, class T> __device__ TILEAPPLY_INLINE decltype(auto) ewise_at(T &t) {
  using Tr = traits<remove_cvref_t<T>>;
  if constexpr (Tr::kind == TILEAPPLY_KIND_REGISTER || Tr::kind == TILEAPPLY_KIND_MEMORY)
    return first(t)[ewise_offset<typename DstTr::extents, typename Tr::strides>(R)];
  else
    return (t);
}

template <class DstTr, int R, class P> __device__ TILEAPPLY_INLINE bool ewise_on(P &p) {
  using D = remove_cvref_t<P>;
  if constexpr (same_v<D, pred_scalar>)
    return p.on;
  else if constexpr (!requires { p.ptr; })
    return true; // not a predicate: the plugin reports the call
  else
    return static_cast<bool>(
        p.ptr[ewise_offset<typename DstTr::extents, typename traits<D>::strides>(R)]);
}

template <int NOps, int R, class D, class F, class... S, int... I>
__device__ TILEAPPLY_INLINE void ewise_one(D &dst, F &f, index_seq<int, I...>, S &...srcs) {
  using DstTr = traits<remove_cvref_t<D>>;
  auto &out = first(dst)[ewise_offset<typename DstTr::extents, typename DstTr::strides>(R)];
  if constexpr (sizeof...(S) > NOps) {
    if (!ewise_on<DstTr, R>(nth<NOps>(srcs...)))
      return;
  }
  // (A const destination is the plugin's to report.)
  if constexpr (!is_const_v<typename remove_ref<decltype(out)>::type>)
    out = f(ewise_at<DstTr, R>(nth<I>(srcs...))...);
}

template <int NOps, class D, class F, int... R, class... S>
__device__ TILEAPPLY_INLINE void ewise_all(D &dst, F &f, index_seq<int, R...>, S &...srcs) {
  (ewise_one<NOps, R>(dst, f, __make_integer_seq<index_seq, int, NOps>{}, srcs...), ...);
}

template <class... S> constexpr int ewise_operands() {
  constexpr bool opt[] = {is_option_v<remove_cvref_t<S>>..., false};
  int n = 0;
  while (n < static_cast<int>(sizeof...(S)) && !opt[n])
    ++n;
  return n;
}

template <class T> constexpr int ewise_repeat_count() {
  using Tr = traits<remove_cvref_t<T>>;
  using E = ints_array<typename Tr::extents>;
  if constexpr (!is_tensor_v<remove_cvref_t<T>> || E::rank == 0)
    return 1;
  else {
    int n = 1;
    for (int k = 0; k + 1 < E::rank; ++k)
      n *= E::at(k);
    return n;
  }
}
} // namespace detail

/// Applies `f` element by element: `dst[r] = f(srcs[r]...)` for every repeat
/// `r` of `dst`, with __tile_apply's rules for the operands (register tensors
/// and register views shaped [repeats..., 1], scalars broadcast, a stride-0
/// view broadcasts a repeat axis) and its options (`tile::pred(p)` and then
/// `tile::preserve_dst`: where the predicate is off, `dst` keeps its value).
/// The plugin checks the call like a __tile_apply whose operands are one
/// register each. `f` is any device callable; the compiler chooses the
/// instructions (no exact-instruction promise).
template <class D, class F, class... S>
__device__ TILEAPPLY_INLINE void ewise(D &&dst, F &&f, S &&...srcs) {
  // The layout the plugin checks (the same description __tile_apply's
  // arguments get), instantiated here so the plugin can read it.
#if defined(__CUDA_ARCH__)
  constexpr int layout_version = detail::call_layout<D, S...>.v[0];
  (void)layout_version;
#endif
  constexpr int ops = detail::ewise_operands<S...>();
  detail::ewise_all<ops>(
      dst, f, __make_integer_seq<detail::index_seq, int, detail::ewise_repeat_count<D>()>{},
      srcs...);
}
} // namespace tile
#endif

#if defined(__CUDA_ARCH__)
extern "C" __device__ void __tileapply_apply(const char *opcode, const int *layout, ...);
#endif

/// Apply one PTX instruction per repeat over tiles. Operand order is the PTX
/// operand order of `opcode` (destination first), then optionally
/// `tile::pred(p)` and `tile::preserve_dst`. The opcode is any expression
/// that Clang's constant evaluator turns into a string (a literal, a
/// constexpr array or pointer, a conditional on template parameters,
/// `tile::fmt<...>`); the Clang plugin checks the whole call against the PTX
/// table.
///
/// The `warning` attribute never fires (the call is always inlined): it makes
/// clang record each call's source location in IR (`!srcloc`), so the pass
/// can point at the call even without debug information.
#if defined(__CUDA_ARCH__)
template <class... A>
TILEAPPLY_HD TILEAPPLY_INLINE __attribute__((
    warning("tileapply: this __tile_apply call was not inlined, so it cannot be expanded"))) void
__tile_apply(const char *opcode, A &&...args) {
  __tileapply_apply(opcode, &::tile::detail::call_layout<A...>.v[0],
                    ::tile::detail::value(args)...);
}
#else
/// The host side has no PTX to run. A call in host code is refused by the
/// plugin; a call in a `__host__ __device__` function is legal until the host
/// side of that function is compiled into code: then this declaration's
/// `error` attribute stops the build at the call (the back end reports any
/// call to it that survives), and there is no definition to link to either.
template <class... A>
TILEAPPLY_HD __attribute__((noinline))
__attribute__((error("__tile_apply runs only on the GPU, and the host side of the "
                     "function holding this call is being compiled (a __host__ "
                     "__device__ function called from host code): call that "
                     "function from device code only, or put the call under "
                     "#ifdef __CUDA_ARCH__"))) void
__tile_apply(const char *opcode, A &&...args);
#endif

#endif // __cplusplus >= 202002L
#endif // TILEAPPLY_TILE_H
