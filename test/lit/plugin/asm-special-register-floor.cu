// A special register's own floor: the cluster registers came with sm_90
// (ptxas: "Feature '%clusterid' requires .target sm_90 or higher").
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_80 --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm80 %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=sm90 %s
// sm90-no-diagnostics
__device__ unsigned cluster_x() {
  unsigned x;
  // sm80-error@+2 {{ptxas would reject this: '%clusterid.x' needs sm_90 or newer, but this compilation targets sm_80}}
  // sm80-note@+1 {{compile for a newer GPU (--cuda-gpu-arch=sm_90)}}
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(x));
  unsigned t;
  asm("mov.u32 %0, %%tid.x;" : "=r"(t));
  return x + t;
}
