// Issue 17 item 1: a carry chain is one asm statement of several
// instructions, so its outputs are early-clobber. Word r + 1 reads its inputs
// after word r wrote its destination; a register shared between an earlier
// word's destination and a later word's input would feed the later word the
// new value. Each destination register of word r must therefore appear in
// no later word of the statement. The old value of a kept destination rides
// in the destination's own register (a tied input), never in a second one.
//
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O2 -fplugin=%plugin %s -o %t2.ptx
// RUN: FileCheck %s --input-file=%t2.ptx
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -S -O3 -fplugin=%plugin %s -o %t3.ptx
// RUN: FileCheck %s --input-file=%t3.ptx
// RUN: %ptxas -arch=sm_90a %t2.ptx -o /dev/null
// REQUIRES: ptxas

#include <tileapply/tile.h>

// The case of the issue: acc and x[1] are both zero, so without
// early-clobber the allocator gave x[1] the register of acc[0].
// CHECK-LABEL: .entry {{.*}}add_u64_kept
// CHECK: @[[P:%p[0-9]+]] add.cc.u64 [[D0:%rd[0-9]+]],
// CHECK-NOT: [[D0]]{{[,;]}}
// CHECK: @[[P]] addc.u64
// CHECK-NOT: [[D0]]{{[,;]}}
// CHECK: // end inline asm
__global__ void add_u64_kept(uint64_t *out, const uint64_t *in, bool p) {
  uint64_t acc[2][1] = {};
  uint64_t big[2][1] = {{in[0]}, {in[1]}};
  uint64_t x[2][1] = {{in[2]}, {0}};
  __tile_apply("add.cc.u64", acc, big, x, tile::pred(p), tile::preserve_dst);
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}

// Four u32 words: no destination of a word in any later word.
// CHECK-LABEL: .entry {{.*}}add_u32x4_kept
// CHECK: @[[P:%p[0-9]+]] add.cc.u32 [[E0:%r[0-9]+]],
// CHECK-NOT: [[E0]]{{[,;]}}
// CHECK: @[[P]] addc.cc.u32 [[E1:%r[0-9]+]],
// CHECK-NOT: [[E0]]{{[,;]}}
// CHECK-NOT: [[E1]]{{[,;]}}
// CHECK: @[[P]] addc.cc.u32 [[E2:%r[0-9]+]],
// CHECK-NOT: [[E0]]{{[,;]}}
// CHECK-NOT: [[E1]]{{[,;]}}
// CHECK-NOT: [[E2]]{{[,;]}}
// CHECK: @[[P]] addc.u32
// CHECK-NOT: [[E0]]{{[,;]}}
// CHECK-NOT: [[E1]]{{[,;]}}
// CHECK-NOT: [[E2]]{{[,;]}}
// CHECK: // end inline asm
__global__ void add_u32x4_kept(uint32_t *out, const uint32_t *in, bool p) {
  uint32_t acc[4][1] = {};
  uint32_t big[4][1] = {{in[0]}, {in[1]}, {in[2]}, {in[3]}};
  uint32_t x[4][1] = {{in[4]}, {0}, {0}, {0}};
  __tile_apply("add.cc.u32", acc, big, x, tile::pred(p), tile::preserve_dst);
  for (int i = 0; i < 4; ++i)
    out[i] = acc[i][0];
}

// mad.lo.cc.u32: the addend of word 1 is zero, like the old destination.
// CHECK-LABEL: .entry {{.*}}mad_u32_kept
// CHECK: @[[P:%p[0-9]+]] mad.lo.cc.u32 [[M0:%r[0-9]+]],
// CHECK-NOT: [[M0]]{{[,;]}}
// CHECK: @[[P]] madc.lo.u32
// CHECK-NOT: [[M0]]{{[,;]}}
// CHECK: // end inline asm
__global__ void mad_u32_kept(uint32_t *out, const uint32_t *in, bool p) {
  uint32_t acc[2][1] = {};
  uint32_t a[2][1] = {{in[0]}, {in[1]}}, b[2][1] = {{in[2]}, {in[3]}};
  uint32_t c[2][1] = {{in[4]}, {0}};
  __tile_apply("mad.lo.cc.u32", acc, a, b, c, tile::pred(p), tile::preserve_dst);
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}

// Without a predicate the chain's outputs are early-clobber too: an input
// dead after the call may not lend its register to an earlier word.
// CHECK-LABEL: .entry {{.*}}add_u64_plain
// CHECK: add.cc.u64 [[F0:%rd[0-9]+]],
// CHECK-NOT: [[F0]]{{[,;]}}
// CHECK: addc.u64
// CHECK-NOT: [[F0]]{{[,;]}}
// CHECK: // end inline asm
__global__ void add_u64_plain(uint64_t *out, const uint64_t *in) {
  uint64_t acc[2][1];
  uint64_t a[2][1] = {{in[0]}, {in[1]}}, b[2][1] = {{in[2]}, {in[3]}};
  __tile_apply("add.cc.u64", acc, a, b);
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}
