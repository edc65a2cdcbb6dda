/* rt_builtins.c: the pure built-in functions (no I/O besides printf, no kernels) and the
   named constants. Every function takes borrowed arguments and returns a new reference;
   errors name the function: "zeros: expected sizes, got string".
   Element-wise functions accept numbers and arrays alike; an int argument stays int where
   the result is an integer anyway (abs, floor, sign, ...), else it becomes scalar. */
#include <complex.h>
#include "runtime/rt_internal.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BUILTIN(name) static Value bi_##name(int argc, const Value *argv, SrcLoc loc)

_Noreturn static void bad_arg(const char *fn, const char *expected, Value v, SrcLoc loc) {
  rt_error(loc, "%s: expected %s, got %s", fn, expected, rt_kind_name(v));
}

static bool num_or_array(Value v) { return v_is_num(v) || v.kind == V_ARRAY; }

static void need_num_or_array(const char *fn, Value v, SrcLoc loc) {
  if (!num_or_array(v)) bad_arg(fn, "a number or an array", v, loc);
}

static int64_t arg_int(const char *fn, Value v, SrcLoc loc) {
  if (!v_is_real(v)) bad_arg(fn, "an integer", v, loc);
  if (v.kind == V_SCALAR && !isfinite(v.s)) rt_error(loc, "%s: expected an integer, got %g", fn, v.s);
  return v.kind == V_SCALAR ? rt_trunc_i64(v.s) : v.i;
}

static double arg_real(const char *fn, Value v, SrcLoc loc) {
  if (!v_is_real(v)) bad_arg(fn, "a real number", v, loc);
  return v.kind == V_SCALAR ? v.s : (double)v.i;
}

/* Result of an element-wise function: a number when x is one, else an array shaped as x. */
static Array *like(const Array *x, ElemType e) { return arr_new_uninit(e, x->rank, x->dims); }

/* ---- sizes ---- */

/* zeros(n) -> [n]; zeros(m, n, ...); zeros([m, n, k]) and zeros(size(x)). Returns the rank. */
static int dims_from_args(const char *fn, int argc, const Value *argv, int64_t *dims, SrcLoc loc) {
  int rank = 0;
  if (argc == 1 && argv[0].kind == V_ARRAY) {
    const Array *s = argv[0].arr;
    if (s->numel < 1 || s->numel > OQ_MAX_RANK || el_is_complex(s->elem))
      rt_error(loc, "%s: expected a size vector of 1 to %d elements, got %s of %lld elements",
               fn, OQ_MAX_RANK, rt_kind_name(argv[0]), (long long)s->numel);
    for (int64_t k = 0; k < s->numel; k++) dims[rank++] = arr_load_i(s, k);
  } else {
    if (argc > OQ_MAX_RANK) rt_error(loc, "%s: too many dimensions (%d)", fn, argc);
    for (int k = 0; k < argc; k++) {
      if (!v_is_real(argv[k])) bad_arg(fn, "sizes", argv[k], loc);
      dims[rank++] = arg_int(fn, argv[k], loc);
    }
  }
  if (rank == 0) rt_error(loc, "%s: expected sizes", fn);
  for (int d = 0; d < rank; d++)
    if (dims[d] < 0) rt_error(loc, "%s: negative size %lld", fn, (long long)dims[d]);
  return rank;
}

static Value filled(const char *fn, int argc, const Value *argv, double x, SrcLoc loc) {
  int64_t dims[OQ_MAX_RANK];
  int rank = dims_from_args(fn, argc, argv, dims, loc);
  Array *a = arr_new(el_scalar(), rank, dims);
  if (x != 0)
    for (int64_t k = 0; k < a->numel; k++) arr_store(a, k, x);
  return v_array(a);
}

BUILTIN(zeros) { return filled("zeros", argc, argv, 0, loc); }
BUILTIN(uninit) { return filled("uninit", argc, argv, 0, loc); }
BUILTIN(ones) { return filled("ones", argc, argv, 1, loc); }

/* The dims of x as size() sees them: numbers are 1x1, strings 1xlen. */
static int value_dims(const char *fn, Value x, int64_t *dims, SrcLoc loc) {
  if (x.kind == V_ARRAY) {
    memcpy(dims, x.arr->dims, sizeof(int64_t) * (size_t)x.arr->rank);
    return x.arr->rank;
  }
  if (x.kind == V_CELL) {
    memcpy(dims, x.cell->dims, sizeof(int64_t) * (size_t)x.cell->rank);
    return x.cell->rank;
  }
  if (!v_is_num(x) && x.kind != V_STRING) bad_arg(fn, "an array", x, loc);
  dims[0] = 1;
  dims[1] = x.kind == V_STRING ? x.str->len : 1;
  return 2;
}

static int64_t dim_of(const char *fn, const int64_t *dims, int rank, int64_t d, SrcLoc loc) {
  if (d < 0) rt_error(loc, "%s: negative dimension %lld", fn, (long long)d);
  return d < rank ? dims[d] : 1;
}

static Value int_vec(const int64_t *x, int64_t n) {
  Array *a = arr_vec(EL_I32, n);
  for (int64_t k = 0; k < n; k++) arr_store_i(a, k, x[k]);
  return v_array(a);
}

BUILTIN(size) {
  int64_t dims[OQ_MAX_RANK];
  int rank = value_dims("size", argv[0], dims, loc);
  if (argc == 1) return int_vec(dims, rank);
  Value d = argv[1];
  if (d.kind != V_ARRAY) return v_int(dim_of("size", dims, rank, arg_int("size", d, loc), loc));
  Array *r = arr_vec(EL_I32, d.arr->numel);
  for (int64_t k = 0; k < d.arr->numel; k++)
    arr_store_i(r, k, dim_of("size", dims, rank, arr_load_i(d.arr, k), loc));
  return v_array(r);
}

BUILTIN(numel) {
  (void)argc;
  Value x = argv[0];
  if (x.kind == V_ARRAY) return v_int(x.arr->numel);
  if (x.kind == V_CELL) return v_int(x.cell->numel);
  if (x.kind == V_STRING) return v_int(x.str->len);
  if (v_is_num(x)) return v_int(1);
  bad_arg("numel", "an array", x, loc);
}

BUILTIN(ndims) {
  (void)argc;
  int64_t dims[OQ_MAX_RANK];
  return v_int(value_dims("ndims", argv[0], dims, loc));
}

BUILTIN(isempty) {
  (void)argc; (void)loc;
  Value x = argv[0];
  return v_bool((x.kind == V_ARRAY && x.arr->numel == 0) || (x.kind == V_STRING && x.str->len == 0) ||
                (x.kind == V_CELL && x.cell->numel == 0) || x.kind == V_NULL);
}

/* cell(n), cell(m, n), cell([m, n]): a cell array of empty elements ([]). */
BUILTIN(cell) {
  int64_t dims[OQ_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < argc; i++) {
    Value a = argv[i];
    if (a.kind == V_ARRAY) {
      for (int64_t k = 0; k < a.arr->numel; k++) {
        if (rank == OQ_MAX_RANK) rt_error(loc, "cell: too many dimensions");
        dims[rank++] = arr_load_i(a.arr, k);
      }
    } else {
      if (rank == OQ_MAX_RANK) rt_error(loc, "cell: too many dimensions");
      dims[rank++] = arg_int("cell", a, loc);
    }
  }
  if (!rank) rt_error(loc, "cell: give the number of elements, as in cell(4)");
  return v_cell(cell_new(rank, dims, NULL, loc));
}

/* object(): a dynamic object; assigning a field adds it. */
BUILTIN(object) { (void)argc; (void)argv; (void)loc; return v_object(obj_new_dynamic()); }

BUILTIN(isscalar) { (void)argc; (void)loc; return v_bool(v_is_num(argv[0])); }

BUILTIN(copy) {
  (void)argc; (void)loc;
  if (argv[0].kind == V_ARRAY) return v_array(arr_copy(argv[0].arr));
  val_retain(argv[0]);
  return argv[0];
}

/* ---- element-wise functions of one argument ---- */

typedef struct Math1 {
  const char *name;
  double (*real)(double);                       /* real -> real */
  int64_t (*integer)(int64_t);                  /* int -> int; NULL: ints go through real */
  double complex (*cplx)(double complex);       /* complex -> complex */
  double (*c2r)(double complex);                /* complex -> real (abs, angle, ...) */
} Math1;

static Value map1(const Math1 *m, Value x, SrcLoc loc) {
  need_num_or_array(m->name, x, loc);
  NumClass c = val_class(x), out;
  if (c == NC_COMPLEX) {
    if (!m->cplx && !m->c2r) bad_arg(m->name, "a real number", x, loc);
    out = m->cplx ? NC_COMPLEX : NC_REAL;
  } else out = c == NC_INT && m->integer ? NC_INT : NC_REAL;
  Operand o = operand(x);
  if (x.kind != V_ARRAY) {
    if (out == NC_INT) return v_int(m->integer(o.i));
    if (c != NC_COMPLEX) return v_scalar(m->real(o.r));
    double complex z = CMPLX(o.r, o.im);
    if (out == NC_REAL) return v_scalar(m->c2r(z));
    z = m->cplx(z);
    return v_cscalar(creal(z), cimag(z));
  }
  const Array *a = x.arr;
  Array *r = like(a, el_for_class(out, a->elem, EL_COUNT));
  for (int64_t k = 0; k < a->numel; k++) {
    if (out == NC_INT) arr_store_i(r, k, m->integer(arr_load_i(a, k)));
    else if (c != NC_COMPLEX) arr_store(r, k, m->real(arr_load(a, k)));
    else {
      double re, im;
      arr_load_c(a, k, &re, &im);
      double complex z = CMPLX(re, im);
      if (out == NC_REAL) arr_store(r, k, m->c2r(z));
      else {
        z = m->cplx(z);
        arr_store_c(r, k, creal(z), cimag(z));
      }
    }
  }
  return v_array(r);
}

static int64_t i_abs(int64_t x) { return x < 0 ? (int64_t)(0 - (uint64_t)x) : x; }
static int64_t i_same(int64_t x) { return x; }
static int64_t i_zero(int64_t x) { (void)x; return 0; }
static int64_t i_sign(int64_t x) { return (x > 0) - (x < 0); }
static double r_same(double x) { return x; }
static double r_zero(double x) { (void)x; return 0; }
static double r_frac(double x) { return x - floor(x); }
static double r_sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : x; }
static double r_angle(double x) { return atan2(0.0, x); }
static double c_real(double complex z) { return creal(z); }
static double c_imag(double complex z) { return cimag(z); }
static double c_abs(double complex z) { return cabs(z); }
static double c_angle(double complex z) { return carg(z); }
static double complex c_conj(double complex z) { return conj(z); }

#define MATH1(fname, r, i, c, c2r)                                   \
  static const Math1 m_##fname = { #fname, r, i, c, c2r };           \
  BUILTIN(fname) { (void)argc; return map1(&m_##fname, argv[0], loc); }

MATH1(abs, fabs, i_abs, NULL, c_abs)
MATH1(sqrt, sqrt, NULL, csqrt, NULL)
MATH1(exp, exp, NULL, cexp, NULL)
MATH1(log, log, NULL, clog, NULL)
MATH1(log2, log2, NULL, NULL, NULL)
MATH1(log10, log10, NULL, NULL, NULL)
MATH1(sin, sin, NULL, csin, NULL)
MATH1(cos, cos, NULL, ccos, NULL)
MATH1(tan, tan, NULL, ctan, NULL)
MATH1(asin, asin, NULL, NULL, NULL)
MATH1(acos, acos, NULL, NULL, NULL)
MATH1(atan, atan, NULL, NULL, NULL)
MATH1(sinh, sinh, NULL, csinh, NULL)
MATH1(cosh, cosh, NULL, ccosh, NULL)
MATH1(tanh, tanh, NULL, ctanh, NULL)
MATH1(floor, floor, i_same, NULL, NULL)
MATH1(ceil, ceil, i_same, NULL, NULL)
MATH1(round, round, i_same, NULL, NULL)      /* C round: halves away from zero */
MATH1(frac, r_frac, i_zero, NULL, NULL)
MATH1(sign, r_sign, i_sign, NULL, NULL)
MATH1(float, r_same, NULL, NULL, NULL)
MATH1(real, r_same, i_same, NULL, c_real)
MATH1(imag, r_zero, i_zero, NULL, c_imag)
MATH1(conj, r_same, i_same, c_conj, NULL)
MATH1(angle, r_angle, NULL, NULL, c_angle)

/* int(x): toward zero, to int / int arrays (reals out of range saturate, NaN gives 0). */
BUILTIN(int) {
  (void)argc;
  Value x = argv[0];
  need_num_or_array("int", x, loc);
  if (val_class(x) == NC_COMPLEX) bad_arg("int", "a real number", x, loc);
  if (x.kind != V_ARRAY) return v_int(operand(x).i);
  Array *r = like(x.arr, el_for_class(NC_INT, x.arr->elem, EL_COUNT));
  for (int64_t k = 0; k < r->numel; k++) arr_store_i(r, k, arr_load_i(x.arr, k));
  return v_array(r);
}

/* not(x): bitwise complement of the integer (reals truncate). */
BUILTIN(not) {
  (void)argc;
  Value x = argv[0];
  need_num_or_array("not", x, loc);
  if (val_class(x) == NC_COMPLEX) bad_arg("not", "an integer", x, loc);
  if (x.kind != V_ARRAY) return v_int(~operand(x).i);
  Array *r = like(x.arr, el_for_class(NC_INT, x.arr->elem, EL_COUNT));
  for (int64_t k = 0; k < r->numel; k++) arr_store_i(r, k, ~arr_load_i(x.arr, k));
  return v_array(r);
}

typedef enum Test { T_NAN, T_INF, T_FINITE } Test;

static bool test_real(Test t, double x) {
  return t == T_NAN ? isnan(x) : t == T_INF ? isinf(x) : isfinite(x);
}

static bool test_elem(Test t, double re, double im) {
  if (t == T_FINITE) return isfinite(re) && isfinite(im);
  return test_real(t, re) || test_real(t, im);
}

static Value map_test(const char *fn, Test t, Value x, SrcLoc loc) {
  need_num_or_array(fn, x, loc);
  Operand o = operand(x);
  if (x.kind != V_ARRAY) return v_bool(test_elem(t, o.r, o.im));
  Array *r = like(x.arr, EL_I32);
  double re, im;
  for (int64_t k = 0; k < r->numel; k++) {
    arr_load_c(x.arr, k, &re, &im);
    arr_store_i(r, k, test_elem(t, re, im));
  }
  return v_array(r);
}

BUILTIN(isnan) { (void)argc; return map_test("isnan", T_NAN, argv[0], loc); }
BUILTIN(isinf) { (void)argc; return map_test("isinf", T_INF, argv[0], loc); }
BUILTIN(isfinite) { (void)argc; return map_test("isfinite", T_FINITE, argv[0], loc); }

/* prevpow2(x): the largest power of two <= x; nextpow2(x): the smallest >= x. */
static int64_t prevpow2(const char *fn, double x, SrcLoc loc) {
  if (!(x >= 1) || x >= 9.3e18) rt_error(loc, "%s: argument must be in [1, 2^63), got %g", fn, x);
  int64_t p = 1;
  while ((double)(p * 2) <= x) p *= 2;
  return p;
}

static int64_t nextpow2(const char *fn, double x, SrcLoc loc) {
  if (x != x || x > 4.6e18) rt_error(loc, "%s: argument out of range: %g", fn, x);
  int64_t p = 1;
  while ((double)p < x) p *= 2;
  return p;
}

static Value map_pow2(const char *fn, int64_t (*f)(const char *, double, SrcLoc), Value x, SrcLoc loc) {
  need_num_or_array(fn, x, loc);
  if (val_class(x) == NC_COMPLEX) bad_arg(fn, "a real number", x, loc);
  if (x.kind != V_ARRAY) return v_int(f(fn, operand(x).r, loc));
  Array *r = like(x.arr, EL_I32);
  for (int64_t k = 0; k < r->numel; k++) arr_store_i(r, k, f(fn, arr_load(x.arr, k), loc));
  return v_array(r);
}

BUILTIN(prevpow2) { (void)argc; return map_pow2("prevpow2", prevpow2, argv[0], loc); }
BUILTIN(nextpow2) { (void)argc; return map_pow2("nextpow2", nextpow2, argv[0], loc); }

/* ---- element-wise functions of two arguments ---- */

/* The array shape of an element-wise result of a and b (numbers broadcast), NULL when both
   are numbers. */
static const Array *zip_shape(const char *fn, Value a, Value b, SrcLoc loc) {
  need_num_or_array(fn, a, loc);
  need_num_or_array(fn, b, loc);
  if (a.kind == V_ARRAY && b.kind == V_ARRAY && !arr_same_shape(a.arr, b.arr)) {
    char sa[200], sb[200];
    rt_error(loc, "%s: shape mismatch: %s and %s", fn,
             rt_dims_str(sa, sizeof sa, a.arr->rank, a.arr->dims),
             rt_dims_str(sb, sizeof sb, b.arr->rank, b.arr->dims));
  }
  return a.kind == V_ARRAY ? a.arr : b.kind == V_ARRAY ? b.arr : NULL;
}

static void need_real2(const char *fn, Value a, Value b, SrcLoc loc) {
  if (val_class(a) == NC_COMPLEX) bad_arg(fn, "real numbers", a, loc);
  if (val_class(b) == NC_COMPLEX) bad_arg(fn, "real numbers", b, loc);
}

static ElemType elem_of(Value v) { return v.kind == V_ARRAY ? v.arr->elem : EL_COUNT; }

BUILTIN(atan2) {
  (void)argc;
  const Array *s = zip_shape("atan2", argv[0], argv[1], loc);
  need_real2("atan2", argv[0], argv[1], loc);
  Operand y = operand(argv[0]), x = operand(argv[1]);
  if (!s) return v_scalar(atan2(y.r, x.r));
  Array *r = like(s, el_for_class(NC_REAL, elem_of(argv[0]), elem_of(argv[1])));
  for (int64_t k = 0; k < r->numel; k++) arr_store(r, k, atan2(operand_r(&y, k), operand_r(&x, k)));
  return v_array(r);
}

/* complex(re) and complex(re, im), stored part by part (no 0*Inf = NaN). */
BUILTIN(complex) {
  Value re = argv[0], im = argc > 1 ? argv[1] : v_int(0);
  const Array *s = zip_shape("complex", re, im, loc);
  if (argc == 1 && val_class(re) == NC_COMPLEX) return bi_copy(1, argv, loc);
  need_real2("complex", re, im, loc);
  Operand a = operand(re), b = operand(im);
  if (!s) return v_cscalar(a.r, b.r);
  Array *r = like(s, el_for_class(NC_COMPLEX, elem_of(re), elem_of(im)));
  for (int64_t k = 0; k < r->numel; k++) arr_store_c(r, k, operand_r(&a, k), operand_r(&b, k));
  return v_array(r);
}

static int64_t shift(int64_t x, int64_t n, bool left) {
  if (n < 0) { n = -n; left = !left; }
  if (left) return n >= 64 ? 0 : (int64_t)((uint64_t)x << n);
  return n >= 64 ? (x < 0 ? -1 : 0) : x >> n;   /* arithmetic shift */
}

static Value shift_fn(const char *fn, bool left, Value a, Value b, SrcLoc loc) {
  const Array *s = zip_shape(fn, a, b, loc);
  need_real2(fn, a, b, loc);
  Operand x = operand(a), n = operand(b);
  if (!s) return v_int(shift(x.i, n.i, left));
  Array *r = like(s, el_for_class(NC_INT, elem_of(a), elem_of(b)));
  for (int64_t k = 0; k < r->numel; k++) arr_store_i(r, k, shift(operand_i(&x, k), operand_i(&n, k), left));
  return v_array(r);
}

BUILTIN(shl) { (void)argc; return shift_fn("shl", true, argv[0], argv[1], loc); }
BUILTIN(shr) { (void)argc; return shift_fn("shr", false, argv[0], argv[1], loc); }

/* These are the operators under another name; the checks give messages naming the function. */
static Value via_op(const char *fn, Op op, Value a, Value b, SrcLoc loc) {
  zip_shape(fn, a, b, loc);
  if (op != OP_MOD) need_real2(fn, a, b, loc);
  return rt_binary(op, a, b, loc);
}

BUILTIN(mod) { (void)argc; return via_op("mod", OP_MOD, argv[0], argv[1], loc); }
BUILTIN(and) { (void)argc; return via_op("and", OP_BAND, argv[0], argv[1], loc); }
BUILTIN(or) { (void)argc; return via_op("or", OP_BOR, argv[0], argv[1], loc); }
BUILTIN(xor) { (void)argc; return via_op("xor", OP_BXOR, argv[0], argv[1], loc); }

BUILTIN(clamp) {
  (void)argc;
  need_num_or_array("clamp", argv[0], loc);
  Value lo = via_op("clamp", OP_MAX, argv[0], argv[1], loc);
  Value r = via_op("clamp", OP_MIN, lo, argv[2], loc);
  val_release(lo);
  return r;
}

/* ---- reductions ---- */

typedef enum Red { R_SUM, R_PROD, R_MEAN, R_MIN, R_MAX } Red;
static const char *const red_name[] = { "sum", "prod", "mean", "min", "max" };

/* Reduces n elements of x, from off with stride st, to one number. */
static Value reduce_run(Red r, const Array *x, int64_t off, int64_t n, int64_t st, SrcLoc loc) {
  NumClass c = el_class(x->elem);
  if (n == 0 && (r == R_MIN || r == R_MAX)) rt_error(loc, "%s: empty array", red_name[r]);
  if (c == NC_INT && r != R_MEAN) {
    uint64_t acc = r == R_PROD ? 1 : 0;
    int64_t m = n ? arr_load_i(x, off) : 0;
    for (int64_t k = 0; k < n; k++) {
      int64_t v = arr_load_i(x, off + k * st);
      if (r == R_SUM) acc += (uint64_t)v;
      else if (r == R_PROD) acc *= (uint64_t)v;
      else if (r == R_MIN ? v < m : v > m) m = v;
    }
    return v_int(r == R_MIN || r == R_MAX ? m : (int64_t)acc);
  }
  if (c != NC_COMPLEX) {
    double acc = r == R_PROD ? 1 : 0, m = n ? arr_load(x, off) : 0;
    for (int64_t k = 0; k < n; k++) {
      double v = arr_load(x, off + k * st);
      if (r == R_SUM || r == R_MEAN) acc += v;
      else if (r == R_PROD) acc *= v;
      else if (m != m || (r == R_MIN ? v < m : v > m)) m = v;   /* NaNs are skipped */
    }
    if (r == R_MIN || r == R_MAX) return v_scalar(m);
    return v_scalar(r == R_MEAN ? acc / (double)n : acc);
  }
  if (r == R_MIN || r == R_MAX) rt_error(loc, "%s: complex numbers have no order", red_name[r]);
  double complex acc = r == R_PROD ? 1 : 0;
  for (int64_t k = 0; k < n; k++) {
    double re, im;
    arr_load_c(x, off + k * st, &re, &im);
    if (r == R_PROD) acc *= CMPLX(re, im);
    else acc += CMPLX(re, im);
  }
  if (r == R_MEAN) acc /= (double)n;
  return v_cscalar(creal(acc), cimag(acc));
}

/* The array seen as [outer, n, inner] around dimension d. */
static void split_at(const Array *x, int64_t d, int64_t *outer, int64_t *n, int64_t *inner) {
  *outer = *inner = 1;
  for (int k = 0; k < x->rank; k++) {
    if (k < d) *outer *= x->dims[k];
    else if (k > d) *inner *= x->dims[k];
  }
  *n = d < x->rank ? x->dims[d] : 1;
}

/* f(x): over all elements; f(x, d): along dimension d, which becomes 1 in the result, under
   Quasar's shape rule (rt_shape_normalize): sum(A, 0) of an h x w matrix is a vec of w,
   sum(A, 1) an h x 1 column. A vec is a 1 x N row: sum(v, 1) is a vec of one element and
   sum(v, 0) a copy of v. */
static Value reduce(Red r, int argc, const Value *argv, SrcLoc loc) {
  const char *fn = red_name[r];
  Value x = argv[0];
  need_num_or_array(fn, x, loc);
  if (x.kind != V_ARRAY) {
    if ((r == R_MIN || r == R_MAX) && val_class(x) == NC_COMPLEX)
      rt_error(loc, "%s: complex numbers have no order", fn);
    if (r == R_MEAN && val_class(x) == NC_INT) return v_scalar((double)x.i);
    return x;
  }
  const Array *a = x.arr;
  if (argc == 1) return reduce_run(r, a, 0, a->numel, 1, loc);
  int64_t d = arg_int(fn, argv[1], loc), outer, n, inner;
  if (d < 0) rt_error(loc, "%s: negative dimension %lld", fn, (long long)d);
  Array row = *a;   /* a vec is a 1 x N row */
  if (a->rank == 1) {
    row.rank = 2;
    row.dims[0] = 1;
    row.dims[1] = a->dims[0];
    a = &row;
  }
  split_at(a, d, &outer, &n, &inner);
  int64_t dims[OQ_MAX_RANK];
  int rank = a->rank;   /* along a dimension past the rank: each element alone */
  for (int k = 0; k < rank; k++) dims[k] = k == d ? 1 : a->dims[k];
  rt_shape_normalize(&rank, dims);
  NumClass c = el_class(a->elem);
  if (c == NC_INT && r == R_MEAN) c = NC_REAL;
  Array *res = arr_new_uninit(el_for_class(c, a->elem, EL_COUNT), rank, dims);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++)
      arr_set(res, o * inner + i, reduce_run(r, a, o * n * inner + i, n, inner, loc), loc);
  return v_array(res);
}

BUILTIN(sum) { return reduce(R_SUM, argc, argv, loc); }
BUILTIN(prod) { return reduce(R_PROD, argc, argv, loc); }
BUILTIN(mean) { return reduce(R_MEAN, argc, argv, loc); }

/* max(x): the largest element; max(a, b): element-wise with broadcasting; max(x, [], d):
   along dimension d (rt_stats.c, which also has [m, i] = max(x)). */
BUILTIN(max) {
  if (argc == 3) return rt_extreme_along(true, argv, loc);
  if (argc == 2) return via_op("max", OP_MAX, argv[0], argv[1], loc);
  return reduce(R_MAX, 1, argv, loc);
}

BUILTIN(min) {
  if (argc == 3) return rt_extreme_along(false, argv, loc);
  if (argc == 2) return via_op("min", OP_MIN, argv[0], argv[1], loc);
  return reduce(R_MIN, 1, argv, loc);
}

/* ---- array construction and rearrangement ---- */

/* linspace(a, b[, n]): n points from a to b, both included (n = 100 by default, as in
   MATLAB; n <= 0 gives an empty vec, n = 1 gives b). */
BUILTIN(linspace) {
  double a = arg_real("linspace", argv[0], loc), b = arg_real("linspace", argv[1], loc);
  int64_t n = argc > 2 ? arg_int("linspace", argv[2], loc) : 100;
  if (n < 0) n = 0;
  Array *r = arr_vec(el_scalar(), n);
  for (int64_t k = 0; k < n; k++)
    arr_store(r, k, k == n - 1 ? b : a + (b - a) * (double)k / (double)(n - 1));
  return v_array(r);
}

/* A number as a one-element array of its kind. */
static Array *as_array(Value x) {
  if (x.kind == V_ARRAY) {
    x.arr->refcount++;
    return x.arr;
  }
  NumClass c = val_class(x);
  Array *a = arr_vec(el_for_class(c, EL_COUNT, EL_COUNT), 1);
  SrcLoc none = { 0 };
  arr_set(a, 0, x, none);
  return a;
}

/* reshape(x, m, [], ...): the sizes one by one with at most one `[]` (an empty array),
   the size that makes the element count come out; -1 when there is none. Writes the other
   sizes into argv's copy `sz` (the `[]` as 1). */
static int reshape_inferred(int argc, const Value *argv, Value *sz, SrcLoc loc) {
  int at = -1;
  for (int k = 0; k < argc; k++) {
    sz[k] = argv[k];
    if (argc == 1 || argv[k].kind != V_ARRAY || argv[k].arr->numel != 0) continue;
    if (at >= 0) rt_error(loc, "reshape: only one size can be [] (sizes %d and %d are)", at + 1, k + 1);
    at = k;
    sz[k] = v_int(1);
  }
  return at;
}

BUILTIN(reshape) {
  need_num_or_array("reshape", argv[0], loc);
  int64_t dims[OQ_MAX_RANK];
  if (argc - 1 > OQ_MAX_RANK) rt_error(loc, "reshape: too many dimensions (%d)", argc - 1);
  Value sz[OQ_MAX_RANK];
  memset(sz, 0, sizeof sz);
  int at = reshape_inferred(argc - 1, argv + 1, sz, loc);
  int rank = dims_from_args("reshape", argc - 1, sz, dims, loc);
  Array *a = as_array(argv[0]);
  if (at >= 0) {
    int64_t known = 1;
    for (int d = 0; d < rank; d++)
      if (d != at) known *= dims[d];
    if (known == 0 || a->numel % known) {
      char sd[200];
      dims[at] = 0;
      rt_error(loc, "reshape: %lld elements do not divide into %s (the 0 is the [])",
               (long long)a->numel, rt_dims_str(sd, sizeof sd, rank, dims));
    }
    dims[at] = a->numel / known;
  }
  Array *r = arr_new_uninit(a->elem, rank, dims);
  if (r->numel != a->numel) {
    char sd[200];
    rt_error(loc, "reshape: cannot reshape %lld elements to %s", (long long)a->numel,
             rt_dims_str(sd, sizeof sd, rank, dims));
  }
  memcpy(r->data, a->data, (size_t)a->numel * el_size(a->elem));
  val_release(v_array(a));
  return v_array(r);
}

/* transpose of a vec (a 1xN row) is an Nx1 matrix, and that of an Nx1 matrix a vec. */
BUILTIN(transpose) {
  (void)argc;
  Value x = argv[0];
  need_num_or_array("transpose", x, loc);
  if (x.kind != V_ARRAY) return x;
  const Array *a = x.arr;
  if (a->rank > 2) bad_arg("transpose", "a vector or a matrix", x, loc);
  int64_t m = a->rank == 1 ? 1 : a->dims[0], n = a->rank == 1 ? a->dims[0] : a->dims[1];
  int64_t dims[2] = { n, m };
  int rank = 2;
  rt_shape_normalize(&rank, dims);
  Array *r = arr_new_uninit(a->elem, rank, dims);
  size_t sz = el_size(a->elem);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      memcpy((char *)r->data + (size_t)(j * m + i) * sz, (const char *)a->data + (size_t)(i * n + j) * sz, sz);
  return v_array(r);
}

/* repmat(x, [m, n, ...]) or repmat(x, m, n, ...): x tiled reps[d] times along dimension d. */
BUILTIN(repmat) {
  need_num_or_array("repmat", argv[0], loc);
  int64_t reps[OQ_MAX_RANK], dims[OQ_MAX_RANK];
  int nr = dims_from_args("repmat", argc - 1, argv + 1, reps, loc);
  Array *a = as_array(argv[0]);
  int64_t adims[OQ_MAX_RANK];   /* a vec is a 1xN row here: repmat(v, [m,1]) stacks m rows */
  int arank = a->rank;
  memcpy(adims, a->dims, sizeof adims);
  if (arank == 1 && nr >= 2) {
    adims[1] = adims[0];
    adims[0] = 1;
    arank = 2;
  }
  int rank = nr > arank ? nr : arank;
  for (int d = 0; d < rank; d++) dims[d] = (d < arank ? adims[d] : 1) * (d < nr ? reps[d] : 1);
  int rrank = rank;
  int64_t rdims[OQ_MAX_RANK];
  memcpy(rdims, dims, sizeof rdims);
  rt_shape_normalize(&rrank, rdims);   /* repmat(v, [1, r]) is a vec */
  Array *r = arr_new_uninit(a->elem, rrank, rdims);
  size_t sz = el_size(a->elem);
  for (int64_t k = 0; k < r->numel; k++) {
    int64_t rest = k, src = 0, stride = 1;
    for (int d = rank - 1; d >= 0; d--) {
      int64_t ad = d < arank ? adims[d] : 1;
      src += (rest % dims[d]) % ad * stride;
      rest /= dims[d];
      stride *= ad;
    }
    memcpy((char *)r->data + (size_t)k * sz, (const char *)a->data + (size_t)src * sz, sz);
  }
  val_release(v_array(a));
  return v_array(r);
}

/* ---- positions and linear indices (row-major: the last index varies fastest) ---- */

/* A vector of integers (or one number) into out; returns its length. */
static int int_list(const char *fn, Value v, int64_t *out, SrcLoc loc) {
  if (v_is_real(v)) { out[0] = arg_int(fn, v, loc); return 1; }
  if (v.kind != V_ARRAY || el_is_complex(v.arr->elem)) bad_arg(fn, "an integer vector", v, loc);
  if (v.arr->numel > OQ_MAX_RANK)
    rt_error(loc, "%s: at most %d dimensions, got %lld", fn, OQ_MAX_RANK, (long long)v.arr->numel);
  for (int64_t k = 0; k < v.arr->numel; k++) out[k] = arr_load_i(v.arr, k);
  return (int)v.arr->numel;
}

BUILTIN(pos2ind) {
  (void)argc;
  int64_t dims[OQ_MAX_RANK], pos[OQ_MAX_RANK];
  int nd = int_list("pos2ind", argv[0], dims, loc), np = int_list("pos2ind", argv[1], pos, loc);
  int n = nd > np ? nd : np;
  int64_t ind = 0;
  /* wraps like every int operation (docs/language.md): unsigned arithmetic, no UB */
  for (int k = 0; k < n; k++)
    ind = (int64_t)((uint64_t)ind * (uint64_t)(k < nd ? dims[k] : 1) + (uint64_t)(k < np ? pos[k] : 0));
  return v_int(ind);
}

BUILTIN(ind2pos) {
  (void)argc;
  int64_t dims[OQ_MAX_RANK], pos[OQ_MAX_RANK];
  int nd = int_list("ind2pos", argv[0], dims, loc);
  int64_t ind = arg_int("ind2pos", argv[1], loc);
  for (int k = nd - 1; k > 0; k--) {
    if (dims[k] <= 0) rt_error(loc, "ind2pos: dimension %d is %lld", k, (long long)dims[k]);
    pos[k] = ind % dims[k];
    ind /= dims[k];
  }
  pos[0] = ind;   /* the first dimension takes what is left */
  return int_vec(pos, nd);
}

/* ---- random numbers: splitmix64, deterministic from the seed ---- */

/* The generator: rand and randn draw from one sequence (rt_seed_random restarts it). */
static struct Rng {
  uint64_t state;
  bool have_spare;    /* rng_normal's second value is waiting in spare */
  double spare;
} rng = {.state = 0x9E3779B97F4A7C15ull};

void rt_seed_random(uint64_t seed) {
  rng.state = seed;
  rng.have_spare = false;
}

static uint64_t rng_next(void) {
  uint64_t z = (rng.state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t rt_random_u64(void) { return rng_next(); }

/* Uniform in [0, 1) with the precision of `scalar`, so rounding never reaches 1. */
static double rng_uniform(void) {
  if (rt_config.double_precision) return (double)(rng_next() >> 11) * 0x1.0p-53;
  return (double)(rng_next() >> 40) * 0x1.0p-24;
}

/* Box-Muller; the second value of each pair is kept for the next call. */
static double rng_normal(void) {
  if (rng.have_spare) { rng.have_spare = false; return rng.spare; }
  double u1 = 1.0 - (double)(rng_next() >> 11) * 0x1.0p-53;   /* (0, 1]: log is finite */
  double u2 = (double)(rng_next() >> 11) * 0x1.0p-53;
  double r = sqrt(-2.0 * log(u1)), t = 2.0 * RT_PI * u2;
  rng.spare = r * sin(t);
  rng.have_spare = true;
  return r * cos(t);
}

static Value random_fill(const char *fn, double (*gen)(void), int argc, const Value *argv, SrcLoc loc) {
  if (argc == 0) return v_scalar(gen());
  int64_t dims[OQ_MAX_RANK];
  int rank = dims_from_args(fn, argc, argv, dims, loc);
  Array *a = arr_new_uninit(el_scalar(), rank, dims);
  for (int64_t k = 0; k < a->numel; k++) arr_store(a, k, gen());
  return v_array(a);
}

BUILTIN(rand) { return random_fill("rand", rng_uniform, argc, argv, loc); }
BUILTIN(randn) { return random_fill("randn", rng_normal, argc, argv, loc); }

/* ---- strings ---- */

/* C-like formatting of args by fmt: %d %i %u %x %X %o %c %f %F %e %E %g %G %s %%, with
   flags, width and precision. Integer conversions truncate reals; %s shows any value. */
static void format_args(const char *fn, StrBuf *b, Value fmtv, int argc, const Value *argv, SrcLoc loc) {
  if (fmtv.kind != V_STRING) bad_arg(fn, "a format string", fmtv, loc);
  const char *f = fmtv.str->s, *end = f + fmtv.str->len;
  int next = 0;
  while (f < end) {
    if (*f == '\\' && f + 1 < end && strchr("ntr\\", f[1])) {   /* string literals keep backslashes */
      sb_putc(b, f[1] == 'n' ? '\n' : f[1] == 't' ? '\t' : f[1] == 'r' ? '\r' : '\\');
      f += 2;
      continue;
    }
    if (*f != '%') { sb_putc(b, *f++); continue; }
    const char *start = f++;
    if (f < end && *f == '%') { sb_putc(b, '%'); f++; continue; }
    while (f < end && strchr("-+ #0", *f)) f++;
    while (f < end && *f >= '0' && *f <= '9') f++;
    if (f < end && *f == '.') {
      f++;
      while (f < end && *f >= '0' && *f <= '9') f++;
    }
    if (f >= end) rt_error(loc, "%s: incomplete conversion at the end of the format", fn);
    char conv = *f++, spec[64];
    int speclen = (int)(f - 1 - start);
    if (speclen > 40) rt_error(loc, "%s: conversion too long", fn);
    if (!strchr("diuxXocfFeEgGs", conv)) rt_error(loc, "%s: unsupported conversion '%%%c'", fn, conv);
    if (next >= argc) rt_error(loc, "%s: not enough arguments for the format", fn);
    Value v = argv[next++];
    if (conv == 's') {
      snprintf(spec, sizeof spec, "%.*ss", speclen, start);
      char *s = rt_format(v);
      sb_printf(b, spec, s);
      free(s);
      continue;
    }
    if (!v_is_real(v)) rt_error(loc, "%s: '%%%c' expects a number, got %s", fn, conv, rt_kind_name(v));
    if (strchr("fFeEgG", conv)) {
      snprintf(spec, sizeof spec, "%.*s%c", speclen, start, conv);
      sb_printf(b, spec, v.kind == V_SCALAR ? v.s : (double)v.i);
    } else if (conv == 'c') {
      snprintf(spec, sizeof spec, "%.*sc", speclen, start);
      sb_printf(b, spec, (int)operand(v).i);
    } else {
      bool sign = conv == 'd' || conv == 'i';
      snprintf(spec, sizeof spec, "%.*sll%c", speclen, start, conv);
      if (sign) sb_printf(b, spec, (long long)operand(v).i);
      else sb_printf(b, spec, (unsigned long long)operand(v).i);
    }
  }
  if (next < argc) rt_error(loc, "%s: too many arguments for the format", fn);
}

static Value take_string(StrBuf *b) {
  Value v = v_string(b->s ? b->s : "", (int)b->len);
  free(b->s);
  return v;
}

BUILTIN(sprintf) {
  StrBuf b = { 0 };
  format_args("sprintf", &b, argv[0], argc - 1, argv + 1, loc);
  return take_string(&b);
}

BUILTIN(printf) {
  StrBuf b = { 0 };
  format_args("printf", &b, argv[0], argc - 1, argv + 1, loc);
  fwrite(b.s ? b.s : "", 1, b.len, stdout);
  free(b.s);
  return v_none();
}

BUILTIN(string) {
  (void)argc; (void)loc;
  StrBuf b = { 0 };
  sb_format_value(&b, argv[0]);
  return take_string(&b);
}

BUILTIN(strcat) {
  (void)loc;
  StrBuf b = { 0 };
  for (int k = 0; k < argc; k++) sb_format_value(&b, argv[k]);
  return take_string(&b);
}

/* ---- the table ---- */

static const Builtin builtins[] = {
  { "abs", bi_abs, 1, 1 }, { "acos", bi_acos, 1, 1 }, { "and", bi_and, 2, 2 },
  { "angle", bi_angle, 1, 1 }, { "asin", bi_asin, 1, 1 }, { "atan", bi_atan, 1, 1 },
  { "atan2", bi_atan2, 2, 2 }, { "ceil", bi_ceil, 1, 1 }, { "clamp", bi_clamp, 3, 3 },
  { "complex", bi_complex, 1, 2 }, { "conj", bi_conj, 1, 1 }, { "copy", bi_copy, 1, 1 },
  { "cos", bi_cos, 1, 1 }, { "cosh", bi_cosh, 1, 1 },
  { "exp", bi_exp, 1, 1 }, { "float", bi_float, 1, 1 }, { "floor", bi_floor, 1, 1 },
  { "frac", bi_frac, 1, 1 }, { "imag", bi_imag, 1, 1 }, { "ind2pos", bi_ind2pos, 2, 2 },
  { "int", bi_int, 1, 1 }, { "isempty", bi_isempty, 1, 1 },
  { "cell", bi_cell, 1, -1 }, { "object", bi_object, 0, 0 }, { "isfinite", bi_isfinite, 1, 1 },
  { "isinf", bi_isinf, 1, 1 }, { "isnan", bi_isnan, 1, 1 }, { "isscalar", bi_isscalar, 1, 1 },
  { "linspace", bi_linspace, 2, 3 }, { "log", bi_log, 1, 1 }, { "log10", bi_log10, 1, 1 },
  { "log2", bi_log2, 1, 1 }, { "max", bi_max, 1, 3 }, { "mean", bi_mean, 1, 2 },
  { "min", bi_min, 1, 3 }, { "mod", bi_mod, 2, 2 }, { "ndims", bi_ndims, 1, 1 },
  { "nextpow2", bi_nextpow2, 1, 1 }, { "not", bi_not, 1, 1 }, { "num2str", bi_string, 1, 1 },
  { "numel", bi_numel, 1, 1 }, { "ones", bi_ones, 1, -1 }, { "or", bi_or, 2, 2 },
  { "pos2ind", bi_pos2ind, 2, 2 }, { "prevpow2", bi_prevpow2, 1, 1 },
  { "printf", bi_printf, 1, -1 }, { "prod", bi_prod, 1, 2 }, { "rand", bi_rand, 0, -1 },
  { "randn", bi_randn, 0, -1 }, { "real", bi_real, 1, 1 }, { "repmat", bi_repmat, 2, -1 },
  { "reshape", bi_reshape, 2, -1 }, { "round", bi_round, 1, 1 }, { "shl", bi_shl, 2, 2 },
  { "shr", bi_shr, 2, 2 }, { "sign", bi_sign, 1, 1 }, { "sin", bi_sin, 1, 1 },
  { "sinh", bi_sinh, 1, 1 }, { "size", bi_size, 1, 2 }, { "sprintf", bi_sprintf, 1, -1 },
  { "sqrt", bi_sqrt, 1, 1 }, { "strcat", bi_strcat, 0, -1 }, { "string", bi_string, 1, 1 },
  { "sum", bi_sum, 1, 2 }, { "tan", bi_tan, 1, 1 }, { "tanh", bi_tanh, 1, 1 },
  { "transpose", bi_transpose, 1, 1 }, { "uninit", bi_uninit, 1, -1 },
  { "xor", bi_xor, 2, 2 }, { "zeros", bi_zeros, 1, -1 },
};

const Builtin *rt_builtin_lookup(const char *name) {
  for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
    if (!strcmp(builtins[k].name, name)) return &builtins[k];
  return rt_stats_lookup(name);   /* arrays and statistics (rt_stats.c) */
}

const char *rt_builtin_name(size_t i) {
  return i < sizeof builtins / sizeof builtins[0] ? builtins[i].name : NULL;
}

Value rt_constant(const char *name, bool *found) {
  static const struct { const char *name; double x; } reals[] = {
    { "pi", RT_PI }, { "e", RT_E }, { "Inf", HUGE_VAL }, { "NaN", NAN },
  };
  *found = true;
  for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++)
    if (!strcmp(reals[k].name, name)) return v_scalar(reals[k].x);
  if (!strcmp(name, "eps")) return v_scalar(rt_config.double_precision ? DBL_EPSILON : FLT_EPSILON);
  if (!strcmp(name, "true")) return v_bool(true);
  if (!strcmp(name, "false")) return v_bool(false);
  if (!strcmp(name, "nullptr")) return v_null();
  *found = false;
  return v_none();
}
