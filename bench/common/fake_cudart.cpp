//===- bench/common/fake_cudart.cpp - A host-memory stand-in for cudart ---===//
//
// Lets a benchmark program built here (no GPU) run end to end, so that its
// plumbing (allocation, verification, timing, the CSV rows, run.sh and the
// table) is tested before GPU time is spent on it. Link it instead of
// -lcudart_static, together with the benchmark's own emulation of its kernels:
//
//   extern "C" bool fake_cuda_emulate(const char *kernel, dim3 grid, dim3 block,
//                                     void **args);
//
// which runs the kernel named `kernel` (its mangled name) on the host and
// returns false when it does not know it (cudaLaunchKernel then fails with
// cudaErrorInvalidDeviceFunction). "Device" memory is host memory; events
// read the host clock, so the times mean nothing about a GPU.
//
// Environment: FAKE_CUDA_FREE_MB (what cudaMemGetInfo reports free; default
// 4096), FAKE_CUDA_NO_DEVICE=1 (no device at all).
//
// Only the calls the benchmarks make are here; anything else fails to link.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

extern "C" bool fake_cuda_emulate(const char *kernel, dim3 grid, dim3 block, void **args);

namespace {
std::map<const void *, std::string> &kernels() {
  static std::map<const void *, std::string> m;
  return m;
}
struct Config {
  dim3 grid, block;
  size_t shmem;
  void *stream;
};
Config pending;
cudaError_t last_error = cudaSuccess;
bool no_device() {
  const char *e = std::getenv("FAKE_CUDA_NO_DEVICE");
  return e && *e == '1';
}
double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}
cudaError_t fail(cudaError_t e) {
  last_error = e;
  return e;
}
} // namespace

extern "C" {

// ---- registration and launch (what clang's generated code calls) -----------------
void **__cudaRegisterFatBinary(void *) {
  static void *handle = nullptr;
  return &handle;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}
void __cudaRegisterFunction(void **, const char *hostFun, char *, const char *deviceName, int,
                            uint3 *, uint3 *, dim3 *, dim3 *, int *) {
  kernels()[hostFun] = deviceName;
}
void __cudaRegisterVar(void **, char *, char *, const char *, int, size_t, int, int) {}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream) {
  pending = {grid, block, shmem, stream};
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream) {
  *grid = pending.grid;
  *block = pending.block;
  *shmem = pending.shmem;
  *static_cast<void **>(stream) = pending.stream;
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t,
                             cudaStream_t) {
  auto it = kernels().find(func);
  if (it == kernels().end() || !fake_cuda_emulate(it->second.c_str(), grid, block, args))
    return fail(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}

// ---- device and errors -----------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int *n) {
  *n = no_device() ? 0 : 1;
  return no_device() ? fail(cudaErrorNoDevice) : cudaSuccess;
}
cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "fake CUDA device (host emulation)");
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = 1;
  p->totalGlobalMem = 8ull << 30;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v) {
  *v = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *v) {
  *v = 13000;
  return cudaSuccess;
}
cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}
const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected (fake cudart)";
  case cudaErrorMemoryAllocation: return "out of memory (fake cudart)";
  case cudaErrorInvalidDeviceFunction: return "no host emulation for this kernel (fake cudart)";
  default: return "error (fake cudart)";
  }
}
const char *cudaGetErrorName(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorNoDevice: return "cudaErrorNoDevice";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
  default: return "cudaErrorUnknown";
  }
}
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

// ---- memory -------------------------------------------------------------------------------
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b) {
  const char *e = std::getenv("FAKE_CUDA_FREE_MB");
  *free_b = static_cast<size_t>(e ? std::strtoull(e, nullptr, 10) : 4096) << 20;
  *total_b = 8ull << 30;
  return cudaSuccess;
}
cudaError_t cudaMalloc(void **p, size_t bytes) {
  *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return *p ? cudaSuccess : fail(cudaErrorMemoryAllocation);
}
cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned) { return cudaMalloc(p, bytes); }
cudaError_t cudaFree(void *p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind,
                            cudaStream_t) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int value, size_t bytes) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}

// ---- events -------------------------------------------------------------------------------
cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = reinterpret_cast<cudaEvent_t>(new double(0));
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete reinterpret_cast<double *>(e);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  *reinterpret_cast<double *>(e) = now_ms();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = static_cast<float>(*reinterpret_cast<double *>(b) - *reinterpret_cast<double *>(a));
  return cudaSuccess;
}

} // extern "C"
