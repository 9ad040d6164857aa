/*===- tool_compile.h - Getting a module: compile it, or read it -*- C -*-===*
 *
 * The source options tile-run and tile-bench share: compile FILE.mlir in
 * process through the C API (mlirTileCompile), or read a binary and its
 * kernel info from files (--no-compile --image F --kinfo F).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_TOOL_COMPILE_H
#define TILE_TOOLS_TOOL_COMPILE_H

#include "host_util.h"

#include "tile-c/Compiler.h"

#include "mlir-c/IR.h"

/// The most --param bindings one command takes.
#define TOOL_MAX_PARAMS 64

/// Where the module comes from and how to compile it.
typedef struct tool_source {
  const char *mlir_path; ///< The positional FILE.mlir.
  const char *chip;      ///< NULL: the C API's default (sm_90a).
  const char *features;  ///< NULL: the C API's default (+ptx80).
  int opt_level;         ///< -1: the C API's default (3).
  int ptx;               ///< Emit PTX for the driver to JIT, not a cubin.
  const char *emit_dir;  ///< Write <stem>.cubin|.ptx and <stem>.kinfo here.
  int no_compile;        ///< Read image_path and kinfo_path instead.
  const char *image_path;
  const char *kinfo_path;
  /// --param NAME=VALUE bindings of the kernels' parameters.
  const char *params[TOOL_MAX_PARAMS];
  int nparams;
  /// The kernel the tool runs and the one it checks against (or NULL),
  /// set by the tool: with bindings, only they are compiled. A NULL kernel:
  /// every kernel.
  const char *kernel, *reference;
} tool_source;

/// An MlirStringCallback that appends each piece to the tool_buffer `user`.
void tool_append_string(MlirStringRef s, void *user);

/// A new MLIR context with the tile dialects loaded, the tile passes and
/// pipelines registered; the caller destroys it.
MlirContext tool_mlir_context(void);

/// The option lines for --help.
extern const char tool_source_usage[];

/// Sets the defaults.
void tool_source_init(tool_source *s);

/// If argv[*i] is a source option, consumes it (advancing *i past its
/// value) and returns 1; returns 0 for other arguments, -1 after printing
/// that a value is missing or bad.
int tool_source_option(tool_source *s, int argc, char **argv, int *i);

/// Checks the combination of options; 0, or 1 after printing what is wrong.
int tool_source_validate(const tool_source *s);

/// Parses `path` in `ctx` and compiles it with `options` into `image` and
/// `kinfo`. 0, or 1 after printing why (MLIR's diagnostics go to the
/// context's handler).
int tool_compile_file(MlirContext ctx, const char *path,
                      const MlirTileCompileOptions *options, tool_buffer *image,
                      tool_buffer *kinfo);

/// Compiles (printing the time it took) or reads the module into `image`
/// and `kinfo`, and writes the --emit-dir files. 0, or 1 after printing why.
int tool_source_load(const tool_source *s, tool_buffer *image,
                     tool_buffer *kinfo);

#endif /* TILE_TOOLS_TOOL_COMPILE_H */
