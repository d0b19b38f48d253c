//===- bench/attention/configs.h - The attention kernels' configurations -*- C++ -*-===//
//
// Every kernel configuration attn.cu builds, by name, and kAll, the list
// layout_check.cpp checks: one place, so that no plan is built unchecked.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_ATTENTION_CONFIGS_H
#define BENCH_ATTENTION_CONFIGS_H

#include "layout.h"

namespace attn::configs {

// Mode 0 takes, per head dim, the kernel that measured fastest on the H200
// (bench/results/attention.md): d 64 three consumer warpgroups with ping-pong
// and descriptors built per step, d 128 and d 256 the ping-pong ones.
constexpr config kD64wp{64, 192, 2, true, true};
constexpr config kD64{64, 128, 2, true, true, true, 3};
constexpr config kD128p{128, 128, 2, true, true};
constexpr config kD128 = kD128p;
constexpr config kD256p{256, 64, 2, true, true};
constexpr config kD256 = kD256p;
constexpr config kD64s{64, 128, 3, false};
constexpr config kD128s{128, 128, 2, false};
constexpr config kD256s{256, 64, 2, false};
constexpr config kD64p{64, 128, 3, true, true};
// Wider KV blocks (FA3's choice for d 64 and 128: fewer, longer S = Q K^T
// products per softmax); d 256's pipelined loop spills at bn 80, so its
// wide kernel is the plain loop.
constexpr config kD64w{64, 192, 2, true};
constexpr config kD128w{128, 176, 2, true};
constexpr config kD256w{256, 80, 2, false};
constexpr config kD128wp{128, 176, 2, true, true};
// Three consumer warpgroups (a 192-row Q tile, 160 registers a consumer
// thread; FA3's shape at d 64): pipelined, and pipelined with the ring of
// turns. KV block 128: S, P and O of the pipelined loop (64 + 32 + 32
// registers) fit in 160, bn 192's (96 + 48 + 32) do not.
constexpr config kD64t{64, 128, 2, true, false, true, 3};
constexpr config kD64tp = kD64;
// P through shared memory (FA3's 192 x 192 tile at d 64 without causal
// masking): only S and O in registers (96 + 32), so bn 192 fits in 160.
// Descriptors advanced from the base: built per step, ptxas spills 16 B.
// Measured slower than mode 0 (bench/results/attention.md).
constexpr config kD64sp{64, 192, 2, true, true, false, 3, true};

/// Every configuration above (those equal to another by definition, kD128,
/// kD256 and kD64tp, once).
constexpr config kAll[] = {kD64wp, kD128, kD256, kD64s, kD64w, kD128w, kD256w, kD64t, kD64,
                           kD64sp, kD128s, kD256s, kD64p, kD128wp};

} // namespace attn::configs

#endif // BENCH_ATTENTION_CONFIGS_H
