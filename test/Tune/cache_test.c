/* The on-disk cache through its C API (tile-c/Cache.h) and the compile
 * cache (mlirTileCompileCached): keys, round trips, corrupted and stale
 * entries, concurrent writers, listing and clearing. Prints one line per
 * check; a failed check says FAIL and the exit code is 1.
 *
 *   tile-cache-test DIR KERNEL.mlir
 *   tile-cache-test --full DIR KERNEL.mlir   (under a file-size limit)
 */
#define _POSIX_C_SOURCE 200809L

#include "tile-c/Cache.h"
#include "tile-c/Compiler.h"
#include "tile-c/Dialect/Tile.h"

#include "mlir-c/IR.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

static MlirStringRef S(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

/* A growing byte buffer for callbacks. */
typedef struct buf {
  char data[1 << 20];
  size_t size;
} buf;

static void to_buf(MlirStringRef s, void *user) {
  buf *b = user;
  size_t n = s.length < sizeof b->data - 1 - b->size
                 ? s.length
                 : sizeof b->data - 1 - b->size;
  memcpy(b->data + b->size, s.data, n);
  b->size += n;
  b->data[b->size] = '\0';
}

static void to_key(MlirStringRef s, void *user) {
  snprintf(user, 65, "%.*s", (int)s.length, s.data);
}

static void key_of(char out[65], const char *kind,
                   const MlirTileCacheComponent *c, size_t n) {
  out[0] = '\0';
  mlirTileCacheComputeKey(S(kind), c, n, to_key, out);
}

static void test_keys(void) {
  MlirTileCacheComponent base[3] = {{S("source"), S("module {}")},
                                    {S("kernel"), S("gemm_f16")},
                                    {S("shape"), S("4096x4096x4096")}};
  char k0[65], k1[65];
  key_of(k0, "tune", base, 3);
  check(strlen(k0) == 64, "a key is 64 hex digits");
  for (int i = 0; i < 3; ++i) {
    MlirTileCacheComponent c[3];
    memcpy(c, base, sizeof c);
    c[i].value = S("something else");
    key_of(k1, "tune", c, 3);
    char what[96];
    snprintf(what, sizeof what, "changing component '%.*s' changes the key",
             (int)base[i].name.length, base[i].name.data);
    check(strcmp(k0, k1) != 0, what);
  }
  MlirTileCacheComponent reordered[3] = {base[2], base[0], base[1]};
  key_of(k1, "tune", reordered, 3);
  check(strcmp(k0, k1) == 0, "the order of the components does not matter");
  key_of(k1, "compile", base, 3);
  check(strcmp(k0, k1) != 0, "the kind is part of the key");
  /* Moving text between a name and a value cannot collide. */
  MlirTileCacheComponent a[1] = {{S("ab"), S("c")}};
  MlirTileCacheComponent b[1] = {{S("a"), S("bc")}};
  key_of(k0, "tune", a, 1);
  key_of(k1, "tune", b, 1);
  check(strcmp(k0, k1) != 0, "names and values are delimited in the key");
}

/* What a load gives. */
typedef struct loaded {
  buf record, blob;
  buf message;
} loaded;
static loaded scratch; /* big: not on the stack */

static void on_blob(MlirStringRef name, MlirStringRef data, void *user) {
  loaded *l = user;
  if (name.length == 5 && memcmp(name.data, "cubin", 5) == 0)
    to_buf(data, &l->blob);
}
static void on_record(MlirStringRef s, void *user) {
  to_buf(s, &((loaded *)user)->record);
}
static void on_message(MlirStringRef s, void *user) {
  to_buf(s, &((loaded *)user)->message);
}

static const MlirTileCacheComponent entry_key[2] = {
    {{"kernel", 6}, {"gemm_f16", 8}}, {{"shape", 5}, {"1x2x3", 5}}};

static MlirTileCacheResult load(const char *dir, loaded *l) {
  memset(l, 0, sizeof *l);
  return mlirTileCacheLoad(S(dir), S("tune"), entry_key, 2, on_record, on_blob,
                           on_message, l);
}

/* Binary data with NUL bytes. */
static const char cubin[] = "\x7f"
                            "ELF\0\0\x01\x02 not really";

static int store(const char *dir, const char *record) {
  MlirTileCacheBlob blob = {S("cubin"), {cubin, sizeof cubin}};
  return mlirLogicalResultIsSuccess(mlirTileCacheStore(
      S(dir), S("tune"), entry_key, 2, S(record), &blob, 1, NULL, NULL));
}

static void entry_path(char *out, size_t n, const char *dir) {
  char key[65];
  key_of(key, "tune", entry_key, 2);
  snprintf(out, n, "%s/v1/tune/%.2s/%s.json", dir, key, key);
}

static void test_round_trip(const char *dir) {
  loaded *l = &scratch;
  check(load(dir, l) == MlirTileCacheMiss, "an absent entry is a miss");
  check(store(dir, "{\"summary\": \"first\"}"), "an entry is stored");
  check(load(dir, l) == MlirTileCacheHit, "then it is a hit");
  check(strstr(l->record.data, "\"first\"") != NULL, "with its record");
  check(l->blob.size == sizeof cubin &&
            memcmp(l->blob.data, cubin, sizeof cubin) == 0,
        "and its blob, byte for byte");
  check(!store(dir, "not json"), "a record that is not JSON is refused");
}

static void rewrite(const char *path, long keep, long flip_at) {
  FILE *f = fopen(path, "rb");
  char *data = malloc(1 << 20);
  size_t n = f ? fread(data, 1, 1 << 20, f) : 0;
  if (f)
    fclose(f);
  if (flip_at >= 0 && (size_t)flip_at < n)
    data[flip_at] = data[flip_at] == 'A' ? 'B' : 'A';
  f = fopen(path, "wb");
  if (f) {
    fwrite(data, 1, keep >= 0 && (size_t)keep < n ? (size_t)keep : n, f);
    fclose(f);
  }
  free(data);
}

/* Changes the byte `after` bytes past the first `needle` in `path`. */
static void flip_after(const char *path, const char *needle, long after) {
  FILE *f = fopen(path, "rb");
  char text[8192] = "";
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f)
    fclose(f);
  text[n] = '\0';
  char *at = strstr(text, needle);
  rewrite(path, -1, at ? (long)(at - text) + after : -1);
}

static void test_corruption(const char *dir) {
  char path[4096];
  entry_path(path, sizeof path, dir);
  loaded *l = &scratch;
  rewrite(path, 40, -1); /* truncated, as by a crash without atomic writes */
  check(load(dir, l) == MlirTileCacheCorrupt,
        "a truncated entry is reported corrupt");
  check(strstr(l->message.data, "does not parse") != NULL,
        "the message says why");
  check(access(path, F_OK) != 0, "and the entry is removed");
  check(load(dir, l) == MlirTileCacheMiss, "so the next load is a miss");
  check(store(dir, "{\"summary\": \"again\"}") &&
            load(dir, l) == MlirTileCacheHit,
        "and a new store is a hit again");

  /* One character of the blob's base64 changed. */
  flip_after(path, "\"base64\":\"", 11);
  check(load(dir, l) == MlirTileCacheCorrupt &&
            strstr(l->message.data, "does not match its digest") != NULL,
        "a blob that does not match its digest is corrupt");

  /* One character of the record changed: the entry's digest covers it. */
  check(store(dir, "{\"summary\": \"again\"}") &&
            load(dir, l) == MlirTileCacheHit,
        "a new store is a hit");
  flip_after(path, "\"again\"", 2);
  check(load(dir, l) == MlirTileCacheCorrupt &&
            strstr(l->message.data, "does not match its digest") != NULL,
        "a record altered in one byte does not match the entry's digest");
  check(access(path, F_OK) != 0, "and the entry is removed");

  /* Another entry's file in this entry's place: stale. */
  MlirTileCacheComponent other[2] = {entry_key[0], {S("shape"), S("9x9x9")}};
  mlirTileCacheStore(S(dir), S("tune"), other, 2, S("{}"), NULL, 0, NULL, NULL);
  char key[65], other_path[4096], cmd[9000];
  key_of(key, "tune", other, 2);
  snprintf(other_path, sizeof other_path, "%s/v1/tune/%.2s/%s.json", dir, key,
           key);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", other_path, path);
  check(system(cmd) == 0 && load(dir, l) == MlirTileCacheCorrupt &&
            strstr(l->message.data, "differs") != NULL,
        "another key's entry in its place is stale");
}

/* Two processes store the same key 300 times each while this one loads:
 * every load is a hit or a miss, never a torn entry. */
static void test_concurrent(const char *dir) {
  char sub[4096];
  snprintf(sub, sizeof sub, "%s/concurrent", dir);
  pid_t kids[2];
  for (int w = 0; w < 2; ++w) {
    kids[w] = fork();
    if (kids[w] == 0) {
      char record[4096];
      int ok = 1;
      for (int i = 0; i < 300; ++i) {
        snprintf(record, sizeof record,
                 "{\"summary\": \"writer %d store %d\", \"pad\": \"%0*d\"}", w,
                 i, 2000 + 500 * w, 0);
        ok &= store(sub, record);
      }
      _exit(ok ? 0 : 1);
    }
  }
  int hits = 0, misses = 0, corrupt = 0;
  for (int i = 0; i < 2000; ++i) {
    loaded *l = &scratch;
    MlirTileCacheResult r = load(sub, l);
    hits += r == MlirTileCacheHit;
    misses += r == MlirTileCacheMiss;
    corrupt += r == MlirTileCacheCorrupt;
  }
  int ok = 1;
  for (int w = 0; w < 2; ++w) {
    int status;
    ok &= waitpid(kids[w], &status, 0) == kids[w] && WIFEXITED(status) &&
          WEXITSTATUS(status) == 0;
  }
  check(ok, "two concurrent writers store every time");
  check(corrupt == 0, "a reader never sees a torn entry");
  check(hits > 0, "and reads entries while they write");
  loaded *l = &scratch;
  check(load(sub, l) == MlirTileCacheHit &&
            strstr(l->record.data, "store 299") != NULL,
        "the last store of one writer is what remains");
  /* No temporary files are left beside the entry. */
  char path[4096], dirpath[4096];
  entry_path(path, sizeof path, sub);
  snprintf(dirpath, sizeof dirpath, "%s", path);
  *strrchr(dirpath, '/') = '\0';
  DIR *d = opendir(dirpath);
  int files = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    files += e->d_name[0] != '.';
  if (d)
    closedir(d);
  check(files == 1, "no temporary file is left behind");
  (void)misses;
}

static void count_entry(const MlirTileCacheListing *e, void *user) {
  (void)e;
  ++*(int *)user;
}

static void test_list_clear(const char *dir) {
  int n = 0;
  check(mlirLogicalResultIsSuccess(
            mlirTileCacheList(S(dir), count_entry, NULL, &n)) &&
            n == 2,
        "the listing finds the two entries");
  check(mlirTileCacheClear(S(dir), NULL, NULL) == 2, "clearing removes them");
  n = 0;
  mlirTileCacheList(S(dir), count_entry, NULL, &n);
  check(n == 0, "and the listing is then empty");
}

/* mlirTileCompileCached: a miss compiles and stores, a hit returns the same
 * bytes, another binding misses. */
typedef struct compiled {
  buf binary, info;
  bool hit;
  int ok;
} compiled;

static void to_binary(MlirStringRef s, void *user) {
  to_buf(s, &((compiled *)user)->binary);
}
static void to_info(MlirStringRef s, void *user) {
  to_buf(s, &((compiled *)user)->info);
}

static void compile_with(MlirContext ctx, const char *file, const char *dir,
                         const char **bindings, size_t nbindings,
                         const char **kernels, size_t nkernels, compiled *out) {
  MlirTileCompileOptions o;
  mlirTileCompileOptionsInitDefault(&o);
  o.format = MlirTileOutputPtx; /* no ptxas needed */
  o.kernels = kernels;
  o.numKernels = nkernels;
  o.bindings = bindings;
  o.numBindings = nbindings;
  memset(out, 0, sizeof *out);
  MlirModule m = mlirModuleCreateParseFromFile(ctx, S(file));
  out->ok = !mlirModuleIsNull(m) &&
            mlirLogicalResultIsSuccess(mlirTileCompileCached(
                m, &o, dir, to_binary, to_info, out, &out->hit));
  if (!mlirModuleIsNull(m))
    mlirModuleDestroy(m);
}

static void compile(MlirContext ctx, const char *file, const char *dir,
                    const char *binding, compiled *out) {
  const char *kernels[] = {"gemm_f16"};
  compile_with(ctx, file, dir, &binding, binding ? 1 : 0, kernels, 1, out);
}

static MlirContext tile_context(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirTileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirTileRegisterPassesAndPipelines();
  return ctx;
}

static int same(const buf *a, const buf *b) {
  return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

static void test_compile_cache(const char *dir, const char *kernel_file) {
  MlirContext ctx = tile_context();
  compiled *c = calloc(3, sizeof *c);
  compile(ctx, kernel_file, dir, NULL, &c[0]);
  compile(ctx, kernel_file, dir, NULL, &c[1]);
  compile(ctx, kernel_file, dir, "STAGES=2", &c[2]);
  check(c[0].ok && !c[0].hit && c[0].binary.size > 0,
        "the first compilation is a miss");
  check(c[1].ok && c[1].hit && same(&c[0].binary, &c[1].binary) &&
            same(&c[0].info, &c[1].info),
        "the same compilation again is a hit, with the same bytes");
  check(c[2].ok && !c[2].hit && !same(&c[0].binary, &c[2].binary),
        "another binding is a miss");
  /* Lists whose items joined with spaces read the same: one binding
   * "BM=128 BN=128" is refused, so it must not be the hit of two. */
  const char *two[] = {"BM=128", "BN=128"}, *one[] = {"BM=128 BN=128"};
  const char *kernel[] = {"gemm_f16"};
  compile_with(ctx, kernel_file, dir, two, 2, kernel, 1, &c[0]);
  compile_with(ctx, kernel_file, dir, one, 1, kernel, 1, &c[1]);
  check(c[0].ok && !c[1].ok && !c[1].hit,
        "one binding with a space is not the hit of two bindings");
  const char *kernels[] = {"gemm_f16", "gemm_bf16"},
             *joined[] = {"gemm_f16 gemm_bf16"};
  compile_with(ctx, kernel_file, dir, NULL, 0, kernels, 2, &c[0]);
  compile_with(ctx, kernel_file, dir, NULL, 0, joined, 1, &c[1]);
  check(c[0].ok && !c[1].hit,
        "one kernel name with a space is not the hit of two kernels");
  free(c);
  mlirContextDestroy(ctx);
}

static void on_error(MlirStringRef s, void *user) { to_buf(s, user); }

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* Writes `text` into a new file `path`. */
static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* Clearing removes the entries it recognises and nothing else: never
 * through a symbolic link, never a file or a tree it does not know. */
static void test_clear_safety(const char *dir) {
  static buf error;
  char cache[4096], target[4096], path[4096], link[4096], cmd[9000];
  /* <cache>/v1 a link to a tree that is not a cache. */
  snprintf(cache, sizeof cache, "%s/linked", dir);
  snprintf(target, sizeof target, "%s/precious", dir);
  snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s'", cache, target);
  check(system(cmd) == 0, "the directories for the link test are made");
  snprintf(path, sizeof path, "%s/sentinel", target);
  write_file(path, "keep me\n");
  snprintf(link, sizeof link, "%s/v1", cache);
  check(symlink(target, link) == 0, "v1 is made a link to another tree");
  error.size = 0;
  check(mlirTileCacheClear(S(cache), on_error, &error) == -1,
        "clearing through a linked v1 is refused");
  check(strstr(error.data, link) != NULL &&
            strstr(error.data, "symbolic link") != NULL,
        "the refusal names the link");
  check(exists(path) && exists(link), "what the link points to survives");
  error.size = 0;
  check(mlirLogicalResultIsFailure(
            mlirTileCacheList(S(cache), NULL, on_error, &error)) &&
            strstr(error.data, link) != NULL,
        "listing is refused too, naming the link");

  /* A v1/ with a file that is no entry, beside one entry. */
  snprintf(cache, sizeof cache, "%s/foreign", dir);
  check(store(cache, "{\"summary\": \"one\"}"), "an entry is stored");
  snprintf(path, sizeof path, "%s/v1/notes.txt", cache);
  write_file(path, "not an entry\n");
  char entry[4096], temp[4200];
  entry_path(entry, sizeof entry, cache);
  snprintf(temp, sizeof temp, "%s.tmp-a1b2c3d4", entry); /* a crashed writer */
  write_file(temp, "{\"bl");
  check(mlirTileCacheClear(S(cache), NULL, NULL) == 1,
        "clearing counts the one entry it removes");
  check(!exists(entry) && exists(path),
        "the entry goes and the foreign file stays");
  check(!exists(temp), "a writer's temporary file left behind goes too");

  /* An entry's name that is a link to a file outside the cache. */
  snprintf(cache, sizeof cache, "%s/entrylink", dir);
  check(store(cache, "{\"summary\": \"one\"}"), "an entry is stored");
  entry_path(entry, sizeof entry, cache);
  snprintf(path, sizeof path, "%s/sentinel", target);
  snprintf(link, sizeof link, "%s", entry);
  memcpy(strrchr(link, '/') + 1, "ff", 2); /* another key, same shard */
  check(symlink(path, link) == 0, "an entry's name is made a link");
  error.size = 0;
  check(mlirTileCacheClear(S(cache), on_error, &error) == -1 &&
            strstr(error.data, link) != NULL,
        "clearing a tree with a linked entry is refused, naming it");
  check(exists(path) && exists(entry), "and removes nothing");
}

/* A cache directory the store creates is the user's alone. */
static void test_private(const char *dir) {
  char cache[4096], v1[4096];
  snprintf(cache, sizeof cache, "%s/private/cache", dir);
  snprintf(v1, sizeof v1, "%s/v1", cache);
  struct stat st, st1;
  check(store(cache, "{}") && stat(cache, &st) == 0 &&
            (st.st_mode & 0777) == 0700,
        "a new cache directory has mode 0700");
  check(stat(v1, &st1) == 0 && (st1.st_mode & 0777) == 0700,
        "and its tree the same");
}

/* Under a file-size limit (the RUN line's ulimit, SIGXFSZ ignored) writes
 * fail as on a full file system: the store says so, leaves no file at the
 * entry's path and no temporary file, and the process carries on; a
 * compilation through the cache still returns its binary. */
static void test_full(const char *dir, const char *kernel_file) {
  static char big[1 << 20];
  static buf error;
  memset(big, 'x', sizeof big);
  MlirTileCacheBlob blob = {S("cubin"), {big, sizeof big}};
  error.size = 0;
  check(mlirLogicalResultIsFailure(
            mlirTileCacheStore(S(dir), S("tune"), entry_key, 2, S("{}"), &blob,
                               1, on_error, &error)),
        "a store past the file-size limit fails");
  check(strstr(error.data, "cannot write") != NULL, "and says why");
  char path[4096], shard[4096];
  entry_path(path, sizeof path, dir);
  check(!exists(path), "no file is left at the entry's path");
  snprintf(shard, sizeof shard, "%s", path);
  *strrchr(shard, '/') = '\0';
  DIR *d = opendir(shard);
  int files = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    files += e->d_name[0] != '.';
  if (d)
    closedir(d);
  check(files == 0, "nor a temporary file");
  MlirContext ctx = tile_context();
  compiled *c = calloc(1, sizeof *c);
  compile(ctx, kernel_file, dir, NULL, c);
  check(c->ok && c->binary.size > 0 && !c->hit,
        "a compilation whose entry cannot be written still returns it");
  int n = 0;
  mlirTileCacheList(S(dir), count_entry, NULL, &n);
  check(n == 0, "and leaves no entry");
  free(c);
  mlirContextDestroy(ctx);
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--full") == 0) {
    test_full(argv[2], argv[3]);
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: tile-cache-test [--full] DIR KERNEL.mlir\n");
    return 2;
  }
  test_keys();
  test_round_trip(argv[1]);
  test_corruption(argv[1]);
  test_concurrent(argv[1]);
  char fresh[4096];
  snprintf(fresh, sizeof fresh, "%s/list", argv[1]);
  store(fresh, "{\"summary\": \"one\"}");
  mlirTileCacheStore(S(fresh), S("compile"), entry_key, 2, S("{}"), NULL, 0,
                     NULL, NULL);
  test_list_clear(fresh);
  test_clear_safety(argv[1]);
  test_private(argv[1]);
  snprintf(fresh, sizeof fresh, "%s/compile", argv[1]);
  test_compile_cache(fresh, argv[2]);
  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
