/* rt_ops.c: the binary and unary operators on values.
   A result's kind follows the larger arithmetic class of the operands (int < real <
   complex), lifted to real for / ./ ^ .^; bit operators truncate reals to int. Arrays work
   element-wise, broadcasting a number over an array; two arrays need equal shapes (dims
   past the rank are 1), except '*', the matrix product. '^' of an array and a number is
   element-wise (Quasar's matrix power A^n is not supported); '^' and '/' of two arrays are
   errors that point to .^ and ./ . */
#include <complex.h>
#include "runtime/rt_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rt_op_sym(Op op) {
  static const char *sym[OP_COUNT] = {
    [OP_NONE] = "?", [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
    [OP_POW] = "^", [OP_EMUL] = ".*", [OP_EDIV] = "./", [OP_EPOW] = ".^", [OP_MOD] = "mod",
    [OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">",
    [OP_GE] = ">=", [OP_AND] = "&&", [OP_OR] = "||", [OP_NEG] = "-", [OP_PLUS] = "+",
    [OP_NOT] = "!", [OP_BAND] = "&", [OP_BOR] = "|", [OP_BXOR] = "~", [OP_MAX] = "^^",
    [OP_MIN] = "__",
  };
  return op >= 0 && op < OP_COUNT && sym[op] ? sym[op] : "?";
}

_Noreturn static void bad_operands(Op op, Value a, Value b, SrcLoc loc) {
  rt_error(loc, "operator '%s' cannot be applied to %s and %s", rt_op_sym(op),
           rt_kind_name(a), rt_kind_name(b));
}

static bool is_cmp(Op op) { return op >= OP_EQ && op <= OP_GE; }
static bool is_bitop(Op op) { return op == OP_BAND || op == OP_BOR || op == OP_BXOR; }

static NumClass result_class(Op op, NumClass ca, NumClass cb) {
  NumClass c = ca > cb ? ca : cb;
  if (is_bitop(op)) return NC_INT;
  if ((op == OP_DIV || op == OP_EDIV || op == OP_POW || op == OP_EPOW) && c == NC_INT)
    return NC_REAL;
  return c;
}

/* Operators that have no meaning on complex numbers. */
static void check_complex(Op op, Value a, Value b, SrcLoc loc) {
  bool ordered = op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
  if (ordered || op == OP_MOD || op == OP_MAX || op == OP_MIN || is_bitop(op))
    rt_error(loc, "operator '%s' is not defined for complex numbers (%s and %s)",
             rt_op_sym(op), rt_kind_name(a), rt_kind_name(b));
}

/* ---- element operations ---- */

static int64_t int_op(Op op, int64_t x, int64_t y, SrcLoc loc) {
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;   /* wrap on overflow instead of UB */
  switch (op) {
  case OP_ADD: return (int64_t)(ux + uy);
  case OP_SUB: return (int64_t)(ux - uy);
  case OP_MUL: case OP_EMUL: return (int64_t)(ux * uy);
  case OP_MOD:
    if (y == 0) rt_error(loc, "division by zero in mod");
    return y == -1 ? 0 : x % y;
  case OP_BAND: return x & y;
  case OP_BOR: return x | y;
  case OP_BXOR: return x ^ y;
  case OP_MAX: return x > y ? x : y;
  case OP_MIN: return x < y ? x : y;
  default: return 0;
  }
}

static double real_op(Op op, double x, double y) {
  switch (op) {
  case OP_ADD: return x + y;
  case OP_SUB: return x - y;
  case OP_MUL: case OP_EMUL: return x * y;
  case OP_DIV: case OP_EDIV: return x / y;
  case OP_POW: case OP_EPOW: return y == 2 ? x * x : pow(x, y);   /* x^2 is common and exact */
  case OP_MOD: return fmod(x, y);
  case OP_MAX: return x > y || y != y ? x : y;   /* NaN loses, as in fmax */
  case OP_MIN: return x < y || y != y ? x : y;
  default: return 0;
  }
}

/* z^w; small integral real exponents multiply exactly: (1+2i)^2 is -3+4i, not -3+4.0000001i. */
double complex rt_cpow(double complex z, double complex w) {
  double e = creal(w);
  if (cimag(w) == 0 && e == floor(e) && fabs(e) <= 1024) {
    double complex r = 1, base = z;
    for (int64_t n = (int64_t)fabs(e); n; n >>= 1) {
      if (n & 1) r *= base;
      base *= base;
    }
    return e < 0 ? 1 / r : r;
  }
  return cpow(z, w);
}

static double complex cplx_op(Op op, double complex x, double complex y) {
  switch (op) {
  case OP_ADD: return x + y;
  case OP_SUB: return x - y;
  case OP_MUL: case OP_EMUL: return x * y;
  case OP_DIV: case OP_EDIV: return x / y;
  case OP_POW: case OP_EPOW: return rt_cpow(x, y);
  default: return 0;
  }
}

static bool cplx_cmp(Op op, double complex x, double complex y) {
  bool eq = creal(x) == creal(y) && cimag(x) == cimag(y);
  return op == OP_EQ ? eq : !eq;
}

/* ---- operands ---- */

Operand operand(Value v) {
  Operand o = { 0 };
  switch (v.kind) {
  case V_ARRAY: o.a = v.arr; break;
  case V_BOOL: case V_INT: o.i = v.i; o.r = (double)v.i; break;
  case V_SCALAR: o.i = rt_trunc_i64(v.s); o.r = v.s; break;
  case V_CSCALAR: o.r = v.c.re; o.im = v.c.im; o.i = rt_trunc_i64(o.r); break;
  default: break;
  }
  return o;
}

static inline double complex operand_z(const Operand *o, int64_t k) {
  double re, im;
  operand_c(o, k, &re, &im);
  return CMPLX(re, im);
}

/* ---- numbers ---- */

static Value num_cmp(Op op, Value a, Value b, SrcLoc loc) {
  Operand x = operand(a), y = operand(b);
  NumClass ca = val_class(a), cb = val_class(b);
  if (ca == NC_COMPLEX || cb == NC_COMPLEX) {
    check_complex(op, a, b, loc);
    return v_bool(cplx_cmp(op, operand_z(&x, 0), operand_z(&y, 0)));
  }
  if (ca == NC_INT && cb == NC_INT) return v_bool(rt_cmp_int(op, x.i, y.i));
  return v_bool(rt_cmp_real(op, x.r, y.r));
}

static Value num_op(Op op, Value a, Value b, SrcLoc loc) {
  if (is_cmp(op)) return num_cmp(op, a, b, loc);
  NumClass c = result_class(op, val_class(a), val_class(b));
  if (val_class(a) == NC_COMPLEX || val_class(b) == NC_COMPLEX) check_complex(op, a, b, loc);
  Operand x = operand(a), y = operand(b);
  switch (c) {
  case NC_INT: return v_int(int_op(op, x.i, y.i, loc));
  case NC_REAL: return v_scalar(real_op(op, x.r, y.r));
  default: {
    double complex z = cplx_op(op, operand_z(&x, 0), operand_z(&y, 0));
    return v_cscalar(creal(z), cimag(z));
  }
  }
}

/* ---- arrays ---- */

_Noreturn static void shape_mismatch(Op op, const Array *a, const Array *b, SrcLoc loc) {
  char sa[200], sb[200];
  rt_error(loc, "shape mismatch in '%s': %s and %s", rt_op_sym(op),
           rt_dims_str(sa, sizeof sa, a->rank, a->dims), rt_dims_str(sb, sizeof sb, b->rank, b->dims));
}

/* Tight loops for the common float/double cases; false when the types don't fit. */
#define X_ (xa ? xa[k] : xs)
#define Y_ (ya ? ya[k] : ys)
#define FAST_LOOP(T)                                                              \
  do {                                                                            \
    T *out = r->data, xs = (T)x->r, ys = (T)y->r;                                 \
    const T *xa = x->a ? x->a->data : NULL, *ya = y->a ? y->a->data : NULL;       \
    switch (op) {                                                                 \
    case OP_ADD: for (int64_t k = 0; k < n; k++) { out[k] = X_ + Y_; } break;     \
    case OP_SUB: for (int64_t k = 0; k < n; k++) { out[k] = X_ - Y_; } break;     \
    case OP_MUL: case OP_EMUL:                                                    \
      for (int64_t k = 0; k < n; k++) { out[k] = X_ * Y_; } break;                \
    case OP_DIV: case OP_EDIV:                                                    \
      for (int64_t k = 0; k < n; k++) { out[k] = X_ / Y_; } break;                \
    default: return false;                                                        \
    }                                                                             \
  } while (0)

static bool fits(const Operand *o, ElemType e, NumClass number_class) {
  return o->a ? o->a->elem == e : number_class != NC_COMPLEX;
}

static bool fast_real(Op op, Array *r, const Operand *x, const Operand *y, NumClass cx, NumClass cy) {
  int64_t n = r->numel;
  if (r->elem == EL_F32 && fits(x, EL_F32, cx) && fits(y, EL_F32, cy)) {
    FAST_LOOP(float);
    return true;
  }
  if (r->elem == EL_F64 && fits(x, EL_F64, cx) && fits(y, EL_F64, cy)) {
    FAST_LOOP(double);
    return true;
  }
  return false;
}
#undef X_
#undef Y_
#undef FAST_LOOP

static void elementwise(Op op, NumClass c, Array *r, const Operand *x, const Operand *y,
                        NumClass cx, NumClass cy, SrcLoc loc) {
  int64_t n = r->numel;
  switch (c) {
  case NC_INT:
    for (int64_t k = 0; k < n; k++) arr_store_i(r, k, int_op(op, operand_i(x, k), operand_i(y, k), loc));
    break;
  case NC_REAL:
    if (fast_real(op, r, x, y, cx, cy)) break;
    for (int64_t k = 0; k < n; k++) arr_store(r, k, real_op(op, operand_r(x, k), operand_r(y, k)));
    break;
  default:
    for (int64_t k = 0; k < n; k++) {
      double complex z = cplx_op(op, operand_z(x, k), operand_z(y, k));
      arr_store_c(r, k, creal(z), cimag(z));
    }
  }
}

static void compare(Op op, NumClass cx, NumClass cy, Array *r, const Operand *x, const Operand *y) {
  int32_t *out = r->data;
  for (int64_t k = 0; k < r->numel; k++) {
    if (cx == NC_COMPLEX || cy == NC_COMPLEX) out[k] = cplx_cmp(op, operand_z(x, k), operand_z(y, k));
    else if (cx == NC_INT && cy == NC_INT) out[k] = rt_cmp_int(op, operand_i(x, k), operand_i(y, k));
    else out[k] = rt_cmp_real(op, operand_r(x, k), operand_r(y, k));
  }
}

/* Matrix product. A vec is a 1 x N row on either side (Quasar's rule), so transpose(v)*v is
   the N x N outer product and an m x N matrix times a vector is written A*transpose(v).
   vec*vec of equal lengths stays the inner product, a number, as compiled kernels have it
   (kernel_sema.c: vec3*vec3). Operands are first loaded into double/complex/int64 buffers. */
static Value matmul(Value va, Value vb, SrcLoc loc) {
  const Array *A = va.arr, *B = vb.arr;
  if (A->rank > 2 || B->rank > 2)
    rt_error(loc, "matrix product '*' needs vectors or matrices, got %s and %s",
             rt_kind_name(va), rt_kind_name(vb));
  int64_t m = A->rank == 1 ? 1 : A->dims[0], n = A->rank == 1 ? A->dims[0] : A->dims[1];
  bool inner = A->rank == 1 && B->rank == 1 && A->dims[0] == B->dims[0];
  int64_t n2 = B->rank == 1 ? 1 : B->dims[0], p = B->rank == 1 ? B->dims[0] : B->dims[1];
  if (inner) n2 = n, p = 1;
  if (n != n2) {
    char sa[200], sb[200];
    rt_error(loc, "inner dimensions disagree in '*': %s and %s (a vec is a 1 x N row)",
             rt_dims_str(sa, sizeof sa, A->rank, A->dims), rt_dims_str(sb, sizeof sb, B->rank, B->dims));
  }
  NumClass c = result_class(OP_MUL, el_class(A->elem), el_class(B->elem));
  ElemType e = el_for_class(c, A->elem, B->elem);
  int64_t rdims[2] = { m, p };
  int rrank = 2;
  rt_shape_normalize(&rrank, rdims);
  Array *R = arr_new(e, rrank, rdims);
  if (c == NC_INT) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < p; j++) {
        uint64_t s = 0;
        for (int64_t k = 0; k < n; k++)
          s += (uint64_t)arr_load_i(A, i * n + k) * (uint64_t)arr_load_i(B, k * p + j);
        arr_store_i(R, i * p + j, (int64_t)s);
      }
  } else if (c == NC_REAL) {
    double *a = malloc(sizeof(double) * (size_t)(m * n + n * p + p + 1)), *b = a + m * n, *row = b + n * p;
    for (int64_t k = 0; k < m * n; k++) a[k] = arr_load(A, k);
    for (int64_t k = 0; k < n * p; k++) b[k] = arr_load(B, k);
    for (int64_t i = 0; i < m; i++) {
      for (int64_t j = 0; j < p; j++) row[j] = 0;
      for (int64_t k = 0; k < n; k++) {
        double aik = a[i * n + k];
        const double *bk = b + k * p;
        for (int64_t j = 0; j < p; j++) row[j] += aik * bk[j];
      }
      for (int64_t j = 0; j < p; j++) arr_store(R, i * p + j, row[j]);
    }
    free(a);
  } else {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < p; j++) {
        double complex s = 0, x, y;
        double re, im;
        for (int64_t k = 0; k < n; k++) {
          arr_load_c(A, i * n + k, &re, &im); x = CMPLX(re, im);
          arr_load_c(B, k * p + j, &re, &im); y = CMPLX(re, im);
          s += x * y;
        }
        arr_store_c(R, i * p + j, creal(s), cimag(s));
      }
  }
  if (inner) {
    Value v = arr_get(R, 0);
    val_release(v_array(R));
    return v;
  }
  return v_array(R);
}

static Value array_op(Op op, Value a, Value b, SrcLoc loc) {
  bool aa = a.kind == V_ARRAY, ab = b.kind == V_ARRAY;
  if ((!aa && !v_is_num(a)) || (!ab && !v_is_num(b))) bad_operands(op, a, b, loc);
  if (aa && ab) {
    if (op == OP_MUL) return matmul(a, b, loc);
    if (op == OP_DIV) rt_error(loc, "use ./ for element-wise division of arrays");
    if (op == OP_POW) rt_error(loc, "use .^ for element-wise power of arrays");
    if (!arr_same_shape(a.arr, b.arr)) shape_mismatch(op, a.arr, b.arr, loc);
  }
  NumClass cx = val_class(a), cy = val_class(b);
  if (cx == NC_COMPLEX || cy == NC_COMPLEX) check_complex(op, a, b, loc);
  const Array *shape = aa ? a.arr : b.arr;
  Operand x = operand(a), y = operand(b);
  if (is_cmp(op)) {
    Array *r = arr_new_uninit(EL_I32, shape->rank, shape->dims);
    compare(op, cx, cy, r, &x, &y);
    return v_array(r);
  }
  NumClass c = result_class(op, cx, cy);
  ElemType e = el_for_class(c, aa ? a.arr->elem : EL_COUNT, ab ? b.arr->elem : EL_COUNT);
  Array *r = arr_new_uninit(e, shape->rank, shape->dims);
  elementwise(op, c, r, &x, &y, cx, cy, loc);
  return v_array(r);
}

/* ---- strings ---- */

/* Strings concatenate with strings and numbers; an array next to a string is a type error. */
static bool concat_ok(Value v) { return v.kind == V_STRING || v_is_num(v); }

static Value string_op(Op op, Value a, Value b, SrcLoc loc) {
  if (op == OP_ADD && concat_ok(a) && concat_ok(b)) {
    StrBuf sb = { 0 };
    sb_format_value(&sb, a);
    sb_format_value(&sb, b);
    Value v = v_string(sb.s ? sb.s : "", (int)sb.len);
    free(sb.s);
    return v;
  }
  if (op == OP_EQ || op == OP_NE) {
    bool eq = a.kind == V_STRING && b.kind == V_STRING && a.str->len == b.str->len &&
              memcmp(a.str->s, b.str->s, (size_t)a.str->len) == 0;
    return v_bool(op == OP_EQ ? eq : !eq);
  }
  bad_operands(op, a, b, loc);
}

/* Shortcuts for the arithmetic the interpreter does most: int with int and real with real
   (or int); false for everything else. */
static bool num_fast(Op op, Value a, Value b, Value *out) {
  if (a.kind == V_INT && b.kind == V_INT) {
    int64_t x = a.i, y = b.i;
    switch (op) {
    case OP_ADD: *out = v_int((int64_t)((uint64_t)x + (uint64_t)y)); return true;
    case OP_SUB: *out = v_int((int64_t)((uint64_t)x - (uint64_t)y)); return true;
    case OP_MUL: case OP_EMUL: *out = v_int((int64_t)((uint64_t)x * (uint64_t)y)); return true;
    case OP_LT: *out = v_bool(x < y); return true;
    case OP_LE: *out = v_bool(x <= y); return true;
    case OP_GT: *out = v_bool(x > y); return true;
    case OP_GE: *out = v_bool(x >= y); return true;
    case OP_EQ: *out = v_bool(x == y); return true;
    case OP_NE: *out = v_bool(x != y); return true;
    default: return false;
    }
  }
  if ((a.kind != V_SCALAR && a.kind != V_INT) || (b.kind != V_SCALAR && b.kind != V_INT))
    return false;
  double x = a.kind == V_SCALAR ? a.s : (double)a.i, y = b.kind == V_SCALAR ? b.s : (double)b.i;
  switch (op) {
  case OP_ADD: *out = v_scalar(x + y); return true;
  case OP_SUB: *out = v_scalar(x - y); return true;
  case OP_MUL: case OP_EMUL: *out = v_scalar(x * y); return true;
  case OP_DIV: case OP_EDIV: *out = v_scalar(x / y); return true;
  case OP_LT: *out = v_bool(x < y); return true;
  case OP_LE: *out = v_bool(x <= y); return true;
  case OP_GT: *out = v_bool(x > y); return true;
  case OP_GE: *out = v_bool(x >= y); return true;
  default: return false;   /* ==, != of int and scalar compare exactly in num_cmp */
  }
}

static bool ref_kind(Value v) { return v.kind == V_OBJECT || v.kind == V_CELL || v.kind == V_NULL; }

/* Objects, cell arrays and nullptr compare by identity (p == nullptr, p == q: the same
   object); no other operator applies to them. */
static Value ref_compare(Op op, Value a, Value b, SrcLoc loc) {
  if (op != OP_EQ && op != OP_NE) bad_operands(op, a, b, loc);
  bool same = a.kind == b.kind && (a.kind == V_NULL || (a.kind == V_OBJECT ? a.obj == b.obj : a.cell == b.cell));
  if (a.kind == V_OBJECT && b.kind == V_OBJECT) same = a.obj == b.obj;
  return v_bool(op == OP_EQ ? same : !same);
}

Value rt_binary(Op op, Value a, Value b, SrcLoc loc) {
  Value r;
  if (num_fast(op, a, b, &r)) return r;
  if (a.kind == V_STRING || b.kind == V_STRING) return string_op(op, a, b, loc);
  if (ref_kind(a) || ref_kind(b)) return ref_compare(op, a, b, loc);
  bool ok_a = v_is_num(a) || a.kind == V_ARRAY, ok_b = v_is_num(b) || b.kind == V_ARRAY;
  if (!ok_a || !ok_b) bad_operands(op, a, b, loc);
  if (op == OP_AND) return v_bool(rt_truthy(a, loc) && rt_truthy(b, loc));
  if (op == OP_OR) return v_bool(rt_truthy(a, loc) || rt_truthy(b, loc));
  if (op < OP_ADD || op == OP_NEG || op == OP_PLUS || op == OP_NOT || op >= OP_COUNT)
    rt_error(loc, "'%s' is not a binary operator", rt_op_sym(op));
  if (a.kind == V_ARRAY || b.kind == V_ARRAY) return array_op(op, a, b, loc);
  return num_op(op, a, b, loc);
}

/* ---- unary ---- */

static Value negate_array(const Array *a) {
  NumClass c = el_class(a->elem);
  ElemType e = c == NC_INT ? el_for_class(NC_INT, a->elem, EL_COUNT) : a->elem;
  Array *r = arr_new_uninit(e, a->rank, a->dims);
  int64_t n = a->numel;
  if (e == EL_F32) {
    const float *x = a->data;
    float *y = r->data;
    for (int64_t k = 0; k < n; k++) y[k] = -x[k];
  } else if (c == NC_INT) {
    for (int64_t k = 0; k < n; k++) arr_store_i(r, k, (int64_t)(0 - (uint64_t)arr_load_i(a, k)));
  } else if (c == NC_REAL) {
    for (int64_t k = 0; k < n; k++) arr_store(r, k, -arr_load(a, k));
  } else {
    double re, im;
    for (int64_t k = 0; k < n; k++) {
      arr_load_c(a, k, &re, &im);
      arr_store_c(r, k, -re, -im);
    }
  }
  return v_array(r);
}

/* '!' of a number or array is one bool, like '&&' and '||': !x is true unless x is truthy
   (for an array: unless all its elements are nonzero). */
Value rt_unary(Op op, Value a, SrcLoc loc) {
  if (!v_is_num(a) && a.kind != V_ARRAY)
    rt_error(loc, "operator '%s' cannot be applied to a %s", rt_op_sym(op), rt_kind_name(a));
  switch (op) {
  case OP_PLUS:
    val_retain(a);
    return a;
  case OP_NOT:
    return v_bool(!rt_truthy(a, loc));
  case OP_NEG:
    switch (a.kind) {
    case V_BOOL: case V_INT: return v_int((int64_t)(0 - (uint64_t)a.i));
    case V_SCALAR: return v_scalar(-a.s);
    case V_CSCALAR: return v_cscalar(-a.c.re, -a.c.im);
    default: return negate_array(a.arr);
    }
  default:
    rt_error(loc, "'%s' is not a unary operator", rt_op_sym(op));
  }
}
