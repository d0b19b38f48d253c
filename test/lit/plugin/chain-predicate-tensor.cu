// docs/spec.md section 6: a carry chain is one asm statement for the whole call;
// a per-repeat predicate tensor could switch single words off and break the
// chain, so it is refused. One scalar predicate guards every word.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(const bool *on) {
  uint32_t a[4][1] = {}, d[4][1];
  bool p[4][1] = {{true}, {true}, {false}, {true}};
  __tile_apply("add.cc.u32", d, a, a, tile::pred(p)); // expected-error {{'add.cc.u32' is a carry chain: the call's repeats are one chain in one asm statement, each repeat taking the carry of the one before; a predicate tensor, which may switch single repeats off, would break the chain}}
  __tile_apply("add.cc.u32", d, a, a, tile::pred(on[0]));
  __tile_apply("addc.u32", d, a, a); // expected-error {{'addc.u32' is PTX, but outside tileapply's per-thread register instructions: it reads the carry flag of an earlier instruction}}
}
