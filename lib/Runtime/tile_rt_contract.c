/*===- tile_rt_contract.c - Evaluate and print shape contracts ------------===*
 *
 * A contract compares two integer expressions over the memref arguments'
 * sizes, each held in postfix (tile_rt_contract). Evaluation checks every
 * step for overflow and refuses divisors that are not positive, so that a
 * contract the arguments break, or cannot be computed for them, stops the
 * launch with a message instead of a wrong answer.
 *
 *===----------------------------------------------------------------------===*/

#include "tile_rt_internal.h"

#include <stdio.h>
#include <string.h>

/* Postfix evaluation of terms[begin, end) into *out: 0 on success, or -1
 * (overflow, or a divisor that is not positive). */
static int rt_eval_side(const tile_rt_contract_term *terms, int begin, int end,
                        const tile_rt_arg *args, int64_t *out) {
  int64_t stack[TILE_RT_MAX_CONTRACT_TERMS];
  int depth = 0;
  for (int i = begin; i < end; ++i) {
    const tile_rt_contract_term *t = &terms[i];
    if (t->kind == TILE_RT_TERM_INT) {
      stack[depth++] = t->value;
      continue;
    }
    if (t->kind == TILE_RT_TERM_DIM) {
      stack[depth++] = args[t->arg].u.memref.sizes[t->dim];
      continue;
    }
    int64_t a = stack[depth - 2], b = stack[depth - 1], r;
    --depth;
    switch (t->kind) {
    case TILE_RT_TERM_ADD:
      if (__builtin_add_overflow(a, b, &r))
        return -1;
      break;
    case TILE_RT_TERM_SUB:
      if (__builtin_sub_overflow(a, b, &r))
        return -1;
      break;
    case TILE_RT_TERM_MUL:
      if (__builtin_mul_overflow(a, b, &r))
        return -1;
      break;
    default:
      if (b <= 0)
        return -1;
      r = a / b;
      if (t->kind == TILE_RT_TERM_MOD)
        r = a % b < 0 ? a % b + b : a % b;
      else if (t->kind == TILE_RT_TERM_FLOORDIV && a % b != 0 && a < 0)
        r -= 1;
      else if (t->kind == TILE_RT_TERM_CEILDIV && a % b != 0 && a > 0)
        r += 1;
      break;
    }
    stack[depth - 1] = r;
  }
  *out = stack[0];
  return 0;
}

/*===--- Printing ---------------------------------------------------------===*/

/* `%name[dim]`, or `%arg3[dim]` without a name. */
static void rt_print_dim(char *out, size_t size, const tile_rt_kernel_desc *d,
                         const tile_rt_contract_term *t) {
  const char *name = t->arg < d->nparams ? d->params[t->arg].name : "";
  if (name[0])
    snprintf(out, size, "%%%s[%d]", name, t->dim);
  else
    snprintf(out, size, "%%arg%d[%d]", t->arg, t->dim);
}

/* Appends `s` to out[0, size) at *len, truncating. */
static void rt_append(char *out, size_t size, size_t *len, const char *s) {
  size_t n = strlen(s);
  if (*len + 1 >= size)
    return;
  if (n > size - 1 - *len)
    n = size - 1 - *len;
  memcpy(out + *len, s, n);
  *len += n;
  out[*len] = '\0';
}

/* Binding strength: sums 1, products 2, leaves 3. */
static int rt_strength(tile_rt_term_kind kind) {
  return kind == TILE_RT_TERM_INT || kind == TILE_RT_TERM_DIM   ? 3
         : kind == TILE_RT_TERM_ADD || kind == TILE_RT_TERM_SUB ? 1
                                                                : 2;
}

/* The index of the first item of the subexpression whose last item is
 * terms[end - 1]. */
static int rt_subexpr_begin(const tile_rt_contract_term *terms, int end) {
  int need = 1, i = end;
  while (need > 0) {
    --i;
    tile_rt_term_kind k = terms[i].kind;
    need += (k == TILE_RT_TERM_INT || k == TILE_RT_TERM_DIM) ? -1 : 1;
  }
  return i;
}

/* Infix of terms[begin, end) into out. */
static void rt_print_side(char *out, size_t size, size_t *len,
                          const tile_rt_kernel_desc *d,
                          const tile_rt_contract_term *terms, int begin,
                          int end) {
  const tile_rt_contract_term *t = &terms[end - 1];
  char leaf[TILE_RT_MAX_ARG_NAME + 32];
  if (t->kind == TILE_RT_TERM_INT) {
    snprintf(leaf, sizeof leaf, "%lld", (long long)t->value);
    rt_append(out, size, len, leaf);
    return;
  }
  if (t->kind == TILE_RT_TERM_DIM) {
    rt_print_dim(leaf, sizeof leaf, d, t);
    rt_append(out, size, len, leaf);
    return;
  }
  static const char *const signs[] = {
      "", "", " + ", " - ", " * ", " mod ", " floordiv ", " ceildiv "};
  int mid = rt_subexpr_begin(terms, end - 1);
  int strength = rt_strength(t->kind);
  /* Left-associative: the right operand of equal strength needs parens. */
  int lparen = rt_strength(terms[mid - 1].kind) < strength;
  int rparen = rt_strength(terms[end - 2].kind) <= strength;
  rt_append(out, size, len, lparen ? "(" : "");
  rt_print_side(out, size, len, d, terms, begin, mid);
  rt_append(out, size, len, lparen ? ")" : "");
  rt_append(out, size, len, signs[t->kind]);
  rt_append(out, size, len, rparen ? "(" : "");
  rt_print_side(out, size, len, d, terms, mid, end - 1);
  rt_append(out, size, len, rparen ? ")" : "");
}

void tile_rt_contract_format(char *out, size_t size,
                             const tile_rt_kernel_desc *desc, int index) {
  static const char *const signs[] = {" == ", " <= ", " >= ", " < ", " > "};
  if (!out || size == 0)
    return;
  out[0] = '\0';
  if (!desc || index < 0 || index >= desc->ncontracts)
    return;
  const tile_rt_contract *c = &desc->contracts[index];
  size_t len = 0;
  rt_print_side(out, size, &len, desc, c->terms, 0, c->nlhs);
  rt_append(out, size, &len, signs[c->relation]);
  rt_print_side(out, size, &len, desc, c->terms, c->nlhs, c->nterms);
}

/*===--- Checking ---------------------------------------------------------===*/

/* "B (argument 1)" or "argument 1". */
static void rt_describe_arg(char *out, size_t size, const char *name, int arg) {
  if (name[0])
    snprintf(out, size, "%s (argument %d)", name, arg);
  else
    snprintf(out, size, "argument %d", arg);
}

/* The message of a broken contract of the simple form: one size against
 * one size or an integer. */
static tile_rt_status rt_simple_failure(const tile_rt_kernel_desc *desc,
                                        const tile_rt_contract *c,
                                        int64_t value, int64_t bound) {
  static const char *const relation[] = {"equal to", "at most", "at least",
                                         "below", "above"};
  char lhs[TILE_RT_MAX_ARG_NAME + 32], rhs[TILE_RT_MAX_ARG_NAME + 64];
  rt_describe_arg(lhs, sizeof lhs, c->arg_name, c->arg);
  if (c->bound_arg < 0) {
    snprintf(rhs, sizeof rhs, "%lld", (long long)bound);
  } else {
    char who[TILE_RT_MAX_ARG_NAME + 32];
    rt_describe_arg(who, sizeof who, c->bound_name, c->bound_arg);
    snprintf(rhs, sizeof rhs, "dimension %d of %s, which is %lld", c->bound_dim,
             who, (long long)bound);
  }
  return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                  "kernel '%s': dimension %d of %s is %lld; it must be %s "
                  "%s (nothing was launched)",
                  desc->name, c->dim, lhs, (long long)value,
                  relation[c->relation], rhs);
}

tile_rt_status rt_check_contract_args(const tile_rt_kernel_desc *desc,
                                      const tile_rt_arg *args) {
  for (int i = 0; i < desc->ncontracts; ++i) {
    const tile_rt_contract *c = &desc->contracts[i];
    int64_t lhs = 0, rhs = 0;
    int ok = rt_eval_side(c->terms, 0, c->nlhs, args, &lhs) == 0 &&
             rt_eval_side(c->terms, c->nlhs, c->nterms, args, &rhs) == 0;
    int holds = ok && (c->relation == TILE_RT_EQ   ? lhs == rhs
                       : c->relation == TILE_RT_LE ? lhs <= rhs
                       : c->relation == TILE_RT_GE ? lhs >= rhs
                       : c->relation == TILE_RT_LT ? lhs < rhs
                                                   : lhs > rhs);
    if (holds)
      continue;
    if (ok && c->arg >= 0)
      return rt_simple_failure(desc, c, lhs, rhs);
    /* The contract, then the value of each size it reads. */
    char text[512], values[512];
    tile_rt_contract_format(text, sizeof text, desc, i);
    size_t len = 0;
    values[0] = '\0';
    for (int t = 0; t < c->nterms; ++t) {
      const tile_rt_contract_term *term = &c->terms[t];
      if (term->kind != TILE_RT_TERM_DIM)
        continue;
      int seen = 0;
      for (int u = 0; u < t; ++u)
        seen |= c->terms[u].kind == TILE_RT_TERM_DIM &&
                c->terms[u].arg == term->arg && c->terms[u].dim == term->dim;
      if (seen)
        continue;
      char dim[TILE_RT_MAX_ARG_NAME + 32], item[TILE_RT_MAX_ARG_NAME + 64];
      rt_print_dim(dim, sizeof dim, desc, term);
      snprintf(item, sizeof item, "%s%s = %lld", len ? ", " : "", dim,
               (long long)args[term->arg].u.memref.sizes[term->dim]);
      rt_append(values, sizeof values, &len, item);
    }
    return rt_error(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "kernel '%s': the contract %s %s with %s (nothing was "
                    "launched)",
                    desc->name, text,
                    ok ? "does not hold"
                       : "cannot be computed (it overflows or divides by a "
                         "value that is not positive)",
                    values);
  }
  return TILE_RT_SUCCESS;
}
