// docs/spec.md section 6: no per-repeat predicate tensor on an .aligned form
// (AlignedPredicateTensor): barrier...aligned, setmaxnreg, and every bar form
// (bar{.cta} is the ISA's barrier{.cta}.aligned written short). A uniform
// scalar predicate is accepted; barrier.sync without .aligned takes a tensor.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify %s
#include <tileapply/tile.h>

__global__ void kernel(const bool *want) {
  bool on[2][1] = {{want[0]}, {want[1]}};
  bool one[1] = {want[0]};
  uint32_t ids[2][1] = {{1}, {2}};
  __tile_apply("barrier.sync.aligned", ids, tile::pred(on)); // expected-error {{'barrier.sync.aligned' is .aligned: every thread of the warp or warpgroup must execute it together, so a predicate tensor, which may switch a repeat off in some threads only, cannot guard it}}
                                                             // expected-note@-1 {{guard it with one bool, tile::pred(p), that has the same value in every participating thread}}
  __tile_apply("bar.sync", ids, tile::pred(on)); // expected-error {{'bar.sync' is .aligned}}
                                                 // expected-note@-1 {{guard it with one bool}}
  __tile_apply("barrier.cluster.arrive.aligned", tile::pred(one)); // expected-error {{'barrier.cluster.arrive.aligned' is .aligned}}
                                                                   // expected-note@-1 {{guard it with one bool}}
  __tile_apply("setmaxnreg.inc.sync.aligned.u32", 232, tile::pred(one)); // expected-error {{'setmaxnreg.inc.sync.aligned.u32' is .aligned}}
                                                                         // expected-note@-1 {{guard it with one bool}}
  // A uniform scalar is fine; so is a tensor on the non-.aligned barrier.
  __tile_apply("barrier.sync.aligned", 1, tile::pred(want[0]));
  __tile_apply("bar.sync", 1, 64, tile::pred(want[0]));
  __tile_apply("barrier.sync", ids, tile::pred(on));
}
