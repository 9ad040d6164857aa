# -*- Python -*-
# lit configuration of the tile-mlir tests.

import os
import shutil
import subprocess
import sys

import lit.formats

# Run from the source tree without a build directory's site config, e.g. on
# a GPU machine with prebuilt tools: `lit -Dtile_tools=DIR test/Integration`
# where DIR holds tile-run, FileCheck and not, and DIR/../lib the runtime's
# and the Python package's libraries.
if not hasattr(config, "tile_obj_root"):
    import lit.llvm
    if "tile_tools" not in lit_config.params:
        lit_config.fatal("run lit on the build directory's test/ folder, or "
                         "pass -Dtile_tools=DIR (prebuilt tools)")
    tools = os.path.abspath(lit_config.params["tile_tools"])
    config.tile_src_root = os.path.dirname(os.path.dirname(__file__))
    config.tile_obj_root = os.path.join(tools, "..")
    config.tile_tools_dir = tools
    config.llvm_tools_dir = tools
    config.cuda_bin_dir = os.path.join(
        os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin")
    lit.llvm.initialize(lit_config, config)
    # The tools' run path names the build machine's lib/: they, the GPU
    # probe below and the tests find the runtime's libraries in DIR/../lib.
    library_path = os.pathsep.join(
        p for p in (os.path.abspath(os.path.join(tools, "..", "lib")),
                    os.environ.get("LD_LIBRARY_PATH")) if p)
    os.environ["LD_LIBRARY_PATH"] = library_path
    config.environment["LD_LIBRARY_PATH"] = library_path

from lit.llvm import llvm_config

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
config.substitutions.append(("%tile_tools_dir", config.tile_tools_dir))
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "CUDA_HOME", "TILE_RT_LIBCUDA",
                                     "TILE_NVDISASM"])
llvm_config.use_default_substitutions()
for d in [config.cuda_bin_dir, config.llvm_tools_dir, config.tile_tools_dir]:
    llvm_config.with_environment("PATH", d, append_path=True)
# ptxas for tile-assemble-cubin.
config.environment["CUDA_HOME"] = os.path.dirname(config.cuda_bin_dir)

# A sanitizer build (LLVM_USE_SANITIZER, tools/run-tests.sh): leaks are
# reported and UB ends the test. User poisoning is off: the
# BumpPtrAllocator code inlined into our objects poisons slabs that the
# uninstrumented libMLIR.so then allocates from without unpoisoning (a
# false "use-after-poison"). Python runs with the ASan runtime preloaded
# and without leak checks (the interpreter keeps its objects at exit).
if getattr(config, "sanitizers", ""):
    asan_options = "allow_user_poisoning=0"
    config.environment["ASAN_OPTIONS"] = asan_options + ":detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    runtime = subprocess.run(
        [config.c_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
        capture_output=True, text=True).stdout.strip()
    config.substitutions.insert(0, (
        "%python", f"env LD_PRELOAD={runtime} "
        f"ASAN_OPTIONS={asan_options}:detect_leaks=0 \"{sys.executable}\""))
    config.available_features.add("sanitizers")

# tile-fuzz is built (TILE_ENABLE_FUZZER).
if getattr(config, "fuzzer", "") in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("fuzzer")

# Install tests (test/Install): `cmake --install` of this build, and
# consumers of the installed tree built with this build's CMake, generator
# and compilers, and with pkg-config (feature pkg-config); the Python
# package pip-installed offline into a venv (feature python-venv: venv, pip,
# setuptools and, before setuptools 70.1, wheel).
if hasattr(config, "cmake_command"):
    config.substitutions.append(("%cmake", f'"{config.cmake_command}"'))
    config.substitutions.append(("%consumer_cmake_args", " ".join([
        f'-G "{config.cmake_generator}"',
        f'-DCMAKE_MAKE_PROGRAM="{config.cmake_make_program}"',
        f'-DCMAKE_C_COMPILER="{config.c_compiler}"',
        f'-DCMAKE_CXX_COMPILER="{config.cxx_compiler}"'])))
    config.substitutions.append(("%cc", f'"{config.c_compiler}"'))
    config.substitutions.append(("%llvm_lib_dir", config.llvm_library_dir))
    if shutil.which("pkg-config"):
        config.available_features.add("pkg-config")
    probe = ("import importlib.util as u, venv, setuptools; "
             "assert u.find_spec('pip') and (u.find_spec('wheel') or "
             "u.find_spec('setuptools.command.bdist_wheel'))")
    if subprocess.run([sys.executable, "-c", probe],
                      capture_output=True).returncode == 0:
        config.available_features.add("python-venv")

# The charts of python/benchmarks/report.py need matplotlib (tools/setup.sh
# installs it); without it their test is unsupported.
if subprocess.run([sys.executable, "-c", "import matplotlib"],
                  capture_output=True).returncode == 0:
    config.available_features.add("matplotlib")

# The formatting check (`REQUIRES: clang-format`) uses clang-format 22,
# whose LLVM style the tree follows (tools/setup.sh installs it).
for candidate in ("/usr/lib/llvm-22/bin/clang-format",
                  "/usr/bin/clang-format-22"):
    if os.path.exists(candidate):
        config.available_features.add("clang-format")
        config.substitutions.append(("%clang_format", candidate))
        break

# The fast launch extension of the Python package (lib/Python) is built
# where Python's headers are (tools/setup.sh installs them).
if os.path.exists(os.path.join(config.tile_obj_root, "lib",
                               "_tile_launch.abi3.so")):
    config.available_features.add("fast-launch")

# GPU tests (`REQUIRES: cuda`) run only where the runtime finds a device.
def has_gpu():
    probe = os.path.join(config.tile_tools_dir, "tile-run")
    if not os.path.exists(probe):
        return False
    try:
        r = subprocess.run([probe, "--probe"], capture_output=True, timeout=60)
        return r.returncode == 0
    except Exception:
        return False

if has_gpu():
    config.available_features.add("cuda")
    # PyTorch tests on the GPU (`REQUIRES: cuda, torch`): CUDA graphs,
    # torch.compile, torch's streams.
    if subprocess.run([sys.executable, "-c",
                       "import torch; assert torch.cuda.is_available()"],
                      capture_output=True, timeout=300).returncode == 0:
        config.available_features.add("torch")

# SASS tests (`REQUIRES: nvdisasm`) run where tile-inspect finds the CUDA
# toolkit's disassembler, by the rules it uses for --sass.
def has_nvdisasm():
    probe = os.path.join(config.tile_tools_dir, "tile-inspect")
    if not os.path.exists(probe):
        return False
    r = subprocess.run([probe, "--which-nvdisasm"], capture_output=True,
                       env=config.environment, timeout=60)
    return r.returncode == 0

if has_nvdisasm():
    config.available_features.add("nvdisasm")
