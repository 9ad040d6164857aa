/*===- problem_json.h - A problem read from JSON -----------------*- C -*-===*
 *
 * A kernel of the user's is run, checked, timed and tuned on a problem
 * given as a small JSON object:
 *
 *   {"args": [{"name": "X", "shape": [4096, 4096], "range": [-1, 1]},
 *             {"name": "W", "shape": [4096]},
 *             {"name": "Y", "shape": [4096, 4096], "output": true},
 *             {"name": "eps", "value": 1e-6}],
 *    "reference": "rmsnorm_naive", "rtol": 1e-2, "rtol_bf16": 2e-2,
 *    "bytes": 67117056}
 *
 * - "args": the kernel's arguments in order. A tensor has a "shape" (dense
 *   row-major); an input is drawn uniform in "range" (default [-1, 1]),
 *   plus "row_shift"[r % n] on row r of the innermost dimension where
 *   given; "output" says whether the kernel writes it (default: what the
 *   kernel's record says it does). A scalar has a "value". "name" is for
 *   messages (default "argI"). The types come from the kernel.
 * - "reference": a kernel of the same module whose outputs the kernel's
 *   must match (default: none for tile-run, which then checks that every
 *   output is written and finite; the kernel's default configuration for
 *   the tuner and tile-bench --tuned).
 * - "rtol", "rtol_bf16": the relative-error threshold (default 1e-2, and
 *   2e-2 when a tensor is bf16).
 * - "flops" or "bytes": the work of one launch, for the throughput
 *   (default: the bytes of every tensor once).
 *
 * An unknown key is an error, so that a misspelt one does not go unseen.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_PROBLEM_JSON_H
#define TILE_TOOLS_PROBLEM_JSON_H

#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the problem in JSON text `text` (`n` bytes) into `d`, op
/// "problem", its key and label the whole description. Returns 0, or 1
/// after printing what is wrong, with where (`args[2].shape`), `what`
/// ("problem.json") first.
int tool_problem_from_json(tool_problem_desc *d, const char *text, size_t n,
                           const char *what);

/// Reads the problem in file `path`; 0, or 1 after printing why.
int tool_problem_from_json_file(tool_problem_desc *d, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* TILE_TOOLS_PROBLEM_JSON_H */
