//===- Arguments.cpp - Decoding the layout array, and indexing ------------===//
#include "tileapply/core/Arguments.h"
#include "tileapply/core/Diagnostics.h"
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
  auto Err = [](Text T, std::initializer_list<std::string> Args = {}) {
    return createStringError(inconvertibleErrorCode(), text(Text::LayoutArray, {text(T, Args)}));
  };
  auto S = [](int64_t V) { return std::to_string(V); };
  if (W.size() < 2)
    return Err(Text::LayoutShort);
  if (W[0] != TILEAPPLY_LAYOUT_VERSION)
    return Err(Text::LayoutVersion, {S(W[0]), S(TILEAPPLY_LAYOUT_VERSION)});
  // More arguments than a call may have is the user's mistake, not a broken
  // layout: say it the way the plugin does.
  if (W[1] > MaxArgs)
    return createStringError(std::make_error_code(std::errc::argument_list_too_long),
                             text(Text::TooManyOperands, {S(MaxArgs), S(W[1])}));
  if (W[1] < 0)
    return Err(Text::LayoutArgCount, {S(W[1])});
  std::vector<ArgDesc> Args;
  size_t At = 2;
  for (int32_t A = 0; A < W[1]; ++A) {
    if (At + 5 > W.size())
      return Err(Text::LayoutTruncated, {S(A)});
    ArgDesc D;
    int32_t Kind = W[At] & TILEAPPLY_KIND_MASK;
    if (Kind > TILEAPPLY_KIND_PRESERVE_DST)
      return Err(Text::LayoutKind, {S(A), S(Kind)});
    if (W[At] & ~(TILEAPPLY_KIND_MASK | TILEAPPLY_QUAL_CONST | TILEAPPLY_QUAL_NEGATE))
      return Err(Text::LayoutQualifiers, {S(A)});
    D.Kind = static_cast<tileapply_kind>(Kind);
    D.IsConst = W[At] & TILEAPPLY_QUAL_CONST;
    D.Negated = W[At] & TILEAPPLY_QUAL_NEGATE;
    if (W[At + 1] < 0 || W[At + 1] > TILEAPPLY_DT_LAST)
      return Err(Text::LayoutDType, {S(A), S(W[At + 1])});
    D.Elem = static_cast<DType>(W[At + 1]);
    if (W[At + 2] < 0 || W[At + 2] > TILEAPPLY_SPACE_LAST)
      return Err(Text::LayoutSpace, {S(A), S(W[At + 2])});
    D.Sp = static_cast<Space>(W[At + 2]);
    if (W[At + 3] < 0)
      return Err(Text::LayoutStorage, {S(A)});
    if (D.Kind == TILEAPPLY_KIND_UNSUPPORTED)
      D.Why = W[At + 3] <= TILEAPPLY_UNSUPPORTED_LAST
                  ? static_cast<tileapply_unsupported>(W[At + 3])
                  : TILEAPPLY_UNSUPPORTED_TYPE;
    else
      D.Storage = W[At + 3];
    int32_t Rank = W[At + 4];
    if (Rank < 0 || Rank > MaxRank)
      return Err(Text::LayoutRank, {S(A), S(Rank), S(MaxRank)});
    At += 5;
    if (At + 2 * size_t(Rank) > W.size())
      return Err(Text::LayoutTruncated, {S(A)});
    for (int32_t I = 0; I < Rank; ++I) {
      // Empty or huge shapes are the rules' business (checkCall reports them
      // at the argument); only a negative extent is a malformed record.
      int32_t E = W[At + I];
      if (E < 0)
        return Err(Text::LayoutExtent, {S(A), S(E), S(I)});
      D.Extents.push_back(E);
    }
    for (int32_t I = 0; I < Rank; ++I)
      D.Strides.push_back(W[At + Rank + I]);
    At += 2 * size_t(Rank);
    bool Shaped = D.isShaped();
    if (!Shaped && Rank != 0)
      return Err(Text::LayoutShapeOfScalar, {S(A)});
    Args.push_back(std::move(D));
  }
  if (At != W.size())
    return Err(W.size() - At == 1 ? Text::LayoutTrailingWord : Text::LayoutTrailingWords,
               {S(W.size() - At)});
  return Args;
}

int64_t elementOffset(const ArgDesc &A, ArrayRef<int64_t> RepeatExtents, int64_t Repeat,
                      int64_t Group) {
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
