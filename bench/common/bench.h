//===- bench/common/bench.h - Host-side plumbing shared by the benchmarks -===//
//
// What every benchmark program in bench/ needs around its kernels, and nothing
// about any one kernel:
//
//   BENCH_CHECK(call)           a CUDA runtime call that must succeed
//   bench::Options              --sizes, --reps, --warmup, --csv, --variants
//   bench::parse_bytes("1G+48") sizes with K/M/G (binary) suffixes and sums
//   bench::time_gpu(fn, ...)    CUDA events around each repetition, after a
//                               warm-up (a count and at least 50 ms); median,
//                               minimum and maximum in ms
//   bench::Csv                  the results file every benchmark appends to
//                               (bench/common/results.py reads it)
//   bench::device_banner()      what the results were measured on
//   bench::sm_count()           the current device's SMs (0 if CUDA cannot say):
//                               how many persistent CTAs to launch
//   bench::parallel_for(n, fn)  host threads for reference checks of GiB-sized
//                               outputs
//
// Host code only; compiles with clang (CUDA mode) and with nvcc, C++17.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_BENCH_COMMON_BENCH_H
#define TILEAPPLY_BENCH_COMMON_BENCH_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

/// Evaluates a CUDA runtime call; on failure prints the call, where it was and
/// CUDA's message, and exits with status 3 (a broken run, not a wrong result).
#define BENCH_CHECK(call)                                                      \
  do {                                                                         \
    cudaError_t bench_err_ = (call);                                           \
    if (bench_err_ != cudaSuccess) {                                           \
      std::fprintf(stderr, "error: %s:%d: %s failed: %s (%s)\n", __FILE__,     \
                   __LINE__, #call, cudaGetErrorString(bench_err_),            \
                   cudaGetErrorName(bench_err_));                              \
      std::exit(3);                                                            \
    }                                                                          \
  } while (0)

namespace bench {

[[noreturn]] inline void die(const std::string &msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(2);
}

// ---- sizes ---------------------------------------------------------------------

/// "256M" -> 268435456; "1G+48" -> 1073741872. Suffixes K, M, G, T are binary
/// (KiB, MiB, ...); terms joined by '+' add up. Returns false on bad input.
inline bool parse_bytes(const std::string &text, uint64_t &out) {
  uint64_t total = 0;
  size_t at = 0;
  if (text.empty())
    return false;
  while (at <= text.size()) {
    size_t plus = text.find('+', at);
    std::string term = text.substr(at, plus == std::string::npos ? std::string::npos : plus - at);
    if (term.empty())
      return false;
    char *end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(term.c_str(), &end, 10);
    if (errno != 0 || end == term.c_str())
      return false;
    int shift = 0;
    std::string suffix(end);
    if (suffix == "K" || suffix == "KiB")
      shift = 10;
    else if (suffix == "M" || suffix == "MiB")
      shift = 20;
    else if (suffix == "G" || suffix == "GiB")
      shift = 30;
    else if (suffix == "T" || suffix == "TiB")
      shift = 40;
    else if (!suffix.empty())
      return false;
    if (v > (~0ull >> shift))
      return false;
    total += static_cast<uint64_t>(v) << shift;
    if (plus == std::string::npos)
      break;
    at = plus + 1;
  }
  out = total;
  return true;
}

/// 268435456 -> "256 MiB", 1073741872 -> "1 GiB + 48 B",
/// 1610623936 -> "1536 MiB + 11200 B".
inline std::string format_bytes(uint64_t bytes) {
  static const char *units[] = {"GiB", "MiB", "KiB"};
  static const int shifts[] = {30, 20, 10};
  for (int k = 0; k < 3; ++k) {
    // The largest unit that leaves less than a MiB over.
    uint64_t whole = bytes >> shifts[k];
    uint64_t rest = bytes - (whole << shifts[k]);
    if (whole == 0 || (rest >= (1ull << 20) && k < 2))
      continue;
    std::string s = std::to_string(whole) + " " + units[k];
    if (rest)
      s += " + " + std::to_string(rest) + " B";
    return s;
  }
  return std::to_string(bytes) + " B";
}

/// An approximate size for messages: "14.00 GiB", "3.5 MiB".
inline std::string format_approx(uint64_t bytes) {
  char buf[64];
  if (bytes >= (1ull << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1ull << 20));
  return buf;
}

inline std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  while (true) {
    size_t next = s.find(sep, at);
    std::string item = s.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (!item.empty())
      out.push_back(item);
    if (next == std::string::npos)
      return out;
    at = next + 1;
  }
}

// ---- command line ----------------------------------------------------------------

/// The options every benchmark program takes. A program adds its own defaults
/// before calling parse().
struct Options {
  std::vector<uint64_t> sizes;       ///< problem sizes, in bytes (meaning is the program's)
  std::vector<std::string> variants; ///< empty: all the program has
  int reps = 30;                     ///< timed repetitions per measurement
  int warmup = 5;                    ///< untimed launches before them (and >= 50 ms)
  std::string csv;                   ///< results file to append to ("" = none)
  bool list = false;                 ///< print the variants and exit

  /// Parses argv; prints usage and exits on --help or a bad option.
  void parse(int argc, char **argv, const char *program, const char *what_sizes) {
    auto usage = [&](FILE *to) {
      std::fprintf(to,
                   "usage: %s [--sizes LIST] [--reps N] [--warmup N] [--csv FILE]\n"
                   "          [--variants LIST] [--list]\n"
                   "  --sizes LIST     comma-separated %s; K/M/G suffixes are binary,\n"
                   "                   terms may be summed: 256M,1G,1536M+11200\n"
                   "  --reps N         timed repetitions (median reported; default %d)\n"
                   "  --warmup N       untimed launches first, for at least 50 ms (default %d; 0: none)\n"
                   "  --csv FILE       append results to FILE (bench/common/results.py reads it)\n"
                   "  --variants LIST  comma-separated subset of the variants (see --list)\n",
                   program, what_sizes, reps, warmup);
    };
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      auto value = [&]() -> std::string {
        size_t eq = a.find('=');
        if (eq != std::string::npos)
          return a.substr(eq + 1);
        if (i + 1 >= argc) {
          usage(stderr);
          die("option " + a + " needs a value");
        }
        return argv[++i];
      };
      auto name = a.substr(0, a.find('='));
      if (name == "--help" || name == "-h") {
        usage(stdout);
        std::exit(0);
      } else if (name == "--sizes") {
        sizes.clear();
        for (const std::string &s : split(value(), ',')) {
          uint64_t b = 0;
          if (!parse_bytes(s, b) || b == 0)
            die("bad size '" + s + "' (examples: 256M, 4G, 1536M+11200)");
          sizes.push_back(b);
        }
      } else if (name == "--reps") {
        reps = std::atoi(value().c_str());
        if (reps < 1)
          die("--reps must be at least 1");
      } else if (name == "--warmup") {
        warmup = std::atoi(value().c_str());
        if (warmup < 0)
          die("--warmup must be 0 or more");
      } else if (name == "--csv") {
        csv = value();
      } else if (name == "--variants") {
        variants = split(value(), ',');
      } else if (name == "--list") {
        list = true;
      } else {
        usage(stderr);
        die("unknown option '" + a + "'");
      }
    }
  }

  /// Whether `variant` was asked for (all are, when --variants is absent).
  bool wants(const std::string &variant) const {
    return variants.empty() ||
           std::find(variants.begin(), variants.end(), variant) != variants.end();
  }
};

// ---- timing ----------------------------------------------------------------------

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
};

/// Runs `launch` untimed at least `warmup` times and for at least
/// `min_warmup_ms` of wall time (so that clocks have left idle whatever came
/// before), then `reps` times, each between its own pair of CUDA events on the
/// default stream, and returns the median, minimum and maximum of those times.
/// `launch` enqueues work only (kernels or async copies on stream 0); errors
/// are checked after the warm-up and at the end.
inline Timing time_gpu(const std::function<void()> &launch, int warmup, int reps,
                       double min_warmup_ms = 50.0) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int i = 0; i < warmup || (warmup > 0 && elapsed_ms() < min_warmup_ms); ++i) {
    launch();
    if (i % 8 == 7)
      BENCH_CHECK(cudaDeviceSynchronize()); // wall time follows the GPU
  }
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * static_cast<size_t>(reps));
  for (cudaEvent_t &e : ev)
    BENCH_CHECK(cudaEventCreate(&e));
  for (int i = 0; i < reps; ++i) {
    BENCH_CHECK(cudaEventRecord(ev[2 * i], 0));
    launch();
    BENCH_CHECK(cudaEventRecord(ev[2 * i + 1], 0));
  }
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaEventSynchronize(ev.back()));
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    float t = 0;
    BENCH_CHECK(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
    ms[i] = t;
  }
  for (cudaEvent_t &e : ev)
    BENCH_CHECK(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  Timing r;
  r.reps = reps;
  r.min_ms = ms.front();
  r.max_ms = ms.back();
  r.median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  return r;
}

/// Decimal GB/s for `bytes` moved in `ms` milliseconds.
inline double gbps(uint64_t bytes, double ms) {
  return ms > 0 ? static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0.0;
}

// ---- device --------------------------------------------------------------------------

/// Exits with status 2 and a clear message when no CUDA device can be used.
inline void require_device(const char *program) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    std::fprintf(stderr, "error: %s: no usable CUDA device (%s)\n", program,
                 e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    std::exit(2);
  }
}

/// "NVIDIA H200, sm_90, 132 SMs, 139.8 GiB, driver 13.0, runtime 13.0".
inline std::string device_banner() {
  int dev = 0, driver = 0, runtime = 0;
  cudaDeviceProp p{};
  BENCH_CHECK(cudaGetDevice(&dev));
  BENCH_CHECK(cudaGetDeviceProperties(&p, dev));
  BENCH_CHECK(cudaDriverGetVersion(&driver));
  BENCH_CHECK(cudaRuntimeGetVersion(&runtime));
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s, sm_%d%d, %d SMs, %.1f GiB, driver API %d.%d, runtime %d.%d",
                p.name, p.major, p.minor, p.multiProcessorCount,
                static_cast<double>(p.totalGlobalMem) / (1ull << 30), driver / 1000,
                (driver % 1000) / 10, runtime / 1000, (runtime % 1000) / 10);
  return buf;
}

/// The current device's multiprocessor count, or 0 when CUDA cannot say (the
/// error is cleared; the caller decides what to do without it).
inline int sm_count() {
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      sms < 1) {
    (void)cudaGetLastError();
    return 0;
  }
  return sms;
}

/// Bytes of device memory free now.
inline uint64_t free_device_bytes() {
  size_t free_b = 0, total_b = 0;
  BENCH_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

// ---- results file ------------------------------------------------------------------------

/// One CSV file shared by every program of a benchmark run. Lines starting
/// with '#' are "# key: value" notes (device, versions); the header line is
/// written once, before the first row, by whichever program writes a row first.
class Csv {
public:
  static constexpr const char *kHeader =
      "bench,variant,label,compiler,size_bytes,bytes_moved,reps,median_ms,min_ms,max_ms,gbps,status";

  explicit Csv(const std::string &path) : path_(path) {
    if (path_.empty())
      return;
    FILE *f = std::fopen(path_.c_str(), "a");
    if (!f)
      die("cannot open " + path_ + " for appending: " + std::strerror(errno));
    std::fclose(f);
  }
  void note(const std::string &key, const std::string &value) const {
    append("# " + key + ": " + value + "\n");
  }
  void row(const std::string &bench, const std::string &variant, const std::string &label,
           const std::string &compiler, uint64_t size_bytes, uint64_t bytes_moved,
           const Timing &t, const std::string &status) const {
    char buf[1024];
    std::snprintf(buf, sizeof buf, "%s,%s,\"%s\",%s,%llu,%llu,%d,%.6f,%.6f,%.6f,%.3f,%s\n",
                  bench.c_str(), variant.c_str(), label.c_str(), compiler.c_str(),
                  static_cast<unsigned long long>(size_bytes),
                  static_cast<unsigned long long>(bytes_moved), t.reps, t.median_ms,
                  t.min_ms, t.max_ms, gbps(bytes_moved, t.median_ms), status.c_str());
    append(buf);
  }

private:
  void append(const std::string &text) const {
    if (path_.empty())
      return;
    FILE *f = std::fopen(path_.c_str(), "a");
    if (!f)
      die("cannot append to " + path_);
    if (text[0] != '#' && !has_header())
      std::fprintf(f, "%s\n", kHeader);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  // Whether the file already holds the header line (notes may come first).
  bool has_header() const {
    FILE *f = std::fopen(path_.c_str(), "r");
    if (!f)
      return false;
    char line[4096];
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f))
      found = std::strncmp(line, "bench,", 6) == 0;
    std::fclose(f);
    return found;
  }
  std::string path_;
};

// ---- host threads --------------------------------------------------------------------------

/// Calls fn(begin, end) over [0, n) split across the host's cores.
inline void parallel_for(uint64_t n, const std::function<void(uint64_t, uint64_t)> &fn) {
  unsigned threads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  if (n < (1u << 16))
    threads = 1;
  std::vector<std::thread> pool;
  uint64_t per = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    uint64_t b = t * per, e = std::min(n, b + per);
    if (b >= e)
      break;
    pool.emplace_back([&fn, b, e] { fn(b, e); });
  }
  for (std::thread &th : pool)
    th.join();
}

} // namespace bench

#endif // TILEAPPLY_BENCH_COMMON_BENCH_H
