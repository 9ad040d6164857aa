/*===- tile_rt_info.c - Parse the compiler's kernel info text -------------===*
 *
 * A strict reader of the line-based launch metadata of docs/KernelABI.md.
 * Every malformed or inconsistent line is a TILE_RT_ERROR_PARSE whose message
 * quotes the line number and the line, so that a compiler bug shows where it
 * is instead of turning into a bad launch.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version of the format this reader understands. */
#define RT_INFO_VERSION 1
/* The most fields a line can have: a rank-5 tensormap line has 13. */
#define RT_MAX_FIELDS 16
/* Lines are quoted in messages up to this many bytes. */
#define RT_QUOTE_BYTES 160

/* CUDA launch limits (CUDA C Programming Guide, "Technical Specifications
 * per Compute Capability"): threads per block and block dimensions. */
#define RT_MAX_THREADS_PER_BLOCK 1024
#define RT_MAX_BLOCK_XY 1024
#define RT_MAX_BLOCK_Z 64
/* Blocks of a thread-block cluster every GPU with clusters launches (the
 * portable size; 16 on sm_90 only by opting in). */
#define RT_MAX_CLUSTER_BLOCKS 8
/* TMA (cuTensorMapEncodeTiled): each box dimension is 1..256 elements. */
#define RT_MAX_TMA_BOX 256

struct tile_rt_kernel_info {
  int count;
  int capacity;
  tile_rt_kernel_desc *kernels;
  /* What each record's name, params and contracts point to, owned here. */
  char **names;
  tile_rt_param_desc **params;
  tile_rt_contract **contracts;
};

typedef struct rt_line {
  const char *text;
  size_t len;
  int number; /* 1-based */
} rt_line;

typedef struct rt_parser {
  rt_line line;
  int nfields;
  const char *field[RT_MAX_FIELDS];
  size_t field_len[RT_MAX_FIELDS];
  /* The record being read, if any. */
  int in_kernel;
  tile_rt_kernel_desc kernel;
  char *name; /* kernel.name, owned until the record is stored */
  /* kernel.contracts, owned until the record is stored. */
  tile_rt_contract *contracts;
  int contracts_capacity;
  tile_rt_param_desc params[TILE_RT_MAX_PARAMS];
  int have_block, have_smem, have_tensormap, have_cluster;
  rt_line kernel_line;
  rt_line grid_line[3];
  /* The arguments' source names that the contracts give so far. */
  char arg_names[TILE_RT_MAX_PARAMS][TILE_RT_MAX_ARG_NAME + 1];
  /* The names stored so far, for the duplicate check: an open-addressing
   * set of kernel indices + 1 (0: empty), at most half full. A scan of
   * every earlier name made a module of many kernels quadratic. */
  int *slots;
  size_t nslots;
} rt_parser;

/* FNV-1a. */
static uint64_t rt_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

/* The slot of name `s` (length n): where it is, or the empty slot where it
 * would go. */
static size_t rt_name_slot(const rt_parser *p, const tile_rt_kernel_info *info,
                           const char *s, size_t n) {
  size_t mask = p->nslots - 1, at = (size_t)rt_hash(s, n) & mask;
  for (;; at = (at + 1) & mask) {
    int k = p->slots[at] - 1;
    if (k < 0)
      return at;
    const char *name = info->kernels[k].name;
    if (strlen(name) == n && memcmp(name, s, n) == 0)
      return at;
  }
}

/* Records kernel `index` of `info` in the set, growing it to stay at most
 * half full. */
static tile_rt_status
rt_remember_name(rt_parser *p, const tile_rt_kernel_info *info, int index) {
  if (2 * ((size_t)index + 1) > p->nslots) {
    size_t nslots = p->nslots ? 2 * p->nslots : 64;
    int *slots = calloc(nslots, sizeof *slots);
    if (!slots)
      return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
    free(p->slots);
    p->slots = slots;
    p->nslots = nslots;
    for (int i = 0; i < index; ++i) {
      const char *name = info->kernels[i].name;
      p->slots[rt_name_slot(p, info, name, strlen(name))] = i + 1;
    }
  }
  const char *name = info->kernels[index].name;
  p->slots[rt_name_slot(p, info, name, strlen(name))] = index + 1;
  return TILE_RT_SUCCESS;
}

/*===--- Messages ---------------------------------------------------------===*/

static tile_rt_status rt_parse_error(const rt_line *line, const char *fmt, ...)
    RT_PRINTF(2, 3);

static tile_rt_status rt_parse_error(const rt_line *line, const char *fmt,
                                     ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  /* Quote printable bytes only: the line may hold the bad character. */
  char quoted[RT_QUOTE_BYTES + 4];
  size_t n = 0;
  for (size_t i = 0; i < line->len && n < RT_QUOTE_BYTES; ++i) {
    unsigned char c = (unsigned char)line->text[i];
    quoted[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (line->len > RT_QUOTE_BYTES) {
    memcpy(quoted + n, "...", 3);
    n += 3;
  }
  quoted[n] = '\0';
  return rt_error(TILE_RT_ERROR_PARSE, "kernel info line %d ('%s'): %s",
                  line->number, quoted, what);
}

/*===--- Fields -----------------------------------------------------------===*/

static int rt_field_is(const rt_parser *p, int i, const char *word) {
  return p->field_len[i] == strlen(word) &&
         memcmp(p->field[i], word, p->field_len[i]) == 0;
}

/* Splits the current line into fields separated by single spaces. */
static tile_rt_status rt_split(rt_parser *p) {
  const rt_line *l = &p->line;
  if (l->len == 0)
    return rt_parse_error(l, "empty line");
  p->nfields = 0;
  size_t start = 0;
  for (size_t i = 0; i <= l->len; ++i) {
    if (i < l->len) {
      unsigned char c = (unsigned char)l->text[i];
      if (c != ' ' && (c < 0x21 || c > 0x7e))
        return rt_parse_error(l, "invalid character 0x%02x at column %zu", c,
                              i + 1);
      if (c != ' ')
        continue;
    }
    if (i == start)
      return rt_parse_error(l, "fields must be separated by single spaces");
    if (p->nfields == RT_MAX_FIELDS)
      return rt_parse_error(l, "too many fields");
    p->field[p->nfields] = l->text + start;
    p->field_len[p->nfields] = i - start;
    ++p->nfields;
    start = i + 1;
  }
  return TILE_RT_SUCCESS;
}

/* A decimal integer in [lo, hi]: an optional '-', then digits only. */
static int rt_parse_int(const char *s, size_t n, int64_t lo, int64_t hi,
                        int64_t *out) {
  size_t at = 0;
  int negative = 0;
  if (n > 0 && s[0] == '-') {
    negative = 1;
    at = 1;
  }
  /* The magnitude, in uint64 so that INT64_MIN's is representable; 19
   * digits cannot overflow it, and the range check below refuses what does
   * not fit int64. */
  int ok = at < n && n - at <= 19;
  uint64_t magnitude = 0;
  for (size_t k = at; ok && k < n; ++k) {
    if (s[k] < '0' || s[k] > '9')
      ok = 0;
    else
      magnitude = magnitude * 10 + (uint64_t)(s[k] - '0');
  }
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  ok = ok && magnitude <= limit;
  int64_t v = !ok ? 0
              : negative
                  ? (magnitude == (uint64_t)INT64_MAX + 1 ? INT64_MIN
                                                          : -(int64_t)magnitude)
                  : (int64_t)magnitude;
  if (!ok || v < lo || v > hi)
    return 0;
  *out = v;
  return 1;
}

static tile_rt_status rt_int_field(rt_parser *p, int i, const char *what,
                                   int64_t lo, int64_t hi, int64_t *out) {
  if (!rt_parse_int(p->field[i], p->field_len[i], lo, hi, out))
    return rt_parse_error(
        &p->line, "%s must be an integer in [%lld, %lld], got '%.*s'", what,
        (long long)lo, (long long)hi, (int)p->field_len[i], p->field[i]);
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_dtype_field(rt_parser *p, int i, tile_rt_dtype *out) {
  size_t n = p->field_len[i];
  if (rt_dtype_from_span(out, p->field[i], n) == 0)
    return TILE_RT_SUCCESS;
  return rt_parse_error(&p->line,
                        "unknown dtype '%.*s' (expected " RT_DTYPE_NAMES ")",
                        (int)n, p->field[i]);
}

static tile_rt_status rt_expect_fields(rt_parser *p, int n, const char *form) {
  if (p->nfields != n)
    return rt_parse_error(&p->line, "expected '%s' (%d field%s), got %d", form,
                          n, n == 1 ? "" : "s", p->nfields);
  return TILE_RT_SUCCESS;
}

/*===--- Record lines -----------------------------------------------------===*/

static tile_rt_status rt_parse_block(rt_parser *p) {
  RT_TRY(rt_expect_fields(p, 4, "block <x> <y> <z>"));
  if (p->have_block)
    return rt_parse_error(&p->line, "second 'block' line in kernel '%s'",
                          p->kernel.name);
  static const char *const what[3] = {"block x", "block y", "block z"};
  static const int64_t limit[3] = {RT_MAX_BLOCK_XY, RT_MAX_BLOCK_XY,
                                   RT_MAX_BLOCK_Z};
  int64_t total = 1;
  for (int i = 0; i < 3; ++i) {
    int64_t v;
    RT_TRY(rt_int_field(p, 1 + i, what[i], 1, limit[i], &v));
    p->kernel.block[i] = (uint32_t)v;
    total *= v;
  }
  if (total > RT_MAX_THREADS_PER_BLOCK)
    return rt_parse_error(&p->line,
                          "block of %lld threads exceeds the limit of %d",
                          (long long)total, RT_MAX_THREADS_PER_BLOCK);
  p->have_block = 1;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_parse_smem(rt_parser *p) {
  RT_TRY(rt_expect_fields(p, 2, "smem <bytes>"));
  if (p->have_smem)
    return rt_parse_error(&p->line, "second 'smem' line in kernel '%s'",
                          p->kernel.name);
  int64_t v;
  /* cuLaunchKernel takes the bytes as an unsigned int; device limits are
   * checked when the kernel is looked up on a device. */
  RT_TRY(rt_int_field(p, 1, "smem bytes", 0, INT32_MAX, &v));
  p->kernel.smem = (uint32_t)v;
  p->have_smem = 1;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_parse_cluster(rt_parser *p) {
  RT_TRY(rt_expect_fields(p, 4, "cluster <x> <y> <z>"));
  if (p->have_cluster)
    return rt_parse_error(&p->line, "second 'cluster' line in kernel '%s'",
                          p->kernel.name);
  static const char *const what[3] = {"cluster x", "cluster y", "cluster z"};
  int64_t total = 1;
  for (int i = 0; i < 3; ++i) {
    int64_t v;
    RT_TRY(rt_int_field(p, 1 + i, what[i], 1, RT_MAX_CLUSTER_BLOCKS, &v));
    p->kernel.cluster[i] = (uint32_t)v;
    total *= v;
  }
  if (total > RT_MAX_CLUSTER_BLOCKS)
    return rt_parse_error(&p->line,
                          "cluster of %lld blocks exceeds the portable limit "
                          "of %d",
                          (long long)total, RT_MAX_CLUSTER_BLOCKS);
  p->have_cluster = 1;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_parse_grid(rt_parser *p) {
  RT_TRY(rt_expect_fields(p, 5, "grid <axis> <arg> <dim> <tile>"));
  int64_t axis, arg, dim, tile;
  RT_TRY(rt_int_field(p, 1, "grid axis", 0, 2, &axis));
  if (p->kernel.grid[axis].present)
    return rt_parse_error(&p->line, "second 'grid' line for axis %d",
                          (int)axis);
  RT_TRY(rt_int_field(p, 2, "grid argument", -1, TILE_RT_MAX_PARAMS - 1, &arg));
  RT_TRY(rt_int_field(p, 3, "grid dimension", 0, TILE_RT_MAX_RANK - 1, &dim));
  RT_TRY(rt_int_field(p, 4, "grid tile", 1, INT32_MAX, &tile));
  tile_rt_grid_rule *g = &p->kernel.grid[axis];
  g->present = 1;
  g->arg = (int)arg;
  g->dim = (int)dim;
  g->tile = tile;
  /* The argument may be declared by a later param line: checked at 'end'. */
  p->grid_line[axis] = p->line;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_parse_param(rt_parser *p) {
  if (p->nfields < 2)
    return rt_parse_error(&p->line,
                          "expected 'param memref|scalar|tensormap ...'");
  if (p->kernel.nparams == TILE_RT_MAX_PARAMS)
    return rt_parse_error(&p->line, "more than %d params in kernel '%s'",
                          TILE_RT_MAX_PARAMS, p->kernel.name);
  tile_rt_param_desc d;
  memset(&d, 0, sizeof d);
  int64_t arg, rank;
  if (rt_field_is(p, 1, "memref") || rt_field_is(p, 1, "scalar")) {
    int memref = rt_field_is(p, 1, "memref");
    if (memref)
      RT_TRY(rt_expect_fields(p, 5, "param memref <arg> <dtype> <rank>"));
    else
      RT_TRY(rt_expect_fields(p, 4, "param scalar <arg> <dtype>"));
    if (p->have_tensormap)
      return rt_parse_error(&p->line, "argument params must come before the "
                                      "tensormap params");
    RT_TRY(
        rt_int_field(p, 2, "param argument", 0, TILE_RT_MAX_PARAMS - 1, &arg));
    if (arg != p->kernel.nargs)
      return rt_parse_error(&p->line,
                            "argument params must list arguments 0, 1, ... "
                            "in order: expected argument %d, got %lld",
                            p->kernel.nargs, (long long)arg);
    RT_TRY(rt_dtype_field(p, 3, &d.dtype));
    if (memref) {
      RT_TRY(rt_int_field(p, 4, "memref rank", 1, TILE_RT_MAX_RANK, &rank));
      d.kind = TILE_RT_PARAM_MEMREF;
      d.rank = (int)rank;
    } else {
      if (d.dtype != TILE_RT_I32 && d.dtype != TILE_RT_I64 &&
          d.dtype != TILE_RT_F32)
        return rt_parse_error(&p->line,
                              "scalar dtype must be i32, i64 or f32, got %s",
                              tile_rt_dtype_name(d.dtype));
      d.kind = TILE_RT_PARAM_SCALAR;
    }
    d.arg = (int)arg;
    ++p->kernel.nargs;
  } else if (rt_field_is(p, 1, "tensormap")) {
    const char *form = "param tensormap <arg> <dtype> <rank> box <b0> ... "
                       "swizzle <0|32|64|128>";
    if (p->nfields < 5)
      return rt_parse_error(&p->line, "expected '%s'", form);
    RT_TRY(rt_int_field(p, 4, "tensormap rank", 1, TILE_RT_MAX_RANK, &rank));
    RT_TRY(rt_expect_fields(p, 8 + (int)rank, form));
    RT_TRY(rt_int_field(p, 2, "tensormap argument", 0, TILE_RT_MAX_PARAMS - 1,
                        &arg));
    RT_TRY(rt_dtype_field(p, 3, &d.dtype));
    if (arg >= p->kernel.nargs || p->params[arg].kind != TILE_RT_PARAM_MEMREF)
      return rt_parse_error(&p->line,
                            "tensormap argument %lld is not a memref argument "
                            "declared above",
                            (long long)arg);
    const tile_rt_param_desc *m = &p->params[arg];
    if (m->dtype != d.dtype || m->rank != rank)
      return rt_parse_error(&p->line,
                            "tensormap over argument %lld is %s rank %lld, but "
                            "the memref is %s rank %d",
                            (long long)arg, tile_rt_dtype_name(d.dtype),
                            (long long)rank, tile_rt_dtype_name(m->dtype),
                            m->rank);
    if (!rt_field_is(p, 5, "box"))
      return rt_parse_error(&p->line, "expected 'box' as field 6");
    if (!rt_field_is(p, 6 + (int)rank, "swizzle"))
      return rt_parse_error(&p->line, "expected 'swizzle' after %lld box sizes",
                            (long long)rank);
    for (int i = 0; i < rank; ++i) {
      int64_t b;
      RT_TRY(rt_int_field(p, 6 + i, "box size", 1, RT_MAX_TMA_BOX, &b));
      d.box[i] = (uint32_t)b;
    }
    int64_t swizzle;
    RT_TRY(rt_int_field(p, 7 + (int)rank, "swizzle", 0, 128, &swizzle));
    if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
      return rt_parse_error(&p->line,
                            "swizzle must be 0, 32, 64 or 128, "
                            "got %lld",
                            (long long)swizzle);
    /* cuTensorMapEncodeTiled: the inner box row is a multiple of 16 bytes,
     * and no wider than the swizzle span when swizzled. */
    size_t inner = d.box[0] * tile_rt_dtype_size(d.dtype);
    if (inner % 16 != 0)
      return rt_parse_error(&p->line,
                            "inner box %u x %s = %zu bytes is not a multiple "
                            "of 16 bytes (TMA)",
                            d.box[0], tile_rt_dtype_name(d.dtype), inner);
    if (swizzle != 0 && inner > (size_t)swizzle)
      return rt_parse_error(&p->line,
                            "inner box %u x %s = %zu bytes exceeds the "
                            "%lld-byte swizzle span (TMA)",
                            d.box[0], tile_rt_dtype_name(d.dtype), inner,
                            (long long)swizzle);
    d.kind = TILE_RT_PARAM_TENSORMAP;
    d.arg = (int)arg;
    d.rank = (int)rank;
    d.swizzle = (int)swizzle;
    p->have_tensormap = 1;
  } else {
    return rt_parse_error(&p->line,
                          "unknown param kind '%.*s' (expected memref, "
                          "scalar or tensormap)",
                          (int)p->field_len[1], p->field[1]);
  }
  p->params[p->kernel.nparams++] = d;
  return TILE_RT_SUCCESS;
}

/* access <arg> <read|write|readwrite>: what the kernel does to memref
 * argument <arg>, declared by a param line above. At most one per argument;
 * an argument without one reads as TILE_RT_ACCESS_UNKNOWN (texts of older
 * compilers, hand-written ones). */
static tile_rt_status rt_parse_access(rt_parser *p) {
  RT_TRY(rt_expect_fields(p, 3, "access <arg> <read|write|readwrite>"));
  int64_t arg;
  RT_TRY(
      rt_int_field(p, 1, "access argument", 0, TILE_RT_MAX_PARAMS - 1, &arg));
  if (arg >= p->kernel.nargs)
    return rt_parse_error(&p->line,
                          "access argument %lld is not an argument declared "
                          "above (%d declared so far)",
                          (long long)arg, p->kernel.nargs);
  tile_rt_param_desc *d = &p->params[arg];
  if (d->kind != TILE_RT_PARAM_MEMREF)
    return rt_parse_error(&p->line,
                          "access argument %lld is a scalar; only memref "
                          "arguments have an access",
                          (long long)arg);
  if (d->access != TILE_RT_ACCESS_UNKNOWN)
    return rt_parse_error(&p->line, "second 'access' line for argument %lld",
                          (long long)arg);
  if (rt_field_is(p, 2, "read"))
    d->access = TILE_RT_ACCESS_READ;
  else if (rt_field_is(p, 2, "write"))
    d->access = TILE_RT_ACCESS_WRITE;
  else if (rt_field_is(p, 2, "readwrite"))
    d->access = TILE_RT_ACCESS_READWRITE;
  else
    return rt_parse_error(&p->line,
                          "access must be read, write or readwrite, got "
                          "'%.*s'",
                          (int)p->field_len[2], p->field[2]);
  return TILE_RT_SUCCESS;
}

/* A contract's argument name: an identifier of at most TILE_RT_MAX_ARG_NAME
 * bytes, or "-" for none. */
static tile_rt_status rt_name_text(rt_parser *p, const char *s, size_t n,
                                   char *out) {
  if (n == 1 && s[0] == '-') {
    out[0] = '\0';
    return TILE_RT_SUCCESS;
  }
  if (n > TILE_RT_MAX_ARG_NAME)
    return rt_parse_error(&p->line, "argument name longer than %d bytes",
                          TILE_RT_MAX_ARG_NAME);
  for (size_t j = 0; j < n; ++j) {
    char c = s[j];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (j > 0 && c >= '0' && c <= '9')))
      return rt_parse_error(&p->line, "argument name is not an identifier");
  }
  memcpy(out, s, n);
  out[n] = '\0';
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_name_field(rt_parser *p, int i, char *out) {
  return rt_name_text(p, p->field[i], p->field_len[i], out);
}

/* Records `name` as argument `arg`'s source name; "" says nothing. */
static tile_rt_status rt_name_argument(rt_parser *p, int arg,
                                       const char *name) {
  char *known = p->arg_names[arg];
  if (!name[0])
    return TILE_RT_SUCCESS;
  if (known[0] && strcmp(known, name) != 0)
    return rt_parse_error(&p->line, "argument %d is named both '%s' and '%s'",
                          arg, known, name);
  strcpy(known, name);
  return TILE_RT_SUCCESS;
}

static const char *const rt_relation_names[] = {"eq", "le", "ge", "lt", "gt"};

/* One item of a contract side: `<arg>:<dim>:<name>`, an integer or an
 * operator; `depth` tracks the postfix stack. */
static tile_rt_status rt_parse_term(rt_parser *p, const char *s, size_t n,
                                    tile_rt_contract_term *t, int *depth) {
  static const char *const operators[] = {"+",   "-",        "*",
                                          "mod", "floordiv", "ceildiv"};
  static const tile_rt_term_kind kinds[] = {
      TILE_RT_TERM_ADD, TILE_RT_TERM_SUB,      TILE_RT_TERM_MUL,
      TILE_RT_TERM_MOD, TILE_RT_TERM_FLOORDIV, TILE_RT_TERM_CEILDIV};
  memset(t, 0, sizeof *t);
  for (size_t i = 0; i < sizeof operators / sizeof *operators; ++i)
    if (n == strlen(operators[i]) && memcmp(s, operators[i], n) == 0) {
      if (*depth < 2)
        return rt_parse_error(&p->line,
                              "contract operator '%s' has fewer than two "
                              "operands before it",
                              operators[i]);
      t->kind = kinds[i];
      --*depth;
      return TILE_RT_SUCCESS;
    }
  const char *colon = memchr(s, ':', n);
  if (!colon) {
    if (!rt_parse_int(s, n, INT64_MIN, INT64_MAX, &t->value))
      return rt_parse_error(&p->line,
                            "contract item '%.*s' is no integer, operator or "
                            "<arg>:<dim>:<name>",
                            (int)n, s);
    t->kind = TILE_RT_TERM_INT;
    ++*depth;
    return TILE_RT_SUCCESS;
  }
  const char *colon2 = memchr(colon + 1, ':', n - (size_t)(colon + 1 - s));
  int64_t arg, dim;
  if (!colon2 ||
      !rt_parse_int(s, (size_t)(colon - s), 0, TILE_RT_MAX_PARAMS - 1, &arg) ||
      !rt_parse_int(colon + 1, (size_t)(colon2 - colon - 1), 0,
                    TILE_RT_MAX_RANK - 1, &dim))
    return rt_parse_error(&p->line,
                          "contract item '%.*s' must be <arg>:<dim>:<name> "
                          "with an argument below %d and a dimension below %d",
                          (int)n, s, TILE_RT_MAX_PARAMS, TILE_RT_MAX_RANK);
  char name[TILE_RT_MAX_ARG_NAME + 1];
  RT_TRY(rt_name_text(p, colon2 + 1, n - (size_t)(colon2 + 1 - s), name));
  RT_TRY(rt_name_argument(p, (int)arg, name));
  t->kind = TILE_RT_TERM_DIM;
  t->arg = (int)arg;
  t->dim = (int)dim;
  ++*depth;
  return TILE_RT_SUCCESS;
}

/* Field `i`, one side of a contract: postfix items joined by commas. */
static tile_rt_status rt_parse_side(rt_parser *p, int i, tile_rt_contract *c) {
  const char *s = p->field[i];
  size_t n = p->field_len[i], start = 0;
  int depth = 0;
  for (size_t j = 0; j <= n; ++j) {
    if (j < n && s[j] != ',')
      continue;
    if (c->nterms == TILE_RT_MAX_CONTRACT_TERMS)
      return rt_parse_error(&p->line, "a contract has more than %d items",
                            TILE_RT_MAX_CONTRACT_TERMS);
    RT_TRY(
        rt_parse_term(p, s + start, j - start, &c->terms[c->nterms], &depth));
    ++c->nterms;
    start = j + 1;
  }
  if (depth != 1)
    return rt_parse_error(&p->line,
                          "contract side '%.*s' leaves %d values, not one",
                          (int)n, s, depth);
  return TILE_RT_SUCCESS;
}

/* The simple form of `c`, when its sides are one size against one size or
 * an integer (tile_rt_contract). */
static void rt_simple_form(rt_parser *p, tile_rt_contract *c) {
  const tile_rt_contract_term *l = &c->terms[0], *r = &c->terms[1];
  c->arg = c->bound_arg = -1;
  if (c->nlhs != 1 || c->nterms != 2 || l->kind != TILE_RT_TERM_DIM ||
      (r->kind != TILE_RT_TERM_DIM && r->kind != TILE_RT_TERM_INT))
    return;
  c->arg = l->arg;
  c->dim = l->dim;
  strcpy(c->arg_name, p->arg_names[l->arg]);
  if (r->kind == TILE_RT_TERM_DIM) {
    c->bound_arg = r->arg;
    c->bound_dim = r->dim;
    strcpy(c->bound_name, p->arg_names[r->arg]);
  } else {
    c->bound = r->value;
  }
}

/* require <eq|le|ge|lt|gt> <lhs> <rhs>, or the form of older compilers:
 * require <arg> <dim> <eq|le|ge> <bound_arg> <bound_dim> <bound> <name>
 *         <bound_name> */
static tile_rt_status rt_parse_require(rt_parser *p) {
  tile_rt_kernel_desc *k = &p->kernel;
  if (p->nfields != 4 && p->nfields != 9)
    return rt_parse_error(&p->line,
                          "expected 'require <relation> <lhs> <rhs>' (4 "
                          "fields), got %d",
                          p->nfields);
  tile_rt_contract c;
  memset(&c, 0, sizeof c);
  int relation_field = p->nfields == 4 ? 1 : 3;
  int nrelations = p->nfields == 4 ? 5 : 3;
  int relation = -1;
  for (int r = 0; r < nrelations; ++r)
    if (rt_field_is(p, relation_field, rt_relation_names[r]))
      relation = r;
  if (relation < 0)
    return rt_parse_error(&p->line, p->nfields == 4
                                        ? "contract relation must be eq, le, "
                                          "ge, lt or gt"
                                        : "contract relation must be eq, le "
                                          "or ge");
  c.relation = (tile_rt_relation)relation;
  if (p->nfields == 4) {
    RT_TRY(rt_parse_side(p, 2, &c));
    c.nlhs = c.nterms;
    RT_TRY(rt_parse_side(p, 3, &c));
  } else {
    int64_t arg, dim, bound_arg, bound_dim, bound;
    char name[TILE_RT_MAX_ARG_NAME + 1], bound_name[TILE_RT_MAX_ARG_NAME + 1];
    RT_TRY(rt_int_field(p, 1, "contract argument", 0, TILE_RT_MAX_PARAMS - 1,
                        &arg));
    RT_TRY(rt_int_field(p, 2, "contract dimension", 0, TILE_RT_MAX_RANK - 1,
                        &dim));
    RT_TRY(rt_int_field(p, 4, "contract bound argument", -1,
                        TILE_RT_MAX_PARAMS - 1, &bound_arg));
    RT_TRY(rt_int_field(p, 5, "contract bound dimension", 0,
                        TILE_RT_MAX_RANK - 1, &bound_dim));
    RT_TRY(rt_int_field(p, 6, "contract bound", INT64_MIN, INT64_MAX, &bound));
    RT_TRY(rt_name_field(p, 7, name));
    RT_TRY(rt_name_field(p, 8, bound_name));
    RT_TRY(rt_name_argument(p, (int)arg, name));
    c.terms[0].kind = TILE_RT_TERM_DIM;
    c.terms[0].arg = (int)arg;
    c.terms[0].dim = (int)dim;
    if (bound_arg >= 0) {
      RT_TRY(rt_name_argument(p, (int)bound_arg, bound_name));
      c.terms[1].kind = TILE_RT_TERM_DIM;
      c.terms[1].arg = (int)bound_arg;
      c.terms[1].dim = (int)bound_dim;
    } else {
      c.terms[1].kind = TILE_RT_TERM_INT;
      c.terms[1].value = bound;
    }
    c.nlhs = 1;
    c.nterms = 2;
  }
  rt_simple_form(p, &c);
  if (k->ncontracts == p->contracts_capacity) {
    if (k->ncontracts >= INT_MAX / 2)
      return rt_parse_error(&p->line, "too many 'require' lines");
    int capacity = k->ncontracts ? 2 * k->ncontracts : 8;
    tile_rt_contract *grown =
        realloc(p->contracts, (size_t)capacity * sizeof *grown);
    if (!grown)
      return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
    p->contracts = grown;
    p->contracts_capacity = capacity;
  }
  p->contracts[k->ncontracts++] = c;
  k->contracts = p->contracts;
  return TILE_RT_SUCCESS;
}

/* Each contract reads dimensions that exist of memref arguments; their
 * params take the names the contracts give. */
static tile_rt_status rt_check_contracts(rt_parser *p) {
  const tile_rt_kernel_desc *k = &p->kernel;
  for (int i = 0; i < k->ncontracts; ++i) {
    const tile_rt_contract *c = &k->contracts[i];
    for (int t = 0; t < c->nterms; ++t) {
      const tile_rt_contract_term *term = &c->terms[t];
      if (term->kind != TILE_RT_TERM_DIM)
        continue;
      if (term->arg >= k->nargs ||
          p->params[term->arg].kind != TILE_RT_PARAM_MEMREF ||
          term->dim >= p->params[term->arg].rank)
        return rt_parse_error(&p->kernel_line,
                              "contract %d of kernel '%s' reads dimension %d "
                              "of argument %d, which is not a memref of that "
                              "rank",
                              i, k->name, term->dim, term->arg);
    }
  }
  for (int arg = 0; arg < k->nargs; ++arg)
    strcpy(p->params[arg].name, p->arg_names[arg]);
  return TILE_RT_SUCCESS;
}

/*===--- Records ----------------------------------------------------------===*/

static tile_rt_status rt_begin_kernel(rt_parser *p,
                                      const tile_rt_kernel_info *info) {
  RT_TRY(rt_expect_fields(p, 2, "kernel <name>"));
  size_t n = p->field_len[1];
  if (n > TILE_RT_MAX_NAME)
    return rt_parse_error(&p->line, "kernel name longer than %d bytes",
                          TILE_RT_MAX_NAME);
  if (p->nslots && p->slots[rt_name_slot(p, info, p->field[1], n)] != 0)
    return rt_parse_error(&p->line, "second record for kernel '%.*s'", (int)n,
                          p->field[1]);
  char *name = malloc(n + 1);
  if (!name)
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  memcpy(name, p->field[1], n);
  name[n] = '\0';
  memset(&p->kernel, 0, sizeof p->kernel);
  memset(p->arg_names, 0, sizeof p->arg_names);
  p->kernel.name = p->name = name;
  p->in_kernel = 1;
  p->have_block = p->have_smem = p->have_tensormap = p->have_cluster = 0;
  p->kernel.cluster[0] = p->kernel.cluster[1] = p->kernel.cluster[2] = 1;
  p->kernel_line = p->line;
  return TILE_RT_SUCCESS;
}

static tile_rt_status rt_end_kernel(rt_parser *p, tile_rt_kernel_info *info) {
  RT_TRY(rt_expect_fields(p, 1, "end"));
  tile_rt_kernel_desc *k = &p->kernel;
  if (!p->have_block)
    return rt_parse_error(&p->line, "kernel '%s' has no 'block' line", k->name);
  if (!p->have_smem)
    return rt_parse_error(&p->line, "kernel '%s' has no 'smem' line", k->name);
  for (int axis = 0; axis < 3; ++axis) {
    const tile_rt_grid_rule *g = &k->grid[axis];
    if (!g->present || g->arg < 0)
      continue;
    if (g->arg >= k->nargs || p->params[g->arg].kind != TILE_RT_PARAM_MEMREF)
      return rt_parse_error(&p->grid_line[axis],
                            "grid argument %d is not a memref argument of "
                            "kernel '%s'",
                            g->arg, k->name);
    if (g->dim >= p->params[g->arg].rank)
      return rt_parse_error(&p->grid_line[axis],
                            "grid dimension %d is out of range for the rank-%d "
                            "memref argument %d",
                            g->dim, p->params[g->arg].rank, g->arg);
  }
  RT_TRY(rt_check_contracts(p));
  if (info->count == info->capacity) {
    size_t capacity = info->capacity ? 2 * (size_t)info->capacity : 4;
    tile_rt_kernel_desc *kernels =
        realloc(info->kernels, capacity * sizeof *kernels);
    if (kernels)
      info->kernels = kernels;
    char **names = realloc(info->names, capacity * sizeof *names);
    if (names)
      info->names = names;
    tile_rt_param_desc **params =
        realloc(info->params, capacity * sizeof *params);
    if (params)
      info->params = params;
    tile_rt_contract **contracts =
        realloc(info->contracts, capacity * sizeof *contracts);
    if (contracts)
      info->contracts = contracts;
    if (!kernels || !names || !params || !contracts)
      return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
    info->capacity = (int)capacity;
  }
  tile_rt_param_desc *params = NULL;
  if (k->nparams > 0) {
    params = malloc((size_t)k->nparams * sizeof *params);
    if (!params)
      return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
    memcpy(params, p->params, (size_t)k->nparams * sizeof *params);
  }
  k->params = params;
  info->names[info->count] = p->name;
  info->params[info->count] = params;
  info->contracts[info->count] = p->contracts;
  info->kernels[info->count++] = *k;
  memset(k, 0, sizeof *k); /* ownership moved to info */
  p->name = NULL;
  p->contracts = NULL;
  p->contracts_capacity = 0;
  p->in_kernel = 0;
  return rt_remember_name(p, info, info->count - 1);
}

static tile_rt_status rt_parse_line(rt_parser *p, tile_rt_kernel_info *info) {
  RT_TRY(rt_split(p));
  if (p->line.number == 1 ||
      (!p->in_kernel && rt_field_is(p, 0, "tile-kernel-info"))) {
    /* The header opens the text; it may repeat between records, where
     * several modules' texts were concatenated. */
    if (!rt_field_is(p, 0, "tile-kernel-info"))
      return rt_parse_error(&p->line,
                            "expected the header 'tile-kernel-info %d'",
                            RT_INFO_VERSION);
    RT_TRY(rt_expect_fields(p, 2, "tile-kernel-info <version>"));
    int64_t version;
    RT_TRY(rt_int_field(p, 1, "version", 0, INT32_MAX, &version));
    if (version != RT_INFO_VERSION)
      return rt_parse_error(&p->line,
                            "unsupported kernel info version %lld (this "
                            "runtime reads version %d)",
                            (long long)version, RT_INFO_VERSION);
    return TILE_RT_SUCCESS;
  }
  if (!p->in_kernel) {
    if (!rt_field_is(p, 0, "kernel"))
      return rt_parse_error(&p->line, "expected 'kernel <name>' to start a "
                                      "record");
    return rt_begin_kernel(p, info);
  }
  if (rt_field_is(p, 0, "block"))
    return rt_parse_block(p);
  if (rt_field_is(p, 0, "smem"))
    return rt_parse_smem(p);
  if (rt_field_is(p, 0, "grid"))
    return rt_parse_grid(p);
  if (rt_field_is(p, 0, "cluster"))
    return rt_parse_cluster(p);
  if (rt_field_is(p, 0, "param"))
    return rt_parse_param(p);
  if (rt_field_is(p, 0, "access"))
    return rt_parse_access(p);
  if (rt_field_is(p, 0, "require"))
    return rt_parse_require(p);
  if (rt_field_is(p, 0, "end"))
    return rt_end_kernel(p, info);
  if (rt_field_is(p, 0, "kernel"))
    return rt_parse_error(&p->line,
                          "kernel '%s' (line %d) has no 'end' before "
                          "the next record",
                          p->kernel.name, p->kernel_line.number);
  return rt_parse_error(&p->line, "unknown line kind '%.*s' in kernel '%s'",
                        (int)p->field_len[0], p->field[0], p->kernel.name);
}

/*===--- Public API -------------------------------------------------------===*/

tile_rt_status tile_rt_kernel_info_free(tile_rt_kernel_info *info) {
  if (!info)
    return TILE_RT_SUCCESS;
  for (int i = 0; i < info->count; ++i) {
    free(info->names[i]);
    free(info->params[i]);
    free(info->contracts[i]);
  }
  free(info->kernels);
  free(info->names);
  free(info->params);
  free(info->contracts);
  free(info);
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_kernel_info_parse(tile_rt_kernel_info **out,
                                         const char *text, size_t len) {
  if (!out || (!text && len))
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_info_parse: NULL argument");
  *out = NULL;
  /* A terminating NUL counted in `len` is not part of the text. */
  while (len > 0 && text[len - 1] == '\0')
    --len;
  rt_parser *p = calloc(1, sizeof *p);
  tile_rt_kernel_info *info = calloc(1, sizeof *info);
  if (!p || !info) {
    free(p);
    free(info);
    return rt_error(TILE_RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  tile_rt_status st = TILE_RT_SUCCESS;
  size_t at = 0;
  int number = 0;
  if (len == 0) {
    p->line.number = 1;
    st = rt_parse_error(&p->line,
                        "empty kernel info (expected the header "
                        "'tile-kernel-info %d')",
                        RT_INFO_VERSION);
  }
  while (st == TILE_RT_SUCCESS && at < len) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - text) : len;
    p->line.text = text + at;
    p->line.len = end - at;
    p->line.number = ++number;
    st = rt_parse_line(p, info);
    at = end + 1; /* a final '\n' ends the text */
  }
  if (st == TILE_RT_SUCCESS && p->in_kernel)
    st = rt_parse_error(&p->kernel_line, "kernel '%s' has no 'end' line",
                        p->kernel.name);
  free(p->name); /* a record left unfinished */
  free(p->contracts);
  free(p->slots);
  free(p);
  if (st != TILE_RT_SUCCESS) {
    tile_rt_kernel_info_free(info);
    return st;
  }
  *out = info;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_kernel_info_count(int *out,
                                         const tile_rt_kernel_info *info) {
  if (!out || !info)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_info_count: NULL argument");
  *out = info->count;
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_kernel_info_get(const tile_rt_kernel_desc **out,
                                       const tile_rt_kernel_info *info,
                                       int index) {
  if (!out || !info)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_info_get: NULL argument");
  if (index < 0 || index >= info->count)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel index %d out of range (the info has %d kernels)",
                    index, info->count);
  *out = &info->kernels[index];
  return TILE_RT_SUCCESS;
}

tile_rt_status tile_rt_kernel_info_find(const tile_rt_kernel_desc **out,
                                        const tile_rt_kernel_info *info,
                                        const char *name) {
  if (!out || !info || !name)
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "tile_rt_kernel_info_find: NULL argument");
  for (int i = 0; i < info->count; ++i) {
    if (strcmp(info->kernels[i].name, name) == 0) {
      *out = &info->kernels[i];
      return TILE_RT_SUCCESS;
    }
  }
  /* List what there is: the usual mistake is a misspelt name. */
  char have[1024] = "";
  size_t used = 0;
  for (int i = 0; i < info->count && used + 4 < sizeof have; ++i) {
    int n = snprintf(have + used, sizeof have - used, "%s'%s'", i ? ", " : "",
                     info->kernels[i].name);
    if (n < 0)
      break;
    used += (size_t)n;
  }
  if (used >= sizeof have)
    used = sizeof have - 1;
  return rt_error(TILE_RT_ERROR_NOT_FOUND,
                  "no kernel '%s' in the kernel info (it has %s)", name,
                  info->count ? have : "no kernels");
}
