//===- Arguments.cpp - Decoding the layout array, and indexing ------------===//
#include "tileapply/core/Arguments.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace tileapply {

std::string listString(ArrayRef<int64_t> V) {
  std::string S = "[";
  for (unsigned I = 0; I < V.size(); ++I)
    S += (I ? ", " : "") + std::to_string(V[I]);
  return S + "]";
}

std::string ArgDesc::shapeString() const { return listString(Extents); }

Expected<std::vector<ArgDesc>> decodeLayout(ArrayRef<int32_t> W) {
  auto Err = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), "layout array: " + Msg);
  };
  if (W.size() < 2)
    return Err("shorter than its header");
  if (W[0] != TILEAPPLY_LAYOUT_VERSION)
    return Err("version " + Twine(W[0]) + ", expected " + Twine(TILEAPPLY_LAYOUT_VERSION));
  if (W[1] < 0 || W[1] > 64)
    return Err("argument count " + Twine(W[1]) + " out of range");
  std::vector<ArgDesc> Args;
  size_t At = 2;
  for (int32_t A = 0; A < W[1]; ++A) {
    if (At + 5 > W.size())
      return Err("record " + Twine(A) + " is truncated");
    ArgDesc D;
    int32_t Kind = W[At] & TILEAPPLY_KIND_MASK;
    if (Kind > TILEAPPLY_KIND_PRESERVE_DST)
      return Err("record " + Twine(A) + " has unknown kind " + Twine(Kind));
    if (W[At] & ~(TILEAPPLY_KIND_MASK | TILEAPPLY_QUAL_CONST | TILEAPPLY_QUAL_NEGATE))
      return Err("record " + Twine(A) + " has unknown qualifier bits");
    D.Kind = static_cast<tileapply_kind>(Kind);
    D.IsConst = W[At] & TILEAPPLY_QUAL_CONST;
    D.Negated = W[At] & TILEAPPLY_QUAL_NEGATE;
    if (W[At + 1] < 0 || W[At + 1] > TILEAPPLY_DT_LAST)
      return Err("record " + Twine(A) + " has unknown dtype " + Twine(W[At + 1]));
    D.Elem = static_cast<DType>(W[At + 1]);
    if (W[At + 2] < 0 || W[At + 2] > TILEAPPLY_SPACE_LAST)
      return Err("record " + Twine(A) + " has unknown state space " + Twine(W[At + 2]));
    D.Sp = static_cast<Space>(W[At + 2]);
    if (W[At + 3] < 0)
      return Err("record " + Twine(A) + " has a negative storage size");
    D.Storage = W[At + 3];
    int32_t Rank = W[At + 4];
    if (Rank < 0 || Rank > MaxRank)
      return Err("record " + Twine(A) + " has rank " + Twine(Rank) + " (at most " +
                 Twine(MaxRank) + ")");
    At += 5;
    if (At + 2 * size_t(Rank) > W.size())
      return Err("record " + Twine(A) + " is truncated");
    for (int32_t I = 0; I < Rank; ++I) {
      // Empty or huge shapes are the rules' business (checkCall reports them
      // at the argument); only a negative extent is a malformed record.
      int32_t E = W[At + I];
      if (E < 0)
        return Err("record " + Twine(A) + " has extent " + Twine(E) + " on axis " + Twine(I));
      D.Extents.push_back(E);
    }
    for (int32_t I = 0; I < Rank; ++I)
      D.Strides.push_back(W[At + Rank + I]);
    At += 2 * size_t(Rank);
    bool Shaped = D.isShaped();
    if (!Shaped && Rank != 0)
      return Err("record " + Twine(A) + " is not a tensor but has a shape");
    Args.push_back(std::move(D));
  }
  if (At != W.size())
    return Err(Twine(W.size() - At) + (W.size() - At == 1 ? " word" : " words") +
               " past the last record");
  return Args;
}

int64_t elementOffset(const ArgDesc &A, ArrayRef<int64_t> RepeatExtents,
                      int64_t Repeat, int64_t Group) {
  if (!A.isShaped() || A.Extents.empty())
    return 0;
  int64_t Off = Group * A.Strides.back();
  // Row-major: the last repeat axis varies fastest.
  for (int Ax = static_cast<int>(RepeatExtents.size()) - 1; Ax >= 0; --Ax) {
    int64_t E = RepeatExtents[Ax];
    int64_t Idx = Repeat % E;
    Repeat /= E;
    if (static_cast<size_t>(Ax) < A.Strides.size() - 1)
      Off += Idx * A.Strides[Ax];
  }
  return Off;
}

} // namespace tileapply
