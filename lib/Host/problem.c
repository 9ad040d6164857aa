/*===- problem.c - A kernel's problem, as data
 * -----------------------------===*/

#include "problem.h"

#include "host_util.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===--- Describing -------------------------------------------------------===*/

void tool_problem_desc_init(tool_problem_desc *d, const char *op) {
  memset(d, 0, sizeof *d);
  snprintf(d->op, sizeof d->op, "%s", op);
  snprintf(d->rows_text, sizeof d->rows_text, "rows (all columns)");
  d->checked = -1;
  d->rtol = 1e-2;
  d->rtol_bf16 = 2e-2;
  for (int i = 0; i < TOOL_MAX_ARGS; ++i)
    d->same_type[i] = -1;
}

static tool_arg_desc *add_arg(tool_problem_desc *d, const char *name,
                              tool_arg_kind kind) {
  if (d->nargs == TOOL_MAX_ARGS) {
    tool_fail("a problem has at most %d arguments", TOOL_MAX_ARGS);
    return NULL;
  }
  tool_arg_desc *a = &d->args[d->nargs++];
  memset(a, 0, sizeof *a);
  snprintf(a->name, sizeof a->name, "%s", name);
  a->kind = kind;
  return a;
}

tool_arg_desc *tool_problem_add_tensor(tool_problem_desc *d, const char *name,
                                       tool_arg_role role, int rank,
                                       const int64_t *shape, double lo,
                                       double hi) {
  if (rank < 1 || rank > TILE_RT_MAX_RANK) {
    tool_fail("tensor '%s' has rank %d; a problem's tensors have 1 to %d "
              "dimensions",
              name, rank, TILE_RT_MAX_RANK);
    return NULL;
  }
  /* Every element count times the largest element (8 bytes) fits. */
  int64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    if (shape[i] < 1 || shape[i] > TOOL_MAX_DIM) {
      tool_fail("tensor '%s' has dimension %d of %lld; dimensions are in "
                "[1, %lld]",
                name, i, (long long)shape[i], (long long)TOOL_MAX_DIM);
      return NULL;
    }
    if (count > INT64_MAX / 8 / shape[i]) {
      tool_fail("tensor '%s' is too large", name);
      return NULL;
    }
    count *= shape[i];
  }
  tool_arg_desc *a = add_arg(d, name, TOOL_ARG_TENSOR);
  if (!a)
    return NULL;
  a->role = role;
  a->rank = rank;
  memcpy(a->shape, shape, (size_t)rank * sizeof *shape);
  a->lo = lo;
  a->hi = hi;
  return a;
}

tool_arg_desc *tool_problem_add_scalar(tool_problem_desc *d, const char *name,
                                       double value) {
  tool_arg_desc *a = add_arg(d, name, TOOL_ARG_SCALAR);
  if (a)
    a->value = value;
  return a;
}

/* snprintf at `*at` of `buf`, keeping `*at` within it. */
__attribute__((format(printf, 4, 5))) static void
put(char *buf, size_t n, size_t *at, const char *fmt, ...) {
  if (*at >= n)
    return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(buf + *at, n - *at, fmt, ap);
  va_end(ap);
  *at = w < 0 ? n : *at + (size_t)w;
}

static void put_shape(char *buf, size_t n, size_t *at, const tool_arg_desc *a) {
  for (int i = 0; i < a->rank; ++i)
    put(buf, n, at, "%s%lld", i ? "x" : "", (long long)a->shape[i]);
}

void tool_problem_arg_shapes(const tool_problem_desc *d, char *buf, size_t n) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < d->nargs; ++i) {
    if (i)
      put(buf, n, &at, ";");
    if (d->args[i].kind == TOOL_ARG_TENSOR)
      put_shape(buf, n, &at, &d->args[i]);
  }
}

void tool_problem_label(const tool_problem_desc *d, char *buf, size_t n) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < d->nargs; ++i) {
    const tool_arg_desc *a = &d->args[i];
    put(buf, n, &at, "%s%s=", i ? " " : "", a->name);
    if (a->kind == TOOL_ARG_SCALAR)
      put(buf, n, &at, "%g", a->value);
    else
      put_shape(buf, n, &at, a);
  }
}

int tool_problem_text(const tool_problem_desc *d, char *buf, size_t n) {
  size_t at = 0;
  buf[0] = '\0';
  /* Every name is length-prefixed, so that no name can pass for another
   * field; every field that decides the inputs or the check is there. */
  for (int i = 0; i < d->nargs; ++i) {
    const tool_arg_desc *a = &d->args[i];
    put(buf, n, &at, "%s%zu:%s", i ? "; " : "", strlen(a->name), a->name);
    if (a->kind == TOOL_ARG_SCALAR) {
      put(buf, n, &at, " = %.17g", a->value);
      continue;
    }
    put(buf, n, &at, ": ");
    put_shape(buf, n, &at, a);
    if (a->role == TOOL_ROLE_OUTPUT) {
      put(buf, n, &at, " out");
      continue;
    }
    if (a->role == TOOL_ROLE_INPUT)
      put(buf, n, &at, " in");
    put(buf, n, &at, " [%.17g, %.17g)", a->lo, a->hi);
    for (int s = 0; s < a->nshifts; ++s)
      put(buf, n, &at, "%s%.17g%s", s ? ", " : " shift [", a->shift[s],
          s + 1 == a->nshifts ? "]" : "");
  }
  put(buf, n, &at, " | reference %zu:%s | rtol %.17g, %.17g bf16",
      strlen(d->reference_kernel), d->reference_kernel, d->rtol, d->rtol_bf16);
  if (d->flops > 0)
    put(buf, n, &at, " | flops %.17g", d->flops);
  else if (d->bytes > 0)
    put(buf, n, &at, " | bytes %.17g", d->bytes);
  return at < n ? 0 : 1;
}

/*===--- Binding to a kernel ----------------------------------------------===*/

/* The kernel record's memref or scalar line of argument `arg`. */
static const tile_rt_param_desc *param_of(const tile_rt_kernel_desc *k,
                                          int arg) {
  for (int i = 0; i < k->nparams; ++i)
    if (k->params[i].arg == arg && k->params[i].kind != TILE_RT_PARAM_TENSORMAP)
      return &k->params[i];
  return NULL;
}

/* "(memref<?x?xf16>, memref<?xf16>, f32)". */
static void kernel_signature(const tile_rt_kernel_desc *k, char *buf,
                             size_t n) {
  size_t at = 0;
  put(buf, n, &at, "(");
  for (int i = 0; i < k->nargs; ++i) {
    const tile_rt_param_desc *p = param_of(k, i);
    put(buf, n, &at, "%s", i ? ", " : "");
    if (!p)
      put(buf, n, &at, "?");
    else if (p->kind == TILE_RT_PARAM_SCALAR)
      put(buf, n, &at, "%s", tile_rt_dtype_name(p->dtype));
    else {
      put(buf, n, &at, "memref<");
      for (int r = 0; r < p->rank; ++r)
        put(buf, n, &at, "?x");
      put(buf, n, &at, "%s>", tile_rt_dtype_name(p->dtype));
    }
  }
  put(buf, n, &at, ")");
}

/* "(A: 64x32, B: 32x16, C: 64x16 out, scale = 0.125)". */
static void problem_signature(const tool_problem_desc *d, char *buf, size_t n) {
  size_t at = 0;
  put(buf, n, &at, "(");
  for (int i = 0; i < d->nargs; ++i) {
    const tool_arg_desc *a = &d->args[i];
    put(buf, n, &at, "%s%s", i ? ", " : "", a->name);
    if (a->kind == TOOL_ARG_SCALAR) {
      put(buf, n, &at, " = %g", a->value);
      continue;
    }
    put(buf, n, &at, ": ");
    put_shape(buf, n, &at, a);
    if (a->role == TOOL_ROLE_OUTPUT)
      put(buf, n, &at, " out");
  }
  put(buf, n, &at, ")");
}

static int is_float(tile_rt_dtype t) {
  return t == TILE_RT_F16 || t == TILE_RT_BF16 || t == TILE_RT_F32;
}

/* The values an element of `t` holds: [*lo, *hi] (integers: every one
 * of them; i64: those a double holds exactly, as a problem's values are
 * doubles; floats: the finite ones). 0 if `t` is not a problem's type. */
static int dtype_range(tile_rt_dtype t, double *lo, double *hi) {
  switch (t) {
  case TILE_RT_I8:
    return *lo = INT8_MIN, *hi = INT8_MAX, 1;
  case TILE_RT_I16:
    return *lo = INT16_MIN, *hi = INT16_MAX, 1;
  case TILE_RT_I32:
    return *lo = INT32_MIN, *hi = INT32_MAX, 1;
  case TILE_RT_I64:
    return *lo = -0x1p53, *hi = 0x1p53, 1;
  case TILE_RT_F16:
    return *lo = -65504.0, *hi = 65504.0, 1;
  case TILE_RT_BF16:
  case TILE_RT_F32:
    return *lo = -FLT_MAX, *hi = FLT_MAX, 1;
  default:
    return 0;
  }
}

/* Why scalar `a` does not fit type `t` (into `why`), or 0 if it does. */
static int scalar_mismatch(const tool_arg_desc *a, tile_rt_dtype t, int i,
                           char *why, size_t n) {
  double lo = 0, hi = 0;
  dtype_range(t, &lo, &hi);
  int integer = t != TILE_RT_F32;
  if ((integer && a->value != floor(a->value)) || a->value < lo ||
      a->value > hi)
    return snprintf(why, n,
                    "argument %d (%s) is %.17g, which is not %s %s value "
                    "(%s in [%.17g, %.17g])",
                    i, a->name, a->value, integer ? "an" : "a finite",
                    tile_rt_dtype_name(t), integer ? "integers" : "reals", lo,
                    hi),
           1;
  return 0;
}

/* Why the values drawn for input `a` do not fit its element type `t`
 * (into `why`), or 0 if they do. */
static int range_mismatch(const tool_arg_desc *a, tile_rt_dtype t, int i,
                          char *why, size_t n) {
  double lo = 0, hi = 0;
  if (!dtype_range(t, &lo, &hi))
    return 0;
  int integer = !is_float(t);
  for (int s = 0; s < (a->nshifts ? a->nshifts : 1); ++s) {
    double shift = a->nshifts ? a->shift[s] : 0.0;
    double from = a->lo + shift, to = a->hi + shift;
    /* Integers are drawn in [floor(from), to): `to` itself is not. */
    if (from < lo || to > (integer ? hi + 1 : hi))
      return snprintf(why, n,
                      "argument %d (%s) draws values in [%.17g, %.17g), "
                      "outside what %s holds ([%.17g, %.17g])",
                      i, a->name, from, to, tile_rt_dtype_name(t), lo, hi),
             1;
  }
  return 0;
}

/* Why argument `i` does not fit the kernel (into `why`), or 0 if it does:
 * its kind, rank and role, and the scalar types the launch can pass. */
static int arg_mismatch(tool_arg_desc *a, const tile_rt_param_desc *p,
                        const tool_problem_desc *d, int i, char *why,
                        size_t n) {
  if (!p)
    return snprintf(why, n, "the kernel record has no line for argument %d", i),
           1;
  if (a->kind == TOOL_ARG_SCALAR) {
    if (p->kind != TILE_RT_PARAM_SCALAR)
      return snprintf(why, n,
                      "argument %d (%s) is a scalar where the kernel takes "
                      "a rank-%d memref",
                      i, a->name, p->rank),
             1;
    if (p->dtype != TILE_RT_I32 && p->dtype != TILE_RT_I64 &&
        p->dtype != TILE_RT_F32)
      return snprintf(why, n,
                      "argument %d (%s) is %s; a scalar is i32, i64 "
                      "or f32",
                      i, a->name, tile_rt_dtype_name(p->dtype)),
             1;
    return scalar_mismatch(a, p->dtype, i, why, n);
  }
  if (p->kind != TILE_RT_PARAM_MEMREF)
    return snprintf(why, n,
                    "argument %d (%s) is a tensor where the kernel takes an "
                    "%s scalar",
                    i, a->name, tile_rt_dtype_name(p->dtype)),
           1;
  if (p->rank != a->rank)
    return snprintf(why, n,
                    "argument %d (%s) has rank %d where the kernel's has "
                    "rank %d",
                    i, a->name, a->rank, p->rank),
           1;
  if (d->floats_only && !is_float(p->dtype))
    return snprintf(why, n,
                    "argument %d (%s) is %s; %s handles f16, bf16 "
                    "and f32",
                    i, a->name, tile_rt_dtype_name(p->dtype), d->op),
           1;
  if (p->access == TILE_RT_ACCESS_READWRITE)
    return snprintf(why, n,
                    "argument %d (%s) is read and written by the kernel; a "
                    "problem's tensors are inputs or outputs, not updated "
                    "in place",
                    i, a->name),
           1;
  if (a->role == TOOL_ROLE_UNSAID)
    a->role =
        p->access == TILE_RT_ACCESS_WRITE ? TOOL_ROLE_OUTPUT : TOOL_ROLE_INPUT;
  if (a->role == TOOL_ROLE_OUTPUT && p->access == TILE_RT_ACCESS_READ)
    return snprintf(why, n,
                    "argument %d (%s) is an output, but the kernel only "
                    "reads it",
                    i, a->name),
           1;
  else if (a->role == TOOL_ROLE_INPUT && p->access == TILE_RT_ACCESS_WRITE)
    return snprintf(why, n,
                    "argument %d (%s) is an input, but the kernel only "
                    "writes it",
                    i, a->name),
           1;
  if (a->role == TOOL_ROLE_INPUT)
    return range_mismatch(a, p->dtype, i, why, n);
  return 0;
}

int tool_problem_bind(tool_problem_desc *d, const tile_rt_kernel_desc *k) {
  char why[256] = "";
  int bad = 0;
  if (k->nargs != d->nargs) {
    snprintf(why, sizeof why,
             "the kernel takes %d arguments, the problem "
             "gives %d",
             k->nargs, d->nargs);
    bad = 1;
  }
  for (int i = 0; !bad && i < d->nargs; ++i) {
    const tile_rt_param_desc *p = param_of(k, i);
    bad = arg_mismatch(&d->args[i], p, d, i, why, sizeof why);
    if (!bad)
      d->args[i].dtype = p->dtype;
  }
  for (int i = 0; !bad && i < d->nargs; ++i) {
    int j = d->same_type[i];
    if (j >= 0 && d->args[j].dtype != d->args[i].dtype) {
      snprintf(why, sizeof why, "%s is %s but %s is %s; %s wants one type",
               d->args[i].name, tile_rt_dtype_name(d->args[i].dtype),
               d->args[j].name, tile_rt_dtype_name(d->args[j].dtype), d->op);
      bad = 1;
    }
  }
  int outputs = 0;
  for (int i = 0; i < d->nargs; ++i)
    outputs += d->args[i].kind == TOOL_ARG_TENSOR &&
               d->args[i].role == TOOL_ROLE_OUTPUT;
  if (!bad && outputs == 0) {
    snprintf(why, sizeof why,
             "no argument is an output (say \"output\": "
             "true, or let the kernel only write one)");
    bad = 1;
  }
  if (bad) {
    char ks[512], ps[512];
    kernel_signature(k, ks, sizeof ks);
    problem_signature(d, ps, sizeof ps);
    return tool_fail("kernel '%s' %s does not take the %s%sproblem %s: %s",
                     k->name, ks, strcmp(d->op, "problem") ? d->op : "",
                     strcmp(d->op, "problem") ? " " : "", ps, why);
  }
  if (d->checked < 0)
    for (int i = 0; i < d->nargs; ++i)
      if (d->args[i].kind == TOOL_ARG_TENSOR &&
          d->args[i].role == TOOL_ROLE_OUTPUT)
        d->checked = i;
  return 0;
}

/*===--- On the GPU -------------------------------------------------------===*/

void tool_problem_free(tool_problem *p) {
  if (p->ctx)
    tool_problem_free_outputs(p, p->out);
  tool_input_sets_free(&p->sets);
  for (int i = 0; i < TOOL_MAX_ARGS; ++i)
    free(p->host[i]);
  memset(p, 0, sizeof *p);
}

static int is_output(const tool_arg_desc *a) {
  return a->kind == TOOL_ARG_TENSOR && a->role == TOOL_ROLE_OUTPUT;
}

static int is_input(const tool_arg_desc *a) {
  return a->kind == TOOL_ARG_TENSOR && a->role != TOOL_ROLE_OUTPUT;
}

/* `count` values of integer `dtype` at `dst`: uniform in [lo, hi) rounded
 * down; `rounded` gets them as floats. */
static void fill_integers(void *dst, float *rounded, tile_rt_dtype dtype,
                          size_t count, tool_rng *rng, double lo, double hi) {
  for (size_t i = 0; i < count; ++i) {
    double v = floor(tool_rng_uniform(rng, lo, hi));
    rounded[i] = (float)v;
    switch (dtype) {
    case TILE_RT_I8:
      ((int8_t *)dst)[i] = (int8_t)v;
      break;
    case TILE_RT_I16:
      ((int16_t *)dst)[i] = (int16_t)v;
      break;
    case TILE_RT_I32:
      ((int32_t *)dst)[i] = (int32_t)v;
      break;
    default:
      ((int64_t *)dst)[i] = (int64_t)v;
      break;
    }
  }
}

/* Input `a` drawn from `rng` into `dst` (its type) and `rounded`, row by
 * row where it has shifts. */
static int fill_input(void *dst, float *rounded, const tool_arg_desc *a,
                      size_t count, tool_rng *rng) {
  size_t esize = tile_rt_dtype_size(a->dtype);
  if (a->dtype == TILE_RT_F64)
    return tool_fail("tensor '%s' is f64; a problem's inputs are f16, bf16, "
                     "f32 or integers",
                     a->name);
  int ints = !is_float(a->dtype);
  size_t inner = (size_t)a->shape[a->rank - 1];
  size_t rows = a->nshifts ? count / inner : 1;
  size_t per = a->nshifts ? inner : count;
  for (size_t r = 0; r < rows; ++r) {
    double shift = a->nshifts ? a->shift[r % (size_t)a->nshifts] : 0.0;
    char *at = (char *)dst + r * per * esize;
    if (ints)
      fill_integers(at, rounded + r * per, a->dtype, per, rng, a->lo + shift,
                    a->hi + shift);
    else
      tool_fill_uniform(at, rounded + r * per, a->dtype, per, rng,
                        a->lo + shift, a->hi + shift);
  }
  return 0;
}

/* Every input on the host, uploaded to every set. */
static int upload(tool_problem *p, uint64_t seed) {
  void *host[TOOL_MAX_ARGS] = {NULL};
  int rc = 0, n = 0;
  for (int i = 0; i < p->desc.nargs && rc == 0; ++i) {
    if (p->slot[i] < 0)
      continue;
    tool_rng rng;
    tool_rng_seed(&rng, seed, (uint64_t)p->slot[i]);
    if (!(host[n] = malloc(p->bytes[i])))
      rc = tool_fail("out of host memory for the inputs");
    else
      rc = fill_input(host[n], p->host[i], &p->desc.args[i], p->count[i], &rng);
    ++n;
  }
  if (rc == 0)
    rc = tool_input_sets_upload(&p->sets, (const void *const *)host);
  for (int i = 0; i < n; ++i)
    free(host[i]);
  return rc;
}

int tool_problem_init(tool_problem *p, tile_rt_context *ctx,
                      const tool_problem_desc *d, uint64_t seed,
                      size_t rotate_bytes) {
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  p->desc = *d;
  size_t in_bytes[TOOL_MAX_ARGS];
  int ninputs = 0;
  for (int i = 0; i < d->nargs; ++i) {
    const tool_arg_desc *a = &d->args[i];
    p->slot[i] = -1;
    if (a->kind != TOOL_ARG_TENSOR)
      continue;
    size_t count = 1;
    for (int r = 0; r < a->rank; ++r)
      count *= (size_t)a->shape[r];
    p->count[i] = count;
    p->bytes[i] = count * tile_rt_dtype_size(a->dtype);
    if (!is_input(a))
      continue;
    p->slot[i] = ninputs;
    in_bytes[ninputs++] = p->bytes[i];
    if (!(p->host[i] = malloc(count * sizeof(float)))) {
      tool_problem_free(p);
      return tool_fail("out of host memory for the inputs");
    }
  }
  if ((ninputs > 0 && tool_input_sets_init(&p->sets, ctx, in_bytes, ninputs,
                                           rotate_bytes) != 0) ||
      tool_problem_alloc_outputs(p, p->out) != 0 ||
      (ninputs > 0 && upload(p, seed) != 0)) {
    tool_problem_free(p);
    return 1;
  }
  p->nsets = ninputs > 0 ? p->sets.nsets : 1;
  return 0;
}

int tool_problem_alloc_outputs(const tool_problem *p,
                               tile_rt_deviceptr outs[TOOL_MAX_ARGS]) {
  memset(outs, 0, TOOL_MAX_ARGS * sizeof *outs);
  for (int i = 0; i < p->desc.nargs; ++i) {
    if (!is_output(&p->desc.args[i]))
      continue;
    tile_rt_status st = tile_rt_mem_alloc(&outs[i], p->ctx, p->bytes[i]);
    if (st != TILE_RT_SUCCESS) {
      outs[i] = 0;
      tool_problem_free_outputs(p, outs);
      return tool_rt_fail("allocating an output", st);
    }
  }
  return 0;
}

void tool_problem_free_outputs(const tool_problem *p,
                               tile_rt_deviceptr outs[TOOL_MAX_ARGS]) {
  for (int i = 0; i < TOOL_MAX_ARGS; ++i) {
    if (outs[i])
      tile_rt_mem_free(p->ctx, outs[i]);
    outs[i] = 0;
  }
}

tile_rt_deviceptr tool_problem_input(const tool_problem *p, int arg, int set) {
  return p->slot[arg] < 0 ? 0 : tool_input_sets_at(&p->sets, set, p->slot[arg]);
}

tile_rt_status tool_problem_args(tile_rt_arg *args, const tool_problem *p,
                                 int set, const tile_rt_deviceptr *outs) {
  if (!outs)
    outs = p->out;
  for (int i = 0; i < p->desc.nargs; ++i) {
    const tool_arg_desc *a = &p->desc.args[i];
    tile_rt_status st = TILE_RT_SUCCESS;
    if (a->kind == TOOL_ARG_SCALAR) {
      if (a->dtype == TILE_RT_F32)
        st = tile_rt_arg_f32(&args[i], (float)a->value);
      else if (a->dtype == TILE_RT_I32)
        st = tile_rt_arg_i32(&args[i], (int32_t)a->value);
      else
        st = tile_rt_arg_i64(&args[i], (int64_t)a->value);
    } else {
      int64_t strides[TILE_RT_MAX_RANK];
      strides[a->rank - 1] = 1;
      for (int r = a->rank - 1; r > 0; --r)
        strides[r - 1] = strides[r] * a->shape[r];
      tile_rt_deviceptr ptr = is_output(a) || p->slot[i] < 0
                                  ? outs[i]
                                  : tool_problem_input(p, i, set);
      st = tile_rt_arg_memref(&args[i], a->dtype, ptr, a->rank, a->shape,
                              strides);
    }
    if (st != TILE_RT_SUCCESS)
      return st;
  }
  return TILE_RT_SUCCESS;
}

int tool_problem_check_contracts(const tool_problem_desc *d,
                                 const tile_rt_kernel_desc *k) {
  /* Placeholder addresses, aligned and apart: the check reads none. */
  tool_problem p;
  memset(&p, 0, sizeof p);
  p.desc = *d;
  for (int i = 0; i < d->nargs; ++i) {
    p.slot[i] = -1;
    p.out[i] = ((tile_rt_deviceptr)i + 1) << 40;
  }
  tile_rt_arg args[TOOL_MAX_ARGS];
  tile_rt_status st = tool_problem_args(args, &p, 0, NULL);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_kernel_desc_check_args(k, args, d->nargs);
  if (st != TILE_RT_SUCCESS)
    return tool_fail("kernel '%s' refuses the %s%sproblem: %s", k->name,
                     strcmp(d->op, "problem") ? d->op : "",
                     strcmp(d->op, "problem") ? " " : "", tile_rt_last_error());
  return 0;
}

int tool_problem_launch(void *user, int set, tile_rt_stream *stream) {
  const tool_problem_run *run = user;
  tile_rt_arg args[TOOL_MAX_ARGS];
  tile_rt_status st = tool_problem_args(args, run->p, set, run->outs);
  if (st == TILE_RT_SUCCESS)
    st = tile_rt_launch(run->kernel, args, run->p->desc.nargs, stream);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("launching", st);
}

int tool_problem_run_once(const tool_problem_run *run, tile_rt_stream *stream,
                          double timeout_s) {
  const tool_problem *p = run->p;
  const tile_rt_deviceptr *outs = run->outs ? run->outs : p->out;
  for (int i = 0; i < p->desc.nargs; ++i) {
    if (!is_output(&p->desc.args[i]))
      continue;
    tile_rt_status st =
        tool_poison(p->ctx, outs[i], p->desc.args[i].dtype, p->count[i]);
    if (st != TILE_RT_SUCCESS)
      return tool_rt_fail("poisoning an output", st);
  }
  tool_problem_run launch = *run;
  if (tool_problem_launch(&launch, 0, stream) != 0)
    return 1;
  tile_rt_status st = tile_rt_stream_synchronize(p->ctx, stream, timeout_s);
  return st == TILE_RT_SUCCESS ? 0 : tool_rt_fail("running", st);
}

/*===--- Checks -----------------------------------------------------------===*/

int tool_problem_check(tool_check *r, const tool_problem *p,
                       const tile_rt_deviceptr *outs) {
  memset(r, 0, sizeof *r);
  int i = p->desc.checked;
  if (!p->desc.reference || i < 0)
    return tool_fail("the %s problem has no host reference", p->desc.op);
  void *host = tool_fetch(p->ctx, (outs ? outs : p->out)[i], p->bytes[i]);
  if (!host)
    return 1;
  int rc = p->desc.reference(r, p, host);
  free(host);
  return rc;
}

int tool_problem_compare(tool_check *r, const tool_problem *p,
                         const tile_rt_deviceptr *x,
                         const tile_rt_deviceptr *y) {
  memset(r, 0, sizeof *r);
  tool_error e;
  memset(&e, 0, sizeof e);
  size_t nonfinite = 0;
  int64_t row0 = 0;
  for (int i = 0; i < p->desc.nargs; ++i) {
    const tool_arg_desc *a = &p->desc.args[i];
    if (!is_output(a))
      continue;
    void *hx = tool_fetch(p->ctx, x[i], p->bytes[i]);
    void *hy = hx ? tool_fetch(p->ctx, y[i], p->bytes[i]) : NULL;
    int64_t inner = a->shape[a->rank - 1];
    double *ref = hy ? malloc((size_t)inner * sizeof *ref) : NULL;
    if (!ref) {
      if (hy)
        tool_fail("out of host memory");
      free(hx);
      free(hy);
      return 1;
    }
    int64_t rows = (int64_t)p->count[i] / inner;
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t j = 0; j < inner; ++j)
        ref[j] = tool_element(hy, a->dtype, (size_t)(row * inner + j));
      tool_error_add_row(&e, row0 + row, ref, hx, a->dtype,
                         (size_t)(row * inner), inner);
    }
    row0 += rows;
    nonfinite += tool_count_nonfinite(hx, a->dtype, p->count[i]);
    free(ref);
    free(hx);
    free(hy);
  }
  tool_check_from(r, &e, nonfinite, tool_problem_threshold(&p->desc),
                  p->desc.per_row);
  return 0;
}

int tool_problem_verify(tool_check *r, const tool_problem *p,
                        const tile_rt_deviceptr *outs,
                        const tile_rt_deviceptr *ref) {
  if (!outs)
    outs = p->out;
  if (p->desc.reference)
    return tool_problem_check(r, p, outs);
  /* Against itself: no error, but every NaN left by the poison counted. */
  return tool_problem_compare(r, p, outs, ref ? ref : outs);
}

double tool_problem_threshold(const tool_problem_desc *d) {
  for (int i = 0; i < d->nargs; ++i)
    if (d->args[i].kind == TOOL_ARG_TENSOR && d->args[i].dtype == TILE_RT_BF16)
      return d->rtol_bf16;
  return d->rtol;
}

double tool_problem_work(const tool_problem_desc *d, const char **unit) {
  if (d->flops > 0) {
    *unit = "TFLOP/s";
    return d->flops;
  }
  *unit = "TB/s";
  if (d->bytes > 0)
    return d->bytes;
  double bytes = 0;
  for (int i = 0; i < d->nargs; ++i) {
    const tool_arg_desc *a = &d->args[i];
    if (a->kind != TOOL_ARG_TENSOR)
      continue;
    double count = 1;
    for (int r = 0; r < a->rank; ++r)
      count *= (double)a->shape[r];
    bytes += count * (double)tile_rt_dtype_size(a->dtype);
  }
  return bytes;
}

double tool_problem_rate(double work, double ms) {
  return work / (ms * 1e-3) / 1e12;
}

const char *tool_problem_types(char *buf, size_t n,
                               const tool_problem_desc *d) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < d->nargs; ++i)
    if (d->args[i].kind == TOOL_ARG_TENSOR)
      put(buf, n, &at, "%s%s=%s", at ? " " : "", d->args[i].name,
          tile_rt_dtype_name(d->args[i].dtype));
  return buf;
}

int64_t tool_problem_rows(const tool_problem_desc *d) {
  int64_t rows = 0;
  for (int i = 0; i < d->nargs; ++i) {
    const tool_arg_desc *a = &d->args[i];
    if (!is_output(a) || (d->reference && i != d->checked))
      continue;
    int64_t n = 1;
    for (int r = 0; r + 1 < a->rank; ++r)
      n *= a->shape[r];
    rows += n;
  }
  return rows;
}
