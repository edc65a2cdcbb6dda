/* rt_index.c: reading and writing array elements and slices, with the boundary rules.
   An index list is first turned into a Plan: one entry per indexed dimension with its size
   and stride (the last index of a short list spans the remaining dimensions linearly) and
   its raw indices (one number, a gathered list, or the whole dimension). The boundary rule
   is applied to each raw index as elements are visited, so slices that reach outside follow
   the rule element by element. */
#include "runtime/rt_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum Bound { B_ERROR, B_ZERO, B_CIRCULAR, B_MIRROR, B_CLAMP } Bound;

typedef struct Plan {
  int ndim;
  Bound rule;
  int64_t size[OQ_MAX_RANK], stride[OQ_MAX_RANK];
  int64_t count[OQ_MAX_RANK];     /* indices in this dimension */
  bool kept[OQ_MAX_RANK];         /* false: indexed by one number, dropped from the result */
  int64_t *raw[OQ_MAX_RANK];      /* the indices; NULL: 0..count-1 (a colon) */
  int64_t one[OQ_MAX_RANK];       /* storage for number indices */
  bool owned[OQ_MAX_RANK];        /* raw[d] was malloc'ed */
  int nkept;
  int64_t kept_dims[OQ_MAX_RANK];
  int64_t total;                  /* elements in the slice */
} Plan;

static bool kernel_mode(const IndexCtx *ctx) {
  return ctx && ctx->in_kernel;
}

static Bound bound_rule(const IndexCtx *ctx) {
  unsigned m = ctx ? ctx->mods : 0;
  if (m & TM_CIRCULAR) return B_CIRCULAR;
  if (m & TM_MIRROR) return B_MIRROR;
  if (m & TM_CLAMPED) return B_CLAMP;
  if (m & TM_SAFE) return B_ZERO;
  if (m & (TM_CHECKED | TM_UNCHECKED)) return B_ERROR;
  return kernel_mode(ctx) ? B_ZERO : B_ERROR;
}

static int64_t pos_mod(int64_t i, int64_t n) {
  int64_t r = i % n;
  return r < 0 ? r + n : r;
}

/* The element index i of a dimension of size n stands for, or -1 when outside. */
static int64_t resolve(int64_t i, int64_t n, Bound rule) {
  if (i >= 0 && i < n) return i;
  if (n == 0) return -1;
  switch (rule) {
  case B_CIRCULAR: return pos_mod(i, n);
  case B_MIRROR: {   /* Quasar's (QUASAR-NOTES.md): |i| mod 2n, folded: -1 -> 1, n -> n-1 */
    uint64_t a = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    int64_t j = (int64_t)(a % (uint64_t)(2 * n));
    return j < n ? j : 2 * n - 1 - j;
  }
  case B_CLAMP: return i < 0 ? 0 : n - 1;
  default: return -1;
  }
}

static SrcLoc ctx_loc(const IndexCtx *ctx) {
  SrcLoc none = { 0 };
  return ctx ? ctx->loc : none;
}

static int64_t index_number(Value v, const IndexCtx *ctx) {
  switch (v.kind) {
  case V_BOOL: case V_INT: return v.i;
  case V_SCALAR: return isnan(v.s) ? INT64_MIN : rt_trunc_i64(v.s);
  default: rt_error(ctx_loc(ctx), "cannot index with a %s", rt_kind_name(v));
  }
}

static int64_t *index_list(const Array *ix, const IndexCtx *ctx) {
  if (el_is_complex(ix->elem)) rt_error(ctx_loc(ctx), "cannot index with complex numbers");
  int64_t *r = malloc(sizeof(int64_t) * (size_t)(ix->numel ? ix->numel : 1));
  for (int64_t k = 0; k < ix->numel; k++) {
    double x = arr_load(ix, k);
    r[k] = el_is_integer(ix->elem) ? arr_load_i(ix, k) : isnan(x) ? INT64_MIN : rt_trunc_i64(x);
  }
  return r;
}

static void plan_free(Plan *p) {
  for (int d = 0; d < p->ndim; d++)
    if (p->owned[d]) free(p->raw[d]);
}

static void plan_number(Plan *p, int d, int64_t i) {
  p->one[d] = i;
  p->raw[d] = &p->one[d];
  p->count[d] = 1;
}

/* x[pos] on an array of rank >= 2: pos[k] indexes dimension k. */
static void plan_position(Plan *p, const Array *a, const Array *pos, const IndexCtx *ctx) {
  if (pos->numel > OQ_MAX_RANK)
    rt_error(ctx_loc(ctx), "position index has %lld elements; at most %d dimensions",
             (long long)pos->numel, OQ_MAX_RANK);
  int64_t *ix = index_list(pos, ctx);
  p->ndim = (int)(pos->numel > a->rank ? pos->numel : a->rank);
  for (int d = 0; d < p->ndim; d++) {
    p->size[d] = arr_dim(a, d);
    plan_number(p, d, d < pos->numel ? ix[d] : 0);
  }
  free(ix);
}

static void plan_build(Plan *p, const Array *a, int nidx, const Value *idx, const IndexCtx *ctx) {
  p->rule = bound_rule(ctx);
  p->nkept = 0;
  if (nidx > OQ_MAX_RANK) rt_error(ctx_loc(ctx), "too many indices (%d)", nidx);
  for (int d = 0; d < OQ_MAX_RANK; d++) {   /* cheaper than clearing the whole Plan */
    p->kept[d] = p->owned[d] = false;
    p->raw[d] = NULL;
  }
  if (nidx == 1 && a->rank >= 2 && idx[0].kind == V_ARRAY) {
    plan_position(p, a, idx[0].arr, ctx);
  } else {
    p->ndim = nidx;
    for (int d = 0; d < nidx; d++) p->size[d] = arr_dim(a, d);
    for (int d = nidx; d < a->rank; d++) p->size[nidx - 1] *= a->dims[d];   /* linear rest */
    for (int d = 0; d < nidx; d++) {
      Value v = idx[d];
      if (v.kind == V_COLON) {
        p->kept[d] = true;
        p->count[d] = p->size[d];
      } else if (v.kind == V_ARRAY) {
        p->kept[d] = true;
        p->count[d] = v.arr->numel;
        p->raw[d] = index_list(v.arr, ctx);
        p->owned[d] = true;
      } else {
        plan_number(p, d, index_number(v, ctx));
      }
    }
  }
  p->total = 1;
  for (int d = p->ndim - 1; d >= 0; d--) {
    p->stride[d] = d == p->ndim - 1 ? 1 : p->stride[d + 1] * p->size[d + 1];
    p->total *= p->count[d];
    if (p->kept[d]) p->kept_dims[p->nkept++] = p->count[d];
  }
  /* kept dims were collected last-first */
  for (int i = 0, j = p->nkept - 1; i < j; i++, j--) {
    int64_t t = p->kept_dims[i];
    p->kept_dims[i] = p->kept_dims[j];
    p->kept_dims[j] = t;
  }
}

static int64_t raw_index(const Plan *p, int d, int64_t k) { return p->raw[d] ? p->raw[d][k] : k; }

_Noreturn static void range_error(const Plan *p, const Array *a, const int64_t *k,
                                  const IndexCtx *ctx) {
  int64_t ix[OQ_MAX_RANK];
  char si[400], ss[400], where[200] = "";
  for (int d = 0; d < p->ndim; d++) ix[d] = raw_index(p, d, k[d]);
  const char *name = ctx ? ctx->array_name : NULL, *fn = ctx ? ctx->func_name : NULL;
  if (fn) snprintf(where, sizeof where, " in %s '%s'", kernel_mode(ctx) ? "kernel" : "function", fn);
  rt_error(ctx_loc(ctx), "index %s out of range for array%s%s%s of size %s%s",
           rt_dims_str(si, sizeof si, p->ndim, ix), name ? " '" : "", name ? name : "",
           name ? "'" : "", rt_dims_str(ss, sizeof ss, a->rank, a->dims), where);
}

/* Linear element offset of slice position k, or -1 when outside (read 0, write dropped). */
static int64_t plan_offset(const Plan *p, const Array *a, const int64_t *k, const IndexCtx *ctx) {
  int64_t off = 0;
  for (int d = 0; d < p->ndim; d++) {
    int64_t j = resolve(raw_index(p, d, k[d]), p->size[d], p->rule);
    if (j < 0) {
      if (p->rule == B_ERROR) range_error(p, a, k, ctx);
      return -1;
    }
    off += j * p->stride[d];
  }
  return off;
}

static bool plan_advance(const Plan *p, int64_t *k) {
  for (int d = p->ndim - 1; d >= 0; d--) {
    if (++k[d] < p->count[d]) return true;
    k[d] = 0;
  }
  return false;
}

static Value zero_of(ElemType e) {
  switch (el_class(e)) {
  case NC_INT: return v_int(0);
  case NC_REAL: return v_scalar(0);
  default: return v_cscalar(0, 0);
  }
}

static inline void copy_elem(void *dst, const void *src, size_t sz) {
  switch (sz) {
  case 4: memcpy(dst, src, 4); break;
  case 8: memcpy(dst, src, 8); break;
  default: memcpy(dst, src, sz); break;
  }
}

/* The common case without building a Plan: one number per indexed dimension (no more
   indices than the rank), all inside the array. False: take the general path. */
static bool fast_offset(const Array *A, int nidx, const Value *idx, int64_t *off) {
  if (nidx < 1 || nidx > A->rank) return false;
  int64_t o = 0;
  for (int d = 0; d < nidx; d++) {
    Value v = idx[d];
    int64_t i, n = A->dims[d];
    if (v.kind == V_INT || v.kind == V_BOOL) i = v.i;
    else if (v.kind == V_SCALAR && v.s >= 0 && v.s < 9e18) i = (int64_t)v.s;
    else return false;
    if (d == nidx - 1)
      for (int k = nidx; k < A->rank; k++) n *= A->dims[k];   /* linear over the rest */
    if (i < 0 || i >= n) return false;
    o = o * n + i;
  }
  *off = o;
  return true;
}

/* ---- 'hwtex_nearest and 'hwtex_linear ----
   An element read (numbers, or one position vector) of an array with a texture modifier
   reads at real coordinates: 'hwtex_nearest rounds each to the nearest index, floor(c + 0.5);
   'hwtex_linear interpolates between floor(c) and floor(c) + 1 with weight c - floor(c) in
   each dimension, summing the 2^D corners times the products of their weights and skipping
   corners of weight 0 (an integer coordinate reads its element alone). Every corner follows
   the array's boundary rule. A GPU's texture unit does this with 8-bit weights; here and in
   the compiled kernels (emit_index.c) it is done in full precision. */
static bool hwtex_coords(const Array *A, int nidx, const Value *idx, double *c) {
  if (nidx == 1 && A->rank >= 2 && idx[0].kind == V_ARRAY) {
    const Array *pos = idx[0].arr;
    if (el_is_complex(pos->elem) || pos->numel > OQ_MAX_RANK) return false;
    for (int64_t d = 0; d < pos->numel; d++) c[d] = arr_load(pos, d);
    for (int64_t d = pos->numel; d < A->rank; d++) c[d] = 0;
    return true;
  }
  for (int d = 0; d < nidx; d++) {
    if (idx[d].kind == V_SCALAR) c[d] = idx[d].s;
    else if (idx[d].kind == V_INT || idx[d].kind == V_BOOL) c[d] = (double)idx[d].i;
    else return false;
  }
  return true;
}

static bool integral_index(Value v) {
  if (v.kind == V_SCALAR) return v.s == floor(v.s);
  if (v.kind != V_ARRAY || el_is_integer(v.arr->elem)) return true;
  for (int64_t k = 0; k < v.arr->numel; k++)
    if (arr_load(v.arr, k) != floor(arr_load(v.arr, k))) return false;
  return true;
}

static double floor_index(double f) { return f != f ? (double)INT64_MIN : f; }

static Value hwtex_get(const Array *A, int nidx, const Value *idx, const IndexCtx *ctx) {
  double c[OQ_MAX_RANK];
  Plan p;
  plan_build(&p, A, nidx, idx, ctx);   /* sizes, strides and the rule; the indices are set below */
  if (p.nkept || !hwtex_coords(A, nidx, idx, c)) {
    for (int d = 0; p.nkept && d < nidx; d++)
      if (!integral_index(idx[d]))
        rt_error(ctx_loc(ctx), "a texture read of a slice at a non-integer coordinate (not supported)");
    plan_free(&p);
    return v_none();
  }
  const bool linear = ctx->mods & TM_HWTEX_LINEAR;
  if (linear && el_class(A->elem) != NC_REAL)
    rt_error(ctx_loc(ctx), "'hwtex_linear interpolates arrays of scalars, not of %s", el_name(A->elem));
  int64_t base[OQ_MAX_RANK], k[OQ_MAX_RANK] = {0};
  double w[OQ_MAX_RANK];
  for (int d = 0; d < p.ndim; d++) {
    double f = floor(linear ? c[d] : c[d] + 0.5);
    w[d] = linear ? c[d] - f : 0;
    base[d] = rt_trunc_i64(floor_index(f));
  }
  if (!linear) {
    for (int d = 0; d < p.ndim; d++) p.one[d] = base[d];
    int64_t off = plan_offset(&p, A, k, ctx);
    plan_free(&p);
    return off < 0 ? zero_of(A->elem) : arr_get(A, off);
  }
  double sum = 0;
  for (int corner = 0; corner < 1 << p.ndim; corner++) {
    double wt = 1;
    for (int d = 0; d < p.ndim; d++) wt *= corner >> d & 1 ? w[d] : 1 - w[d];
    if (wt == 0) continue;   /* (a weight is not 0 only below 2^53: base + 1 fits) */
    for (int d = 0; d < p.ndim; d++) p.one[d] = base[d] + (corner >> d & 1);
    int64_t off = plan_offset(&p, A, k, ctx);
    if (off >= 0) sum += wt * arr_load(A, off);
  }
  plan_free(&p);
  return v_scalar(sum);
}

void rt_shape_normalize(int *rank, int64_t *dims) {
  while (*rank > 2 && dims[*rank - 1] == 1) (*rank)--;
  if (*rank == 2 && dims[0] == 1) {
    dims[0] = dims[1];
    *rank = 1;
  }
}

/* The shape of x[i, j, ...] with at least one range or ':' among two or more indices, as in
   Quasar: one dimension per index, a number giving 1; trailing numbers are dropped down to
   two dimensions, then leading numbers (A[i, :] is a vec: Quasar's 1 x w row). So
   A[0..h-1, j] is an h x 1 column, y[i, 0..3, k] a vec, C[:, :, k] a matrix, C[:, j, :] an
   h x 1 x c cube, C[i, :, :] a w x c matrix (Quasar: 1 x w x c), and a range keeps its
   dimension even when it has one element. x[ix] with one index list keeps its length. */
int rt_slice_shape(int nidx, const bool *kept, const int64_t *count, int64_t *dims, int *first) {
  int f = 0, last = nidx;
  while (last > 2 && !kept[last - 1]) last--;
  while (f < nidx - 1 && !kept[f]) f++;
  for (int d = f; d < last; d++) dims[d - f] = count[d];
  *first = f;
  return last - f;
}

static int result_shape(const Plan *p, int nidx, int64_t *dims) {
  if (nidx < 2 || p->ndim != nidx) {
    memcpy(dims, p->kept_dims, sizeof(int64_t) * (size_t)p->nkept);
    return p->nkept;
  }
  int first;   /* nkept > 0: some index is kept */
  return rt_slice_shape(nidx, p->kept, p->count, dims, &first);
}

Value rt_index_get(Value a, int nidx, const Value *idx, const IndexCtx *ctx) {
  if (a.kind != V_ARRAY) rt_error(ctx_loc(ctx), "cannot index a %s", rt_kind_name(a));
  if (nidx == 0) { val_retain(a); return a; }
  const Array *A = a.arr;
  int64_t off;
  if (ctx && (ctx->mods & (TM_HWTEX_NEAREST | TM_HWTEX_LINEAR))) {
    Value r = hwtex_get(A, nidx, idx, ctx);
    if (r.kind != V_NONE) return r;
  }
  if (fast_offset(A, nidx, idx, &off)) return arr_get(A, off);
  Plan p;
  plan_build(&p, A, nidx, idx, ctx);
  int64_t k[OQ_MAX_RANK] = { 0 };
  if (p.nkept == 0) {
    int64_t off = plan_offset(&p, A, k, ctx);
    plan_free(&p);
    return off < 0 ? zero_of(A->elem) : arr_get(A, off);
  }
  int64_t rdims[OQ_MAX_RANK];
  int rrank = result_shape(&p, nidx, rdims);
  Array *r = arr_new(A->elem, rrank, rdims);
  size_t sz = el_size(A->elem);
  char *dst = r->data;
  const char *src = A->data;
  if (p.total > 0) {
    int64_t i = 0;
    do {
      int64_t off = plan_offset(&p, A, k, ctx);
      if (off >= 0) copy_elem(dst + (size_t)i * sz, src + (size_t)off * sz, sz);
      i++;
    } while (plan_advance(&p, k));
  }
  plan_free(&p);
  return v_array(r);
}

/* Stores element i of array src (any element type) into element j of dst. */
static void convert_elem(Array *dst, int64_t j, const Array *src, int64_t i) {
  NumClass cs = el_class(src->elem), cd = el_class(dst->elem);
  if (cs == NC_INT && cd == NC_INT) arr_store_i(dst, j, arr_load_i(src, i));
  else if (cs == NC_COMPLEX) {
    double re, im;
    arr_load_c(src, i, &re, &im);
    arr_store_c(dst, j, re, im);
  } else arr_store(dst, j, arr_load(src, i));
}

void rt_index_set(Value a, int nidx, const Value *idx, Value v, const IndexCtx *ctx) {
  SrcLoc loc = ctx_loc(ctx);
  if (a.kind != V_ARRAY) rt_error(loc, "cannot index a %s", rt_kind_name(a));
  Array *A = a.arr;
  int64_t off;
  if (v_is_num(v) && v.kind != V_CSCALAR && fast_offset(A, nidx, idx, &off)) {
    arr_set(A, off, v, loc);
    return;
  }
  if (v.kind == V_ARRAY && el_is_complex(v.arr->elem) && !el_is_complex(A->elem))
    rt_error(loc, "cannot store a %s in a %s", rt_kind_name(v), rt_kind_name(a));
  if (v.kind == V_CSCALAR && !el_is_complex(A->elem))
    rt_error(loc, "cannot store a cscalar in an element of a %s", rt_kind_name(a));
  if (!v_is_num(v) && v.kind != V_ARRAY)
    rt_error(loc, "cannot store a %s in an element of a %s", rt_kind_name(v), rt_kind_name(a));
  Value idx0[1] = { v_colon() };
  if (nidx == 0) { idx = idx0; nidx = 1; }   /* a[] = v: the whole array, linearly */
  Plan p;
  plan_build(&p, A, nidx, idx, ctx);
  size_t sz = el_size(A->elem);
  unsigned char one[16];   /* a number, converted once to the element type */
  const Array *src = NULL;
  Array *tmp = NULL;
  if (v.kind == V_ARRAY) {
    if (v.arr->numel != p.total)
      rt_error(loc, "cannot assign %lld elements to a slice of %lld elements",
               (long long)v.arr->numel, (long long)p.total);
    src = v.arr == A ? (tmp = arr_copy(A)) : v.arr;   /* a[perm] = a reads the old values */
  } else {
    Array e = { .refcount = 1, .elem = A->elem, .rank = 1, .numel = 1, .data = one };
    arr_set(&e, 0, v, loc);
  }
  int64_t k[OQ_MAX_RANK] = { 0 };
  char *dst = A->data;
  if (p.total > 0) {
    int64_t i = 0;
    do {
      int64_t off = plan_offset(&p, A, k, ctx);
      if (off >= 0) {
        if (!src) copy_elem(dst + (size_t)off * sz, one, sz);
        else if (src->elem == A->elem) copy_elem(dst + (size_t)off * sz, (const char *)src->data + (size_t)i * sz, sz);
        else convert_elem(A, off, src, i);
      }
      i++;
    } while (plan_advance(&p, k));
  }
  if (tmp) val_release(v_array(tmp));
  plan_free(&p);
}

Value rt_index_update(Value a, int nidx, const Value *idx, Op op, Value v, const IndexCtx *ctx) {
  SrcLoc loc = ctx_loc(ctx);
  int64_t off;
  if (a.kind == V_ARRAY && v_is_num(v) && fast_offset(a.arr, nidx, idx, &off)) {
    Value nv = rt_binary(op, arr_get(a.arr, off), v, loc);
    arr_set(a.arr, off, nv, loc);
    return arr_get(a.arr, off);   /* the value as stored */
  }
  Value old = rt_index_get(a, nidx, idx, ctx);
  Value nv = rt_binary(op, old, v, loc);
  val_release(old);
  rt_index_set(a, nidx, idx, nv, ctx);
  ElemType e = a.arr->elem;
  if (nv.kind != V_ARRAY) return rt_coerce_elem(nv, e, loc);   /* the value as stored */
  if (nv.arr->elem == e) return nv;
  Value r = v_array(arr_convert(nv.arr, e));
  val_release(nv);
  return r;
}
