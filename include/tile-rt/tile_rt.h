/*===- tile_rt.h - The tile-mlir runtime: load, launch, time -------*- C -*-===*
 *
 * The one public header of the tile-mlir runtime: a plain C11 library over the
 * CUDA Driver API that parses the compiler's kernel info (docs/KernelABI.md),
 * loads a compiled module, marshals kernel parameters and TMA descriptors, and
 * launches and times kernels. libcuda is opened with dlopen at run time, so
 * programs built on this header run (and report the absence cleanly) on
 * machines without a GPU or a driver.
 *
 * Conventions (as in libgit2):
 * - every function that can fail returns a tile_rt_status; results come back
 *   through out-parameters, which come first;
 * - on failure, tile_rt_last_error() holds a message for the calling thread
 *   naming the failing CUDA call, its error name and the kernel involved;
 * - handles are opaque; every tile_rt_*_free(NULL) is a no-op;
 * - what is made from a context keeps it alive: handles may be freed in any
 *   order (the context is reference-counted, atomically);
 * - handles are not locked: use a context and everything made from it from
 *   one thread at a time (kernel info, being plain data, may be shared);
 * - the library never prints, aborts or exits.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_RT_H
#define TILE_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Status and errors
 *===----------------------------------------------------------------------===*/

/// The result of every fallible runtime call.
typedef enum tile_rt_status {
  TILE_RT_SUCCESS = 0,
  TILE_RT_ERROR_NO_DRIVER = 1,        ///< libcuda could not be opened or used.
  TILE_RT_ERROR_NO_DEVICE = 2,        ///< The driver reports no (such) GPU.
  TILE_RT_ERROR_CUDA = 3,             ///< A CUDA call failed; see the message.
  TILE_RT_ERROR_INVALID_ARGUMENT = 4, ///< Bad arguments to a runtime call.
  TILE_RT_ERROR_PARSE = 5,            ///< Malformed kernel info text.
  TILE_RT_ERROR_NOT_FOUND = 6,        ///< No kernel (or symbol) of that name.
  TILE_RT_ERROR_IO = 7,               ///< A file could not be read or written.
  TILE_RT_ERROR_OUT_OF_MEMORY = 8,    ///< Host or device allocation failed.
  TILE_RT_ERROR_UNSUPPORTED = 9,      ///< The device or driver cannot do it.
  TILE_RT_ERROR_TIMEOUT = 10, ///< Work did not finish in the time allowed.
} tile_rt_status;

/// The enumerator's name without the prefix ("SUCCESS", "NO_DRIVER", ...).
/// Returns a static string; never fails ("UNKNOWN" for other values).
const char *tile_rt_status_name(tile_rt_status status);

/// The message of the last failed runtime call on this thread, or "" if none
/// failed yet. The string is owned by the runtime and stays valid until the
/// next failing call on the same thread.
const char *tile_rt_last_error(void);

/*===----------------------------------------------------------------------===*
 * Element types
 *===----------------------------------------------------------------------===*/

/// Element types of memrefs, scalars and tensor maps (KernelABI.md names).
typedef enum tile_rt_dtype {
  TILE_RT_F16 = 0,
  TILE_RT_BF16 = 1,
  TILE_RT_F32 = 2,
  TILE_RT_F64 = 3,
  TILE_RT_I8 = 4,
  TILE_RT_I16 = 5,
  TILE_RT_I32 = 6,
  TILE_RT_I64 = 7,
  TILE_RT_F8E4M3FN = 8, ///< 8-bit float, 4 exponent bits, no infinities
  TILE_RT_F8E5M2 = 9,   ///< 8-bit float, 5 exponent bits (f16's top byte)
} tile_rt_dtype;

/// Size in bytes of one element of `dtype`, or 0 for an invalid value.
size_t tile_rt_dtype_size(tile_rt_dtype dtype);

/// The KernelABI.md name of `dtype` ("f16", "bf16", ...), or "?" if invalid.
/// Returns a static string.
const char *tile_rt_dtype_name(tile_rt_dtype dtype);

/// Parses a KernelABI.md dtype name into `*out`. Fails with
/// TILE_RT_ERROR_INVALID_ARGUMENT for any other string (or NULL).
tile_rt_status tile_rt_dtype_from_name(tile_rt_dtype *out, const char *name);

/*===----------------------------------------------------------------------===*
 * Kernel info: the compiler's launch metadata (host only, no GPU needed)
 *===----------------------------------------------------------------------===*/

/// The largest memref / tensor map rank the ABI allows.
#define TILE_RT_MAX_RANK 5
/// The most `param` lines one kernel may have (memref + scalar + tensormap).
#define TILE_RT_MAX_PARAMS 64
/// The longest kernel name accepted, in bytes.
#define TILE_RT_MAX_NAME 255
/// The longest argument name a contract carries, in bytes.
#define TILE_RT_MAX_ARG_NAME 63

/// What a `param` line describes.
typedef enum tile_rt_param_kind {
  TILE_RT_PARAM_MEMREF = 0,    ///< A memref argument: ptr, sizes, strides.
  TILE_RT_PARAM_SCALAR = 1,    ///< A scalar argument (i32, i64 or f32).
  TILE_RT_PARAM_TENSORMAP = 2, ///< A CUtensorMap over a memref argument.
} tile_rt_param_kind;

/// What a kernel does to the memory of a memref argument (`access` line).
typedef enum tile_rt_access {
  TILE_RT_ACCESS_UNKNOWN = 0,   ///< No `access` line (older or hand-written
                                ///< texts), or not a memref argument.
  TILE_RT_ACCESS_READ = 1,      ///< Only read (or not used): an input.
  TILE_RT_ACCESS_WRITE = 2,     ///< Written, never read: an output.
  TILE_RT_ACCESS_READWRITE = 3, ///< Read and written: mutated in place.
} tile_rt_access;

/// One `param` line of a kernel's info. Plain data owned by the kernel info.
typedef struct tile_rt_param_desc {
  tile_rt_param_kind kind;
  int arg;             ///< The tile.kernel argument index it comes from.
  tile_rt_dtype dtype; ///< Element type (memref, tensormap) or scalar type.
  int rank;            ///< Rank (memref, tensormap); 0 for scalars.
  /// Tensor map box, innermost dimension first (tensormap only).
  uint32_t box[TILE_RT_MAX_RANK];
  int swizzle; ///< Tensor map swizzle in bytes: 0, 32, 64 or 128.
  /// What the kernel does to the argument's memory (memref params only;
  /// UNKNOWN for the others, and for a memref without an `access` line).
  tile_rt_access access;
  /// The argument's source name, as a contract that reads it gives it (""
  /// when none does).
  char name[TILE_RT_MAX_ARG_NAME + 1];
} tile_rt_param_desc;

/// How one grid axis is computed (`grid <axis> <arg> <dim> <tile>`).
typedef struct tile_rt_grid_rule {
  int present;  ///< 0 when the record has no line for this axis (extent 1).
  int arg;      ///< Memref argument index, or -1 for the constant `tile`.
  int dim;      ///< Which size of that memref.
  int64_t tile; ///< Divisor (or the constant extent when arg is -1).
} tile_rt_grid_rule;

/// The most items (integers, dimensions, operators) of one contract's two
/// sides together.
#define TILE_RT_MAX_CONTRACT_TERMS 24
/// How a contract relates its two sides.
typedef enum tile_rt_relation {
  TILE_RT_EQ = 0, ///< equal to
  TILE_RT_LE = 1, ///< at most
  TILE_RT_GE = 2, ///< at least
  TILE_RT_LT = 3, ///< below
  TILE_RT_GT = 4, ///< above
} tile_rt_relation;

/// What one item of a contract's side is. The sides are postfix: an
/// operator takes the two values before it.
typedef enum tile_rt_term_kind {
  TILE_RT_TERM_INT = 0,      ///< The integer `value`.
  TILE_RT_TERM_DIM = 1,      ///< sizes[dim] of memref argument `arg`.
  TILE_RT_TERM_ADD = 2,      ///< a + b
  TILE_RT_TERM_SUB = 3,      ///< a - b
  TILE_RT_TERM_MUL = 4,      ///< a * b
  TILE_RT_TERM_MOD = 5,      ///< a mod b (b > 0; the result is in [0, b))
  TILE_RT_TERM_FLOORDIV = 6, ///< floor(a / b) (b > 0)
  TILE_RT_TERM_CEILDIV = 7,  ///< ceil(a / b) (b > 0)
} tile_rt_term_kind;

/// One item of a contract's side.
typedef struct tile_rt_contract_term {
  tile_rt_term_kind kind;
  int arg;       ///< TILE_RT_TERM_DIM: the memref argument.
  int dim;       ///< TILE_RT_TERM_DIM: which of its sizes.
  int64_t value; ///< TILE_RT_TERM_INT: the integer.
} tile_rt_contract_term;

/// A shape contract (`require` line): `lhs relation rhs`, each side an
/// integer expression over the memref arguments' sizes, held in `terms`:
/// the left side is terms[0, nlhs), the right terms[nlhs, nterms).
///
/// When the left side is one size and the right one size or an integer,
/// the contract is also given in the simple form that most contracts take:
/// sizes[dim] of memref argument `arg` related to sizes[bound_dim] of
/// memref argument `bound_arg`, or to the constant `bound` when
/// `bound_arg` is -1; otherwise `arg` is -1. The names are the arguments'
/// source names ("" when it had none); the param of every memref argument
/// a contract reads carries its name too.
typedef struct tile_rt_contract {
  int arg;
  int dim;
  tile_rt_relation relation;
  int bound_arg;
  int bound_dim;
  int64_t bound;
  char arg_name[TILE_RT_MAX_ARG_NAME + 1];
  char bound_name[TILE_RT_MAX_ARG_NAME + 1];
  int nlhs;   ///< Items of the left side.
  int nterms; ///< Items of both sides.
  tile_rt_contract_term terms[TILE_RT_MAX_CONTRACT_TERMS];
} tile_rt_contract;

/// One kernel's record. Plain data owned by the tile_rt_kernel_info it came
/// from; valid until that info (or the module holding it) is freed.
typedef struct tile_rt_kernel_desc {
  const char *name;
  uint32_t block[3]; ///< Threads per block (x, y, z).
  uint32_t smem;     ///< Dynamic shared memory bytes per block.
  tile_rt_grid_rule grid[3];
  int nargs;   ///< Number of tile.kernel arguments (memref + scalar params).
  int nparams; ///< Number of entries in `params` (tensor maps included).
  const tile_rt_param_desc *params;
  int ncontracts; ///< Number of entries in `contracts` (no fixed limit).
  const tile_rt_contract *contracts;
  /// Blocks per thread-block cluster (x, y, z); 1 1 1 without a `cluster`
  /// line. Above 1, the kernel is launched in clusters (cuLaunchKernelEx)
  /// and its grid is rounded up to a multiple of them.
  uint32_t cluster[3];
} tile_rt_kernel_desc;

/// A parsed kernel info text: the list of kernel records of one module.
typedef struct tile_rt_kernel_info tile_rt_kernel_info;

/// Parses `len` bytes of kernel info text (format in docs/KernelABI.md) into
/// a new `*out`, owned by the caller (free with tile_rt_kernel_info_free).
/// The text need not be NUL-terminated. Strict: any malformed or
/// inconsistent line fails with TILE_RT_ERROR_PARSE and a message quoting the
/// line number and the line.
tile_rt_status tile_rt_kernel_info_parse(tile_rt_kernel_info **out,
                                         const char *text, size_t len);

/// Frees `info` and every tile_rt_kernel_desc it handed out. NULL is a no-op.
tile_rt_status tile_rt_kernel_info_free(tile_rt_kernel_info *info);

/// The number of kernel records in `info`.
tile_rt_status tile_rt_kernel_info_count(int *out,
                                         const tile_rt_kernel_info *info);

/// The record at `index` (0-based, in text order); borrowed from `info`.
tile_rt_status tile_rt_kernel_info_get(const tile_rt_kernel_desc **out,
                                       const tile_rt_kernel_info *info,
                                       int index);

/// The record named `name`; borrowed from `info`. TILE_RT_ERROR_NOT_FOUND
/// (the message lists the kernels there are) when there is none.
tile_rt_status tile_rt_kernel_info_find(const tile_rt_kernel_desc **out,
                                        const tile_rt_kernel_info *info,
                                        const char *name);

/*===----------------------------------------------------------------------===*
 * Cubin resources: what ptxas produced (host only, no GPU needed)
 *===----------------------------------------------------------------------===*/

/// What one kernel of a cubin uses, as recorded in the ELF image itself (its
/// `.nv.info` attributes and `.nv.shared.<kernel>` section). Dynamic shared
/// memory is not in the cubin: it is the kernel info's `smem`.
typedef struct tile_rt_kernel_resources {
  int sm;        ///< The SM the image is for (90 for sm_90a), 0 if unknown.
  int registers; ///< Registers per thread (EIATTR_REGCOUNT).
  /// Static shared memory bytes per block, as ptxas -v and the driver's
  /// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES count it: the section's size less
  /// `reserved_smem`.
  uint32_t static_smem;
  /// Bytes at the start of the kernel's shared section that the image
  /// reserves for the driver (1024 in sm_90+ images that carry a
  /// `.nv.shared.reserved.0` section; else 0).
  uint32_t reserved_smem;
  /// Per-thread stack frame of the kernel itself: local arrays and register
  /// spills (EIATTR_FRAME_SIZE; ptxas's "bytes stack frame").
  uint32_t frame_bytes;
  /// Per-thread stack including the functions it calls (the larger of
  /// EIATTR_MIN_STACK_SIZE, EIATTR_MAX_STACK_SIZE and the frame; ptxas's
  /// "cumulative stack size"). Local memory a launch needs per thread.
  uint32_t stack_bytes;
  uint32_t param_bytes; ///< Kernel parameter bytes (EIATTR_CBANK_PARAM_SIZE).
  int barriers;         ///< Named barriers used (EIATTR_NUM_BARRIERS).
  /// .maxntid / .reqntid of the kernel (EIATTR_MAX_THREADS, EIATTR_REQNTID),
  /// all 0 when it has none.
  uint32_t max_threads[3];
} tile_rt_kernel_resources;

/// Reads the resources of kernel `kernel` from `size` bytes of cubin
/// `image` (a CUDA ELF, 64-bit little-endian) into `*out`, without a GPU or
/// driver. The image is validated strictly: anything malformed (truncated,
/// out-of-bounds offsets, unterminated names, bad attribute records) fails
/// with TILE_RT_ERROR_PARSE and a message saying what and where; an image
/// that is not an ELF at all (PTX text) too. A kernel the image does not
/// define is TILE_RT_ERROR_NOT_FOUND, the message listing those it does.
tile_rt_status tile_rt_cubin_kernel_resources(tile_rt_kernel_resources *out,
                                              const void *image, size_t size,
                                              const char *kernel);

/*===----------------------------------------------------------------------===*
 * Kernel arguments
 *===----------------------------------------------------------------------===*/

/// A device address (a CUdeviceptr).
typedef uint64_t tile_rt_deviceptr;

/// What a tile_rt_arg holds.
typedef enum tile_rt_arg_kind {
  TILE_RT_ARG_MEMREF = 0,
  TILE_RT_ARG_I32 = 1,
  TILE_RT_ARG_I64 = 2,
  TILE_RT_ARG_F32 = 3,
} tile_rt_arg_kind;

/// A strided view of device memory: sizes and strides are in elements,
/// outermost first; the innermost stride must be 1 (KernelABI.md).
typedef struct tile_rt_memref {
  tile_rt_dtype dtype;
  int rank;              ///< 1..TILE_RT_MAX_RANK.
  tile_rt_deviceptr ptr; ///< 16-byte aligned; not owned.
  int64_t sizes[TILE_RT_MAX_RANK];
  int64_t strides[TILE_RT_MAX_RANK];
} tile_rt_memref;

/// One kernel argument, by value: a memref view or a scalar. Plain data the
/// caller owns; it does not own the memory it points to.
typedef struct tile_rt_arg {
  tile_rt_arg_kind kind;
  union {
    tile_rt_memref memref;
    int32_t i32;
    int64_t i64;
    float f32;
  } u;
} tile_rt_arg;

/// Fills `*out` with a memref view of rank `rank` over `ptr`; `sizes` and
/// `strides` (in elements) each hold `rank` values. Checks the rank only.
tile_rt_status tile_rt_arg_memref(tile_rt_arg *out, tile_rt_dtype dtype,
                                  tile_rt_deviceptr ptr, int rank,
                                  const int64_t *sizes, const int64_t *strides);

/// The dense builders below fail with TILE_RT_ERROR_INVALID_ARGUMENT when a
/// stride would overflow int64_t.
///
/// Fills `*out` with a row-major rank-1 view of `n` elements.
tile_rt_status tile_rt_arg_memref_1d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t n);

/// Fills `*out` with a row-major `rows` x `cols` view with leading dimension
/// `ld` elements (pass `cols` for a dense matrix).
tile_rt_status tile_rt_arg_memref_2d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t rows,
                                     int64_t cols, int64_t ld);

/// Fills `*out` with a dense row-major rank-3 view of `d0` x `d1` x `d2`.
tile_rt_status tile_rt_arg_memref_3d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t d0,
                                     int64_t d1, int64_t d2);

/// Fills `*out` with a dense row-major rank-4 view of `d0` x ... x `d3`.
tile_rt_status tile_rt_arg_memref_4d(tile_rt_arg *out, tile_rt_dtype dtype,
                                     tile_rt_deviceptr ptr, int64_t d0,
                                     int64_t d1, int64_t d2, int64_t d3);

/// Fills `*out` with an i32 scalar argument.
tile_rt_status tile_rt_arg_i32(tile_rt_arg *out, int32_t value);
/// Fills `*out` with an i64 scalar argument.
tile_rt_status tile_rt_arg_i64(tile_rt_arg *out, int64_t value);
/// Fills `*out` with an f32 scalar argument.
tile_rt_status tile_rt_arg_f32(tile_rt_arg *out, float value);

/// Checks `args` against the kernel record without launching: the count,
/// each argument's kind, dtype and rank, 16-byte aligned memref pointers,
/// non-negative sizes and strides (a view never reaches before its
/// pointer), innermost stride 1, a non-NULL pointer for a non-empty view
/// whose extent in bytes fits in 64 bits and does not wrap around the
/// address space (all computed with overflow checks), the TMA rules for
/// every tensor map (see tile_rt_launch) and the kernel's shape contracts.
/// On failure,
/// TILE_RT_ERROR_INVALID_ARGUMENT with a message naming the kernel, the
/// argument (and for a contract, the dimensions it reads and their values).
tile_rt_status tile_rt_kernel_desc_check_args(const tile_rt_kernel_desc *desc,
                                              const tile_rt_arg *args,
                                              int nargs);

/// Writes contract `index` of `desc` as the kernel's source states it
/// (`%Q[1] mod %K[1] == 0`, arguments by their names, else `%arg3`) into
/// out[0, size), NUL-terminated and truncated to fit; "" for an index out
/// of range.
void tile_rt_contract_format(char *out, size_t size,
                             const tile_rt_kernel_desc *desc, int index);

/// Computes the launch grid of `desc` for `args` (from its `grid` lines:
/// ceildiv(sizes[dim] of memref arg, tile), constants, absent axes 1),
/// each extent rounded up to a multiple of the cluster's (`cluster`).
/// An extent can be 0 when a size is 0. Fails with
/// TILE_RT_ERROR_INVALID_ARGUMENT when an argument the rules read is missing
/// or not a memref of the right rank, or an extent exceeds the CUDA limits.
tile_rt_status tile_rt_kernel_desc_grid(uint32_t grid[3],
                                        const tile_rt_kernel_desc *desc,
                                        const tile_rt_arg *args, int nargs);

/*===----------------------------------------------------------------------===*
 * Context and device
 *===----------------------------------------------------------------------===*/

/// A device's primary context, retained and made current on creation.
typedef struct tile_rt_context tile_rt_context;

/// Device facts, read with cuDeviceGetAttribute / cuDeviceGetName.
typedef struct tile_rt_device_info {
  char name[256];
  int ordinal;
  int cc_major, cc_minor; ///< Compute capability.
  int sm_count;           ///< Multiprocessors.
  int max_smem_optin;     ///< Max dynamic+static smem per block, opted in.
  int max_threads_per_block;
  int l2_bytes;
  int clock_khz; ///< Peak SM clock, as the driver reports it.
  size_t total_memory;
  /// The CUDA version the driver supports (cuDriverGetVersion: 13000 for
  /// 13.0).
  int driver_version;
} tile_rt_device_info;

/// Counts the GPUs the driver sees into `*out` (0, with success, when the
/// driver reports CUDA_ERROR_NO_DEVICE). Fails with TILE_RT_ERROR_NO_DRIVER
/// when libcuda cannot be loaded or initialised.
/// The driver is loaded once per process from $TILE_RT_LIBCUDA if set, else
/// libcuda.so.1.
tile_rt_status tile_rt_device_count(int *out);

/// Retains the primary context of GPU `ordinal` and makes it current on the
/// calling thread (never cuCtxCreate). The caller owns `*out`. Fails with
/// NO_DRIVER without a usable driver and NO_DEVICE without such a GPU.
tile_rt_status tile_rt_context_create(tile_rt_context **out, int ordinal);

/// Drops the caller's reference to `ctx`. Each module, stream, event and
/// device allocation made from it holds a reference too, so they may be freed
/// before or after it, in any order: the primary context is released (and
/// the handle freed) when the last of them is. After this call the caller
/// uses `ctx` only to free its device allocations (tile_rt_mem_free).
/// NULL is a no-op.
tile_rt_status tile_rt_context_free(tile_rt_context *ctx);

/// Fills `*out` with the facts about the context's device.
tile_rt_status tile_rt_context_device_info(tile_rt_device_info *out,
                                           const tile_rt_context *ctx);

/// Makes `ctx` current on the calling thread (runtime calls taking a handle
/// do this themselves; this is for code that calls CUDA libraries directly).
tile_rt_status tile_rt_context_make_current(tile_rt_context *ctx);

/// Waits for all work on the context's device, at most `timeout_s` seconds
/// (polling the default stream; <= 0 waits forever). TILE_RT_ERROR_TIMEOUT
/// when the work is still running then (a hung kernel).
tile_rt_status tile_rt_context_synchronize(tile_rt_context *ctx,
                                           double timeout_s);

/*===----------------------------------------------------------------------===*
 * Device memory (synchronous, on the default stream)
 *===----------------------------------------------------------------------===*/

/* Copies and fills refuse a NULL device pointer and a span that wraps around
 * the end of the address space, with TILE_RT_ERROR_INVALID_ARGUMENT. */

/// Allocates `bytes` (> 0) of device memory into `*out` (256-byte aligned);
/// the caller owns it and frees it with tile_rt_mem_free. The allocation
/// keeps `ctx` alive until then (see tile_rt_context_free).
tile_rt_status tile_rt_mem_alloc(tile_rt_deviceptr *out, tile_rt_context *ctx,
                                 size_t bytes);

/// Frees memory from tile_rt_mem_alloc on `ctx`, dropping the allocation's
/// reference to `ctx`. A 0 pointer is a no-op.
tile_rt_status tile_rt_mem_free(tile_rt_context *ctx, tile_rt_deviceptr ptr);

/// Copies `bytes` from host `src` to device `dst`.
tile_rt_status tile_rt_mem_htod(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                const void *src, size_t bytes);

/// Copies `bytes` from device `src` to host `dst`.
tile_rt_status tile_rt_mem_dtoh(tile_rt_context *ctx, void *dst,
                                tile_rt_deviceptr src, size_t bytes);

/// Copies `bytes` from device `src` to device `dst`.
tile_rt_status tile_rt_mem_dtod(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                tile_rt_deviceptr src, size_t bytes);

/// Sets `count` bytes at `dst` to `value`.
tile_rt_status tile_rt_mem_set8(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                uint8_t value, size_t count);

/// Sets `count` 16-bit words at `dst` (2-byte aligned) to `value`
/// (0x7e00 poisons f16 with NaN, 0x7fc0 bf16).
tile_rt_status tile_rt_mem_set16(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                 uint16_t value, size_t count);

/// Sets `count` 32-bit words at `dst` (4-byte aligned) to `value`
/// (0x7fc00000 poisons f32 with NaN).
tile_rt_status tile_rt_mem_set32(tile_rt_context *ctx, tile_rt_deviceptr dst,
                                 uint32_t value, size_t count);

/*===----------------------------------------------------------------------===*
 * Streams and events
 *===----------------------------------------------------------------------===*/

/// A CUDA stream. Everywhere a stream is taken, NULL means the default
/// (legacy) stream, which the runtime's streams synchronise with.
typedef struct tile_rt_stream tile_rt_stream;

/// Creates a stream on `ctx` into `*out`; the caller owns it. It keeps
/// `ctx` alive until freed.
tile_rt_status tile_rt_stream_create(tile_rt_stream **out,
                                     tile_rt_context *ctx);

/// Wraps `cu_stream`, a CUstream of `ctx`'s device created by someone else
/// (torch's current stream, say; NULL is the legacy default stream), into
/// `*out`: launches, events and waits then work on it as on the runtime's
/// own streams, with no join through another stream. The CUstream is
/// borrowed: it must outlive the wrapper, which tile_rt_stream_free frees
/// without destroying the CUstream.
tile_rt_status tile_rt_stream_wrap(tile_rt_stream **out, tile_rt_context *ctx,
                                   void *cu_stream);

/// Frees `stream`, destroying its CUstream unless it was wrapped. NULL is a
/// no-op.
tile_rt_status tile_rt_stream_free(tile_rt_stream *stream);

/// Sets `*out` to 1 while `stream` (of `ctx`; NULL: the default stream) is
/// capturing a CUDA graph, else 0. Work launched on a capturing stream is
/// recorded into the graph, not run.
tile_rt_status tile_rt_stream_is_capturing(int *out, tile_rt_context *ctx,
                                           tile_rt_stream *stream);

/// The CUstream behind `stream` (NULL gives the default stream, 0), for
/// libraries such as cuBLAS. Borrowed: do not destroy it.
tile_rt_status tile_rt_stream_native(void **out, tile_rt_stream *stream);

/// Waits for the work queued on `stream` (of context `ctx`), polling
/// cuStreamQuery, at most `timeout_s` seconds (<= 0 waits forever). A kernel
/// that does not finish gives TILE_RT_ERROR_TIMEOUT instead of a hang. A
/// stream capturing a CUDA graph is refused (TILE_RT_ERROR_INVALID_ARGUMENT):
/// its work runs only when the graph is launched, and querying it would
/// invalidate the capture.
tile_rt_status tile_rt_stream_synchronize(tile_rt_context *ctx,
                                          tile_rt_stream *stream,
                                          double timeout_s);

/// A CUDA event with timing.
typedef struct tile_rt_event tile_rt_event;

/// Creates an event on `ctx` into `*out`; the caller owns it. It keeps
/// `ctx` alive until freed.
tile_rt_status tile_rt_event_create(tile_rt_event **out, tile_rt_context *ctx);

/// Destroys `event`. NULL is a no-op.
tile_rt_status tile_rt_event_free(tile_rt_event *event);

/// Records `event` on `stream`.
tile_rt_status tile_rt_event_record(tile_rt_event *event,
                                    tile_rt_stream *stream);

/// Waits until `event` has completed, polling, at most `timeout_s` seconds
/// (<= 0 waits forever); TILE_RT_ERROR_TIMEOUT after that.
tile_rt_status tile_rt_event_synchronize(tile_rt_event *event,
                                         double timeout_s);

/// Milliseconds between two completed events into `*out`.
tile_rt_status tile_rt_event_elapsed_ms(float *out, tile_rt_event *start,
                                        tile_rt_event *end);

/*===----------------------------------------------------------------------===*
 * Modules, kernels and launches
 *===----------------------------------------------------------------------===*/

/// A loaded GPU module plus its parsed kernel info.
typedef struct tile_rt_module tile_rt_module;

/// A kernel of a module, with its launch metadata. Owned by its module.
typedef struct tile_rt_kernel tile_rt_kernel;

/// Loads a module from `image` (`image_size` bytes of cubin, or PTX text for
/// the driver to JIT; copied, so the caller keeps ownership) and parses
/// `kinfo` (`kinfo_len` bytes of kernel info text). The caller owns `*out`,
/// which keeps `ctx` alive until freed.
/// A parse failure is TILE_RT_ERROR_PARSE; a driver rejection (with the JIT
/// log when there is one) TILE_RT_ERROR_CUDA.
tile_rt_status tile_rt_module_load(tile_rt_module **out, tile_rt_context *ctx,
                                   const void *image, size_t image_size,
                                   const char *kinfo, size_t kinfo_len);

/// Unloads `module` and frees its kernels. NULL is a no-op.
tile_rt_status tile_rt_module_free(tile_rt_module *module);

/// The module's parsed kernel info; borrowed from `module`.
tile_rt_status tile_rt_module_kernel_info(const tile_rt_kernel_info **out,
                                          const tile_rt_module *module);

/// Looks up kernel `name` (it must have a kernel info record and exist in the
/// binary) into `*out`, borrowed from `module`. The first lookup sets
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to the record's smem; a
/// request above the device's opt-in limit fails with
/// TILE_RT_ERROR_UNSUPPORTED naming the kernel, the bytes and the limit.
tile_rt_status tile_rt_module_get_kernel(tile_rt_kernel **out,
                                         tile_rt_module *module,
                                         const char *name);

/// The kernel's launch metadata; borrowed from its module.
tile_rt_status tile_rt_kernel_desc_of(const tile_rt_kernel_desc **out,
                                      const tile_rt_kernel *kernel);

/// Compiled-kernel facts from cuFuncGetAttribute.
typedef struct tile_rt_kernel_attrs {
  int registers;   ///< Registers per thread.
  int static_smem; ///< Static shared memory bytes per block.
  int local_bytes; ///< Local memory (spills, stack) bytes per thread.
  int const_bytes; ///< User constant memory bytes.
  int max_threads_per_block;
  int max_dynamic_smem; ///< The dynamic smem limit set for the kernel.
  int ptx_version;      ///< PTX ISA version * 10 it was compiled for.
  int binary_version;   ///< SASS version * 10.
} tile_rt_kernel_attrs;

/// Fills `*out` with the kernel's attributes.
tile_rt_status tile_rt_kernel_attributes(tile_rt_kernel_attrs *out,
                                         const tile_rt_kernel *kernel);

/// Launches `kernel` on `stream` (NULL: default stream) with `args`
/// (`nargs` tile.kernel arguments, in order), asynchronously:
/// - checks the arguments and the shape contracts as
///   tile_rt_kernel_desc_check_args does (a violation launches nothing);
/// - marshals the parameters per KernelABI.md (memref: u64 pointer, i64
///   sizes, i64 strides; scalars by value; then each tensor map by value);
/// - encodes each tensor map with cuTensorMapEncodeTiled after checking the
///   TMA rules (16-byte aligned base, outer strides multiples of 16 bytes and
///   below 2^40, innermost stride 1, box 1..256 per dimension, inner box bytes
///   within the swizzle span) with a message naming the kernel, the argument
///   and the offending value;
/// - computes the grid, and launches with the record's block and smem.
/// A grid with a zero extent launches nothing and succeeds.
tile_rt_status tile_rt_launch(tile_rt_kernel *kernel, const tile_rt_arg *args,
                              int nargs, tile_rt_stream *stream);

/// tile_rt_launch on `cu_stream`, any CUstream of the kernel's context
/// (NULL: the legacy default stream; CU_STREAM_PER_THREAD; a stream another
/// library owns, torch's current stream say; a stream capturing a CUDA
/// graph, into which the launch is then recorded with its parameters as
/// they are now). The same checks, with no wrapper to allocate.
tile_rt_status tile_rt_launch_native(tile_rt_kernel *kernel,
                                     const tile_rt_arg *args, int nargs,
                                     void *cu_stream);

#ifdef __cplusplus
}
#endif

#endif /* TILE_RT_H */
