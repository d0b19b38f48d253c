//===- FuzzInput.h - One fuzz input as a __tile_apply call ------*- C++ -*-===//
//
// Both fuzz targets read their bytes the same way, so one seed corpus format
// serves both (test/fuzz/README.md has the byte layout):
//
//   u8 mode
//     bit 0  opcode: a u16 index into every table form (1) or a NUL-ended
//            spelling of up to 96 bytes (0)
//     bit 1  layout: raw little-endian i32 words, a u16 count first (1), or
//            records generated from the form's operands and mutated (0)
//     bits 2-7  free for the target (IR shape choices in fuzz-pass)
//   opcode, layout, then the rest: choices the target reads with next*().
//
// Reading past the end yields zeros, never fails: every byte string is an
// input.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_FUZZ_FUZZINPUT_H
#define TILEAPPLY_FUZZ_FUZZINPUT_H

#include "tileapply/abi.h"
#include "tileapply/core/CallRules.h"
#include "tileapply/core/Immediates.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/PtxTypes.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace tileapply {
namespace fuzz {

/// Aborts with a message: libFuzzer records the input as a crash.
[[noreturn]] inline void fail(const std::string &Why) {
  std::fprintf(stderr, "tileapply fuzz invariant broken: %s\n", Why.c_str());
  std::abort();
}
#define TA_FUZZ_CHECK(Cond, Msg)                                                                   \
  do {                                                                                             \
    if (!(Cond))                                                                                   \
      ::tileapply::fuzz::fail(std::string(#Cond ": ") + (Msg));                                    \
  } while (0)

class Bytes {
public:
  Bytes(const uint8_t *D, size_t N) : D(D), N(N) {}
  uint8_t u8() { return At < N ? D[At++] : 0; }
  uint16_t u16() {
    uint16_t L = u8();
    return L | uint16_t(u8()) << 8;
  }
  uint32_t u32() {
    uint32_t L = u16();
    return L | uint32_t(u16()) << 16;
  }
  uint64_t u64() {
    uint64_t L = u32();
    return L | uint64_t(u32()) << 32;
  }
  bool flag() { return u8() & 1; }
  /// A value in [0, Bound) (0 when Bound is 0).
  unsigned below(unsigned Bound) { return Bound ? u8() % Bound : 0; }
  bool empty() const { return At >= N; }
  /// Bytes up to a NUL (consumed) or the end, at most Max.
  std::string cstr(size_t Max) {
    std::string S;
    while (At < N && S.size() < Max) {
      char C = static_cast<char>(D[At++]);
      if (C == '\0')
        break;
      S.push_back(C);
    }
    return S;
  }

private:
  const uint8_t *D;
  size_t N;
  size_t At = 0;
};

/// Every canonical spelling of the table, in table order (computed once).
inline const std::vector<std::string> &allSpellings() {
  static const std::vector<std::string> All = [] {
    std::vector<std::string> V;
    OpcodeTable::get().forEachForm([&](const Form &F) { V.push_back(F.Spelling); });
    return V;
  }();
  return All;
}

/// A carrier dtype that `T` accepts, picked by `Pick` (or any dtype if none).
inline DType carrierFor(PtxType T, unsigned Pick) {
  std::vector<DType> Ok;
  for (int D = 1; D <= TILEAPPLY_DT_LAST; ++D)
    if (carrierMatches(static_cast<DType>(D), T))
      Ok.push_back(static_cast<DType>(D));
  if (Ok.empty())
    return static_cast<DType>(1 + Pick % TILEAPPLY_DT_LAST);
  return Ok[Pick % Ok.size()];
}

struct Record {
  int32_t Kind = TILEAPPLY_KIND_REGISTER; // may carry TILEAPPLY_QUAL_CONST
  int32_t DType = TILEAPPLY_DT_U32;
  int32_t Space = TILEAPPLY_SPACE_NONE;
  int32_t Storage = 0;
  std::vector<int32_t> Extents, Strides;
};

inline void encode(const std::vector<Record> &Rs, std::vector<int32_t> &W) {
  W = {TILEAPPLY_LAYOUT_VERSION, static_cast<int32_t>(Rs.size())};
  for (const Record &R : Rs) {
    W.insert(W.end(),
             {R.Kind, R.DType, R.Space, R.Storage, static_cast<int32_t>(R.Extents.size())});
    W.insert(W.end(), R.Extents.begin(), R.Extents.end());
    W.insert(W.end(), R.Strides.begin(), R.Strides.end());
  }
}

/// Dense row-major strides and the element count of `R`'s shape.
inline void makeDense(Record &R) {
  R.Strides.assign(R.Extents.size(), 1);
  int64_t N = 1;
  for (size_t I = R.Extents.size(); I-- > 0;) {
    R.Strides[I] = static_cast<int32_t>(N);
    N *= R.Extents[I];
  }
  R.Storage = static_cast<int32_t>(N);
}

/// A (mostly well-formed) layout for `F`: one record per operand, with a
/// shared repeat shape, then perhaps options; some records mutated.
inline std::vector<Record> generateRecords(const Form *F, Bytes &In) {
  std::vector<Record> Rs;
  std::vector<int32_t> Repeat;
  unsigned RepeatRank = In.below(3);
  for (unsigned I = 0; I < RepeatRank; ++I)
    Repeat.push_back(1 + In.below(4));
  unsigned NumOps = F ? F->Operands.size() : In.below(5);
  for (unsigned Op = 0; Op < NumOps; ++Op) {
    uint8_t C = In.u8();
    Record R;
    PtxType T = F ? F->Operands[Op].Type : PtxType::b32;
    unsigned Regs = F ? F->Operands[Op].Regs : 1;
    Dir D = F ? F->Operands[Op].Direction : Dir::Read;
    R.DType = carrierFor(T, C >> 4);
    if (D == Dir::Addr) {
      R.Kind = TILEAPPLY_KIND_MEMORY;
      R.Space = F->Operands[Op].AddrSpace;
      if (!F->Operands[Op].WritesMemory)
        R.Kind |= TILEAPPLY_QUAL_CONST;
    } else if ((D == Dir::Read && (C & 1)) ||
               (D != Dir::Read && D != Dir::Write && D != Dir::ReadWrite)) {
      // A source as a scalar, and an operand PTX takes as an immediate.
      R.Kind = TILEAPPLY_KIND_SCALAR;
    } else {
      R.Kind = TILEAPPLY_KIND_REGISTER;
    }
    if (R.Kind != TILEAPPLY_KIND_SCALAR) {
      R.Extents = Repeat;
      R.Extents.push_back(static_cast<int32_t>(Regs));
      makeDense(R);
      if (C & 2) // a memory tensor known only by its pointer
        R.Storage = (R.Kind & TILEAPPLY_KIND_MASK) == TILEAPPLY_KIND_MEMORY ? 0 : R.Storage;
    }
    Rs.push_back(std::move(R));
  }
  // Options: tile::pred(bool), tile::pred(tensor), then tile::preserve_dst.
  uint8_t Opt = In.u8();
  if (Opt & 1) {
    Record P;
    P.Kind = TILEAPPLY_KIND_PRED_SCALAR;
    P.DType = TILEAPPLY_DT_BOOL;
    Rs.push_back(P);
  } else if (Opt & 2) {
    Record P;
    P.Kind = TILEAPPLY_KIND_PRED_TENSOR;
    P.DType = (Opt & 4) ? TILEAPPLY_DT_BOOL : TILEAPPLY_DT_U32;
    P.Extents = Repeat;
    P.Extents.push_back(1);
    makeDense(P);
    Rs.push_back(P);
  }
  if (Opt & 8) {
    Record P;
    P.Kind = TILEAPPLY_KIND_PRESERVE_DST;
    Rs.push_back(P);
  }
  // Mutations: each one changes one word of one record.
  unsigned NumMut = In.below(4);
  for (unsigned M = 0; M < NumMut && !Rs.empty(); ++M) {
    Record &R = Rs[In.below(Rs.size())];
    uint8_t What = In.u8();
    int32_t V = static_cast<int8_t>(In.u8()); // small, sometimes negative
    switch (What % 9) {
    case 0: R.Kind = static_cast<int32_t>(In.u16()) & 0x1ff; break;
    case 1: R.DType = V & 0x1f; break;
    case 2: R.Space = V & 7; break;
    case 3: R.Storage += V; break;
    case 4:
      if (!R.Extents.empty())
        R.Extents[In.below(R.Extents.size())] = V;
      break;
    case 5:
      if (!R.Strides.empty())
        R.Strides[In.below(R.Strides.size())] = V;
      break;
    case 6:
      R.Extents.push_back(1 + (V & 3));
      R.Strides.push_back(V);
      break;
    case 7:
      if (!R.Extents.empty()) {
        R.Extents.pop_back();
        R.Strides.pop_back();
      }
      break;
    case 8: std::swap(R, Rs[In.below(Rs.size())]); break;
    }
  }
  // Optional operands (setp's q) may be left out: drop a trailing operand.
  if (In.below(8) == 7 && NumOps > 0 && Rs.size() >= NumOps) {
    Rs.erase(Rs.begin() + (NumOps - 1));
  }
  return Rs;
}

/// The call an input describes: the opcode spelling and the layout words.
struct CallInput {
  uint8_t Mode = 0;
  std::string Opcode;
  std::vector<int32_t> Words;
};

inline CallInput readCall(Bytes &In) {
  CallInput C;
  C.Mode = In.u8();
  const std::vector<std::string> &All = allSpellings();
  if (C.Mode & 1)
    C.Opcode = All[In.u16() % All.size()];
  else
    C.Opcode = In.cstr(96);
  if (C.Mode & 2) {
    unsigned N = In.u16() % 512;
    for (unsigned I = 0; I < N && !In.empty(); ++I)
      C.Words.push_back(static_cast<int32_t>(In.u32()));
  } else {
    LookupResult L = OpcodeTable::get().lookup(C.Opcode);
    encode(generateRecords(L ? &*L.Found : nullptr, In), C.Words);
  }
  return C;
}

/// Whether the decoded call would expand into more instructions than a fuzz
/// iteration should spend time on (the rules allow 2^16 per tensor).
inline bool tooBigToExpand(const std::vector<ArgDesc> &Args) {
  for (const ArgDesc &A : Args) {
    int64_t N = 1;
    for (int64_t E : A.Extents)
      N = std::min<int64_t>(N * E, int64_t(1) << 30);
    if (N > 4096)
      return true;
  }
  return false;
}

} // namespace fuzz
} // namespace tileapply

#endif
