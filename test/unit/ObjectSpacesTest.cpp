//===- ObjectSpacesTest.cpp - Which variable fits which operand (issue 17) ===//
#include "tileapply/core/ObjectSpaces.h"
#include "gtest/gtest.h"

using namespace tileapply;

namespace {

ArgDesc tensor(tileapply_kind K, Space Sp) {
  ArgDesc A;
  A.Kind = K;
  A.Elem = TILEAPPLY_DT_F32;
  A.Sp = Sp;
  A.Extents = {4, 1};
  A.Strides = {1, 1};
  A.Storage = 4;
  return A;
}

/// The code checkObject reports, or nullopt when it accepts.
std::optional<DiagCode> verdict(tileapply_kind K, Space Sp, ObjectKind O) {
  std::optional<Problem> P = checkObject("ld.global.f32", tensor(K, Sp), 1, KnownObject{O, "x"});
  if (!P) return std::nullopt;
  EXPECT_EQ(P->Arg, 1);
  return P->Code;
}

constexpr ObjectKind AllKinds[] = {ObjectKind::Shared,   ObjectKind::Device,    ObjectKind::Managed,
                                   ObjectKind::Constant, ObjectKind::Constexpr, ObjectKind::Local};

TEST(ObjectSpaces, ViewMustNameItsVariablesSpace) {
  struct Row {
    Space View;
    ObjectKind Fits[2];
    int NumFits;
  } Rows[] = {
      {TILEAPPLY_SPACE_GLOBAL, {ObjectKind::Device, ObjectKind::Managed}, 2},
      {TILEAPPLY_SPACE_SHARED, {ObjectKind::Shared}, 1},
      {TILEAPPLY_SPACE_SHARED_CLUSTER, {ObjectKind::Shared}, 1},
      {TILEAPPLY_SPACE_LOCAL, {ObjectKind::Local}, 1},
      {TILEAPPLY_SPACE_CONST, {ObjectKind::Constant, ObjectKind::Constexpr}, 2},
  };
  for (const Row &R : Rows)
    for (ObjectKind O : AllKinds) {
      bool Fits = false;
      for (int I = 0; I < R.NumFits; ++I) Fits |= R.Fits[I] == O;
      std::optional<DiagCode> V = verdict(TILEAPPLY_KIND_MEMORY, R.View, O);
      if (Fits)
        EXPECT_FALSE(V) << spaceName(R.View).str() << " " << int(O);
      else
        EXPECT_EQ(V, DiagCode::ViewOverOtherSpace) << spaceName(R.View).str() << " " << int(O);
    }
}

TEST(ObjectSpaces, GenericTakesAnyVariable) {
  for (ObjectKind O : AllKinds) EXPECT_FALSE(verdict(TILEAPPLY_KIND_MEMORY, TILEAPPLY_SPACE_GENERIC, O));
}

TEST(ObjectSpaces, RegisterTensorsAreThreadOwned) {
  for (tileapply_kind K : {TILEAPPLY_KIND_REGISTER, TILEAPPLY_KIND_PRED_TENSOR})
    for (ObjectKind O : AllKinds) {
      std::optional<DiagCode> V = verdict(K, TILEAPPLY_SPACE_NONE, O);
      if (O == ObjectKind::Local || O == ObjectKind::Constexpr)
        EXPECT_FALSE(V) << int(O);
      else
        EXPECT_EQ(V, DiagCode::RegisterTensorInMemory) << int(O);
    }
}

TEST(ObjectSpaces, ScalarsAreNotChecked) {
  ArgDesc A;
  A.Kind = TILEAPPLY_KIND_SCALAR;
  EXPECT_FALSE(checkObject("add.f32", A, 0, KnownObject{ObjectKind::Shared, "s"}));
}

TEST(ObjectSpaces, MessageNamesOperandVariableAndFix) {
  std::optional<Problem> P = checkObject("ld.global.f32", tensor(TILEAPPLY_KIND_MEMORY, TILEAPPLY_SPACE_GLOBAL), 1,
                                         KnownObject{ObjectKind::Shared, "s"});
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Message, "operand 2 of 'ld.global.f32' is a tile::global view of 's', which is a "
                        "__shared__ variable; use tile::shared<...>(s) with an opcode for shared memory "
                        "(such as ld.shared), or tile::generic<...>(s) with one that names no state space");
  // Without a name (a local variable in IR without debug information).
  P = checkObject("ld.shared.f32", tensor(TILEAPPLY_KIND_MEMORY, TILEAPPLY_SPACE_SHARED), 0,
                  KnownObject{ObjectKind::Local, ""});
  ASSERT_TRUE(P);
  EXPECT_NE(P->Message.find("of a variable, which is a local variable"), std::string::npos) << P->Message;
}

} // namespace
