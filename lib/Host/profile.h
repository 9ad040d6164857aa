/*===- profile.h - --profile ncu|nsys: the same command under Nsight -*- C
 *-*-===*
 *
 * tile-run and tile-bench take --profile ncu|nsys [--profile-out FILE]: the
 * same command line, less those options, runs again under Nsight Compute
 * (one launch of the kernel, the full section set) or Nsight Systems (a
 * CUDA trace). ncu never changes the clocks (--clock-control none): the
 * kernel runs at the clocks it is timed at. Where the tool is not found,
 * the command to run is printed on stdout and the exit status is 1.
 *
 * The tool is $TILE_NCU or $TILE_NSYS when set (and only it), else the
 * first found on PATH, in $CUDA_HOME/bin (/usr/local/cuda/bin), or in
 * /opt/nvidia/nsight-compute/VERSION/ (ncu) or
 * /opt/nvidia/nsight-systems/VERSION/bin/ (nsys), the last version in name
 * order.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_TOOLS_PROFILE_H
#define TILE_TOOLS_PROFILE_H

typedef enum tool_profiler {
  TOOL_PROFILE_NONE = 0,
  TOOL_PROFILE_NCU,
  TOOL_PROFILE_NSYS,
} tool_profiler;

/// What to profile.
typedef struct tool_profile {
  tool_profiler tool;
  /// The report's name (ncu adds .ncu-rep, nsys .nsys-rep); NULL:
  /// "<program>-<kernel>" in the working directory.
  const char *out;
  /// ncu: the kernel to profile (NULL: any).
  const char *kernel;
  /// ncu: its launches before the one profiled (the check's and the
  /// warm-up's), so that a timed launch is the one measured.
  int launch_skip;
} tool_profile;

/// Reads --profile's value ("ncu" or "nsys") into `*out`; 0, or 1 after
/// printing why not.
int tool_profile_parse(tool_profiler *out, const char *value);

/// Whether argv[i] is --profile, --profile-out or --csv, each followed by
/// its value, which the command run under the profiler leaves out.
int tool_profile_is_option(const char *arg);

/// Runs this program again, with `argv` less those options,
/// under the profiler (execv: returns only on failure). When the profiler
/// is not found, prints the command that would run it on stdout and why
/// not on stderr. Returns 1.
int tool_profile_exec(const tool_profile *p, int argc, char **argv);

#endif /* TILE_TOOLS_PROFILE_H */
