//===- TileHardware.h - GPU facts the dialect itself relies on --*- C++ -*-===//
//
// The few hardware numbers that the dialect's verifiers and target-neutral
// passes use. Target lowerings keep their own facts beside them (e.g.
// lib/Conversion/TileToNVGPU/SM90/SM90.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEHARDWARE_H
#define TILE_DIALECT_TILE_IR_TILEHARDWARE_H

#include <cstdint>

namespace mlir::tile {

/// Threads of a warp (all NVIDIA GPUs so far).
constexpr int64_t kWarpSize = 32;
/// Threads of a warpgroup: four consecutive warps issue one warpgroup MMA
/// together (PTX ISA 9.7.15, sm_90a).
constexpr int64_t kWarpgroupSize = 128;

/// The most threads of a block (CUDA's limit on every architecture so far),
/// which bounds the warps and warpgroups a layout may name.
constexpr int64_t kMaxBlockThreads = 1024;

/// The most blocks of a thread-block cluster that every GPU with clusters
/// launches (the portable size; sm_90 allows 16 only by opting in).
constexpr int64_t kMaxClusterBlocks = 8;

/// The most elements one tile holds (2^24): far above what a block can
/// hold, low enough that sizes and layout arithmetic stay in range.
constexpr int64_t kMaxTileElements = int64_t(1) << 24;

/// The most pipeline stages a tile.pipelined takes.
constexpr int64_t kMaxStages = 64;
/// The most dimensions of a memref argument (the runtime's
/// TILE_RT_MAX_RANK).
constexpr int64_t kMaxArgRank = 5;
/// The longest kernel name (the runtime's kernel-info records).
constexpr int64_t kMaxKernelName = 255;

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEHARDWARE_H
