//===- bench/stream/stream.cu - The streaming f16x2 add benchmark ---------===//
//
// D = A + B over fp16 arrays of a given size each (see bench/README.md). For
// every size this program
//   1. fills A|B on the device with the deterministic input stream (data.h),
//   2. for each variant it has: runs it once into a D filled with 0xFF, checks
//      every output word against the host reference (exact bits; computed once
//      per size, on all host cores), and only if all match, times it (warm-up, then the median of --reps launches, each
//      between its own CUDA events),
//   3. prints one line per variant and appends it to --csv.
// Bytes moved per add: read A, read B, write D (3 x the array size). The
// device-to-device copy moves the same: 1.5 x the array size read and written.
//
// Built twice by bench/stream/build.sh:
//   stream-clang  clang 22 + the TileApply plugin (STREAM_TILEAPPLY): the
//                 __tile_apply kernel, the inline-asm kernel, __hadd2, and the
//                 cudaMemcpy device-to-device ceiling
//   stream-nvcc   nvcc: the same inline-asm kernel and __hadd2
//
// Exit status: 0 every variant verified; 1 a result was wrong; 2 usage, no
// device; 3 a CUDA call failed.
//
//===----------------------------------------------------------------------===//
#include "../common/bench.h"
#include "data.h"
#include "kernels.cuh"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#if defined(__clang__) && !defined(__NVCC__)
#define STREAM_COMPILER_ID "clang"
#define STREAM_COMPILER "clang " __clang_version__
#else
#define STREAM_COMPILER_ID "nvcc"
#define STREAM_STR2(x) #x
#define STREAM_STR(x) STREAM_STR2(x)
#define STREAM_COMPILER "nvcc " STREAM_STR(__CUDACC_VER_MAJOR__) "." STREAM_STR(__CUDACC_VER_MINOR__)
#endif

namespace {

using stream::kBlock;
using stream::kRowBytes;

// ---- checking ------------------------------------------------------------------

/// The generator against the test vectors data.h shares with torch_add.py.
void check_generator() {
  for (const stream::TestVector &t : stream::kTestVectors)
    if (stream::input_word(t.index) != t.word)
      bench::die("input generator disagrees with its test vector at index " +
                 std::to_string(t.index));
}

/// --reference-dump N: host only, no device needed. Prints "i word(i)" for the
/// test indices and the first N words, then "a b sum" for N pairs of stream
/// words and for edge cases, for bench/stream/check_reference.py to recompute
/// independently.
int reference_dump(uint64_t n) {
  const float *hv = stream::half_values().data();
  for (const stream::TestVector &t : stream::kTestVectors)
    std::printf("word %" PRIu64 " %08x\n", t.index, stream::input_word(t.index));
  for (uint64_t i = 0; i < n; ++i)
    std::printf("word %" PRIu64 " %08x\n", i, stream::input_word(i));
  auto sum = [&](uint32_t a, uint32_t b) {
    std::printf("sum %08x %08x %08x\n", a, b, stream::add_f16x2_ref(a, b, hv));
  };
  for (uint64_t i = 0; i < n; ++i)
    sum(stream::input_word(2 * i), stream::input_word(2 * i + 1));
  // Edges, two per word (low half, then high half): overflow at the 65520
  // tie, rounding below it, subnormal sums and cancellation, signed zeros,
  // ties to even both ways.
  const uint32_t edges[][2] = {
      {0x7bff7bffu, 0x4b004c00u}, // 65504 + 16 (tie: inf), 65504 + 14 (65504)
      {0x7bfffbffu, 0xcb80cc00u}, // -65504 - 16 (-inf), 65504 - 15 (65504)
      {0x00010001u, 0x80010001u}, // 2^-24 + 2^-24 (2^-23), 2^-24 - 2^-24 (+0)
      {0x80008000u, 0x00008000u}, // -0 + -0 (-0), -0 + +0 (+0)
      {0x3c013c00u, 0x10001000u}, // 1 + 2^-11 (tie: 1), (1 + 2^-10) + 2^-11 (tie: 1 + 2^-9)
      {0x3c003c00u, 0x14000c00u}, // 1 + 2^-12 (1), 1 + 2^-10 (exact)
      {0x03ff03ffu, 0x00010001u}, // largest subnormal + smallest: the smallest normal
  };
  for (const auto &e : edges)
    sum(e[0], e[1]);
  return 0;
}

/// Copies `words` 32-bit words from the device to the host in pinned chunks
/// and compares word i with want(i). Prints the first few mismatches; returns
/// how many words differ.
template <class Want>
uint64_t check_words(const char *what, const uint32_t *dev, uint64_t words, const Want &want) {
  constexpr uint64_t kChunkWords = 64ull << 20; // 256 MiB
  static uint32_t *host = nullptr;
  if (!host)
    BENCH_CHECK(cudaMallocHost(&host, kChunkWords * sizeof(uint32_t)));
  std::atomic<uint64_t> bad{0};
  std::mutex print;
  for (uint64_t base = 0; base < words; base += kChunkWords) {
    const uint64_t n = std::min(kChunkWords, words - base);
    BENCH_CHECK(cudaMemcpy(host, dev + base, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    bench::parallel_for(n, [&](uint64_t b, uint64_t e) {
      uint64_t mine = 0;
      for (uint64_t k = b; k < e; ++k) {
        const uint32_t w = want(base + k);
        if (host[k] == w)
          continue;
        if (bad.load() + mine < 5) {
          std::lock_guard<std::mutex> lock(print);
          std::fprintf(stderr, "  %s: word %" PRIu64 " is 0x%08x, want 0x%08x\n", what,
                       base + k, host[k], w);
        }
        ++mine;
      }
      bad += mine;
    });
  }
  return bad.load();
}

// ---- the variants ------------------------------------------------------------------

/// One variant: how to launch it (D = A + B over `rows` 16-byte rows, or, for
/// the copy, `copy_bytes` from A|B to D).
struct Variant {
  const char *id;
  std::string label;
  bool is_copy;
  void (*launch)(uint32_t *D, const uint32_t *A, const uint32_t *B, uint64_t rows,
                 uint64_t copy_bytes);
};

dim3 grid_for(uint64_t rows) {
  const uint64_t blocks = stream::blocks_for(rows);
  if (blocks > 0x7FFFFFFFull)
    bench::die("too many rows for a one-shot grid: " + std::to_string(rows));
  return dim3(static_cast<unsigned>(blocks));
}

#if defined(STREAM_TILEAPPLY)
void launch_tile(uint32_t *D, const uint32_t *A, const uint32_t *B, uint64_t rows, uint64_t) {
  stream::stream_add_tile<<<grid_for(rows), kBlock>>>(D, A, B, rows);
}
#endif
void launch_asm(uint32_t *D, const uint32_t *A, const uint32_t *B, uint64_t rows, uint64_t) {
  stream::stream_add_asm<<<grid_for(rows), kBlock>>>(D, A, B, rows);
}
void launch_hadd2(uint32_t *D, const uint32_t *A, const uint32_t *B, uint64_t rows, uint64_t) {
  stream::stream_add_hadd2<<<grid_for(rows), kBlock>>>(
      reinterpret_cast<uint4 *>(D), reinterpret_cast<const uint4 *>(A),
      reinterpret_cast<const uint4 *>(B), rows);
}
#if defined(STREAM_TILEAPPLY)
void launch_copy(uint32_t *D, const uint32_t *A, const uint32_t *, uint64_t, uint64_t bytes) {
  BENCH_CHECK(cudaMemcpyAsync(D, A, bytes, cudaMemcpyDeviceToDevice, 0));
}
#endif

std::vector<Variant> variants() {
  std::vector<Variant> v;
#if defined(STREAM_TILEAPPLY)
  v.push_back({"tile_apply", "__tile_apply (clang 22)", false, launch_tile});
  v.push_back({"asm_clang", "inline asm (clang 22)", false, launch_asm});
  v.push_back({"hadd2_clang", "__hadd2 (clang 22)", false, launch_hadd2});
  v.push_back({"memcpy_d2d", "cudaMemcpy D2D (ceiling)", true, launch_copy});
#else
  v.push_back({"asm_nvcc", "inline asm (" STREAM_COMPILER ")", false, launch_asm});
  v.push_back({"hadd2_nvcc", "__hadd2 (" STREAM_COMPILER ")", false, launch_hadd2});
#endif
  return v;
}

/// Fills words [0, n) of `buf` with the input stream.
__global__ void fill_inputs(uint32_t *buf, uint64_t n) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    buf[i] = stream::input_word(i);
}

} // namespace

int main(int argc, char **argv) {
  const char *program = "stream-" STREAM_COMPILER_ID;
  if (argc == 3 && std::string(argv[1]) == "--reference-dump") {
    check_generator();
    return reference_dump(std::strtoull(argv[2], nullptr, 10));
  }
  bench::Options opt;
  for (const char *s : {"256M", "512M", "1G", "2G", "4G", "1536M+11200"}) {
    uint64_t b = 0;
    bench::parse_bytes(s, b);
    opt.sizes.push_back(b);
  }
  opt.parse(argc, argv, program, "bytes per fp16 array (a multiple of 16)");
  const std::vector<Variant> all = variants();
  if (opt.list) {
    for (const Variant &v : all)
      std::printf("%-12s %s\n", v.id, v.label.c_str());
    return 0;
  }
  for (const std::string &want : opt.variants) {
    bool known = false;
    for (const Variant &v : all)
      known = known || want == v.id;
    if (!known)
      std::fprintf(stderr, "note: %s has no variant '%s' (see --list); skipped\n", program,
                   want.c_str());
  }
  for (uint64_t s : opt.sizes)
    if (s % kRowBytes != 0)
      bench::die("size " + std::to_string(s) + " is not a multiple of 16 bytes (one 128-bit row)");

  check_generator();
  bench::require_device(program);
  const std::string device = bench::device_banner();
  std::printf("# %s: %s\n# built with %s\n", program, device.c_str(), STREAM_COMPILER);
  bench::Csv csv(opt.csv);
  csv.note(std::string(program) + " device", device);
  csv.note(std::string(program) + " compiler", STREAM_COMPILER);
  csv.note(std::string(program) + " timing",
           std::to_string(opt.warmup) + " warm-up launches (and at least 50 ms), median of " +
               std::to_string(opt.reps) + " timed with CUDA events");

  const float *hv = stream::half_values().data();
  int failures = 0;
  for (uint64_t size : opt.sizes) {
    const uint64_t words = size / 4, rows = size / kRowBytes;
    const uint64_t copy_bytes = size / 2 * 3; // 1.5 arrays, read and written
    const uint64_t moved = 3 * size;
    const std::string pretty = bench::format_bytes(size);
    // A|B (2 arrays) and D, which is also the copy's 1.5-array destination.
    const uint64_t need = 2 * size + copy_bytes;
    const uint64_t have = bench::free_device_bytes();
    if (need + (256ull << 20) > have) {
      std::printf("SKIP  %-22s needs %s of device memory (and 256 MiB spare), %s free\n",
                  pretty.c_str(), bench::format_approx(need).c_str(),
                  bench::format_approx(have).c_str());
      for (const Variant &v : all)
        if (opt.wants(v.id))
          csv.row("stream", v.id, v.label, STREAM_COMPILER_ID, size, moved, bench::Timing{}, "skip");
      continue;
    }
    uint32_t *AB = nullptr, *D = nullptr;
    BENCH_CHECK(cudaMalloc(&AB, 2 * size));
    BENCH_CHECK(cudaMalloc(&D, copy_bytes));
    uint32_t *A = AB, *B = AB + words;
    fill_inputs<<<4096, 256>>>(AB, 2 * words);
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaDeviceSynchronize());
    // The expected D, computed once per size on the host (all threads), the
    // first time an add variant needs it.
    std::unique_ptr<uint32_t[]> ref;
    auto expected = [&]() -> const uint32_t * {
      if (!ref) {
        ref.reset(new uint32_t[words]);
        uint32_t *r = ref.get();
        bench::parallel_for(words, [&](uint64_t b, uint64_t e) {
          for (uint64_t i = b; i < e; ++i)
            r[i] = stream::add_f16x2_ref(stream::input_word(i), stream::input_word(words + i), hv);
        });
      }
      return ref.get();
    };

    for (const Variant &v : all) {
      if (!opt.wants(v.id))
        continue;
      const uint64_t out_words = v.is_copy ? copy_bytes / 4 : words;
      BENCH_CHECK(cudaMemset(D, 0xFF, out_words * 4));
      v.launch(D, A, B, rows, copy_bytes);
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaDeviceSynchronize());
      uint64_t bad;
      if (v.is_copy)
        bad = check_words(v.id, D, out_words, [](uint64_t i) { return stream::input_word(i); });
      else {
        const uint32_t *want = expected();
        bad = check_words(v.id, D, out_words, [want](uint64_t i) { return want[i]; });
      }
      if (bad) {
        std::printf("FAIL  %-22s %-12s %" PRIu64 " of %" PRIu64 " words wrong (not timed)\n",
                    pretty.c_str(), v.id, bad, out_words);
        csv.row("stream", v.id, v.label, STREAM_COMPILER_ID, size, moved, bench::Timing{}, "FAIL");
        ++failures;
        continue;
      }
      const bench::Timing t = bench::time_gpu(
          [&] { v.launch(D, A, B, rows, copy_bytes); }, opt.warmup, opt.reps);
      std::printf("ok    %-22s %-12s %9.4f ms  %8.1f GB/s  (min %.4f, max %.4f ms; %" PRIu64
                  " words verified)\n",
                  pretty.c_str(), v.id, t.median_ms, bench::gbps(moved, t.median_ms), t.min_ms,
                  t.max_ms, out_words);
      std::fflush(stdout);
      csv.row("stream", v.id, v.label, STREAM_COMPILER_ID, size, moved, t, "ok");
    }
    BENCH_CHECK(cudaFree(AB));
    BENCH_CHECK(cudaFree(D));
  }
  if (failures)
    std::printf("%s: %d measurement(s) FAILED verification\n", program, failures);
  return failures ? 1 : 0;
}
