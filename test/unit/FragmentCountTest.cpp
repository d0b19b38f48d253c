//===- FragmentCountTest.cpp - the table's fragment sizes vs fragment.h ---===//
//
// A matrix operand's register count is written twice: in the rows of
// core/ptx/matrix.def (what the plugin checks a call against) and in the
// runtime's tile::frag layouts (what host and device code place data with).
// The compiler does not include fragment.h, so nothing but this test keeps the
// two equal. For every form of mma, mma.sp, wgmma.mma_async, ldmatrix,
// stmatrix, movmatrix and tcgen05.ld/st in the table, it reads the shape,
// types and counts from the spelling, asks tile::frag for the layout of each
// register operand, and compares regs() with the operand's register group.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/fragment.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

using namespace tileapply;
namespace fr = tile::frag;

namespace {

std::vector<std::string> tokens(const std::string &S) {
  std::vector<std::string> Out;
  size_t B = 0;
  for (size_t I = 0; I <= S.size(); ++I)
    if (I == S.size() || S[I] == '.') {
      Out.push_back(S.substr(B, I - B));
      B = I + 1;
    }
  return Out;
}

bool has(const std::vector<std::string> &T, const char *Tok) {
  for (const std::string &S : T)
    if (S == Tok) return true;
  return false;
}

std::optional<fr::type> fragType(const std::string &S) {
  static const std::map<std::string, fr::type> Names = {
      {"f16", fr::type::f16},   {"bf16", fr::type::bf16}, {"tf32", fr::type::tf32}, {"f32", fr::type::f32},
      {"f64", fr::type::f64},   {"s32", fr::type::s32},   {"s8", fr::type::s8},     {"u8", fr::type::u8},
      {"s4", fr::type::s4},     {"u4", fr::type::u4},     {"b1", fr::type::b1},     {"e4m3", fr::type::e4m3},
      {"e5m2", fr::type::e5m2}, {"e3m2", fr::type::e3m2}, {"e2m3", fr::type::e2m3}, {"e2m1", fr::type::e2m1},
      {"b16", fr::type::b16},   {"b8", fr::type::b8}};
  auto It = Names.find(S);
  if (It == Names.end()) return std::nullopt;
  return It->second;
}

/// The element types a spelling names, in order (d, a, b, c for mma).
std::vector<fr::type> typesOf(const std::vector<std::string> &T) {
  std::vector<fr::type> Out;
  for (const std::string &S : T)
    if (auto Ty = fragType(S)) Out.push_back(*Ty);
  return Out;
}

/// m16n8k16 -> {16, 8, 16}; m8n8 -> {8, 8, 0}.
std::optional<fr::shape> shapeOf(const std::vector<std::string> &T) {
  static const std::regex Re("m([0-9]+)n([0-9]+)(k([0-9]+))?");
  for (const std::string &S : T) {
    std::smatch M;
    if (std::regex_match(S, M, Re))
      return fr::shape{std::stoi(M[1]), std::stoi(M[2]), M[4].matched ? std::stoi(M[4]) : 0};
  }
  return std::nullopt;
}

int numOf(const std::vector<std::string> &T) {
  static const std::regex Re("x([0-9]+)");
  for (const std::string &S : T) {
    std::smatch M;
    if (std::regex_match(S, M, Re)) return std::stoi(M[1]);
  }
  return 0;
}

const OperandSpec *operandNamed(const Form &F, const char *Name) {
  for (const OperandSpec &S : F.Operands)
    if (S.Name == Name) return &S;
  return nullptr;
}

fr::operand operandOf(const std::string &Name) {
  return Name == "a" ? fr::operand::a : Name == "b" ? fr::operand::b : Name == "c" ? fr::operand::c : fr::operand::d;
}

struct Tally {
  unsigned Forms = 0, Operands = 0;
};

/// Compares one register operand of F with the layout tile::frag gives it.
void expectRegs(const Form &F, const OperandSpec &S, const fr::layout &L, Tally &N) {
  ++N.Operands;
  ASSERT_TRUE(L.ok()) << F.Spelling << " operand " << S.Name << ": fragment.h has no layout (" << L.error() << ")";
  EXPECT_EQ(static_cast<int>(S.Regs), L.regs())
      << F.Spelling << " operand " << S.Name << ": the table says " << S.Regs << " registers, fragment.h " << L.regs();
}

// ---- one family each ---------------------------------------------------------

void checkMma(const Form &F, Tally &N) {
  std::vector<std::string> T = tokens(F.Spelling);
  std::optional<fr::shape> Shape = shapeOf(T);
  std::vector<fr::type> Ty = typesOf(T);
  ASSERT_TRUE(Shape) << F.Spelling;
  ASSERT_GE(Ty.size(), 4u) << F.Spelling << ": not four operand types (d, a, b, c)";
  bool Sparse = F.Spelling.rfind("mma.sp", 0) == 0;
  // .alayout.blayout of m8n8k4 (every other shape is .row.col, the natural one).
  fr::major Major[2] = {fr::major::natural, fr::major::natural};
  unsigned Seen = 0;
  for (const std::string &S : T)
    if ((S == "row" || S == "col") && Seen < 2) Major[Seen++] = S == "row" ? fr::major::row : fr::major::col;
  const char *Names[] = {"d", "a", "b", "c"};
  for (unsigned I = 0; I < 4; ++I) {
    const OperandSpec *S = operandNamed(F, Names[I]);
    ASSERT_TRUE(S) << F.Spelling << " has no operand " << Names[I];
    fr::operand Op = operandOf(Names[I]);
    fr::major M = I == 1 ? Major[0] : I == 2 ? Major[1] : fr::major::natural;
    if (Shape->m != 8 || Shape->k != 4) M = fr::major::natural;
    fr::layout L = Sparse ? fr::mma_sp(*Shape, Op, Ty[I]) : fr::mma(*Shape, Op, Ty[I], M);
    expectRegs(F, *S, L, N);
  }
  ++N.Forms;
}

void checkWgmma(const Form &F, Tally &N) {
  std::vector<std::string> T = tokens(F.Spelling);
  std::optional<fr::shape> Shape = shapeOf(T);
  std::vector<fr::type> Ty = typesOf(T);
  ASSERT_TRUE(Shape) << F.Spelling;
  ASSERT_GE(Ty.size(), 2u) << F.Spelling;
  bool Sparse = has(T, "sp");
  auto Layout = [&](fr::operand Op, fr::type Type) {
    return Sparse ? fr::wgmma_sp(Shape->n, Shape->k, Op, Type) : fr::wgmma(Shape->n, Shape->k, Op, Type);
  };
  const OperandSpec *D = operandNamed(F, "d");
  ASSERT_TRUE(D) << F.Spelling;
  expectRegs(F, *D, Layout(fr::operand::d, Ty[0]), N);
  // A from registers (the overload whose A is not a descriptor).
  if (const OperandSpec *A = operandNamed(F, "a")) expectRegs(F, *A, Layout(fr::operand::a, Ty[1]), N);
  ++N.Forms;
}

void checkLdSt(const Form &F, Tally &N, bool Load) {
  std::vector<std::string> T = tokens(F.Spelling);
  std::optional<fr::shape> Shape = shapeOf(T);
  ASSERT_TRUE(Shape) << F.Spelling;
  // .b8x16 (from .b6x16_p32 / .b4x16_p64) is 8-bit elements in registers.
  fr::type Ty = has(T, "b16") ? fr::type::b16 : fr::type::b8;
  bool Trans = has(T, "trans");
  fr::layout L = Load ? fr::ldmatrix(*Shape, numOf(T), Trans, Ty) : fr::stmatrix(*Shape, numOf(T), Trans, Ty);
  const OperandSpec *R = operandNamed(F, "r");
  ASSERT_TRUE(R) << F.Spelling;
  expectRegs(F, *R, L, N);
  ++N.Forms;
}

void checkMovmatrix(const Form &F, Tally &N) {
  for (const char *Name : {"d", "a"}) {
    const OperandSpec *S = operandNamed(F, Name);
    ASSERT_TRUE(S) << F.Spelling;
    expectRegs(F, *S, fr::movmatrix(operandOf(Name)), N);
  }
  ++N.Forms;
}

void checkTcgen05(const Form &F, Tally &N) {
  std::vector<std::string> T = tokens(F.Spelling);
  static const std::map<std::string, fr::tmem_shape> Shapes = {{"32x32b", fr::tmem_shape::s32x32b},
                                                               {"16x64b", fr::tmem_shape::s16x64b},
                                                               {"16x128b", fr::tmem_shape::s16x128b},
                                                               {"16x256b", fr::tmem_shape::s16x256b},
                                                               {"16x32bx2", fr::tmem_shape::s16x32bx2}};
  std::optional<fr::tmem_shape> Shape;
  for (const std::string &S : T)
    if (Shapes.count(S)) Shape = Shapes.at(S);
  ASSERT_TRUE(Shape) << F.Spelling;
  int Num = numOf(T);
  bool Pack = has(T, "pack::16b") || has(T, "unpack::16b");
  // The half-split offset does not change the count; the smallest valid one.
  int Split = *Shape == fr::tmem_shape::s16x32bx2 ? (Pack ? 2 * Num : Num) : 0;
  const OperandSpec *R = operandNamed(F, "r");
  ASSERT_TRUE(R) << F.Spelling;
  expectRegs(F, *R, fr::tcgen05(*Shape, Num, Pack, Split), N);
  ++N.Forms;
}

TEST(FragmentCounts, EveryMatrixFormAgreesWithFragmentH) {
  std::map<std::string, Tally> ByFamily;
  OpcodeTable::get().forEachForm([&](const Form &F) {
    const std::string &S = F.Spelling;
    if (S.rfind("mma.", 0) == 0)
      checkMma(F, ByFamily["mma"]);
    else if (S.rfind("wgmma.mma_async", 0) == 0)
      checkWgmma(F, ByFamily["wgmma"]);
    else if (S.rfind("ldmatrix.", 0) == 0)
      checkLdSt(F, ByFamily["ldmatrix"], /*Load=*/true);
    else if (S.rfind("stmatrix.", 0) == 0)
      checkLdSt(F, ByFamily["stmatrix"], /*Load=*/false);
    else if (S.rfind("movmatrix.", 0) == 0)
      checkMovmatrix(F, ByFamily["movmatrix"]);
    else if (S.rfind("tcgen05.ld.", 0) == 0 || S.rfind("tcgen05.st.", 0) == 0)
      checkTcgen05(F, ByFamily["tcgen05.ld/st"]);
  });
  // Every family was reached (a renamed family would otherwise pass vacuously).
  for (const char *Family : {"mma", "wgmma", "ldmatrix", "stmatrix", "movmatrix", "tcgen05.ld/st"})
    EXPECT_GT(ByFamily[Family].Forms, 0u) << Family << ": no form of the table was compared";
  for (const auto &[Family, N] : ByFamily)
    std::printf("[ fragments] %-14s %5u forms, %5u register operands compared\n", Family.c_str(), N.Forms, N.Operands);
}

} // namespace
