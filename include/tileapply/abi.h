/*===- tileapply/abi.h - The IR-level contract of __tile_apply -----*- C -*-===*
 *
 * The numbers that travel from the front end (the header tile.h, or any other
 * front end that wants its calls expanded) to the LLVM pass. Plain C, no
 * includes: it is read by CUDA device code, by the Clang plugin and by the pass.
 *
 * A front end lowers one `__tile_apply(op, args...)` to
 *
 *   call void (ptr, ptr, ...) @__tileapply_apply(ptr @opcode, ptr @layout,
 *                                                 <one value per argument>)
 *
 * `@opcode` is a constant NUL-terminated string; `@layout` is a constant global
 * array of i32 described below. docs/ir-form.md has the full description.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TILEAPPLY_ABI_H
#define TILEAPPLY_ABI_H

#define TILEAPPLY_MARKER_NAME "__tileapply_apply"
#define TILEAPPLY_LAYOUT_VERSION 1

/* The layout array: { VERSION, NUM_ARGS, record, record, ... } with one
 * record per argument after the opcode, in call order:
 *   { KIND, DTYPE, SPACE, STORAGE_ELEMS, RANK, EXTENT[RANK], STRIDE[RANK] }
 * KIND may carry TILEAPPLY_QUAL_CONST and TILEAPPLY_QUAL_NEGATE. Extents and strides are in elements.
 * STORAGE_ELEMS is the number of elements of the storage a view indexes into
 * (0 when unknown, e.g. a pointer-only memory tensor). */
enum tileapply_kind {
  TILEAPPLY_KIND_UNSUPPORTED = 0,  /* a C++ type the header does not know     */
  TILEAPPLY_KIND_REGISTER = 1,     /* value: ptr to element 0 of thread-owned storage */
  TILEAPPLY_KIND_MEMORY = 2,       /* value: generic ptr to element 0            */
  TILEAPPLY_KIND_SCALAR = 3,       /* value: the scalar, C-promoted (see below)  */
  TILEAPPLY_KIND_PRED_SCALAR = 4,  /* value: i32, nonzero = on                   */
  TILEAPPLY_KIND_PRED_TENSOR = 5,  /* value: ptr to element 0 of the predicates  */
  TILEAPPLY_KIND_PRESERVE_DST = 6, /* value: i32 0, ignored                      */
  TILEAPPLY_KIND_MASK = 0xff
};
/* Why an argument is KIND_UNSUPPORTED, carried in the STORAGE_ELEMS slot of
 * its record (a rank-0 record: nothing else there has a meaning), so that
 * the plugin and the pass give the same reason and the same advice. */
enum tileapply_unsupported {
  TILEAPPLY_UNSUPPORTED_TYPE = 0,              /* a type the header does not know */
  TILEAPPLY_UNSUPPORTED_VOLATILE_REGISTER = 1, /* a register tensor of volatile elements */
  TILEAPPLY_UNSUPPORTED_SCOPED_ENUM = 2,       /* an enumerator of a scoped enumeration */
  TILEAPPLY_UNSUPPORTED_LAST = TILEAPPLY_UNSUPPORTED_SCOPED_ENUM
};
#define TILEAPPLY_QUAL_CONST 0x100
/* The argument is a predicate source the instruction reads negated: PTX's
 * `{!}c`, written `!c` (tile::negated). Only operands the table marks
 * negatable accept it. */
#define TILEAPPLY_QUAL_NEGATE 0x200

/* C++ carrier types (tileapply/dtypes.def). A scalar travels as the value of
 * its carrier's register type (the IR type of the carrier's constraint letter,
 * TILEAPPLY_ASM_REGISTER in dtypes.def) after C's default argument promotion:
 * an integer narrower than 32 bits widens to i32, float to double, anything
 * else (i32, i64, i128, double) stays. This is the one statement of the rule;
 * the pass implements it (llvm-pass/IRCarrier.cpp, promotedType). */
enum tileapply_dtype {
#define TILEAPPLY_DTYPE(Name, Value, CType, Bits, Kind, Constraint) TILEAPPLY_DT_##Name = Value,
#include "dtypes.def"
  TILEAPPLY_DT_COUNT_ = 0
#define TILEAPPLY_DTYPE(Name, Value, CType, Bits, Kind, Constraint) +1
#include "dtypes.def"
};
#define TILEAPPLY_DT_LAST (TILEAPPLY_DT_COUNT_ - 1)

enum tileapply_space {
  TILEAPPLY_SPACE_NONE = 0, /* registers and scalars */
  TILEAPPLY_SPACE_GLOBAL = 1,
  TILEAPPLY_SPACE_SHARED = 2,
  TILEAPPLY_SPACE_LOCAL = 3,
  TILEAPPLY_SPACE_CONST = 4,
  TILEAPPLY_SPACE_PARAM = 5,
  /* A generic address: PTX operands with no state space (ld.b32 [a]). */
  TILEAPPLY_SPACE_GENERIC = 6,
  /* The .shared::cluster window: a 32-bit address (from mapa, or a
   * .shared::cta address, which is one of this CTA's) that may name another
   * CTA's shared memory. Its value is the address as an i32, not a pointer. */
  TILEAPPLY_SPACE_SHARED_CLUSTER = 7,
  TILEAPPLY_SPACE_LAST = TILEAPPLY_SPACE_SHARED_CLUSTER
};

#endif /* TILEAPPLY_ABI_H */
