# lit configuration for tileapply. Substitutions (avoid the name `clang`,
# which lit would rewrite inside `%clang...`):
#   %clangxx        clang++ 22
#   %cuda_flags     -std=c++20 -x cuda, CUDA path, warnings, -I include -I runtime/include
#   %{includes}     -I include -I runtime/include (the compiler's and the runtime's headers)
#   %{runtime_lib}  <build>/lib/libtileapply_runtime.a (TileApply::runtime)
#   %{build}        the build tree
#   %plugin         <build>/lib/TileApply.so        (use -fplugin=%plugin)
#   %passplugin     <build>/lib/TileApplyPass.so    (opt -load-pass-plugin=%passplugin)
#   %ptxas          CUDA's ptxas
#   %nvcc           CUDA's nvcc (feature "nvcc" when it exists)
#   %opcodes        <build>/bin/tileapply-opcodes
#   %{migrate}      <build>/bin/tileapply-migrate
#   %{certify}      <build>/bin/tileapply-certify
#   %{nearmiss}     <build>/bin/tileapply-nearmiss
#   %inputs         test/lit/Inputs
#   %srcroot        the repository root
#   %{cuda_lib}     CUDA's lib64 (for -lcudart_static)
#   %{cuda_path}    the CUDA toolkit
#   %{version}      the project version (project(tileapply VERSION ...))
import os
import subprocess
import lit.formats
import lit.llvm

lit.llvm.initialize(lit_config, config)
from lit.llvm import llvm_config  # noqa: E402  (set by initialize)

config.name = "tileapply"
config.test_format = lit.formats.ShTest(not lit_config.useValgrind)
config.suffixes = [".ll", ".cu", ".test", ".cpp"]
# The suite is rooted where lit.site.cfg.py lives (<build>/test); the tests
# themselves are under test/lit.
config.test_source_root = os.path.join(config.tileapply_src_root, "test")
config.test_exec_root = os.path.join(config.tileapply_obj_root, "test")
config.excludes = ["Inputs", "unit", "gpu", "tools", "fuzz", "CMakeLists.txt"]

llvm_config.use_default_substitutions()
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.join(config.cuda_path, "bin"), config.environment.get("PATH", "")])
llvm_config.add_tool_substitutions(["opt", "llc", "FileCheck", "not", "count"], [config.llvm_tools_dir])

lib = os.path.join(config.tileapply_obj_root, "lib")
includes = "-I%s -I%s" % (os.path.join(config.tileapply_src_root, "include"),
                          os.path.join(config.tileapply_src_root, "runtime", "include"))
cuda_flags = ("-std=c++20 -x cuda -Wno-unknown-cuda-version --cuda-path=%s %s"
              % (config.cuda_path, includes))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%cuda_flags", cuda_flags))
config.substitutions.append(("%{includes}", includes))
config.substitutions.append(("%{runtime_lib}", os.path.join(lib, "libtileapply_runtime.a")))
config.substitutions.append(("%{build}", config.tileapply_obj_root))
config.substitutions.append(("%passplugin", os.path.join(lib, "TileApplyPass.so")))
config.substitutions.append(("%plugin", os.path.join(lib, "TileApply.so")))
config.substitutions.append(("%ptxas", os.path.join(config.cuda_path, "bin", "ptxas")))
config.substitutions.append(("%{nearmiss}", os.path.join(config.tileapply_obj_root, "bin", "tileapply-nearmiss")))
config.substitutions.append(("%{certify}", os.path.join(config.tileapply_obj_root, "bin", "tileapply-certify")))
config.substitutions.append(("%opcodes", os.path.join(config.tileapply_obj_root, "bin", "tileapply-opcodes")))
config.substitutions.append(("%{migrate}", os.path.join(config.tileapply_obj_root, "bin", "tileapply-migrate")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "lit", "Inputs")))
config.substitutions.append(("%srcroot", config.tileapply_src_root))
config.substitutions.append(("%{cuda_lib}", os.path.join(config.cuda_path, "lib64")))
config.substitutions.append(("%{cuda_path}", config.cuda_path))
config.substitutions.append(("%{version}", config.tileapply_version))

if os.path.exists(os.path.join(config.cuda_path, "bin", "ptxas")):
    config.available_features.add("ptxas")
# nvcc builds the benchmarks' nvcc variants (test/lit/bench).
config.substitutions.append(("%nvcc", os.path.join(config.cuda_path, "bin", "nvcc")))
if os.path.exists(os.path.join(config.cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")
if config.sanitized in ("ON", "1", "TRUE", "True"):
    config.available_features.add("sanitized")
    # The sanitized plugin is loaded into an uninstrumented clang: preload the runtime.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"
    # scripts/sanitize.sh passes the runtime; otherwise ask clang++ for it.
    asan_rt = os.environ.get("TILEAPPLY_ASAN_RUNTIME") or subprocess.run(
        [os.path.join(config.llvm_tools_dir, "clang++"), "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True).stdout.strip()
    config.environment["LD_PRELOAD"] = asan_rt
