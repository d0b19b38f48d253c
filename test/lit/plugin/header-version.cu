// The plugin refuses a <tileapply/tile.h> of another tileapply version: one
// error, at the first __tile_apply call the compilation checks, and nothing
// else about the calls (another version's layouts may mean something else).
// Each cc1 job reports it for the calls it checks (host calls: the host job).
// RUN: %clangxx -I %S/Inputs/tileapply-0.1 %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=olddev %s
// RUN: %clangxx -I %S/Inputs/tileapply-0.1 %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -fsyntax-only -fplugin=%plugin -Xclang -verify=oldhost %s
// RUN: %clangxx -I %S/Inputs/no-version %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=none %s
// The plugin's own version: the calls are checked as usual.
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-device-only -fsyntax-only -fplugin=%plugin -Xclang -verify=dev %s
// RUN: %clangxx %cuda_flags --cuda-gpu-arch=sm_90a --cuda-host-only -fsyntax-only -fplugin=%plugin -Xclang -verify=host %s
#include <tileapply/tile.h>

__global__ void kernel() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a); // olddev-error-re {{<tileapply/tile.h> ({{.*}}/tileapply/tile.h) is tileapply 0.1.0, but this TileApply.so is tileapply {{[0-9]+\.[0-9]+\.[0-9]+}}: use the header and the plugin of one tileapply (-I <prefix>/include with -fplugin=<prefix>/lib/TileApply.so)}}
                                         // none-error-re@-1 {{<tileapply/tile.h> ({{.*}}/no-version/tileapply/tile.h) has no tile::header_version (it is older than tileapply 0.2.0), but this TileApply.so is tileapply {{.*}}}}
  __tile_apply("fadd.rn.f16x2", a, a, a); // dev-error {{'fadd' is not a PTX instruction tileapply knows}}
}

void host_function() {
  uint32_t a[8][1];
  __tile_apply("add.rn.f16x2", a, a, a); // oldhost-error-re {{<tileapply/tile.h> ({{.*}}) is tileapply 0.1.0, but this TileApply.so is tileapply {{.*}}}}
                                         // host-error@-1 {{__tile_apply in host code}}
                                         // host-note@-2 {{PTX instructions run only on the GPU}}
  __tile_apply("add.rn.f16x2", a, a, a); // host-error {{__tile_apply in host code}}
                                         // host-note@-1 {{PTX instructions run only on the GPU}}
}
