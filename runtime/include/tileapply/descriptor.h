//===- tileapply/descriptor.h - wgmma and tcgen05 descriptors --------*- C++ -*-===//
//
// Encoders and decoders for the 64-bit shared-memory matrix descriptors of
// wgmma.mma_async and tcgen05.mma, the 32-bit tcgen05 instruction descriptor
// and the tcgen05 zero-column mask descriptor, plus the canonical
// shared-memory layouts those descriptors describe (where each element of a
// K-major or MN-major operand lives, and the leading / stride byte offsets of
// a densely packed tile).
//
// Plain constexpr C++17 on <stdint.h> only: host code, CUDA device code
// (__host__ __device__ under CUDA) and static_assert.
//
// ---- API ---------------------------------------------------------------------
//
//   namespace tile::desc
//
//   encoded<uint64_t> encode(const wgmma_smem &)       PTX ISA 9.7.15.5.1.2.2
//   wgmma_smem        decode_wgmma_smem(uint64_t)
//   encoded<uint64_t> encode(const tcgen05_smem &)     PTX ISA 9.7.16.4.1
//   tcgen05_smem      decode_tcgen05_smem(uint64_t)
//   encoded<uint32_t> encode(const tcgen05_instr &)    PTX ISA 9.7.16.4.2
//   tcgen05_instr     decode_tcgen05_instr(uint32_t, kind)
//   encoded<uint64_t> encode(const tcgen05_zero_mask &) PTX ISA 9.7.16.4.3
//   tcgen05_zero_mask decode_tcgen05_zero_mask(uint64_t)
//
//   canonical         canonical_layout(major, swizzle, elem_bits)  (offset of (mn, k))
//   packed            packed_tile(major, swizzle, elem_bits, mn, k) (LBO, SBO, offset)
//   uint32_t          swizzle_address(swizzle, byte_address)
//
// Every encoder checks every field and returns {value, error}: error is null
// when the value is a valid descriptor, otherwise a sentence naming the field
// and its rule (value is then 0). The check is constexpr, so a descriptor whose
// fields are constants can be verified at compile time:
//
//   constexpr auto d = tile::desc::encode(tile::desc::wgmma_smem{
//       0, 16, 1024, 0, tile::desc::swizzle::b128});
//   static_assert(d.ok(), "bad descriptor");
//   uint64_t live = tile::desc::with_start_address(d.value, smem_addr);
//
// Byte quantities are passed as bytes; the encoders apply the ISA's
// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4 and require x to be a
// multiple of 16 below 2^18.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_DESCRIPTOR_H
#define TILEAPPLY_DESCRIPTOR_H

#include <stdint.h>

// tile::frag::type, shared with the fragment layouts; and TILEAPPLY_HD.
#include "fragment.h"

namespace tile {
namespace desc {

using type = tile::frag::type;

/// A checked encoding: `value` is meaningful only when ok().
template <class T> struct encoded {
  T value;
  const char *error;
  TILEAPPLY_HD constexpr bool ok() const { return error == nullptr; }
};

/// Shared-memory swizzle modes. b128_atom32 ("128-Byte with 32B atomic
/// swizzling") exists for tcgen05 only.
enum class swizzle : unsigned char { none, b32, b64, b128, b128_atom32 };

/// Bytes in one swizzle span (the row length of a swizzle atom): 0 for none.
TILEAPPLY_HD constexpr uint32_t swizzle_bytes(swizzle s) {
  return s == swizzle::b32 ? 32 : s == swizzle::b64 ? 64 : s == swizzle::none ? 0 : 128;
}

namespace detail {

template <class T> TILEAPPLY_HD constexpr encoded<T> bad(const char *why) { return {T(0), why}; }

/// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, for x already checked.
TILEAPPLY_HD constexpr uint64_t enc14(uint32_t bytes) { return (bytes & 0x3FFFFu) >> 4; }
/// Null when `bytes` fits a 14-bit encoded field.
TILEAPPLY_HD constexpr bool fits14(uint32_t bytes) { return bytes % 16 == 0 && bytes < (1u << 18); }
TILEAPPLY_HD constexpr uint32_t field(uint64_t v, int lo, int bits) {
  return uint32_t((v >> lo) & ((uint64_t(1) << bits) - 1));
}

} // namespace detail

// =============================================================================
// wgmma shared-memory matrix descriptor (PTX ISA 9.7.15.5.1.2.2, "Matrix
// Descriptor Format"):
//   bits 13-0   matrix-descriptor-encode(start address)
//   bits 29-16  matrix-descriptor-encode(leading dimension byte offset)
//   bits 45-32  matrix-descriptor-encode(stride dimension byte offset)
//   bits 51-49  matrix base offset (not for the no-swizzle mode)
//   bits 63-62  swizzle: 0 none, 1 128B, 2 64B, 3 32B
// =============================================================================

struct wgmma_smem {
  uint32_t start_address; ///< shared-window byte address of the matrix
  uint32_t lbo;           ///< leading dimension byte offset (bytes)
  uint32_t sbo;           ///< stride dimension byte offset (bytes)
  uint32_t base_offset;   ///< 0 - 7: (pattern start address >> 7) & 7
  swizzle mode;
};

TILEAPPLY_HD constexpr encoded<uint64_t> encode(const wgmma_smem &d) {
  using namespace detail;
  if (!fits14(d.start_address))
    return bad<uint64_t>("wgmma descriptor: start address must be a multiple of 16 below 2^18");
  if (!fits14(d.lbo)) return bad<uint64_t>("wgmma descriptor: leading byte offset must be a multiple of 16 below 2^18");
  if (!fits14(d.sbo)) return bad<uint64_t>("wgmma descriptor: stride byte offset must be a multiple of 16 below 2^18");
  if (d.base_offset > 7) return bad<uint64_t>("wgmma descriptor: base offset is 3 bits (0 - 7)");
  if (d.mode == swizzle::b128_atom32)
    return bad<uint64_t>("wgmma descriptor: 128B swizzle with 32B atoms is a tcgen05 mode");
  if (d.mode == swizzle::none && d.base_offset != 0)
    return bad<uint64_t>("wgmma descriptor: the base offset is not used without swizzling");
  const uint64_t mode = d.mode == swizzle::b128 ? 1 : d.mode == swizzle::b64 ? 2 : d.mode == swizzle::b32 ? 3 : 0;
  return {enc14(d.start_address) | enc14(d.lbo) << 16 | enc14(d.sbo) << 32 | uint64_t(d.base_offset) << 49 | mode << 62,
          nullptr};
}

TILEAPPLY_HD constexpr wgmma_smem decode_wgmma_smem(uint64_t v) {
  using detail::field;
  const uint32_t m = field(v, 62, 2);
  return {field(v, 0, 14) << 4, field(v, 16, 14) << 4, field(v, 32, 14) << 4, field(v, 49, 3),
          m == 1   ? swizzle::b128
          : m == 2 ? swizzle::b64
          : m == 3 ? swizzle::b32
                   : swizzle::none};
}

/// Replaces the start-address field of a descriptor (wgmma or tcgen05) with
/// `byte_address` (whose low 4 bits are dropped, as the ISA's encode does).
TILEAPPLY_HD constexpr uint64_t with_start_address(uint64_t desc, uint32_t byte_address) {
  return (desc & ~uint64_t(0x3FFF)) | detail::enc14(byte_address);
}

/// The descriptor `bytes` further on (a multiple of 16): its start-address
/// field plus bytes / 16, by one 32-bit add on the low word (the way a kernel
/// steps through k-blocks of a tile whose base descriptor it built once).
/// Equal to with_start_address(desc, start + bytes) as long as the new
/// address stays below 2^18 (the field's 14 bits); past that it would carry
/// into the reserved bits 14-15, so a caller checks its plan stays inside
/// (shared memory is at most 228 KiB, below 2^18).
TILEAPPLY_HD constexpr uint64_t advance(uint64_t desc, uint32_t bytes) {
  return (desc & ~uint64_t(0xFFFFFFFFu)) | uint32_t(uint32_t(desc) + (bytes >> 4));
}

// =============================================================================
// tcgen05 shared-memory descriptor (PTX ISA 9.7.16.4.1):
//   bits 0-13   matrix-descriptor-encode(start address)
//   bits 16-29  matrix-descriptor-encode(leading dimension byte offset), or of
//               the leading dimension absolute byte address (bit 52 = 1)
//   bits 32-45  matrix-descriptor-encode(stride dimension byte offset)
//   bits 46-48  fixed 0b001
//   bits 49-51  matrix base offset
//   bit  52     leading dimension stride mode: 0 relative offset, 1 absolute
//   bits 53-60  fixed 0
//   bits 61-63  swizzle: 0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B
// Absolute mode (9.7.16.3.1.2, sm_103a) requires 128B swizzle with 16B atoms,
// K-major operands (checked by the instruction descriptor) and base offset 0.
// =============================================================================

enum class lbo_mode : unsigned char { relative, absolute };

struct tcgen05_smem {
  uint32_t start_address;
  uint32_t lbo; ///< relative: byte offset; absolute: byte address
  uint32_t sbo;
  uint32_t base_offset;
  lbo_mode mode_lbo;
  swizzle mode;
};

TILEAPPLY_HD constexpr encoded<uint64_t> encode(const tcgen05_smem &d) {
  using namespace detail;
  if (!fits14(d.start_address))
    return bad<uint64_t>("tcgen05 descriptor: start address must be a multiple of 16 below 2^18");
  if (!fits14(d.lbo))
    return bad<uint64_t>("tcgen05 descriptor: leading byte offset/address must be a multiple of 16 below 2^18");
  if (!fits14(d.sbo))
    return bad<uint64_t>("tcgen05 descriptor: stride byte offset must be a multiple of 16 below 2^18");
  if (d.base_offset > 7) return bad<uint64_t>("tcgen05 descriptor: base offset is 3 bits (0 - 7)");
  if (d.mode_lbo == lbo_mode::absolute && d.mode != swizzle::b128)
    return bad<uint64_t>("tcgen05 descriptor: absolute leading-dimension mode needs 128B swizzle (16B atoms)");
  if (d.mode_lbo == lbo_mode::absolute && d.base_offset != 0)
    return bad<uint64_t>("tcgen05 descriptor: absolute leading-dimension mode needs base offset 0");
  const uint64_t mode = d.mode == swizzle::b128_atom32 ? 1
                        : d.mode == swizzle::b128      ? 2
                        : d.mode == swizzle::b64       ? 4
                        : d.mode == swizzle::b32       ? 6
                                                       : 0;
  return {enc14(d.start_address) | enc14(d.lbo) << 16 | enc14(d.sbo) << 32 | uint64_t(1) << 46 |
              uint64_t(d.base_offset) << 49 | uint64_t(d.mode_lbo == lbo_mode::absolute) << 52 | mode << 61,
          nullptr};
}

TILEAPPLY_HD constexpr tcgen05_smem decode_tcgen05_smem(uint64_t v) {
  using detail::field;
  const uint32_t m = field(v, 61, 3);
  return {field(v, 0, 14) << 4,
          field(v, 16, 14) << 4,
          field(v, 32, 14) << 4,
          field(v, 49, 3),
          field(v, 52, 1) ? lbo_mode::absolute : lbo_mode::relative,
          m == 1   ? swizzle::b128_atom32
          : m == 2 ? swizzle::b128
          : m == 4 ? swizzle::b64
          : m == 6 ? swizzle::b32
                   : swizzle::none};
}

/// Null when `v` has the fixed bits of a tcgen05 shared-memory descriptor and
/// a defined swizzle code; otherwise what is wrong.
TILEAPPLY_HD constexpr const char *check_tcgen05_smem(uint64_t v) {
  using detail::field;
  if (field(v, 46, 3) != 1) return "bits 46-48 must be 0b001";
  if (field(v, 53, 8) != 0) return "bits 53-60 must be 0";
  if (field(v, 14, 2) || field(v, 30, 2)) return "bits 14-15 and 30-31 are reserved (0)";
  const uint32_t m = field(v, 61, 3);
  if (m == 3 || m == 5 || m == 7) return "swizzle codes 3, 5 and 7 are invalid";
  return nullptr;
}

// =============================================================================
// tcgen05 instruction descriptor (PTX ISA 9.7.16.4.2, Instruction descriptor
// format; the tables for .kind::tf32/f16/f8f6f4/i8, .kind::mxf8f6f4 and
// .kind::mxf4/mxf4nvf4). Shapes are checked against Table 39 (9.7.16.2.1.
// "Matrix Shape"): M, N and K per kind, .cta_group, .ws and sparsity.
// =============================================================================

enum class kind : unsigned char { f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4 };
enum class scale_type : unsigned char { ue8m0, ue4m3 };

struct tcgen05_instr {
  kind k = kind::f16;
  type dtype = type::f32;
  type atype = type::f16, btype = type::f16;
  int m = 128, n = 128;
  bool sparse = false;
  int sparsity_selector = 0; ///< bits 0-1 (non-mx kinds, sparse)
  bool saturate = false;     ///< .kind::i8 only
  bool negate_a = false, negate_b = false;
  bool transpose_a = false, transpose_b = false; ///< 1 = MN-major
  int max_shift = 0;         ///< .ws B reuse: 0 none, 1 = 8, 2 = 16, 3 = 32
  // Shape context, checked against Table 39 but not encoded:
  int cta_group = 1;
  bool ws = false;
  // .kind::mx*:
  scale_type scale = scale_type::ue8m0;
  int scale_a_id = 0, scale_b_id = 0; ///< Matrix A/B scale factor data ID
  bool k96 = false;                   ///< mxf4 / mxf4nvf4: dense K = 96 (sm_103a)
};

namespace detail {

// 3-bit type codes of bits 7-9 / 10-12 per kind; -1 when not allowed.
TILEAPPLY_HD constexpr int ab_code(kind k, type t) {
  switch (k) {
  case kind::tf32: return t == type::tf32 ? 2 : -1;
  case kind::f16: return t == type::f16 ? 0 : t == type::bf16 ? 1 : -1;
  case kind::f8f6f4:
  case kind::mxf8f6f4:
    return t == type::e4m3   ? 0
           : t == type::e5m2 ? 1
           : t == type::e2m3 ? 3
           : t == type::e3m2 ? 4
           : t == type::e2m1 ? 5
                             : -1;
  case kind::i8: return t == type::u8 ? 0 : t == type::s8 ? 1 : -1;
  case kind::mxf4:
  case kind::mxf4nvf4: return t == type::e2m1 ? 1 : -1;
  }
  return -1;
}
// The type a 3-bit (or 2-bit) code of bits 7-9 / 10-12 stands for.
TILEAPPLY_HD constexpr type code_type(kind k, uint32_t c) {
  switch (k) {
  case kind::tf32: return type::tf32;
  case kind::f16: return c == 1 ? type::bf16 : type::f16;
  case kind::i8: return c == 1 ? type::s8 : type::u8;
  case kind::mxf4:
  case kind::mxf4nvf4: return type::e2m1;
  default: return c == 0 ? type::e4m3 : c == 1 ? type::e5m2 : c == 3 ? type::e2m3 : c == 4 ? type::e3m2 : type::e2m1;
  }
}
TILEAPPLY_HD constexpr bool mx(kind k) { return k == kind::mxf8f6f4 || k == kind::mxf4 || k == kind::mxf4nvf4; }

// Table 39 for (kind, cta_group, ws, sparse): null when M x N is listed.
TILEAPPLY_HD constexpr const char *shape_error(const tcgen05_instr &d) {
  const bool i8 = d.k == kind::i8;
  if (d.cta_group != 1 && d.cta_group != 2) return "tcgen05 instruction: .cta_group is 1 or 2";
  if (d.ws) {
    if (d.cta_group != 1) return "tcgen05 instruction: .ws exists only with .cta_group::1";
    if (mx(d.k)) return "tcgen05 instruction: the .kind::mx* forms have no .ws";
    if (d.m != 32 && d.m != 64 && d.m != 128) return "tcgen05 instruction: .ws has M = 32, 64 or 128";
    if (d.n != 64 && d.n != 128 && (d.n != 256 || d.sparse))
      return "tcgen05 instruction: .ws has N = 64, 128 or 256 (sparse: 64 or 128)";
    return nullptr;
  }
  if (d.cta_group == 1) {
    if (mx(d.k) ? d.m != 128 : (d.m != 64 && d.m != 128))
      return mx(d.k) ? "tcgen05 instruction: .kind::mx* with .cta_group::1 has M = 128"
                     : "tcgen05 instruction: .cta_group::1 has M = 64 or 128";
    if (i8) {
      if (d.n < 8 || d.n > 256 || d.n % 8 || (d.n > 32 && d.n % 16))
        return "tcgen05 instruction: .kind::i8 N is 8, 16, 24, 32, then steps of 16 to 256";
    } else if (d.n < 8 || d.n > 256 || d.n % 8)
      return "tcgen05 instruction: N is 8 ... 256 in steps of 8";
    return nullptr;
  }
  // .cta_group::2
  if (mx(d.k) && d.sparse ? d.m != 256 : (d.m != 128 && d.m != 256))
    return "tcgen05 instruction: .cta_group::2 has M = 128 or 256 (sparse .kind::mx*: 256)";
  if (i8 ? (d.n < 32 || d.n > 256 || d.n % 32) : (d.n < 16 || d.n > 256 || d.n % 16))
    return i8 ? "tcgen05 instruction: .kind::i8 with .cta_group::2 has N = 32 ... 256 in steps of 32"
              : "tcgen05 instruction: .cta_group::2 has N = 16 ... 256 in steps of 16";
  return nullptr;
}

} // namespace detail

TILEAPPLY_HD constexpr encoded<uint32_t> encode(const tcgen05_instr &d) {
  using namespace detail;
  const int a = ab_code(d.k, d.atype), b = ab_code(d.k, d.btype);
  if (a < 0) return bad<uint32_t>("tcgen05 instruction: atype is not a type of this .kind");
  if (b < 0) return bad<uint32_t>("tcgen05 instruction: btype is not a type of this .kind");
  if (const char *e = shape_error(d)) return bad<uint32_t>(e);
  if (d.negate_a || d.negate_b) {
    if (d.k == kind::i8) return bad<uint32_t>("tcgen05 instruction: .kind::i8 cannot negate");
  }
  if ((d.transpose_a || d.transpose_b) && (d.k == kind::mxf4 || d.k == kind::mxf4nvf4))
    return bad<uint32_t>("tcgen05 instruction: .kind::mxf4/mxf4nvf4 operands are K-major (no transpose)");
  if (d.max_shift < 0 || d.max_shift > 3) return bad<uint32_t>("tcgen05 instruction: max shift is 0 - 3");
  if (d.max_shift && !d.ws) return bad<uint32_t>("tcgen05 instruction: max shift is for .ws only");
  uint32_t v = uint32_t(d.sparse) << 2 | uint32_t(d.negate_a) << 13 | uint32_t(d.negate_b) << 14 |
               uint32_t(d.transpose_a) << 15 | uint32_t(d.transpose_b) << 16 | uint32_t(d.n >> 3) << 17;
  if (!mx(d.k)) {
    if (d.sparsity_selector < 0 || d.sparsity_selector > 3)
      return bad<uint32_t>("tcgen05 instruction: sparsity selector is 0 - 3");
    if (d.sparsity_selector && !d.sparse)
      return bad<uint32_t>("tcgen05 instruction: a sparsity selector needs sparsity");
    if (d.saturate && d.k != kind::i8) return bad<uint32_t>("tcgen05 instruction: saturate is for .kind::i8");
    int dt = -1;
    if (d.k == kind::i8)
      dt = d.dtype == type::s32 ? 2 : -1;
    else if (d.k == kind::tf32)
      dt = d.dtype == type::f32 ? 1 : -1;
    else
      dt = d.dtype == type::f32 ? 1 : d.dtype == type::f16 ? 0 : -1;
    if (dt < 0) return bad<uint32_t>("tcgen05 instruction: dtype is not a D type of this .kind");
    if (d.k == kind::f16 && dt == 0 && (a != 0 || b != 0))
      return bad<uint32_t>("tcgen05 instruction: an .f16 D takes .f16 A and B");
    if (d.m % 16 || (d.m >> 4) > 31) return bad<uint32_t>("tcgen05 instruction: M must be a multiple of 16");
    v |= uint32_t(d.sparsity_selector) | uint32_t(d.saturate) << 3 | uint32_t(dt) << 4 | uint32_t(a) << 7 |
         uint32_t(b) << 10 | uint32_t(d.m >> 4) << 24 | uint32_t(d.max_shift) << 30;
    if (d.scale_a_id || d.scale_b_id || d.k96)
      return bad<uint32_t>("tcgen05 instruction: scale factor IDs and K = 96 are for .kind::mx*");
    return {v, nullptr};
  }
  // .kind::mxf8f6f4, mxf4, mxf4nvf4
  if (d.dtype != type::f32) return bad<uint32_t>("tcgen05 instruction: .kind::mx* accumulates in .f32");
  if (d.sparsity_selector || d.saturate)
    return bad<uint32_t>("tcgen05 instruction: .kind::mx* has no sparsity selector or saturate field");
  if (d.scale == scale_type::ue4m3 && d.k != kind::mxf4nvf4)
    return bad<uint32_t>("tcgen05 instruction: .ue4m3 scales are for .kind::mxf4nvf4");
  const bool four = d.k != kind::mxf8f6f4;
  if (d.scale_a_id < 0 || d.scale_a_id > 3 || d.scale_b_id < 0 || d.scale_b_id > 3 ||
      (four && (d.scale_a_id % 2 || d.scale_b_id % 2)))
    return bad<uint32_t>("tcgen05 instruction: scale factor data ID is 0 - 3 (.kind::mxf4*: 0 or 2)");
  if (d.k96 && (!four || d.sparse || d.cta_group != 2 || d.m != 256))
    return bad<uint32_t>("tcgen05 instruction: K = 96 is dense .kind::mxf4* with .cta_group::2, M = 256");
  v |= uint32_t(d.scale_b_id) << 4 | uint32_t(a) << 7 | uint32_t(d.scale == scale_type::ue8m0) << 23 |
       uint32_t(d.m >> 7) << 27 | uint32_t(d.scale_a_id) << 29;
  v |= four ? (uint32_t(b) << 10 | uint32_t(d.k96) << 31) : uint32_t(b) << 10;
  if (d.max_shift) return bad<uint32_t>("tcgen05 instruction: max shift is for .ws only");
  return {v, nullptr};
}

TILEAPPLY_HD constexpr tcgen05_instr decode_tcgen05_instr(uint32_t v, kind k) {
  using detail::field;
  tcgen05_instr d;
  d.k = k;
  d.sparse = field(v, 2, 1);
  d.negate_a = field(v, 13, 1);
  d.negate_b = field(v, 14, 1);
  d.transpose_a = field(v, 15, 1);
  d.transpose_b = field(v, 16, 1);
  d.n = int(field(v, 17, 6)) << 3;
  d.atype = detail::code_type(k, field(v, 7, 3));
  if (!detail::mx(k)) {
    d.btype = detail::code_type(k, field(v, 10, 3));
    d.sparsity_selector = int(field(v, 0, 2));
    d.saturate = field(v, 3, 1);
    const uint32_t dt = field(v, 4, 2);
    d.dtype = dt == 2 ? type::s32 : dt == 1 ? type::f32 : type::f16;
    d.m = int(field(v, 24, 5)) << 4;
    d.max_shift = int(field(v, 30, 2));
  } else {
    const bool four = k != kind::mxf8f6f4;
    d.btype = detail::code_type(k, field(v, 10, four ? 2 : 3));
    d.dtype = type::f32;
    d.scale_b_id = int(field(v, 4, 2));
    d.scale = field(v, 23, 1) ? scale_type::ue8m0 : scale_type::ue4m3;
    d.m = int(field(v, 27, 2)) << 7;
    d.scale_a_id = int(field(v, 29, 2));
    d.k96 = four && field(v, 31, 1);
  }
  return d;
}

// =============================================================================
// tcgen05 zero-column mask descriptor (PTX ISA 9.7.16.4.3).
//   bits 0-31   start counts sc0 - sc3 (8 bits each)
//   bits 32-35  first spans fs0 - fs3
//   bit  39     non-zero mask
//   bits 40-47  skip span - 1     bits 48-55  use span - 1
//   bits 56-61  column shift (at most 16 for M = 32, 32 otherwise)
// =============================================================================

// The ISA's field table describes "skip span" as the run of columns where B
// is used and "use span" as the run of zeroed columns; its examples read the
// other way round. The encoder stores each count - 1 in the field of that
// name and does not interpret them.
struct tcgen05_zero_mask {
  uint32_t start_count[4];
  bool first_span[4];
  bool non_zero_mask;
  uint32_t skip_span; ///< the "Skip Span" field + 1 (1 - 256 columns)
  uint32_t use_span;  ///< the "Use Span" field + 1 (1 - 256 columns)
  uint32_t column_shift;
};

TILEAPPLY_HD constexpr encoded<uint64_t> encode(const tcgen05_zero_mask &z) {
  using namespace detail;
  uint64_t v = 0;
  for (int i = 0; i < 4; ++i) {
    if (z.start_count[i] > 255) return bad<uint64_t>("zero-column mask: start counts are 8 bits");
    v |= uint64_t(z.start_count[i]) << (8 * i) | uint64_t(z.first_span[i]) << (32 + i);
  }
  if (z.skip_span < 1 || z.skip_span > 256 || z.use_span < 1 || z.use_span > 256)
    return bad<uint64_t>("zero-column mask: skip and use spans count 1 - 256 columns");
  if (z.column_shift > 32) return bad<uint64_t>("zero-column mask: column shift is at most 32 (16 for M = 32)");
  v |= uint64_t(z.non_zero_mask) << 39 | uint64_t(z.skip_span - 1) << 40 | uint64_t(z.use_span - 1) << 48 |
       uint64_t(z.column_shift) << 56;
  return {v, nullptr};
}

TILEAPPLY_HD constexpr tcgen05_zero_mask decode_tcgen05_zero_mask(uint64_t v) {
  using detail::field;
  tcgen05_zero_mask z{};
  for (int i = 0; i < 4; ++i) {
    z.start_count[i] = field(v, 8 * i, 8);
    z.first_span[i] = field(v, 32 + i, 1);
  }
  z.non_zero_mask = field(v, 39, 1);
  z.skip_span = field(v, 40, 8) + 1;
  z.use_span = field(v, 48, 8) + 1;
  z.column_shift = field(v, 56, 6);
  return z;
}

// =============================================================================
// Canonical shared-memory layouts (PTX ISA 9.7.15.5.1.2.1 for wgmma and
// 9.7.16.3.3 for tcgen05: the same table, "Canonical Layouts"). In CuTe
// notation, with T = 128 / element bits (elements per 16 bytes), LBO and SBO
// in elements:
//
//   MN-major, none:  ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
//   MN-major, 32B:   ((T,2,m),(8,k)) : ((1,T,LBO),(2T,SBO))
//   MN-major, 64B:   ((T,4,m),(8,k)) : ((1,T,LBO),(4T,SBO))
//   MN-major, 128B:  ((T,8,m),(8,k)) : ((1,T,LBO),(8T,SBO))
//   K-major,  none:  ((8,m),(T,2k))  : ((1T,SBO),(1,LBO))
//   K-major,  32B:   ((8,m),(T,2k))  : ((2T,SBO),(1,T))
//   K-major,  64B:   ((8,m),(T,2k))  : ((4T,SBO),(1,T))
//   K-major,  128B:  ((8,m),(T,2k))  : ((8T,SBO),(1,T))
//
// followed by Swizzle<B,4,3> on the byte address (B = 0, 1, 2, 3 for none,
// 32B, 64B, 128B): bits [4, 4+B) ^= bits [7, 7+B). The LBO / SBO meanings are
// the ISA's "Leading dimension byte offset" and "Stride dimension byte
// offset" tables (9.7.15.5.1.2.1; tcgen05: 9.7.16.3.1.1 and 9.7.16.3.2):
//
//   K-major:   LBO: no swizzle: from the first to the second 16-byte column of
//                   the 8 x 2 core-matrix tile; swizzled: unused ("assumed 1").
//              SBO: from the first 8 rows to the next 8 rows.
//   MN-major:  LBO: interleave: from the first 8 K-columns to the next 8;
//                   swizzled: from one swizzle-span of MN to the next.
//              SBO: interleave: from the first MN row (16 bytes) to the next;
//                   swizzled: from the first 8 K-columns to the next 8.
// =============================================================================

enum class major : unsigned char { k, mn };

/// Swizzle<B,4,3> of a shared-memory byte address (the hardware applies it to
/// the absolute address; a pattern repeats every 8 spans: 256, 512 or 1024
/// bytes). b128_atom32 is not modelled: the address comes back unchanged.
TILEAPPLY_HD constexpr uint32_t swizzle_address(swizzle s, uint32_t a) {
  const uint32_t b = s == swizzle::b32 ? 1 : s == swizzle::b64 ? 2 : s == swizzle::b128 ? 3 : 0;
  const uint32_t mask = ((1u << b) - 1) << 7;
  return a ^ ((a & mask) >> 3);
}

/// The canonical layout for one (major-ness, swizzle, element size).
struct canonical {
  major mj;
  swizzle sw;
  uint32_t elem_bits;
  const char *error;

  TILEAPPLY_HD constexpr bool ok() const { return error == nullptr; }
  /// Elements per 16 bytes (the ISA's T).
  TILEAPPLY_HD constexpr uint32_t t() const { return 128 / elem_bits; }
  /// Bit offset, before swizzling, of element (mn, k) from the matrix start,
  /// for leading / stride byte offsets `lbo`, `sbo`. K-major swizzled layouts
  /// are defined for k below one swizzle span (span * 8 / elem_bits).
  TILEAPPLY_HD constexpr uint64_t offset_bits(uint32_t mn, uint32_t k, uint32_t lbo, uint32_t sbo) const {
    const uint64_t T = t(), span = swizzle_bytes(sw), L = lbo, S = sbo;
    if (mj == major::k) {
      const uint64_t row = mn % 8 * (sw == swizzle::none ? 16 : span) + mn / 8 * S; // bytes
      const uint64_t col = k / T * (sw == swizzle::none ? L : 16);                   // bytes
      return (row + col) * 8 + k % T * elem_bits;
    }
    if (sw == swizzle::none) return (mn / T * S + k % 8 * 16 + k / 8 * L) * 8 + mn % T * elem_bits;
    const uint64_t chunks = span / 16; // 16-byte chunks of MN per span
    return (mn / T % chunks * 16 + mn / (T * chunks) * L + k % 8 * span + k / 8 * S) * 8 + mn % T * elem_bits;
  }
  /// Byte offset (of the byte holding the element), before swizzling.
  TILEAPPLY_HD constexpr uint32_t offset(uint32_t mn, uint32_t k, uint32_t lbo, uint32_t sbo) const {
    return uint32_t(offset_bits(mn, k, lbo, sbo) / 8);
  }
};

TILEAPPLY_HD constexpr canonical canonical_layout(major mj, swizzle sw, uint32_t elem_bits) {
  if (elem_bits != 4 && elem_bits != 8 && elem_bits != 16 && elem_bits != 32 && elem_bits != 64)
    return {mj, sw, 16, "canonical layout: element size is 4, 8, 16, 32 or 64 bits"};
  if (sw == swizzle::b128_atom32)
    return {mj, sw, elem_bits, "canonical layout: 128B swizzle with 32B atoms is not modelled"};
  return {mj, sw, elem_bits, nullptr};
}

/// A densely packed tile of `tile_mn` x `tile_k` elements in the canonical
/// layout: swizzle atoms (or 8 x 16-byte core matrices without swizzling) are
/// placed MN-first, then along K, as in the ISA's examples. lbo and sbo are
/// what the descriptor takes for the tile's first K block; offset(mn, k) is
/// the byte offset, before swizzling, of any element of the whole tile (for
/// K-major swizzled tiles wider than one span, each further span-wide column
/// of atoms follows the previous one: start a descriptor there).
struct packed {
  canonical layout;
  uint32_t tile_mn, tile_k;
  uint32_t lbo, sbo;
  const char *error;

  TILEAPPLY_HD constexpr bool ok() const { return error == nullptr; }
  TILEAPPLY_HD constexpr uint32_t bytes() const { return uint32_t(uint64_t(tile_mn) * tile_k * layout.elem_bits / 8); }
  TILEAPPLY_HD constexpr uint32_t offset(uint32_t mn, uint32_t k) const {
    if (layout.mj == major::k && layout.sw != swizzle::none) {
      const uint32_t span_elems = swizzle_bytes(layout.sw) * 8 / layout.elem_bits;
      const uint32_t column = k / span_elems; // which column of atoms
      return column * tile_mn * swizzle_bytes(layout.sw) + layout.offset(mn, k % span_elems, lbo, sbo);
    }
    return layout.offset(mn, k, lbo, sbo);
  }
};

TILEAPPLY_HD constexpr packed packed_tile(major mj, swizzle sw, uint32_t elem_bits, uint32_t tile_mn, uint32_t tile_k) {
  const canonical c = canonical_layout(mj, sw, elem_bits);
  packed p{c, tile_mn, tile_k, 0, 0, c.error};
  if (!c.ok()) return p;
  const uint32_t T = c.t(), span = swizzle_bytes(sw);
  const uint32_t mn_bytes = uint32_t(uint64_t(tile_mn) * elem_bits / 8);
  const uint32_t k_bytes = uint32_t(uint64_t(tile_k) * elem_bits / 8);
  if (tile_mn == 0 || tile_k == 0) return p.error = "packed tile: empty tile", p;
  if (mj == major::k) {
    if (tile_mn % 8) return p.error = "packed tile: K-major MN extent must be a multiple of 8 rows", p;
    if (sw == swizzle::none) {
      if (tile_k % T) return p.error = "packed tile: K-major K extent must be a multiple of 16 bytes", p;
      p.sbo = 128;                // the next 8 rows: the next core matrix
      p.lbo = tile_mn / 8 * 128;  // the next 16 bytes of K: past a whole column of core matrices
    } else {
      if (k_bytes % span) return p.error = "packed tile: K-major swizzled K extent must be whole spans", p;
      p.sbo = 8 * span; // 8 rows of one span each
      p.lbo = 16;       // unused by the hardware ("assumed 1" encoded)
    }
  } else {
    if (tile_k % 8) return p.error = "packed tile: MN-major K extent must be a multiple of 8", p;
    if (sw == swizzle::none) {
      if (tile_mn % T) return p.error = "packed tile: MN-major MN extent must be a multiple of 16 bytes", p;
      p.sbo = 128;               // the next 16 bytes of MN: the next core matrix
      p.lbo = mn_bytes / 16 * 128; // the next 8 K: past a whole column of core matrices
    } else {
      if (mn_bytes % span) return p.error = "packed tile: MN-major swizzled MN extent must be whole spans", p;
      p.lbo = 8 * span;               // the next span of MN: the next atom
      p.sbo = mn_bytes / span * 8 * span; // the next 8 K: past a whole row of atoms
    }
  }
  if (p.lbo >= (1u << 18) || p.sbo >= (1u << 18))
    return p.error = "packed tile: the tile is too large for a 14-bit LBO/SBO", p;
  (void)k_bytes;
  return p;
}

} // namespace desc
} // namespace tile

#endif // TILEAPPLY_DESCRIPTOR_H
