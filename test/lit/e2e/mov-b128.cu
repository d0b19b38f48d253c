// mov.b128 through __tile_apply: unsigned __int128 / __int128 carriers in .b128
// registers, packed from and unpacked to groups of 2 x 64-bit or 4 x 32-bit
// registers, and copied (also predicated, keeping the old value). PTX ISA
// (mov, pack/unpack): in `mov.b128 d, {a, b}` the first register of the group
// is the low half, so group element 0 (the lowest address of the tensor, on a
// little-endian GPU) is the low part. sm_75 is the oldest target ptxas takes;
// the row's floor is sm_70, PTX ISA 8.3.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_75 --cuda-device-only -O2 -S -fplugin=%plugin %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_75 %t.ptx -o %t.cubin
// REQUIRES: ptxas
#include <tileapply/tile.h>

// Pack two b64: lo then hi, straight from the parameters.
// CHECK-LABEL: .entry _Z5pack2
// CHECK-DAG: ld.param.b64 [[LO:%rd[0-9]+]], [_Z5pack2{{[A-Za-z0-9_]*}}_param_0];
// CHECK-DAG: ld.param.b64 [[HI:%rd[0-9]+]], [_Z5pack2{{[A-Za-z0-9_]*}}_param_1];
// CHECK: // begin inline asm
// CHECK-NEXT: mov.b128 %rq{{[0-9]+}}, {[[LO]], [[HI]]};
// CHECK-NEXT: // end inline asm
// CHECK: ret;
__global__ void pack2(uint64_t lo, uint64_t hi, unsigned __int128 *Out) {
  uint64_t parts[1][2] = {{lo, hi}};
  unsigned __int128 q[1][1];
  __tile_apply("mov.b128", q, parts);
  *Out = q[0][0];
}

// Pack four b32 into a signed carrier (any 128-bit type is a .b128).
// CHECK-LABEL: .entry _Z5pack4
// CHECK-DAG: ld.param.b32 [[W0:%r[0-9]+]], [_Z5pack4{{[A-Za-z0-9_]*}}_param_0];
// CHECK-DAG: ld.param.b32 [[W1:%r[0-9]+]], [_Z5pack4{{[A-Za-z0-9_]*}}_param_1];
// CHECK-DAG: ld.param.b32 [[W2:%r[0-9]+]], [_Z5pack4{{[A-Za-z0-9_]*}}_param_2];
// CHECK-DAG: ld.param.b32 [[W3:%r[0-9]+]], [_Z5pack4{{[A-Za-z0-9_]*}}_param_3];
// CHECK: // begin inline asm
// CHECK-NEXT: mov.b128 %rq{{[0-9]+}}, {[[W0]], [[W1]], [[W2]], [[W3]]};
// CHECK-NEXT: // end inline asm
// CHECK: ret;
__global__ void pack4(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, __int128 *Out) {
  uint32_t parts[1][4] = {{w0, w1, w2, w3}};
  __int128 q[1][1];
  __tile_apply("mov.b128", q, parts);
  *Out = q[0][0];
}

// Unpack a 128-bit scalar (passed to the marker as an i128) into two b64: the
// low one is stored at Out[0].
// CHECK-LABEL: .entry _Z7unpack2
// CHECK: // begin inline asm
// CHECK-NEXT: mov.b128 {[[LO:%rd[0-9]+]], [[HI:%rd[0-9]+]]}, %rq{{[0-9]+}};
// CHECK-NEXT: // end inline asm
// CHECK-DAG: st.global.b64 {{\[}}[[OUT:%rd[0-9]+]]{{\]}}, [[LO]];
// CHECK-DAG: st.global.b64 {{\[}}[[OUT]]+8{{\]}}, [[HI]];
// CHECK: ret;
__global__ void unpack2(unsigned __int128 q, uint64_t *Out) {
  uint64_t parts[1][2];
  __tile_apply("mov.b128", parts, q);
  Out[0] = parts[0][0];
  Out[1] = parts[0][1];
}

// Unpack into four b32, lowest first.
// CHECK-LABEL: .entry _Z7unpack4
// CHECK: // begin inline asm
// CHECK-NEXT: mov.b128 {[[W0:%r[0-9]+]], [[W1:%r[0-9]+]], [[W2:%r[0-9]+]], [[W3:%r[0-9]+]]}, %rq{{[0-9]+}};
// CHECK-NEXT: // end inline asm
// CHECK-DAG: st.global.b32 {{\[}}[[OUT:%rd[0-9]+]]{{\]}}, [[W0]];
// CHECK-DAG: st.global.b32 {{\[}}[[OUT]]+4{{\]}}, [[W1]];
// CHECK-DAG: st.global.b32 {{\[}}[[OUT]]+8{{\]}}, [[W2]];
// CHECK-DAG: st.global.b32 {{\[}}[[OUT]]+12{{\]}}, [[W3]];
// CHECK: ret;
__global__ void unpack4(unsigned __int128 q, uint32_t *Out) {
  uint32_t parts[1][4];
  __tile_apply("mov.b128", parts, q);
  for (int i = 0; i < 4; ++i)
    Out[i] = parts[0][i];
}

// Copy, two repeats; then again predicated with tile::preserve_dst (the old
// value is tied to the destination, one %rq in the text).
// CHECK-LABEL: .entry _Z4copy
// CHECK: setp.{{.*}} [[P:%p[0-9]+]],
// CHECK: // begin inline asm
// CHECK-NEXT: mov.b128 %rq{{[0-9]+}}, [[A0:%rq[0-9]+]];
// CHECK-NEXT: // end inline asm
// CHECK: // begin inline asm
// CHECK-NEXT: mov.b128 %rq{{[0-9]+}}, [[A1:%rq[0-9]+]];
// CHECK-NEXT: // end inline asm
// CHECK: // begin inline asm
// CHECK-NEXT: @[[P]] mov.b128 %rq{{[0-9]+}}, [[A0]];
// CHECK-NEXT: // end inline asm
// CHECK: // begin inline asm
// CHECK-NEXT: @[[P]] mov.b128 %rq{{[0-9]+}}, [[A1]];
// CHECK-NEXT: // end inline asm
// CHECK-NOT: inline asm
// CHECK: ret;
__global__ void copy(const unsigned __int128 *In, __int128 *Out, bool on) {
  unsigned __int128 a[2][1] = {{In[0]}, {In[1]}};
  __int128 d[2][1] = {{Out[0]}, {Out[1]}};
  __tile_apply("mov.b128", d, a);
  __tile_apply("mov.b128", d, a, tile::pred(on), tile::preserve_dst);
  Out[0] = d[0][0];
  Out[1] = d[1][0];
}
