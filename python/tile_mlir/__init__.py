"""tile_mlir: compile tile IR kernels and launch them, from Python.

    import tile_mlir
    compiled = tile_mlir.compile("kernels/gemm.mlir")         # cubin + info
    for k in compiled.kernels():                              # no GPU needed
        print(k)
    with tile_mlir.Runtime(0) as rt:
        gemm = rt.load(compiled).kernel("gemm_f16")
        gemm.launch(a, b, c)          # torch CUDA tensors, on torch's stream

    # Any parametric kernel, tuned on the caller's tensors (docs/Tuning.md):
    r = tile_mlir.autotune("my.mlir", "my_kernel", x, y, reference=ref)
    r.kernel.launch(x, y)

Only the standard library is required; torch is used when passed.
"""

from ._ffi import library_dirs, loaded_libraries
from .compiler import (Compiled, KernelResources, PlannedResources, compile,
                       estimate)
from .errors import (CompileError, CudaError, DeviceOutOfMemoryError,
                     DisassemblerError,
                     InvalidArgumentError, LibraryNotFoundError, NoDeviceError,
                     NoDriverError, NotFoundError, ParseError,
                     RuntimeCallError, RuntimeIOError, RuntimeTimeoutError,
                     TileError, UnsupportedError)
from .info import (Contract, GridRule, KernelDesc, KernelInfo, ParamDesc,
                   dtype_size, kernel_info)
from .runtime import (DeviceBuffer, DeviceInfo, Event, Kernel,
                      KernelAttributes, MemRef, Module, PreparedLaunch,
                      Runtime, Stream, device_count)
from .inspection import (InstructionMix, count_instructions, disassemble,
                         find_disassembler)
from .tune import TuneError, TuneResult, tune, tuned_kernel
from .autotune import (AutotuneError, AutotuneResult, AutotuneWarning,
                       Candidate, Space, TorchRunner, autotune,
                       autotune_key, enumerate_space)
from .torch_library import OpSignature, OpSignatureError, op_signature, torch_op

__all__ = [
    # Compiling and kernel info (host only).
    "compile", "estimate", "Compiled", "KernelResources", "PlannedResources", "kernel_info", "KernelInfo", "KernelDesc",
    "ParamDesc", "GridRule", "Contract", "dtype_size",
    # Inspecting (host only): Compiled.ptx, .ir(), .sass(), .resources().
    "InstructionMix", "count_instructions", "disassemble",
    "find_disassembler",
    # Running.
    "Runtime", "Module", "Kernel", "PreparedLaunch", "KernelAttributes",
    "MemRef", "DeviceBuffer", "DeviceInfo", "Stream", "Event",
    "device_count",
    # PyTorch operators (torch.library custom ops).
    "torch_op", "op_signature", "OpSignature", "OpSignatureError",
    # Tuning.
    "tune", "tuned_kernel", "TuneResult", "TuneError",
    # Tuning any kernel on the caller's tensors.
    "autotune", "autotune_key", "enumerate_space", "AutotuneResult",
    "AutotuneError", "AutotuneWarning", "Candidate", "Space", "TorchRunner",
    # Where the libraries are looked for, and which were loaded.
    "library_dirs", "loaded_libraries",
    # Errors.
    "TileError", "LibraryNotFoundError", "CompileError", "DisassemblerError",
    "RuntimeCallError",
    "NoDriverError", "NoDeviceError", "CudaError", "InvalidArgumentError",
    "ParseError", "NotFoundError", "RuntimeIOError", "DeviceOutOfMemoryError",
    "UnsupportedError", "RuntimeTimeoutError",
]
