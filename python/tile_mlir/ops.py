"""The operators as functions on torch tensors, choosing their kernels.

    import tile_mlir.ops as ops
    y = ops.softmax(x)                         # rows of the last dimension
    c = ops.gemm(a, b)                         # a [M, K] @ b [K, N]
    c = ops.gemm(a, b)                         # batched: [B, M, K] @ [B, K, N]
    y = ops.gemm(x, w.t())                     # x @ W.T, W [N, K] in place
    h = ops.gemm(a, b, bias=bias, activation="gelu_tanh")  # fused epilogue
    o = ops.attention(q, k, v, causal=True)    # [B, H, S, D], D 64 or 128;
                                               # k, v may have fewer heads (GQA)

Each call picks a configuration of kernels/*.mlir's parametric kernels for
its dtype and shape: the tuned one when the tuning cache has the problem
(tile-tune, tile_mlir.tune; cache_dir as there), else the dispatch rules'
(dispatch.py). A configuration is compiled once per process and kept;
the choice for a shape is remembered, so later calls cost one dictionary
lookup and a launch on torch's current stream. Outputs are allocated.

The kernels are looked for in $TILE_MLIR_KERNELS_DIR, else the checkout's
kernels/, else share/tile-mlir/kernels beside the installed libraries.
"""

from __future__ import annotations

import math
import os
import threading
from pathlib import Path

from . import _ffi, dispatch
from .compiler import compile as _compile
from .runtime import Runtime
from .tune import OPS as _TUNED_OPS, flag_bindings, tune as _tune

_KERNEL_FILES = {"softmax": "softmax.mlir", "gemm": "gemm.mlir",
                 "gemm_bias_gelu": "gemm_bias_gelu.mlir",
                 "attention": "flash_attention.mlir", "bmm": "bmm.mlir",
                 "gemv": "gemv.mlir", "splitk": "gemm_splitk_reduce.mlir",
                 "softmax_cluster": "softmax_cluster.mlir"}
_ACTIVATIONS = {None: None, "gelu_tanh": False, "gelu": True}

_lock = threading.Lock()
_runtimes: dict[int, Runtime] = {}
_compiled: dict[tuple, object] = {}  # (op, bindings) -> Kernel
_chosen: dict[tuple, object] = {}  # (op, dtype, shape, flags) -> Kernel
# (device, stream) -> [fp32 workspace, i32 counters] of the split-K GEMM
_splitk_space: dict[tuple, list] = {}
use_tuning_cache = True  #: Look problems up in the tuning cache first.


def kernels_dir() -> Path:
    """Where the kernel sources are."""
    explicit = os.environ.get("TILE_MLIR_KERNELS_DIR")
    candidates = [Path(explicit)] if explicit else []
    candidates.append(Path(__file__).resolve().parents[2] / "kernels")
    candidates += [Path(d).parent / "share" / "tile-mlir" / "kernels"
                   for d in _ffi.library_dirs()]
    for d in candidates:
        if (d / "softmax.mlir").is_file():
            return d
    raise FileNotFoundError(
        "no tile-mlir kernels (softmax.mlir, ...) in " +
        ", ".join(str(d) for d in candidates) +
        "; set TILE_MLIR_KERNELS_DIR to the directory holding them")


def _runtime(device: int) -> Runtime:
    rt = _runtimes.get(device)
    if rt is None:
        with _lock:
            rt = _runtimes.setdefault(device, Runtime(device))
    return rt


def _dtype(t) -> str:
    import torch
    names = {torch.float16: "f16", torch.bfloat16: "bf16"}
    if t.dtype not in names:
        raise TypeError(f"tile_mlir.ops takes float16 or bfloat16 tensors, "
                        f"got {t.dtype}")
    if not t.is_cuda:
        raise TypeError(f"tile_mlir.ops takes CUDA tensors, got one on "
                        f"{t.device}")
    return names[t.dtype]


def _kernel(op: str, kernel: str, bindings: dict, device: int):
    """The kernel `kernel` of op's file specialised by `bindings`,
    compiled once per process."""
    key = (op, kernel, device, tuple(sorted(bindings.items())))
    k = _compiled.get(key)
    if k is None:
        source = kernels_dir() / _KERNEL_FILES[op]
        compiled = _compile(source, kernels=[kernel], params=bindings)
        k = _compiled[key] = _runtime(device).load(compiled).kernel(kernel)
    return k


def _choose(op: str, kernel: str, dtype: str, shape: tuple, device: int,
            rule, **flags):
    """The kernel for a problem: remembered, else tuned (cache only), else
    the rule's configuration; either way with the bindings the operands'
    layout decides (flags trans_b: TRANS_B, group: GROUP), since a tuned
    configuration was tuned for the plain layout."""
    key = (op, dtype, shape, device, tuple(sorted(flags.items())))
    k = _chosen.get(key)
    if k is not None:
        return k
    bindings = rule()
    if use_tuning_cache and op in _TUNED_OPS:
        gelu = "erf" if flags.get("erf") else "tanh"
        causal = bool(flags.get("causal"))
        fixed = {"T": dtype, **flag_bindings(op, gelu=gelu, causal=causal),
                 **({"TC": flags["out"]} if "out" in flags else {})}
        if op == "attention":
            fixed["D"] = shape[3]
        hit = _tune(kernels_dir() / _KERNEL_FILES[op], kernel, op, shape,
                    runtime=_runtime(device), params=fixed, causal=causal,
                    gelu=gelu, lookup_only=True)
        if hit is not None:
            bindings = {**hit.bindings, **fixed}
    if flags.get("trans_b"):
        bindings["TRANS_B"] = True
    if "group" in flags:
        bindings["GROUP"] = flags["group"]
    k = _chosen[key] = _kernel(op, kernel, bindings, device)
    return k


def softmax(x, dim: int = -1):
    """softmax(x, dim) over the last dimension, for float16 / bfloat16 CUDA
    tensors whose last dimension is contiguous; fp32 math."""
    import torch
    dtype = _dtype(x)
    if dim not in (-1, x.dim() - 1):
        raise ValueError("tile_mlir.ops.softmax works on the last dimension "
                         "(move it there with movedim)")
    n = x.shape[-1]
    x2 = x.reshape(-1, n) if x.dim() != 2 else x
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    y = torch.empty(x2.shape, dtype=x.dtype, device=x.device)
    m = x2.shape[0]
    if m and n:
        device = x.device.index or 0
        cluster = dispatch.softmax_cluster_config(m, n, dtype)
        if cluster is not None:
            k = _choose("softmax_cluster", "softmax_cluster", dtype, (m, n),
                        device, lambda: cluster)
        else:
            k = _choose("softmax", "softmax", dtype, (m, n), device,
                        lambda: dispatch.softmax_config(n, dtype, rows=m))
        k.launch(x2, y)
    return y.reshape(x.shape)


_TMA_ALIGN = 16  # bytes: TMA's alignment of a row stride and a base


def _tma_ready(t) -> bool:
    """Whether a 2-D tensor is rows of unit-stride elements whose base and
    row stride TMA takes as they are."""
    size = t.element_size()
    return (t.stride(1) == 1 or t.shape[1] == 1) and \
        (t.stride(0) * size) % _TMA_ALIGN == 0 and \
        t.data_ptr() % _TMA_ALIGN == 0 and t.stride(0) >= t.shape[1]


def _padded_empty(m: int, n: int, like):
    """An uninitialised [m, n] view of rows padded to TMA's alignment."""
    import torch
    per_row = _TMA_ALIGN // like.element_size()
    buf = torch.empty(m, -(-n // per_row) * per_row, dtype=like.dtype,
                      device=like.device)
    return buf[:, :n]


def _k_major(b) -> bool:
    """Whether a [K, N] operand is the transpose of row-major [N, K] rows
    that TMA reads in place (x @ W.T): read K-major, as TRANS_B."""
    return b.stride(0) == 1 and b.stride(1) != 1 and _tma_ready(b.t())


def _tma_rows(t):
    """t itself when TMA takes it, else a copy into padded rows (rows whose
    byte length is no multiple of 16, an unaligned view, a column-major
    operand that cannot be read as its transpose)."""
    if _tma_ready(t):
        return t
    out = _padded_empty(*t.shape, t)
    out.copy_(t)
    return out


def gemm(a, b, bias=None, activation: str | None = None):
    """a @ b for a [M, K] and b [K, N], float16 / bfloat16 out, fp32
    accumulation. With `bias` ([N]) and activation "gelu_tanh" or "gelu"
    (erf): gelu(a @ b + bias) in one kernel, as torch's gelu(addmm(bias, a,
    b), approximate=...).

    b may be the transpose of a row-major [N, K] weight (`x @ W.T`, what
    nn.Linear computes): it is read in place, K-major. A single row (M = 1,
    a decode step) runs as a matrix-vector product (kernels/gemv.mlir)
    where the dispatch has a rule for it. Operands whose rows
    TMA cannot read (row bytes not a multiple of 16, unaligned views) are
    copied into padded rows first, and an output of such rows is written
    through a padded buffer; the result is a new contiguous tensor.

    Batched, as torch.matmul: a [B, M, K] @ b [K, N] is one GEMM of B * M
    rows (a viewed as [B * M, K], copied only where torch cannot view it
    so), and so is a [B, M, K] @ b [1, K, N]; a [B, M, K] @ b [B, K, N] is
    one launch of kernels/bmm.mlir (the batch as the grid's z; each b[i]
    may be the transpose of a row-major [N, K]) when TMA reads every
    operand in place, else, as with a bias or a broadcast a, one GEMM per
    batch on views of the operands."""
    import torch
    if activation not in _ACTIVATIONS:
        raise ValueError(f"activation is None, 'gelu_tanh' or 'gelu', got "
                         f"{activation!r}")
    if (bias is None) != (activation is None):
        raise ValueError("the fused epilogue takes a bias and an activation "
                         "together (gemm(a, b, bias=..., activation=...))")
    dtype = _dtype(a)
    if _dtype(b) != dtype or a.dim() not in (2, 3) or b.dim() not in (2, 3) \
            or a.shape[-1] != b.shape[-2]:
        raise ValueError(f"gemm takes a [M, K] or [B, M, K] and b [K, N] or "
                         f"[B, K, N] of one dtype, got {tuple(a.shape)} "
                         f"{a.dtype} and {tuple(b.shape)} {b.dtype}")
    if a.dim() == 3 and b.dim() == 3 and b.shape[0] == 1:
        b = b[0]  # one B for every batch
    if b.dim() == 2:
        if a.dim() == 2:
            return _gemm_2d(a, b, dtype, bias, activation)
        flat = _gemm_2d(a.reshape(-1, a.shape[-1]), b, dtype, bias,
                        activation)
        return flat.view(*a.shape[:-1], b.shape[1])
    # b is [B, K, N] with B != 1; a is [M, K], [1, M, K] or [B, M, K].
    batches = a.shape[0] if a.dim() == 3 else 1
    if batches not in (1, b.shape[0]):
        raise ValueError(f"gemm: the batches of a {tuple(a.shape)} and b "
                         f"{tuple(b.shape)} differ and neither is 1")
    a3 = a if a.dim() == 3 else a.unsqueeze(0)
    c = torch.empty(b.shape[0], a3.shape[1], b.shape[2], dtype=a.dtype,
                    device=a.device)
    if not c.numel():
        return c
    if bias is None and batches > 1 and a.shape[2] and _bmm(a, b, c, dtype):
        return c
    for i in range(b.shape[0]):
        _gemm_2d(a3[i if batches > 1 else 0], b[i], dtype, bias, activation,
                 c=c[i])
    return c


def _tma_ready_3d(t) -> bool:
    """Whether a 3-D tensor is batches of rows that TMA reads in place."""
    return (t.stride(0) * t.element_size()) % _TMA_ALIGN == 0 and \
        all(_tma_ready(t[i]) for i in {0, t.shape[0] - 1})


def _bmm(a, b, c, dtype) -> bool:
    """c[i] = a[i] @ b[i] in one launch of kernels/bmm.mlir, b[i] read
    K-major where it is the transpose of row-major [N, K] rows; False,
    launching nothing, where TMA cannot read an operand in place."""
    trans_b = b.stride(1) == 1 and b.stride(2) != 1 and \
        _tma_ready_3d(b.transpose(1, 2))
    bt = b.transpose(1, 2) if trans_b else b
    if not (_tma_ready_3d(a) and (trans_b or _tma_ready_3d(b)) and
            _tma_ready_3d(c)):
        return False
    (batches, m, kk), n = a.shape, b.shape[2]

    def rule():
        # The tiles one GEMM of batches * m rows would be given.
        tiles = dispatch.gemm_config(batches * m, n, kk, dtype)
        return {**{p: tiles[p] for p in _BMM_TILES if p in tiles},
                "TC": dtype}
    flags = {"trans_b": True} if trans_b else {}
    k = _choose("bmm", "bmm", dtype, (batches, m, n, kk),
                a.device.index or 0, rule, **flags)
    k.launch(a, bt, c)
    return True


_BMM_TILES = ("BM", "BN", "BK", "STAGES", "THREADS")


def _gemm_2d(a, b, dtype, bias, activation, c=None):
    """gemm of a [M, K] and b [K, N] of `dtype` (checked by gemm) into c, a
    new [M, N] tensor unless given."""
    import torch
    (m, kk), n = a.shape, b.shape[1]
    if c is None:
        c = torch.empty(m, n, dtype=a.dtype, device=a.device)
    if not (m and n):
        return c
    if kk == 0:
        c.zero_()
        if bias is not None:
            c.copy_(torch.nn.functional.gelu(
                bias.float().expand(m, n), approximate="none"
                if activation == "gelu" else "tanh"))
        return c
    device = a.device.index or 0
    trans_b = _k_major(b)
    if bias is None and m == 1 and _gemv(a, b, c, trans_b, dtype, device):
        return c
    a = _tma_rows(a)
    b = b.t() if trans_b else _tma_rows(b)
    out = c if _tma_ready(c) else _padded_empty(m, n, c)
    flags = {"trans_b": True} if trans_b else {}
    rule = lambda: dispatch.gemm_config(m, n, kk, dtype)  # noqa: E731
    if bias is None:
        if not _splitk(a, b, out, trans_b, dtype, device):
            k = _choose("gemm", "gemm", dtype, (m, n, kk), device,
                        lambda: {**rule(), "TC": dtype}, out=dtype, **flags)
            k.launch(a, b, out)
    else:
        erf = _ACTIVATIONS[activation]
        k = _choose("gemm_bias_gelu", "gemm_bias_gelu", dtype, (m, n, kk),
                    device, lambda: {**rule(), "ERF": erf}, erf=erf, **flags)
        if bias.stride(0) != 1 or bias.data_ptr() % _TMA_ALIGN:
            bias = bias.clone(memory_format=torch.contiguous_format)
        k.launch(a, b, bias, out)
    if out is not c:
        c.copy_(out)
    return c


def _vector_ready(v) -> bool:
    """Whether a 1-D tensor is unit-stride elements from a 16-byte
    boundary, as kernels/gemv.mlir reads and writes its single rows."""
    return (v.stride(0) == 1 or v.shape[0] == 1) and \
        v.data_ptr() % _TMA_ALIGN == 0


def _single_row(v):
    """The 1-D tensor v as a [1, len] view whose row stride TMA takes: a
    single row's stride addresses nothing, so it is rounded up to 16
    bytes."""
    per_row = _TMA_ALIGN // v.element_size()
    n = v.shape[0]
    return v.as_strided((1, n), (-(-n // per_row) * per_row, 1))


def _gemv(a, b, c, trans_b: bool, dtype, device) -> bool:
    """c = a @ b (a [1, K]) in one launch of kernels/gemv.mlir (its
    gemv, or gemv_splitk where the rule splits K) where a dispatch rule
    takes the problem and every operand is read in place
    (b as TMA reads it, or, with `trans_b` (_k_major), its transpose for
    x @ W.T); False, launching nothing, otherwise."""
    n, kk = b.shape[1], a.shape[1]
    if not (trans_b or _tma_ready(b)) or \
            not (_vector_ready(a[0]) and _vector_ready(c[0])):
        return False
    config = dispatch.gemv_config(n, kk, dtype, trans_b)
    if config is None:
        return False
    flags = {"trans_b": True} if trans_b else {}
    name = dispatch.gemv_kernel(config)
    k = _choose("gemv", name, dtype, (n, kk), device, lambda: config,
                **flags)
    operands = [_single_row(a[0]), b.t() if trans_b else b,
                _single_row(c[0])]
    if name == "gemv_splitk":
        # K over SPLIT blocks: their fp32 partial rows and one counter per
        # BN outputs.
        operands += _partials(a.device, (config["SPLIT"], n),
                              -(-n // config["BN"]))
    k.launch(*operands)
    return True


def _splitk(a, b, c, trans_b: bool, dtype, device) -> bool:
    """c = a @ b in one launch of kernels/gemm_splitk_reduce.mlir where a
    dispatch rule takes the problem: the k tiles of each output tile are
    split over SPLIT blocks, and the last of them to arrive sums their fp32
    partials in a fixed order and writes c once. a, c, and b (its transpose
    with `trans_b`) are rows TMA reads in place; False, launching nothing,
    where no rule takes the problem."""
    (m, kk), n = a.shape, c.shape[1]
    config = dispatch.splitk_config(m, n, kk, dtype, trans_b)
    if config is None:
        return False
    flags = {"trans_b": True} if trans_b else {}
    k = _choose("splitk", "gemm_splitk_reduce", dtype, (m, n, kk), device,
                lambda: config, **flags)
    tiles = -(-m // config["BM"]) * -(-n // config["BN"])
    k.launch(a, b, c, *_partials(a.device, (config["SPLIT"], m, n), tiles))
    return True


def _partials(dev, shape: tuple, counters: int):
    """The fp32 partial results of a kernel that splits K over blocks, a
    view of `shape` (the split first, the output's columns last) whose rows
    are padded to TMA's 16 bytes, as the output's are, and `counters`
    zeroed i32: both from the per-stream buffers of _splitk_buffers."""
    *lead, n = shape
    floats = -(-n * 4 // _TMA_ALIGN) * _TMA_ALIGN // 4  # one padded row
    strides = [1]
    for d in reversed(lead):
        strides.insert(0, floats)
        floats *= d
    space, held = _splitk_buffers(dev, floats, counters)
    return space.as_strided(tuple(shape), tuple(strides)), held


def _splitk_buffers(dev, floats: int, counters: int):
    """The split-K GEMM's fp32 workspace (at least `floats`) and i32 tile
    counters (at least `counters`, zero) for launches on torch's current
    stream of `dev`. Launches on one stream run in order, each writing the
    workspace before reading it and leaving the counters zero, so they
    share one pair; a pair is kept per stream and grown, never shrunk."""
    import torch
    key = (dev.index or 0, torch.cuda.current_stream(dev).cuda_stream)
    with _lock:
        held = _splitk_space.get(key)
        if held is None or held[0].numel() < floats or \
                held[1].numel() < counters:
            have = held or [torch.empty(0), torch.empty(0)]
            held = _splitk_space[key] = [
                torch.empty(max(floats, have[0].numel()), dtype=torch.float32,
                            device=dev),
                torch.zeros(max(counters, have[1].numel()), dtype=torch.int32,
                            device=dev)]
        return held


def attention(q, k, v, causal: bool = False, scale: float | None = None):
    """softmax(q k^T * scale) v for q [B, H, S, D] and k, v [B, Hkv, Skv, D]
    (D 64 or 128, scale 1/sqrt(D) by default), the scores never in memory.
    Grouped-query and multi-query attention: Hkv may divide H, query head
    h then reads key/value head h // (H // Hkv), as SDPA's enable_gqa. The
    keys may be of another length than the queries; `causal` masks as
    SDPA's is_causal does (query i sees keys 0..i)."""
    import torch
    dtype = _dtype(q)
    if q.dim() != 4 or k.dim() != 4:
        raise ValueError(f"attention takes [B, H, S, D] tensors, got "
                         f"{tuple(q.shape)} and {tuple(k.shape)}")
    o = torch.empty_like(q, memory_format=torch.contiguous_format)
    b, h, s, d = q.shape
    hkv = k.shape[1]
    if hkv < 1 or h % hkv:
        raise ValueError(f"attention needs the key/value heads to divide the "
                         f"query heads, got {hkv} key/value heads under {h} "
                         f"query heads")
    group = h // hkv
    if not (b and h and s):
        return o
    device = q.device.index or 0
    # The key length picks the rule too (keys: remembered per length).
    keys = k.shape[2]
    flags = {"causal": bool(causal), "keys": keys}
    if group > 1:
        flags["group"] = group
    kern = _choose("attention", "attention", dtype, (b, h, s, d), device,
                   lambda: dispatch.attention_config(d, causal, dtype,
                                                     keys=keys),
                   **flags)
    kern.launch(q, k, v, o, 1 / math.sqrt(d) if scale is None else scale)
    return o


def clear() -> None:
    """Forgets the choices and the compiled kernels (after tuning, say)."""
    with _lock:
        _chosen.clear()
        _compiled.clear()
        _splitk_space.clear()
