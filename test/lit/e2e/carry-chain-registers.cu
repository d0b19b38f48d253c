// A carry chain is one asm statement of several instructions. Its outputs
// must be early-clobber: otherwise the register allocator may give a word's
// output the register of a later word's input (here x[1] and the kept old
// value of acc[0] are both 0, one value), and the later word adds the new
// word instead of its input (issue 17: 2,730 wrong words of 44k on the H200).
// REQUIRES: ptxas
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S %s -o %t.O2.ptx
// RUN: %python %srcroot/test/tools/check_asm_hazards.py %t.O2.ptx | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O3 -fplugin=%plugin --cuda-device-only -S %s -o %t.O3.ptx
// RUN: %python %srcroot/test/tools/check_asm_hazards.py %t.O3.ptx | FileCheck %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O1 -fplugin=%plugin --cuda-device-only -S %s -o %t.O1.ptx
// RUN: %python %srcroot/test/tools/check_asm_hazards.py %t.O1.ptx | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.O2.ptx
// RUN: %ptxas -arch=sm_90a %t.O2.ptx -o %t.cubin

// CHECK: 8 blocks of several instructions, 0 hazards

// The constraint string itself: every output of a chain is early-clobber.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// IR: asm {{.*}}add.cc.u64{{.*}}addc.u64{{.*}}"=&l,=&l,l,l,l,l,b,0,1"
// IR: asm {{.*}}add.cc.u32{{.*}}addc.cc.u32{{.*}}addc.u32{{.*}}"=&r,=&r,=&r,=&r,

// PTX-LABEL: .entry {{.*}}wide_add_kept
// PTX: @%p{{[0-9]+}} add.cc.u64
// PTX-NEXT: @%p{{[0-9]+}} addc.u64

#include <tileapply/tile.h>

// The issue's case: a 128-bit add of a 64-bit value, predicated, old value kept.
__global__ void wide_add_kept(const uint64_t *in, uint64_t *out, bool p) {
  uint64_t acc[2][1] = {};
  uint64_t big[2][1] = {{in[0]}, {in[1]}};
  uint64_t x[2][1] = {{in[2]}, {0}};
  __tile_apply("add.cc.u64", acc, big, x, tile::pred(p), tile::preserve_dst);
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}

// Four 32-bit words, the addend's upper words zero.
__global__ void add4_kept(const uint32_t *in, uint32_t *out, bool p) {
  uint32_t acc[4][1] = {};
  uint32_t a[4][1] = {{in[0]}, {in[1]}, {in[2]}, {in[3]}};
  uint32_t b[4][1] = {{in[4]}, {0}, {0}, {0}};
  __tile_apply("add.cc.u32", acc, a, b, tile::pred(p), tile::preserve_dst);
  for (int i = 0; i < 4; ++i)
    out[i] = acc[i][0];
}

// An increment in place: the destination is also the first source.
__global__ void increment_in_place(uint32_t *io, bool p) {
  uint32_t c[4][1] = {{io[0]}, {io[1]}, {io[2]}, {io[3]}};
  uint32_t one[4][1] = {{1}, {0}, {0}, {0}};
  __tile_apply("add.cc.u32", c, c, one, tile::pred(p), tile::preserve_dst);
  for (int i = 0; i < 4; ++i)
    io[i] = c[i][0];
}

__global__ void sub_kept(const uint32_t *in, uint32_t *out, bool p) {
  uint32_t acc[3][1] = {};
  uint32_t a[3][1] = {{in[0]}, {in[1]}, {in[2]}};
  uint32_t b[3][1] = {{in[3]}, {0}, {0}};
  __tile_apply("sub.cc.u32", acc, a, b, tile::pred(p), tile::preserve_dst);
  for (int i = 0; i < 3; ++i)
    out[i] = acc[i][0];
}

__global__ void mad_chain(const uint32_t *in, uint32_t *out, bool p) {
  uint32_t acc[2][1] = {};
  uint32_t a[2][1] = {{in[0]}, {in[1]}};
  uint32_t b[2][1] = {{in[2]}, {in[2]}};
  uint32_t c[2][1] = {{in[3]}, {0}};
  __tile_apply("mad.lo.cc.u32", acc, a, b, c, tile::pred(p), tile::preserve_dst);
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}

// Without a predicate and without preserve_dst the same hazard exists: an
// output may take a later word's input register.
__global__ void add2_plain(const uint64_t *in, uint64_t *out) {
  uint64_t acc[2][1];
  uint64_t a[2][1] = {{in[0]}, {in[1]}};
  uint64_t b[2][1] = {{in[2]}, {in[3]}};
  __tile_apply("add.cc.u64", acc, a, b);
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}

__global__ void add2_pred(const uint64_t *in, uint64_t *out, bool p) {
  uint64_t acc[2][1] = {{in[4]}, {in[5]}};
  uint64_t a[2][1] = {{in[0]}, {in[1]}};
  uint64_t b[2][1] = {{in[2]}, {in[3]}};
  __tile_apply("add.cc.u64", acc, a, b, tile::pred(p));
  out[0] = acc[0][0];
  out[1] = acc[1][0];
}

__global__ void subc_in_place(uint64_t *io, bool p) {
  uint64_t c[2][1] = {{io[0]}, {io[1]}};
  uint64_t d[2][1] = {{io[2]}, {c[0][0]}};
  __tile_apply("sub.cc.u64", c, c, d, tile::pred(p), tile::preserve_dst);
  io[0] = c[0][0];
  io[1] = c[1][0];
}
