/*===- profile.c - --profile ncu|nsys: the same command under Nsight ------===*/

#define _POSIX_C_SOURCE 200809L

#include "profile.h"

#include "host_util.h"

#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROFILE_MAX_ARGS 64
#define PROFILE_PATH_MAX 4096

int tool_profile_parse(tool_profiler *out, const char *value) {
  if (strcmp(value, "ncu") == 0)
    *out = TOOL_PROFILE_NCU;
  else if (strcmp(value, "nsys") == 0)
    *out = TOOL_PROFILE_NSYS;
  else
    return tool_fail("--profile wants ncu or nsys, got '%s'", value);
  return 0;
}

int tool_profile_is_option(const char *arg) {
  /* --csv too: the run under the profiler would overwrite the CSV with
   * timings the profiler slowed down. */
  return strcmp(arg, "--profile") == 0 || strcmp(arg, "--profile-out") == 0 ||
         strcmp(arg, "--csv") == 0;
}

static int executable(const char *path) { return access(path, X_OK) == 0; }

/* `dir`/`name` into `buf` when it is executable. */
static int try_dir(char *buf, size_t n, const char *dir, size_t dir_len,
                   const char *name) {
  if (dir_len == 0)
    return 0;
  snprintf(buf, n, "%.*s/%s", (int)dir_len, dir, name);
  return executable(buf);
}

/* The last executable match of `pattern` in name order into `buf`. */
static int try_glob(char *buf, size_t n, const char *pattern) {
  glob_t g;
  int found = 0;
  if (glob(pattern, 0, NULL, &g) == 0) {
    for (size_t i = g.gl_pathc; i-- > 0 && !found;)
      if (executable(g.gl_pathv[i])) {
        snprintf(buf, n, "%s", g.gl_pathv[i]);
        found = 1;
      }
  }
  globfree(&g);
  return found;
}

/* Where the profiler is (profile.h), into `buf`; 0 when not found. */
static int find_tool(char *buf, size_t n, tool_profiler tool) {
  const char *name = tool == TOOL_PROFILE_NCU ? "ncu" : "nsys";
  const char *env = getenv(tool == TOOL_PROFILE_NCU ? "TILE_NCU" : "TILE_NSYS");
  if (env && *env) {
    snprintf(buf, n, "%s", env);
    return executable(buf);
  }
  const char *path = getenv("PATH");
  for (const char *p = path; p && *p;) {
    size_t len = strcspn(p, ":");
    if (try_dir(buf, n, p, len, name))
      return 1;
    p += len + (p[len] == ':');
  }
  const char *cuda = getenv("CUDA_HOME");
  char dir[PROFILE_PATH_MAX];
  snprintf(dir, sizeof dir, "%s/bin", cuda && *cuda ? cuda : "/usr/local/cuda");
  if (try_dir(buf, n, dir, strlen(dir), name))
    return 1;
  return try_glob(buf, n,
                  tool == TOOL_PROFILE_NCU
                      ? "/opt/nvidia/nsight-compute/*/ncu"
                      : "/opt/nvidia/nsight-systems/*/bin/nsys");
}

/* Prints `arg` for a POSIX shell: as is when it is safe, else quoted. */
static void print_quoted(FILE *f, const char *arg) {
  if (*arg && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                          "0123456789_@%+=:,./-^") == strlen(arg)) {
    fputs(arg, f);
    return;
  }
  fputc('\'', f);
  for (; *arg; ++arg) {
    if (*arg == '\'')
      fputs("'\\''", f);
    else
      fputc(*arg, f);
  }
  fputc('\'', f);
}

static void print_command(FILE *f, const char **args) {
  for (int i = 0; args[i]; ++i) {
    if (i)
      fputc(' ', f);
    print_quoted(f, args[i]);
  }
  fputc('\n', f);
}

int tool_profile_exec(const tool_profile *p, int argc, char **argv) {
  char tool[PROFILE_PATH_MAX], self[PROFILE_PATH_MAX], out[PROFILE_PATH_MAX];
  char skip[32];
  const char *name = p->tool == TOOL_PROFILE_NCU ? "ncu" : "nsys";
  int found = find_tool(tool, sizeof tool, p->tool);
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0)
    self[len] = '\0';
  else
    snprintf(self, sizeof self, "%s", argv[0]);
  if (p->out)
    snprintf(out, sizeof out, "%s", p->out);
  else
    snprintf(out, sizeof out, "%s-%s", tool_name,
             p->kernel ? p->kernel : "profile");
  snprintf(skip, sizeof skip, "%d", p->launch_skip);

  const char *args[PROFILE_MAX_ARGS + 24];
  const int cap = (int)(sizeof args / sizeof *args) - 1;
  int n = 0;
  args[n++] = found ? tool : name;
  if (p->tool == TOOL_PROFILE_NCU) {
    const char *ncu[] = {"--clock-control",  "none", "--launch-skip", skip,
                         "--launch-count",   "1",    "--set",         "full",
                         "--force-overwrite"};
    for (size_t i = 0; i < sizeof ncu / sizeof *ncu; ++i)
      args[n++] = ncu[i];
    if (p->kernel) {
      args[n++] = "--kernel-name";
      args[n++] = p->kernel;
    }
  } else {
    const char *nsys[] = {"profile", "--trace", "cuda", "--force-overwrite",
                          "true"};
    for (size_t i = 0; i < sizeof nsys / sizeof *nsys; ++i)
      args[n++] = nsys[i];
  }
  args[n++] = "-o";
  args[n++] = out;
  args[n++] = self;
  for (int i = 1; i < argc; ++i) {
    if (tool_profile_is_option(argv[i])) {
      ++i;
      continue;
    }
    if (n == cap)
      return tool_fail("--profile: more than %d arguments", PROFILE_MAX_ARGS);
    args[n++] = argv[i];
  }
  args[n] = NULL;

  if (!found) {
    const char *var = p->tool == TOOL_PROFILE_NCU ? "TILE_NCU" : "TILE_NSYS";
    const char *env = getenv(var);
    if (env && *env)
      tool_fail("--profile: %s='%s' is not an executable; to profile, run:",
                var, env);
    else
      tool_fail("--profile: no %s on PATH, in $CUDA_HOME/bin or in "
                "/opt/nvidia; to profile, run:",
                name);
    print_command(stdout, args);
    return 1;
  }
  fprintf(stderr, "%s: running under %s: ", tool_name, name);
  print_command(stderr, args);
  fflush(stdout);
  fflush(stderr);
  /* execv's argv is not const, though it is not written to. */
  char *exec_args[sizeof args / sizeof *args];
  for (int i = 0; i <= n; ++i)
    exec_args[i] = (char *)(uintptr_t)args[i];
  execv(tool, exec_args);
  return tool_fail("--profile: cannot run '%s': %s", tool, strerror(errno));
}
