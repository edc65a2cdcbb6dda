/* rt_stats.c: built-ins on arrays and statistics (issue 22, item 4): order statistics and
   moments (median, mode, std, var, max/min with their index), sorting (sort, unique,
   histc), searching (find, any, all), running sums and differences (cumsum, cumprod, diff),
   rearrangement (circshift, flip, fliplr, flipud, cat, vertcat, horzcat, meshgrid) and
   numbers (dotprod, pow, randi, seed). docs/library.md, "Arrays and statistics", gives every
   signature and choice.
   Conventions, as in rt_builtins.c: arguments are borrowed, results are new references,
   errors name the function. Dimensions are 0-based; a vec used as a matrix is a 1 x N row
   (its dimension 1 runs along it). Indices in results are 0-based. Arrays are read on the
   host: the interpreter copies device-resident arguments back before a built-in runs
   (interp.c host_reads), and host_current() below makes sure again, so these functions are
   also safe to call from elsewhere.
   Several outputs: `[s, i] = sort(x)` calls the form rt_builtin_outputs gives, which
   returns a tuple of every output; `s = sort(x)` calls the one-output form. */
#include <complex.h>
#include "runtime/rt_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STAT(name) static Value st_##name(int argc, const Value *argv, SrcLoc loc)

_Noreturn static void bad_arg(const char *fn, const char *expected, Value v, SrcLoc loc) {
  rt_error(loc, "%s: expected %s, got %s", fn, expected, rt_kind_name(v));
}

static void host_current(Value v, SrcLoc loc) {
  if (v.kind == V_ARRAY && (v.arr->state & ARR_HOST_STALE) && rt_array_host_hook)
    rt_array_host_hook(v.arr, loc);
}

/* The array of a number-or-array argument (a number becomes a one-element vec); a new
   reference. */
static Array *arg_array(const char *fn, Value v, SrcLoc loc) {
  if (v.kind == V_ARRAY) {
    host_current(v, loc);
    v.arr->refcount++;
    return v.arr;
  }
  if (!v_is_num(v)) bad_arg(fn, "a number or an array", v, loc);
  Array *a = arr_vec(el_for_class(val_class(v), EL_COUNT, EL_COUNT), 1);
  arr_set(a, 0, v, loc);
  return a;
}

static void drop(Array *a) { val_release(v_array(a)); }

static int64_t arg_int(const char *fn, const char *what, Value v, SrcLoc loc) {
  if (!v_is_real(v) || (v.kind == V_SCALAR && (!isfinite(v.s) || v.s != floor(v.s))))
    rt_error(loc, "%s: %s must be an integer, got %s", fn, what, rt_kind_name(v));
  return v.kind == V_SCALAR ? (int64_t)v.s : v.i;
}

/* A dimension argument: 0-based, below OQ_MAX_RANK. */
static int64_t arg_dim(const char *fn, Value v, SrcLoc loc) {
  int64_t d = arg_int(fn, "the dimension", v, loc);
  if (d < 0 || d >= OQ_MAX_RANK)
    rt_error(loc, "%s: dimension %lld out of range (dimensions are 0-based, below %d)", fn,
             (long long)d, OQ_MAX_RANK);
  return d;
}

static void need_ordered(const char *fn, const Array *a, SrcLoc loc) {
  if (el_is_complex(a->elem)) rt_error(loc, "%s: complex numbers have no order", fn);
}

static ElemType idx_elem(int64_t n) { return n > INT32_MAX ? EL_I64 : EL_I32; }

static Value pair(Value a, Value b) {
  Value t = v_tuple(2);
  t.tup->v[0] = a;
  t.tup->v[1] = b;
  return t;
}

/* ---- the matrix view and dimensions ---- */

/* An array's dimensions as a matrix sees them: a vec is a 1 x N row. */
typedef struct View { int rank; int64_t dims[OQ_MAX_RANK]; } View;

static View view_of(const Array *a) {
  View v;
  v.rank = a->rank;
  memcpy(v.dims, a->dims, sizeof v.dims);
  if (a->rank == 1) {
    v.rank = 2;
    v.dims[0] = 1;
    v.dims[1] = a->dims[0];
  }
  return v;
}

/* The first dimension that is not 1 (MATLAB's default), else the last. */
static int64_t first_dim(const View *v) {
  for (int d = 0; d < v->rank; d++)
    if (v->dims[d] != 1) return d;
  return v->rank - 1;
}

/* The array as [outer, n, inner] around dimension d (n is 1 past the rank). */
typedef struct Split { int64_t outer, n, inner; } Split;

static Split split_at(const View *v, int64_t d) {
  Split s = { 1, 1, 1 };
  for (int k = 0; k < v->rank; k++) {
    if (k < d) s.outer *= v->dims[k];
    else if (k > d) s.inner *= v->dims[k];
    else s.n = v->dims[k];
  }
  return s;
}

/* ---- reductions of each slice along a dimension ---- */

/* Reduces the n elements of a at off, off + st, ... into out[0] (and out[1] for a second
   output); ctx is the function's own setting. */
typedef void (*SliceFn)(const Array *a, int64_t off, int64_t n, int64_t st, const void *ctx,
                        Value *out, SrcLoc loc);

typedef struct Reducer {
  const char *fn;
  SliceFn slice;
  const void *ctx;
  int nout;             /* 1 or 2 */
  ElemType elem[2];     /* element types of the outputs along a dimension */
} Reducer;

/* d < 0: over all elements (numbers; a second output indexes linearly). Else along d, the
   result shaped as sum(x, d) is (dimension d becomes 1, rt_shape_normalize). Returns one
   value, or a tuple of nout. */
static Value reduce_along(const Reducer *r, const Array *a, int64_t d, SrcLoc loc) {
  Value out[2] = { v_none(), v_none() };
  if (d < 0) {
    r->slice(a, 0, a->numel, 1, r->ctx, out, loc);
    return r->nout == 1 ? out[0] : pair(out[0], out[1]);
  }
  View v = view_of(a);
  Split s = split_at(&v, d);
  int rank = v.rank;
  int64_t dims[OQ_MAX_RANK];
  for (int k = 0; k < rank; k++) dims[k] = k == d ? 1 : v.dims[k];
  rt_shape_normalize(&rank, dims);
  Array *res[2] = { NULL, NULL };
  for (int k = 0; k < r->nout; k++) res[k] = arr_new_uninit(r->elem[k], rank, dims);
  for (int64_t o = 0; o < s.outer; o++)
    for (int64_t i = 0; i < s.inner; i++) {
      r->slice(a, o * s.n * s.inner + i, s.n, s.inner, r->ctx, out, loc);
      for (int k = 0; k < r->nout; k++) {
        arr_set(res[k], o * s.inner + i, out[k], loc);
        val_release(out[k]);
      }
    }
  if (r->nout == 1) return v_array(res[0]);
  return pair(v_array(res[0]), v_array(res[1]));
}

/* ---- max and min with their index ---- */

typedef struct Extreme { bool max; } Extreme;

/* The first largest (smallest) element and its index in the slice; NaNs are skipped (all
   NaN: NaN at index 0), as max(x) does (rt_builtins.c). */
static void slice_extreme(const Array *a, int64_t off, int64_t n, int64_t st, const void *ctx,
                          Value *out, SrcLoc loc) {
  bool want_max = ((const Extreme *)ctx)->max;
  if (n == 0) rt_error(loc, "%s: empty array", want_max ? "max" : "min");
  int64_t at = 0;
  if (el_is_integer(a->elem)) {
    int64_t m = arr_load_i(a, off);
    for (int64_t k = 1; k < n; k++) {
      int64_t x = arr_load_i(a, off + k * st);
      if (want_max ? x > m : x < m) { m = x; at = k; }
    }
    out[0] = v_int(m);
  } else {
    double m = arr_load(a, off);
    for (int64_t k = 1; k < n; k++) {
      double x = arr_load(a, off + k * st);
      if (x == x && (m != m || (want_max ? x > m : x < m))) { m = x; at = k; }
    }
    out[0] = v_scalar(m);
  }
  out[1] = v_int(at);
}

static Value extreme(bool want_max, int nout, int argc, const Value *argv, SrcLoc loc) {
  const char *fn = want_max ? "max" : "min";
  if (argc == 2) {   /* only [m, i] = max(a, b) comes here: element-wise has no index */
    rt_error(loc, "%s: the element-wise form max(a, b) has one output; use max(x, [], dim)", fn);
  }
  if (argc == 3 && (argv[1].kind != V_ARRAY || argv[1].arr->numel != 0))
    rt_error(loc, "%s: the second argument of %s(x, [], dim) must be []", fn, fn);
  Array *a = arg_array(fn, argv[0], loc);
  need_ordered(fn, a, loc);
  static const Extreme hi = { true }, lo = { false };
  ElemType e = el_for_class(el_class(a->elem), a->elem, EL_COUNT);
  Reducer r = { fn, slice_extreme, want_max ? &hi : &lo, nout, { e, idx_elem(a->numel) } };
  Value res = reduce_along(&r, a, argc == 3 ? arg_dim(fn, argv[2], loc) : -1, loc);
  drop(a);
  return res;
}

Value rt_extreme_along(bool want_max, const Value *argv, SrcLoc loc) {
  return extreme(want_max, 1, 3, argv, loc);
}

STAT(max_outs) { return extreme(true, 2, argc, argv, loc); }
STAT(min_outs) { return extreme(false, 2, argc, argv, loc); }

/* ---- sorting ---- */

/* An element and its position in its slice (the index output of sort). */
typedef struct Keyed {
  union { double r; int64_t i; } v;
  int64_t at;
} Keyed;

/* Stable merge sorts of keys by value, one per order (the comparison inlined: about three
   times faster than qsort with a comparator and a tie-break on the position). Runs of 16 by
   insertion, then bottom-up merges between keys and tmp, which has room for n. Equal keys
   keep their order: a merge takes the right run's element only when it comes strictly
   first. Reals hold no NaN here (sort_keys puts them aside). */
#define DEFINE_MERGE_SORT(name, FIRST)                                                    \
  static void name(Keyed *keys, Keyed *tmp, int64_t n) {                                  \
    for (int64_t lo = 0; lo < n; lo += 16) {                                              \
      int64_t hi = lo + 16 < n ? lo + 16 : n;                                             \
      for (int64_t i = lo + 1; i < hi; i++) {                                             \
        Keyed x = keys[i];                                                                \
        int64_t j = i;                                                                    \
        for (; j > lo && FIRST(x, keys[j - 1]); j--) keys[j] = keys[j - 1];               \
        keys[j] = x;                                                                      \
      }                                                                                   \
    }                                                                                     \
    Keyed *src = keys, *dst = tmp;                                                        \
    for (int64_t w = 16; w < n; w *= 2) {                                                 \
      for (int64_t lo = 0; lo < n; lo += 2 * w) {                                         \
        int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;      \
        int64_t i = lo, j = mid, k = lo;                                                  \
        while (i < mid && j < hi) dst[k++] = FIRST(src[j], src[i]) ? src[j++] : src[i++]; \
        while (i < mid) dst[k++] = src[i++];                                              \
        while (j < hi) dst[k++] = src[j++];                                               \
      }                                                                                   \
      Keyed *t = src;                                                                     \
      src = dst;                                                                          \
      dst = t;                                                                            \
    }                                                                                     \
    if (src != keys) memcpy(keys, src, sizeof *keys * (size_t)n);                         \
  }

#define REAL_UP(x, y) ((x).v.r < (y).v.r)
#define REAL_DOWN(x, y) ((x).v.r > (y).v.r)
#define INT_UP(x, y) ((x).v.i < (y).v.i)
#define INT_DOWN(x, y) ((x).v.i > (y).v.i)
DEFINE_MERGE_SORT(sort_real_up, REAL_UP)
DEFINE_MERGE_SORT(sort_real_down, REAL_DOWN)
DEFINE_MERGE_SORT(sort_int_up, INT_UP)
DEFINE_MERGE_SORT(sort_int_down, INT_DOWN)

/* Sorts the n keys stably (tmp: room for n). Real NaNs go last ascending and first
   descending (MATLAB's order), in their original order. */
static void sort_keys(Keyed *keys, Keyed *tmp, int64_t n, bool ints, bool down) {
  if (ints) {
    (down ? sort_int_down : sort_int_up)(keys, tmp, n);
    return;
  }
  int64_t m = 0, nan = 0;
  for (int64_t k = 0; k < n; k++) {   /* numbers to the front of keys, NaNs to tmp */
    if (keys[k].v.r != keys[k].v.r) tmp[nan++] = keys[k];
    else keys[m++] = keys[k];
  }
  Keyed *nans = nan ? malloc(sizeof *nans * (size_t)nan) : NULL;
  if (nan) memcpy(nans, tmp, sizeof *nans * (size_t)nan);
  (down ? sort_real_down : sort_real_up)(keys, tmp, m);
  if (nan && down) {
    memmove(keys + nan, keys, sizeof *keys * (size_t)m);
    memcpy(keys, nans, sizeof *keys * (size_t)nan);
  } else if (nan) {
    memcpy(keys + m, nans, sizeof *keys * (size_t)nan);
  }
  free(nans);
}

/* Loads the slice into keys (at = position in the slice) and sorts it; tmp has room for n. */
static void sort_slice(const Array *a, int64_t off, int64_t n, int64_t st, bool down, Keyed *keys,
                       Keyed *tmp) {
  bool ints = el_is_integer(a->elem);
  for (int64_t k = 0; k < n; k++) {
    if (ints) keys[k].v.i = arr_load_i(a, off + k * st);
    else keys[k].v.r = arr_load(a, off + k * st);
    keys[k].at = k;
  }
  sort_keys(keys, tmp, n, ints, down);
}

/* Room for n keys (at least one). */
static Keyed *keys_new(int64_t n) { return malloc(sizeof(Keyed) * (size_t)(n > 0 ? n : 1)); }

static bool is_direction(Value v) { return v.kind == V_STRING; }

static bool direction_down(const char *fn, Value v, SrcLoc loc) {
  if (!strcmp(v.str->s, "ascend")) return false;
  if (!strcmp(v.str->s, "descend")) return true;
  rt_error(loc, "%s: direction must be \"ascend\" or \"descend\", got \"%s\"", fn, v.str->s);
}

/* sort(x), sort(x, dim), sort(x, "descend"), sort(x, dim, "descend"). */
static Value sort_fn(bool with_idx, int argc, const Value *argv, SrcLoc loc) {
  Array *a = arg_array("sort", argv[0], loc);
  need_ordered("sort", a, loc);
  View v = view_of(a);
  int64_t d = first_dim(&v);
  bool down = false;
  for (int k = 1; k < argc; k++) {
    if (is_direction(argv[k])) down = direction_down("sort", argv[k], loc);
    else if (k == 1) d = arg_dim("sort", argv[k], loc);
    else bad_arg("sort", "\"ascend\" or \"descend\"", argv[k], loc);
  }
  Split s = split_at(&v, d);
  Array *r = arr_new_uninit(a->elem, a->rank, a->dims);
  Array *idx = with_idx ? arr_new_uninit(idx_elem(s.n), a->rank, a->dims) : NULL;
  Keyed *keys = keys_new(s.n), *tmp = keys_new(s.n);
  size_t sz = el_size(a->elem);
  for (int64_t o = 0; o < s.outer; o++)
    for (int64_t i = 0; i < s.inner; i++) {
      int64_t off = o * s.n * s.inner + i;
      sort_slice(a, off, s.n, s.inner, down, keys, tmp);
      for (int64_t k = 0; k < s.n; k++) {
        int64_t to = off + k * s.inner;
        memcpy((char *)r->data + (size_t)to * sz, (const char *)a->data + (size_t)(off + keys[k].at * s.inner) * sz, sz);
        if (idx) arr_store_i(idx, to, keys[k].at);
      }
    }
  free(keys);
  free(tmp);
  drop(a);
  return idx ? pair(v_array(r), v_array(idx)) : v_array(r);
}

STAT(sort) { return sort_fn(false, argc, argv, loc); }
STAT(sort_outs) { return sort_fn(true, argc, argv, loc); }

/* unique's options: "sorted" (the default) or "stable" (the order of first occurrence),
   "first" (the default) or "last" (which occurrence i gives). */
typedef struct UniqueOpts { bool stable, last; } UniqueOpts;

static UniqueOpts unique_opts(int argc, const Value *argv, SrcLoc loc) {
  UniqueOpts o = { false, false };
  for (int k = 1; k < argc; k++) {
    if (argv[k].kind != V_STRING) bad_arg("unique", "an option (\"sorted\", \"stable\", \"first\" or \"last\")", argv[k], loc);
    const char *s = argv[k].str->s;
    if (!strcmp(s, "sorted") || !strcmp(s, "stable")) o.stable = s[1] == 't';
    else if (!strcmp(s, "first") || !strcmp(s, "last")) o.last = s[0] == 'l';
    else rt_error(loc, "unique: unknown option \"%s\" (\"sorted\", \"stable\", \"first\" or \"last\")", s);
  }
  return o;
}

/* unique(x [, options]): the distinct values, a vec, ascending (or "stable": in the order
   they first occur); [u, i, j] = unique(x, ...): also i (the linear index of each value's
   first occurrence, or "last" one: u == x[i]) and j (for each element of x the index of its
   value in u: x == u[j], a vec of numel(x)). NaNs are distinct, as in MATLAB, and come
   last when sorted. */
static Value unique_fn(bool outs, int argc, const Value *argv, SrcLoc loc) {
  UniqueOpts o = unique_opts(argc, argv, loc);
  Array *a = arg_array("unique", argv[0], loc);
  need_ordered("unique", a, loc);
  int64_t n = a->numel, nu = 0;
  Keyed *keys = keys_new(n), *tmp = keys_new(n);
  sort_slice(a, 0, n, 1, false, keys, tmp);
  free(tmp);
  bool ints = el_is_integer(a->elem);
  size_t room = sizeof(int64_t) * (size_t)(n ? n + 1 : 1);
  int64_t *first = malloc(room), *group = malloc(room), *rank = malloc(room);
  for (int64_t k = 0; k < n; k++) {   /* groups of equal values; first[g]: where g starts in keys */
    bool same = k > 0 && (ints ? keys[k].v.i == keys[k - 1].v.i : keys[k].v.r == keys[k - 1].v.r);
    if (!same) first[nu++] = k;
    group[keys[k].at] = nu - 1;
  }
  first[nu] = n;
  for (int64_t g = 0; g < nu; g++) rank[g] = o.stable ? -1 : g;
  if (o.stable)   /* the position of each group in u: the order of first occurrence */
    for (int64_t pos = 0, next = 0; pos < n; pos++)
      if (rank[group[pos]] < 0) rank[group[pos]] = next++;
  Array *u = arr_vec(a->elem, nu), *i = outs ? arr_vec(idx_elem(n), nu) : NULL;
  size_t sz = el_size(a->elem);
  for (int64_t g = 0; g < nu; g++) {
    /* the stable sort keeps equal values in the order of their positions */
    int64_t at = keys[o.last ? first[g + 1] - 1 : first[g]].at;
    memcpy((char *)u->data + (size_t)rank[g] * sz, (const char *)a->data + (size_t)at * sz, sz);
    if (i) arr_store_i(i, rank[g], at);
  }
  Array *j = outs ? arr_vec(idx_elem(n), n) : NULL;
  for (int64_t pos = 0; j && pos < n; pos++) arr_store_i(j, pos, rank[group[pos]]);
  free(keys);
  free(first);
  free(group);
  free(rank);
  drop(a);
  if (!outs) return v_array(u);
  Value t = v_tuple(3);
  t.tup->v[0] = v_array(u);
  t.tup->v[1] = v_array(i);
  t.tup->v[2] = v_array(j);
  return t;
}

STAT(unique) { return unique_fn(false, argc, argv, loc); }
STAT(unique_outs) { return unique_fn(true, argc, argv, loc); }

/* histc's edges as doubles (m of them, non-decreasing numbers). */
static double *histc_edges(const Array *e, SrcLoc loc) {
  int64_t m = e->numel;
  if (m == 0) rt_error(loc, "histc: the edges are empty");
  double *edges = malloc(sizeof *edges * (size_t)m);
  for (int64_t k = 0; k < m; k++) {
    edges[k] = arr_load(e, k);
    if (edges[k] != edges[k] || (k > 0 && edges[k] < edges[k - 1])) {
      free(edges);
      rt_error(loc, "histc: the edges must be non-decreasing numbers (edge %lld)", (long long)k);
    }
  }
  return edges;
}

/* The bin of v among m edges: the last edge <= v (binary search), -1 outside (and NaN);
   the last bin holds v == edges[m-1] only. */
static int64_t histc_bin(const double *edges, int64_t m, double v) {
  if (!(v >= edges[0] && v <= edges[m - 1])) return -1;
  int64_t lo = 0, hi = m - 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (edges[mid] <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo == m - 1 && v != edges[m - 1] ? -1 : lo;
}

/* The count array of histc along dimension dim: x's shape (a vec as a 1 x N row, padded
   with 1s up to dim) with dimension dim replaced by m; split gets x's split at dim. */
static Array *histc_counts_along(const Array *x, int64_t dim, int64_t m, Split *split) {
  View v = view_of(x);
  while (v.rank <= dim) v.dims[v.rank++] = 1;
  *split = split_at(&v, dim);
  v.dims[dim] = m;
  int rank = v.rank;
  rt_shape_normalize(&rank, v.dims);
  return arr_new(idx_elem(x->numel), rank, v.dims);
}

/* histc(x, edges [, dim]): counts[k] of the elements with edges[k] <= v < edges[k+1], the
   last counting v == edges[end]; over all elements of x (an int vec of m), or with dim of
   each slice along dim (x's shape with dimension dim of m). [n, bin] = histc(x, edges):
   bin (shaped as x) is each element's bin, -1 outside every bin (and for NaN). Binary
   search: O(n log m). */
static Value histc_fn(bool outs, int argc, const Value *argv, SrcLoc loc) {
  int64_t dim = argc > 2 ? arg_dim("histc", argv[2], loc) : -1;
  Array *x = arg_array("histc", argv[0], loc), *e = arg_array("histc", argv[1], loc);
  need_ordered("histc", x, loc);
  need_ordered("histc", e, loc);
  int64_t m = e->numel;
  double *edges = histc_edges(e, loc);
  Split sp = { 1, x->numel, 1 };
  Array *count = dim < 0 ? arr_vec(idx_elem(x->numel), m) : histc_counts_along(x, dim, m, &sp);
  Array *bin = outs ? arr_new_uninit(idx_elem(m), x->rank, x->dims) : NULL;
  for (int64_t k = 0; k < x->numel; k++) {
    int64_t b = histc_bin(edges, m, arr_load(x, k));
    if (b >= 0) {
      int64_t outer = k / (sp.n * sp.inner), inner = k % sp.inner;
      int64_t c = (outer * m + b) * sp.inner + inner;
      arr_store_i(count, c, arr_load_i(count, c) + 1);
    }
    if (bin) arr_store_i(bin, k, b);
  }
  free(edges);
  drop(x);
  drop(e);
  return outs ? pair(v_array(count), v_array(bin)) : v_array(count);
}

STAT(histc) { return histc_fn(false, argc, argv, loc); }
STAT(histc_outs) { return histc_fn(true, argc, argv, loc); }

/* ---- median, mode, var, std ---- */

static void swap_d(double *x, double *y) { double t = *x; *x = *y; *y = t; }

static int cmp_double(const void *p, const void *q) {
  double x = *(const double *)p, y = *(const double *)q;
  return (x > y) - (x < y);
}

/* Puts the k-th smallest of v[0..n) at v[k], smaller ones before it and larger ones after
   (nth_element). Quickselect with a median-of-three pivot; past 2 log2(n) rounds it sorts
   what is left, so the worst case is O(n log n). No NaNs in v. */
static void select_kth(double *v, int64_t n, int64_t k) {
  int64_t lo = 0, hi = n - 1;
  int budget = 2;
  for (int64_t m = n; m > 1; m >>= 1) budget += 2;
  while (hi > lo) {
    if (budget-- == 0) {
      qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, cmp_double);
      return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    if (v[mid] < v[lo]) swap_d(&v[mid], &v[lo]);
    if (v[hi] < v[lo]) swap_d(&v[hi], &v[lo]);
    if (v[hi] < v[mid]) swap_d(&v[hi], &v[mid]);
    double pivot = v[mid];
    int64_t i = lo, j = hi;
    while (i <= j) {   /* Hoare partition */
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) swap_d(&v[i++], &v[j--]);
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;   /* v[j+1 .. i-1] all equal the pivot */
  }
}

/* The median of a slice: NaN when it holds a NaN or is empty (MATLAB's default). The mean
   of the two middle elements when n is even. */
static void slice_median(const Array *a, int64_t off, int64_t n, int64_t st, const void *ctx,
                         Value *out, SrcLoc loc) {
  (void)ctx; (void)loc;
  out[0] = v_scalar(NAN);
  if (n <= 0) return;
  double *v = malloc(sizeof *v * (size_t)n);
  bool nan = false;
  for (int64_t k = 0; k < n; k++) {
    v[k] = arr_load(a, off + k * st);
    nan |= v[k] != v[k];
  }
  double med = NAN;
  if (!nan) {
    int64_t h = n / 2;
    select_kth(v, n, h);
    med = v[h];
    if (n % 2 == 0) {   /* the lower middle: the largest of v[0..h) */
      double lower = v[0];
      for (int64_t k = 1; k < h; k++)
        if (v[k] > lower) lower = v[k];
      if (lower != med) med = lower + (med - lower) / 2;   /* no overflow to Inf */
    }
  }
  free(v);
  out[0] = v_scalar(med);
}

/* The argument d of f(x, d), or -1 for f(x) (over all elements). */
static int64_t opt_dim(const char *fn, int argc, const Value *argv, int at, SrcLoc loc) {
  return argc > at ? arg_dim(fn, argv[at], loc) : -1;
}

STAT(median) {
  Array *a = arg_array("median", argv[0], loc);
  need_ordered("median", a, loc);
  Reducer r = { "median", slice_median, NULL, 1, { el_for_class(NC_REAL, a->elem, EL_COUNT) } };
  Value res = reduce_along(&r, a, opt_dim("median", argc, argv, 1, loc), loc);
  drop(a);
  return res;
}

/* The most frequent value of a slice (the smallest among equally frequent ones, as in
   MATLAB) and its count; NaNs are left out. No value (empty, or all NaN): NaN and 0. */
static void slice_mode(const Array *a, int64_t off, int64_t n, int64_t st, const void *ctx,
                       Value *out, SrcLoc loc) {
  (void)ctx; (void)loc;
  bool ints = el_is_integer(a->elem);
  Keyed *v = keys_new(n), *tmp = keys_new(n);
  int64_t m = 0;
  for (int64_t k = 0; k < n; k++) {
    if (ints) v[m].v.i = arr_load_i(a, off + k * st);
    else {
      double x = arr_load(a, off + k * st);
      if (x != x) continue;
      v[m].v.r = x;
    }
    v[m].at = k;
    m++;
  }
  sort_keys(v, tmp, m, ints, false);
  free(tmp);
  int64_t best = -1, best_count = 0;
  for (int64_t k = 0; k < m;) {
    int64_t e = k + 1;
    while (e < m && (ints ? v[e].v.i == v[k].v.i : v[e].v.r == v[k].v.r)) e++;
    if (e - k > best_count) { best = k; best_count = e - k; }
    k = e;
  }
  if (best < 0) out[0] = v_scalar(NAN);
  else out[0] = ints ? v_int(v[best].v.i) : v_scalar(v[best].v.r);
  out[1] = v_int(best_count);
  free(v);
}

static Value mode_fn(int nout, int argc, const Value *argv, SrcLoc loc) {
  Array *a = arg_array("mode", argv[0], loc);
  need_ordered("mode", a, loc);
  ElemType e = el_for_class(el_class(a->elem), a->elem, EL_COUNT);
  Reducer r = { "mode", slice_mode, NULL, nout, { e, idx_elem(a->numel) } };
  Value res = reduce_along(&r, a, opt_dim("mode", argc, argv, 1, loc), loc);
  drop(a);
  return res;
}

STAT(mode) { return mode_fn(1, argc, argv, loc); }
STAT(mode_outs) { return mode_fn(2, argc, argv, loc); }

typedef struct Spread { bool by_n, root; } Spread;

/* var: the mean of |x - mean|^2 with n - 1 in the denominator (by_n: n; one element: 0),
   computed in two passes in double; std: its square root. Empty: NaN. */
static void slice_spread(const Array *a, int64_t off, int64_t n, int64_t st, const void *ctx,
                         Value *out, SrcLoc loc) {
  (void)loc;
  const Spread *sp = ctx;
  double mre = 0, mim = 0, re, im, acc = 0;
  for (int64_t k = 0; k < n; k++) {
    arr_load_c(a, off + k * st, &re, &im);
    mre += re;
    mim += im;
  }
  mre /= (double)n;
  mim /= (double)n;
  for (int64_t k = 0; k < n; k++) {
    arr_load_c(a, off + k * st, &re, &im);
    acc += (re - mre) * (re - mre) + (im - mim) * (im - mim);
  }
  double var = n == 0 ? NAN : acc / (double)(sp->by_n || n == 1 ? n : n - 1);
  out[0] = v_scalar(sp->root ? sqrt(var) : var);
}

/* var(x), var(x, w), var(x, w, dim) (MATLAB's order): w = 0 or [] divides by n - 1, w = 1
   by n. */
static Value spread(const char *fn, bool root, int argc, const Value *argv, SrcLoc loc) {
  Array *a = arg_array(fn, argv[0], loc);
  bool by_n = false;
  if (argc > 1 && !(argv[1].kind == V_ARRAY && argv[1].arr->numel == 0)) {
    int64_t w = arg_int(fn, "the weight", argv[1], loc);
    if (w != 0 && w != 1) rt_error(loc, "%s: the weight must be 0 or 1, got %lld", fn, (long long)w);
    by_n = w == 1;
  }
  Spread sp = { by_n, root };
  Reducer r = { fn, slice_spread, &sp, 1, { el_for_class(NC_REAL, a->elem, EL_COUNT) } };
  Value res = reduce_along(&r, a, opt_dim(fn, argc, argv, 2, loc), loc);
  drop(a);
  return res;
}

STAT(var) { return spread("var", false, argc, argv, loc); }
STAT(std) { return spread("std", true, argc, argv, loc); }

/* ---- any, all, find ---- */

static bool nonzero(const Array *a, int64_t k) {
  if (el_is_integer(a->elem)) return arr_load_i(a, k) != 0;
  double re, im;
  arr_load_c(a, k, &re, &im);
  return re != 0 || im != 0;   /* NaN counts as nonzero */
}

typedef struct Quant { bool all; } Quant;

static void slice_quant(const Array *a, int64_t off, int64_t n, int64_t st, const void *ctx,
                        Value *out, SrcLoc loc) {
  (void)loc;
  bool all = ((const Quant *)ctx)->all;
  for (int64_t k = 0; k < n; k++)
    if (nonzero(a, off + k * st) != all) { out[0] = v_bool(!all); return; }
  out[0] = v_bool(all);
}

/* any(x), all(x): one bool over all elements (empty: any false, all true); along a
   dimension an int array of 0/1. */
static Value quant(const char *fn, bool all, int argc, const Value *argv, SrcLoc loc) {
  Array *a = arg_array(fn, argv[0], loc);
  static const Quant q_any = { false }, q_all = { true };
  Reducer r = { fn, slice_quant, all ? &q_all : &q_any, 1, { EL_I32 } };
  Value res = reduce_along(&r, a, opt_dim(fn, argc, argv, 1, loc), loc);
  drop(a);
  return res;
}

STAT(any) { return quant("any", false, argc, argv, loc); }
STAT(all) { return quant("all", true, argc, argv, loc); }

/* find(x), find(x, k): the linear (row-major) indices of the nonzero elements, at most the
   first k, as an int vec. [r, c, v] = find(x): the row r = index / (numel / rows) and the
   rest c = index mod (numel / rows) (a vec is one row: r = 0), and the values v. */
static Value find_fn(bool outs, int argc, const Value *argv, SrcLoc loc) {
  Array *a = arg_array("find", argv[0], loc);
  int64_t limit = a->numel;
  if (argc > 1) {
    limit = arg_int("find", "the count", argv[1], loc);
    if (limit < 0) rt_error(loc, "find: the count must be >= 0, got %lld", (long long)limit);
  }
  int64_t count = 0;
  for (int64_t k = 0; k < a->numel && count < limit; k++) count += nonzero(a, k);
  Array *ix = arr_vec(idx_elem(a->numel), count);
  int64_t m = 0;
  for (int64_t k = 0; m < count; k++)
    if (nonzero(a, k)) arr_store_i(ix, m++, k);
  if (!outs) { drop(a); return v_array(ix); }
  View v = view_of(a);
  int64_t rest = v.dims[0] ? a->numel / v.dims[0] : 1;
  Array *r = arr_vec(idx_elem(a->numel), count), *c = arr_vec(idx_elem(a->numel), count);
  Array *vals = arr_vec(a->elem, count);
  size_t sz = el_size(a->elem);
  for (int64_t k = 0; k < count; k++) {
    int64_t at = arr_load_i(ix, k);
    arr_store_i(r, k, at / rest);
    arr_store_i(c, k, at % rest);
    memcpy((char *)vals->data + (size_t)k * sz, (const char *)a->data + (size_t)at * sz, sz);
  }
  drop(ix);
  drop(a);
  Value t = v_tuple(3);
  t.tup->v[0] = v_array(r);
  t.tup->v[1] = v_array(c);
  t.tup->v[2] = v_array(vals);
  return t;
}

STAT(find) { return find_fn(false, argc, argv, loc); }
STAT(find_outs) { return find_fn(true, argc, argv, loc); }

/* ---- running sums and products, differences ---- */

/* The running sum (product) of each slice along d; the result has x's shape. Ints wrap. */
static void scan_slice(bool prod, const Array *a, Array *r, int64_t off, int64_t n, int64_t st) {
  NumClass c = el_class(a->elem);
  uint64_t si = prod;
  double sr = prod, re, im;
  double complex sc = prod;
  for (int64_t k = 0; k < n; k++) {
    int64_t at = off + k * st;
    if (c == NC_INT) {
      uint64_t x = (uint64_t)arr_load_i(a, at);
      si = prod ? si * x : si + x;
      arr_store_i(r, at, (int64_t)si);
    } else if (c == NC_REAL) {
      double x = arr_load(a, at);
      sr = prod ? sr * x : sr + x;
      arr_store(r, at, sr);
    } else {
      arr_load_c(a, at, &re, &im);
      sc = prod ? sc * CMPLX(re, im) : sc + CMPLX(re, im);
      arr_store_c(r, at, creal(sc), cimag(sc));
    }
  }
}

/* cumsum(x[, dim]), cumprod(x[, dim]): along dim, by default the first dimension that is
   not 1 (a vec: along it). */
static Value scan(const char *fn, bool prod, int argc, const Value *argv, SrcLoc loc) {
  Array *a = arg_array(fn, argv[0], loc);
  View v = view_of(a);
  int64_t d = argc > 1 ? arg_dim(fn, argv[1], loc) : first_dim(&v);
  Split s = split_at(&v, d);
  Array *r = arr_new_uninit(el_for_class(el_class(a->elem), a->elem, EL_COUNT), a->rank, a->dims);
  for (int64_t o = 0; o < s.outer; o++)
    for (int64_t i = 0; i < s.inner; i++) scan_slice(prod, a, r, o * s.n * s.inner + i, s.n, s.inner);
  drop(a);
  if (argv[0].kind != V_ARRAY) {   /* a number gives a number */
    Value x = arr_get(r, 0);
    drop(r);
    return x;
  }
  return v_array(r);
}

STAT(cumsum) { return scan("cumsum", false, argc, argv, loc); }
STAT(cumprod) { return scan("cumprod", true, argc, argv, loc); }

/* One first difference along d: dimension d shrinks by one. */
static Array *diff_once(const Array *a, int rank, const int64_t *dims, int64_t d, int64_t *out_dims) {
  View v = { rank, { 0 } };
  memcpy(v.dims, dims, sizeof v.dims);
  Split s = split_at(&v, d);
  memcpy(out_dims, dims, sizeof v.dims);
  int64_t m = s.n > 0 ? s.n - 1 : 0;
  out_dims[d] = m;
  Array *r = arr_new_uninit(a->elem, rank, out_dims);
  NumClass c = el_class(a->elem);
  for (int64_t o = 0; o < s.outer; o++)
    for (int64_t k = 0; k < m; k++)
      for (int64_t i = 0; i < s.inner; i++) {
        int64_t x0 = (o * s.n + k) * s.inner + i, x1 = x0 + s.inner, to = (o * m + k) * s.inner + i;
        if (c == NC_INT) arr_store_i(r, to, (int64_t)((uint64_t)arr_load_i(a, x1) - (uint64_t)arr_load_i(a, x0)));
        else if (c == NC_REAL) arr_store(r, to, arr_load(a, x1) - arr_load(a, x0));
        else {
          double r0, i0, r1, i1;
          arr_load_c(a, x0, &r0, &i0);
          arr_load_c(a, x1, &r1, &i1);
          arr_store_c(r, to, r1 - r0, i1 - i0);
        }
      }
  return r;
}

/* diff(x), diff(x, order), diff(x, order, dim) (MATLAB's order of arguments): repeated
   first differences along dim (default: the first dimension that is not 1), which gets
   `order` shorter (never below 0). The element class is kept (ints wrap). */
STAT(diff) {
  Array *a = arg_array("diff", argv[0], loc);
  int64_t order = 1;
  if (argc > 1) {
    order = arg_int("diff", "the order", argv[1], loc);
    if (order < 0) rt_error(loc, "diff: the order must be >= 0, got %lld", (long long)order);
  }
  View v = view_of(a);
  int64_t d = argc > 2 ? arg_dim("diff", argv[2], loc) : first_dim(&v);
  int rank = v.rank > d + 1 ? v.rank : (int)d + 1;
  int64_t dims[OQ_MAX_RANK], next[OQ_MAX_RANK];
  memcpy(dims, v.dims, sizeof dims);
  Array *cur = arr_convert(a, el_for_class(el_class(a->elem), a->elem, EL_COUNT));
  drop(a);
  for (int64_t k = 0; k < order && dims[d] > 0; k++) {
    Array *r = diff_once(cur, rank, dims, d, next);
    drop(cur);
    cur = r;
    memcpy(dims, next, sizeof dims);
  }
  rt_shape_normalize(&rank, dims);
  cur->rank = rank;   /* same elements, the normalized shape */
  memcpy(cur->dims, dims, sizeof(int64_t) * (size_t)rank);
  for (int k = rank; k < OQ_MAX_RANK; k++) cur->dims[k] = 1;
  return v_array(cur);
}

/* ---- rearrangement ---- */

/* Copies a's blocks of `inner` elements along d to r, block k to block map(k). */
static void move_blocks(const Array *a, Array *r, int64_t d, int64_t shift, bool flip) {
  View v = view_of(a);
  Split s = split_at(&v, d);
  size_t block = (size_t)s.inner * el_size(a->elem);
  for (int64_t o = 0; o < s.outer; o++)
    for (int64_t k = 0; k < s.n; k++) {
      int64_t to = flip ? s.n - 1 - k : ((k + shift) % s.n + s.n) % s.n;
      memcpy((char *)r->data + (size_t)(o * s.n + to) * block, (const char *)a->data + (size_t)(o * s.n + k) * block, block);
    }
}

/* circshift(x, k): a number k shifts along the first dimension that is not 1 (a vec: along
   it); a vector k shifts dimension d by k[d] (a vec is a 1 x N row: k[1] runs along it).
   circshift(x, k, dim): by k along dim. Element i moves to i + k (mod n). */
STAT(circshift) {
  Array *a = arg_array("circshift", argv[0], loc);
  View v = view_of(a);
  int64_t shifts[OQ_MAX_RANK] = { 0 };
  Value k = argv[1];
  if (k.kind == V_ARRAY) host_current(k, loc);
  bool list = k.kind == V_ARRAY && k.arr->numel != 1;
  if (argc > 2 && list) bad_arg("circshift", "one shift with a dimension", k, loc);
  if (list) {
    if (el_is_complex(k.arr->elem) || k.arr->numel > OQ_MAX_RANK)
      bad_arg("circshift", "a vector of integer shifts, one per dimension", k, loc);
    for (int64_t d = 0; d < k.arr->numel; d++) {
      double x = arr_load(k.arr, d);
      if (x != floor(x)) rt_error(loc, "circshift: shift %g is not an integer", x);
      shifts[d] = (int64_t)x;
    }
  } else {
    Value one = k.kind == V_ARRAY ? arr_get(k.arr, 0) : k;
    int64_t d = argc > 2 ? arg_dim("circshift", argv[2], loc) : first_dim(&v);
    shifts[d] = arg_int("circshift", "the shift", one, loc);
  }
  Array *cur = arr_copy(a);
  drop(a);
  for (int d = 0; d < OQ_MAX_RANK; d++) {
    int64_t n = d < v.rank ? v.dims[d] : 1;
    if (n <= 1 || shifts[d] % n == 0) continue;
    Array *r = arr_new_uninit(cur->elem, cur->rank, cur->dims);
    move_blocks(cur, r, d, shifts[d] % n, false);
    drop(cur);
    cur = r;
  }
  return v_array(cur);
}

static Value flip(const char *fn, Value x, int64_t d, SrcLoc loc) {
  Array *a = arg_array(fn, x, loc);
  Array *r = arr_new_uninit(a->elem, a->rank, a->dims);
  move_blocks(a, r, d, 0, true);
  drop(a);
  return v_array(r);
}

/* flip(x, dim) reverses dimension dim; fliplr is flip(x, 1) (a vec: reversed), flipud is
   flip(x, 0) (a vec: unchanged, it is one row). */
STAT(flip) {
  (void)argc;
  return flip("flip", argv[0], arg_dim("flip", argv[1], loc), loc);
}
STAT(fliplr) { (void)argc; return flip("fliplr", argv[0], 1, loc); }
STAT(flipud) { (void)argc; return flip("flipud", argv[0], 0, loc); }

/* cat(dim, a, b, ...): joined along dim; vertcat is cat(0, ...), horzcat cat(1, ...).
   Numbers are 1 x 1, vecs 1 x N rows; empty arrays are left out; every other dimension must
   agree. The element type is the widest (int < scalar < cscalar); the shape follows
   rt_shape_normalize (horzcat of vecs is a vec, vertcat of vecs a matrix). */
static Value cat(const char *fn, int64_t d, int argc, const Value *argv, SrcLoc loc) {
  int rank = (int)d + 1, used = 0;
  int64_t dims[OQ_MAX_RANK];
  View *views = malloc(sizeof *views * (size_t)(argc ? argc : 1));
  Array **parts = malloc(sizeof *parts * (size_t)(argc ? argc : 1));
  NumClass c = NC_INT;
  bool wide_int = false, wide_real = false, same = true;
  for (int k = 0; k < argc; k++) {
    Array *a = arg_array(fn, argv[k], loc);
    if (a->numel == 0) { drop(a); continue; }
    views[used] = view_of(a);
    if (views[used].rank > rank) rank = views[used].rank;
    if (el_class(a->elem) > c) c = el_class(a->elem);
    wide_int |= a->elem == EL_I64;
    wide_real |= a->elem == EL_F64 || a->elem == EL_C128;
    same &= !used || a->elem == parts[0]->elem;
    parts[used++] = a;
  }
  ElemType e = used && same ? parts[0]->elem   /* uint8 with uint8 stays uint8 */
    : el_for_class(c, wide_int ? EL_I64 : wide_real ? EL_F64 : EL_COUNT, EL_COUNT);
  for (int k = 0; k < OQ_MAX_RANK; k++) dims[k] = k == d ? 0 : !used ? (k < rank ? 0 : 1) : k < views[0].rank ? views[0].dims[k] : 1;
  for (int p = 0; p < used; p++)
    for (int k = 0; k < rank; k++) {
      int64_t n = k < views[p].rank ? views[p].dims[k] : 1;
      if (k == d) dims[k] += n;
      else if (n != dims[k]) {
        char want[200], got[200];
        rt_error(loc, "%s: the sizes disagree outside dimension %lld: %s and %s", fn, (long long)d,
                 rt_dims_str(want, sizeof want, views[0].rank, views[0].dims),
                 rt_dims_str(got, sizeof got, views[p].rank, views[p].dims));
      }
    }
  int rrank = rank;
  int64_t rdims[OQ_MAX_RANK];
  memcpy(rdims, dims, sizeof rdims);
  rt_shape_normalize(&rrank, rdims);
  Array *r = arr_new_uninit(e, rrank, rdims);
  View rv = { rank, { 0 } };
  memcpy(rv.dims, dims, sizeof dims);
  Split s = split_at(&rv, d);
  size_t sz = el_size(e);
  int64_t at = 0;
  for (int64_t o = 0; o < s.outer; o++)
    for (int p = 0; p < used; p++) {
      Array *src = parts[p]->elem == e ? parts[p] : NULL;
      if (!src) {   /* converted once, on first use */
        src = arr_convert(parts[p], e);
        drop(parts[p]);
        parts[p] = src;
      }
      int64_t block = (views[p].rank > d ? views[p].dims[d] : 1) * s.inner;
      memcpy((char *)r->data + (size_t)at * sz, (const char *)src->data + (size_t)(o * block) * sz, (size_t)block * sz);
      at += block;
    }
  for (int p = 0; p < used; p++) drop(parts[p]);
  free(parts);
  free(views);
  return v_array(r);
}

STAT(cat) { return cat("cat", arg_dim("cat", argv[0], loc), argc - 1, argv + 1, loc); }
STAT(vertcat) { return cat("vertcat", 0, argc, argv, loc); }
STAT(horzcat) { return cat("horzcat", 1, argc, argv, loc); }

/* meshgrid(x), meshgrid(x, y), meshgrid(x, y, z): X, Y (and Z) are ny x nx (x nz) grids
   with X[i, j] = x[j], Y[i, j] = y[i] (Z[i, j, k] = z[k]), as in MATLAB; `X = meshgrid(...)`
   gives X alone. Each grid keeps the element type of its vector. */
static Value meshgrid_fn(bool outs, int argc, const Value *argv, SrcLoc loc) {
  Array *g[3] = { arg_array("meshgrid", argv[0], loc), arg_array("meshgrid", argv[argc > 1], loc),
                  argc > 2 ? arg_array("meshgrid", argv[2], loc) : NULL };   /* meshgrid(x): y = x */
  int rank = argc == 3 ? 3 : 2;
  int64_t dims[3] = { g[1]->numel, g[0]->numel, g[2] ? g[2]->numel : 1 };
  int at[3] = { 1, 0, 2 };   /* grid k varies along dimension at[k] */
  int n = outs ? rank : 1;
  Value t = outs ? v_tuple(n) : v_none();
  Value first = v_none();
  for (int k = 0; k < n; k++) {
    Array *r = arr_new_uninit(g[k]->elem, rank, dims);
    size_t sz = el_size(r->elem);
    for (int64_t e = 0; e < r->numel; e++) {
      int64_t pos[3] = { e / (dims[1] * dims[2]), e / dims[2] % dims[1], e % dims[2] };
      memcpy((char *)r->data + (size_t)e * sz, (const char *)g[k]->data + (size_t)pos[at[k]] * sz, sz);
    }
    if (outs) t.tup->v[k] = v_array(r);
    else first = v_array(r);
  }
  for (int k = 0; k < 3; k++)
    if (g[k]) drop(g[k]);
  return outs ? t : first;
}

STAT(meshgrid) { return meshgrid_fn(false, argc, argv, loc); }
STAT(meshgrid_outs) { return meshgrid_fn(true, argc, argv, loc); }

/* ---- numbers ---- */

/* dotprod(a, b): the sum of a .* b over all elements (no complex conjugate); a and b have
   as many elements (shapes may differ: a vec and a column). Ints give an int (wrapping). */
STAT(dotprod) {
  (void)argc;
  Array *a = arg_array("dotprod", argv[0], loc), *b = arg_array("dotprod", argv[1], loc);
  if (a->numel != b->numel)
    rt_error(loc, "dotprod: %lld and %lld elements", (long long)a->numel, (long long)b->numel);
  NumClass c = el_class(a->elem) > el_class(b->elem) ? el_class(a->elem) : el_class(b->elem);
  uint64_t si = 0;
  double complex sc = 0;
  double sr = 0;
  for (int64_t k = 0; k < a->numel; k++) {
    if (c == NC_INT) si += (uint64_t)arr_load_i(a, k) * (uint64_t)arr_load_i(b, k);
    else if (c == NC_REAL) sr += arr_load(a, k) * arr_load(b, k);
    else {
      double ar, ai, br, bi;
      arr_load_c(a, k, &ar, &ai);
      arr_load_c(b, k, &br, &bi);
      sc += CMPLX(ar, ai) * CMPLX(br, bi);
    }
  }
  drop(a);
  drop(b);
  if (c == NC_INT) return v_int((int64_t)si);
  if (c == NC_REAL) return v_scalar(sr);
  return v_cscalar(creal(sc), cimag(sc));
}

/* pow(a, b): a .^ b, element-wise with numbers broadcast. */
STAT(pow) {
  (void)argc;
  for (int k = 0; k < 2; k++)
    if (!v_is_num(argv[k]) && argv[k].kind != V_ARRAY) bad_arg("pow", "a number or an array", argv[k], loc);
  if (argv[0].kind == V_ARRAY && argv[1].kind == V_ARRAY && !arr_same_shape(argv[0].arr, argv[1].arr)) {
    char sa[200], sb[200];
    rt_error(loc, "pow: shape mismatch: %s and %s",
             rt_dims_str(sa, sizeof sa, argv[0].arr->rank, argv[0].arr->dims),
             rt_dims_str(sb, sizeof sb, argv[1].arr->rank, argv[1].arr->dims));
  }
  host_current(argv[0], loc);
  host_current(argv[1], loc);
  return rt_binary(OP_EPOW, argv[0], argv[1], loc);
}

/* seed(n): restarts rand, randn and randi from n (a program that never calls it gets the
   same numbers every run). */
STAT(seed) {
  (void)argc;
  rt_seed_random((uint64_t)arg_int("seed", "the seed", argv[0], loc));
  return v_none();
}

/* A uniform integer in [0, span) without modulo bias (rejection). span >= 1. */
static uint64_t uniform_below(uint64_t span) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % span, x;
  do x = rt_random_u64();
  while (x >= limit);
  return x % span;
}

/* randi(imax, sizes...) in 1..imax and randi([lo, hi], sizes...) in lo..hi (MATLAB's
   signature; randi([0, n-1], ...) gives 0-based indices). Sizes as for rand: none gives
   one int. */
STAT(randi) {
  Value r = argv[0];
  int64_t lo = 1, hi;
  if (r.kind == V_ARRAY) {
    host_current(r, loc);
    if (r.arr->numel != 2 || el_is_complex(r.arr->elem)) bad_arg("randi", "imax or [lo, hi]", r, loc);
    lo = arg_int("randi", "lo", arr_get(r.arr, 0), loc);
    hi = arg_int("randi", "hi", arr_get(r.arr, 1), loc);
  } else {
    hi = arg_int("randi", "imax", r, loc);
  }
  if (hi < lo) rt_error(loc, "randi: empty range %lld..%lld", (long long)lo, (long long)hi);
  if (hi - lo >= INT32_MAX || lo < INT32_MIN || hi > INT32_MAX)
    rt_error(loc, "randi: the range %lld..%lld does not fit int", (long long)lo, (long long)hi);
  uint64_t span = (uint64_t)(hi - lo) + 1;
  if (argc == 1) return v_int(lo + (int64_t)uniform_below(span));
  Value sizes = argc == 2 ? argv[1] : v_none();
  int64_t dims[OQ_MAX_RANK] = { 0 };
  int rank = 0;
  if (argc == 2 && sizes.kind == V_ARRAY) {
    host_current(sizes, loc);
    if (sizes.arr->numel < 1 || sizes.arr->numel > OQ_MAX_RANK) bad_arg("randi", "sizes", sizes, loc);
    for (int64_t k = 0; k < sizes.arr->numel; k++) dims[rank++] = arr_load_i(sizes.arr, k);
  } else {
    if (argc - 1 > OQ_MAX_RANK) rt_error(loc, "randi: too many dimensions (%d)", argc - 1);
    for (int k = 1; k < argc; k++) dims[rank++] = arg_int("randi", "a size", argv[k], loc);
  }
  for (int k = 0; k < rank; k++)
    if (dims[k] < 0) rt_error(loc, "randi: negative size %lld", (long long)dims[k]);
  Array *a = arr_new_uninit(EL_I32, rank, dims);
  for (int64_t k = 0; k < a->numel; k++) arr_store_i(a, k, lo + (int64_t)uniform_below(span));
  return v_array(a);
}

/* ---- the tables ---- */

/* rt_builtin_lookup (rt_builtins.c) looks here too. */
static const Builtin stat_builtins[] = {
  { "all", st_all, 1, 2 }, { "any", st_any, 1, 2 }, { "cat", st_cat, 1, -1 },
  { "circshift", st_circshift, 2, 3 }, { "cumprod", st_cumprod, 1, 2 },
  { "cumsum", st_cumsum, 1, 2 }, { "diff", st_diff, 1, 3 }, { "dotprod", st_dotprod, 2, 2 },
  { "find", st_find, 1, 2 }, { "flip", st_flip, 2, 2 }, { "fliplr", st_fliplr, 1, 1 },
  { "flipud", st_flipud, 1, 1 }, { "histc", st_histc, 2, 3 }, { "horzcat", st_horzcat, 0, -1 },
  { "median", st_median, 1, 2 }, { "meshgrid", st_meshgrid, 1, 3 }, { "mode", st_mode, 1, 2 },
  { "pow", st_pow, 2, 2 }, { "randi", st_randi, 1, -1 }, { "seed", st_seed, 1, 1 },
  { "sort", st_sort, 1, 3 }, { "std", st_std, 1, 3 }, { "unique", st_unique, 1, 3 },
  { "var", st_var, 1, 3 }, { "vertcat", st_vertcat, 0, -1 },
};

const Builtin *rt_stats_lookup(const char *name) {
  for (size_t k = 0; k < sizeof stat_builtins / sizeof stat_builtins[0]; k++)
    if (!strcmp(stat_builtins[k].name, name)) return &stat_builtins[k];
  return NULL;
}

/* The forms with several outputs ([s, i] = sort(x)); the argument counts are the table's. */
static const struct { const char *name; BuiltinFn fn; } stat_outputs[] = {
  { "find", st_find_outs }, { "histc", st_histc_outs }, { "max", st_max_outs },
  { "meshgrid", st_meshgrid_outs }, { "min", st_min_outs }, { "mode", st_mode_outs },
  { "sort", st_sort_outs }, { "unique", st_unique_outs },
};

BuiltinFn rt_builtin_outputs(const char *name) {
  for (size_t k = 0; k < sizeof stat_outputs / sizeof stat_outputs[0]; k++)
    if (!strcmp(stat_outputs[k].name, name)) return stat_outputs[k].fn;
  return NULL;
}
