//===- TileHardware.h - GPU facts the dialect itself relies on --*- C++ -*-===//
//
// The few hardware numbers that the dialect's verifiers and target-neutral
// passes use. Target lowerings keep their own facts beside them (e.g.
// lib/Conversion/TileToNVGPU/SM90.h).
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

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEHARDWARE_H
