/* rt_value.c: value constructors, reference counting, element types, arrays and their
   element access, conversions between values and types, and kind names for messages.

   Integer element stores: a real value is first truncated toward zero to int64 (NaN -> 0,
   out-of-range values saturate at the int64 limits), then converted to the element type the
   way a C cast does on our targets: modulo 2^bits (uint8: 300 -> 44, -1 -> 255; int8: 200 ->
   -56). No other saturation happens. */
#include "runtime/rt_internal.h"
#include "runtime/callable.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const SrcLoc noloc;

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) rt_error(noloc, "out of memory (%zu bytes)", n);
  return p;
}

/* ---- strings and tuples ---- */

Value v_string(const char *s, int len) {
  String *str = xmalloc(sizeof *str + (size_t)len + 1);
  str->refcount = 1;
  str->len = len;
  memcpy(str->s, s, (size_t)len);
  str->s[len] = 0;
  Value v;
  v.kind = V_STRING;
  v.str = str;
  return v;
}

Value v_tuple(int n) {
  Tuple *t = xmalloc(sizeof *t);
  t->refcount = 1;
  t->n = n;
  t->v = xmalloc(sizeof(Value) * (size_t)n);
  for (int i = 0; i < n; i++) t->v[i] = v_none();
  Value v;
  v.kind = V_TUPLE;
  v.tup = t;
  return v;
}

void (*rt_array_free_hook)(Array *a);
void (*rt_array_host_hook)(Array *a, SrcLoc loc);

void val_free_(Value v) {
  switch (v.kind) {
  case V_ARRAY:
    if (v.arr->device && rt_array_free_hook) rt_array_free_hook(v.arr);
    free(v.arr->data);
    free(v.arr);
    break;
  case V_STRING:
    free(v.str);
    break;
  case V_TUPLE:
    for (int i = 0; i < v.tup->n; i++) val_release(v.tup->v[i]);
    free(v.tup->v);
    free(v.tup);
    break;
  case V_OBJECT: obj_free_(v.obj); break;
  case V_CELL: cell_free_(v.cell); break;
  case V_HANDLE:
    v.h->cls->destroy(v.h);
    break;
  default:
    break;
  }
}

/* ---- element types ---- */

ElemType el_scalar(void) { return rt_config.double_precision ? EL_F64 : EL_F32; }
ElemType el_cscalar(void) { return rt_config.double_precision ? EL_C128 : EL_C64; }

size_t el_size(ElemType e) {
  static const size_t size[EL_COUNT] = {
    [EL_F32] = 4, [EL_F64] = 8, [EL_C64] = 8, [EL_C128] = 16, [EL_I32] = 4, [EL_I8] = 1,
    [EL_U8] = 1, [EL_I16] = 2, [EL_U16] = 2, [EL_U32] = 4, [EL_I64] = 8,
  };
  return e < EL_COUNT ? size[e] : 0;
}

/* The precision that is not the global one carries its modifier in the name. */
const char *el_name(ElemType e) {
  bool dp = rt_config.double_precision;
  switch (e) {
  case EL_F32: return dp ? "scalar'single" : "scalar";
  case EL_F64: return dp ? "scalar" : "scalar'double";
  case EL_C64: return dp ? "cscalar'single" : "cscalar";
  case EL_C128: return dp ? "cscalar" : "cscalar'double";
  case EL_I32: return "int";
  case EL_I8: return "int8";
  case EL_U8: return "uint8";
  case EL_I16: return "int16";
  case EL_U16: return "uint16";
  case EL_U32: return "uint32";
  case EL_I64: return "int64";
  default: return "?";
  }
}

bool el_is_complex(ElemType e) { return e == EL_C64 || e == EL_C128; }
bool el_is_integer(ElemType e) { return e >= EL_I32 && e <= EL_I64; }

NumClass el_class(ElemType e) {
  return el_is_complex(e) ? NC_COMPLEX : el_is_integer(e) ? NC_INT : NC_REAL;
}

NumClass val_class(Value v) {
  switch (v.kind) {
  case V_SCALAR: return NC_REAL;
  case V_CSCALAR: return NC_COMPLEX;
  case V_ARRAY: return el_class(v.arr->elem);
  default: return NC_INT;
  }
}

ElemType el_for_class(NumClass c, ElemType ea, ElemType eb) {
  bool wide = ea == EL_F64 || ea == EL_C128 || eb == EL_F64 || eb == EL_C128;
  switch (c) {
  case NC_INT: return ea == EL_I64 || eb == EL_I64 ? EL_I64 : EL_I32;
  case NC_REAL: return wide ? EL_F64 : el_scalar();
  default: return wide ? EL_C128 : el_cscalar();
  }
}

ElemType el_from_type(const Type *t, SrcLoc loc) {
  if (!t) return el_scalar();
  switch (t->kind) {
  case TY_UNKNOWN: return el_scalar();
  case TY_SCALAR:
    if (t->mods & TM_DOUBLE) return EL_F64;
    if (t->mods & (TM_SINGLE | TM_HALF)) return EL_F32;
    return el_scalar();
  case TY_CSCALAR:
    if (t->mods & TM_DOUBLE) return EL_C128;
    if (t->mods & (TM_SINGLE | TM_HALF)) return EL_C64;
    return el_cscalar();
  case TY_INT: case TY_INT32: case TY_BOOL: return EL_I32;
  case TY_INT8: return EL_I8;
  case TY_UINT8: return EL_U8;
  case TY_INT16: return EL_I16;
  case TY_UINT16: return EL_U16;
  case TY_UINT32: return EL_U32;
  case TY_INT64: return EL_I64;
  case TY_ARRAY: return el_from_type(t->elem, loc);
  default:
    rt_error(loc, "arrays of '%s' elements are not supported", t->name ? t->name : "this type");
  }
}

/* ---- arrays ---- */

/* An array of the given shape; its elements zeroed when `zeroed`. Zeroing goes through calloc:
   a large block comes from fresh pages, which are zero without being written, so an array
   made by zeros() and then written by a kernel is never touched on the host (on the GPU its
   host copy is never written at all; a memset cost 25-400 ms per 50 MB in page faults). */
static Array *arr_alloc(ElemType e, int rank, const int64_t *dims, bool zeroed) {
  if (rank < 1 || rank > OQ_MAX_RANK) rt_error(noloc, "array rank %d is not supported", rank);
  Array *a = xmalloc(sizeof *a);
  a->refcount = 1;
  a->elem = e;
  a->rank = rank;
  a->numel = 1;
  for (int d = 0; d < OQ_MAX_RANK; d++) {
    a->dims[d] = d < rank ? dims[d] : 1;
    if (a->dims[d] < 0) rt_error(noloc, "negative array dimension %lld", (long long)a->dims[d]);
    if (a->dims[d] && a->numel > INT64_MAX / 8 / a->dims[d])
      rt_error(noloc, "array too large");
    a->numel *= a->dims[d];
  }
  size_t bytes = (size_t)a->numel * el_size(e);
  a->data = zeroed ? calloc(bytes ? bytes : 1, 1) : malloc(bytes ? bytes : 1);
  if (!a->data) rt_error(noloc, "out of memory (%zu bytes)", bytes);
  a->device = NULL;
  a->state = 0;
  return a;
}

Array *arr_new_uninit(ElemType e, int rank, const int64_t *dims) { return arr_alloc(e, rank, dims, false); }

Array *arr_new(ElemType e, int rank, const int64_t *dims) { return arr_alloc(e, rank, dims, true); }

Array *arr_vec(ElemType e, int64_t n) { return arr_new(e, 1, &n); }

Array *arr_copy(const Array *a) {
  Array *b = arr_new_uninit(a->elem, a->rank, a->dims);
  memcpy(b->data, a->data, (size_t)a->numel * el_size(a->elem));
  return b;
}

Array *arr_convert(const Array *a, ElemType e) {
  if (a->elem == e) return arr_copy(a);
  Array *b = arr_new_uninit(e, a->rank, a->dims);
  NumClass from = el_class(a->elem), to = el_class(e);
  double re, im;
  for (int64_t i = 0; i < a->numel; i++) {
    if (from == NC_INT && to == NC_INT) arr_store_i(b, i, arr_load_i(a, i));
    else if (from == NC_COMPLEX || to == NC_COMPLEX) {
      arr_load_c(a, i, &re, &im);
      arr_store_c(b, i, re, im);
    } else arr_store(b, i, arr_load(a, i));
  }
  return b;
}

int64_t arr_dim(const Array *a, int d) { return d >= 0 && d < a->rank ? a->dims[d] : 1; }

bool arr_same_shape(const Array *a, const Array *b) {
  int r = a->rank > b->rank ? a->rank : b->rank;
  for (int d = 0; d < r; d++)
    if (arr_dim(a, d) != arr_dim(b, d)) return false;
  return true;
}

int64_t rt_largest_divisor(int64_t n, int64_t cap) {
  if (n <= cap) return n < 1 ? 1 : n;
  static struct { int64_t n, cap, k; } last[16];
  unsigned s = (unsigned)(((uint64_t)n * 0x9E3779B97F4A7C15ull + (uint64_t)cap) >> 60);
  if (last[s].n == n && last[s].cap == cap) return last[s].k;
  int64_t k = cap > 1 ? cap : 1;
  while (k > 1 && n % k) k--;
  last[s].n = n, last[s].cap = cap, last[s].k = k;
  return k;
}

int64_t rt_trunc_i64(double x) {
  if (x != x) return 0;
  if (x >= 9223372036854775807.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

double arr_load(const Array *a, int64_t i) {
  const void *p = a->data;
  switch (a->elem) {
  case EL_F32: return ((const float *)p)[i];
  case EL_F64: return ((const double *)p)[i];
  case EL_C64: return ((const float *)p)[2 * i];
  case EL_C128: return ((const double *)p)[2 * i];
  case EL_I32: return ((const int32_t *)p)[i];
  case EL_I8: return ((const int8_t *)p)[i];
  case EL_U8: return ((const uint8_t *)p)[i];
  case EL_I16: return ((const int16_t *)p)[i];
  case EL_U16: return ((const uint16_t *)p)[i];
  case EL_U32: return ((const uint32_t *)p)[i];
  case EL_I64: return (double)((const int64_t *)p)[i];
  default: return 0;
  }
}

int64_t arr_load_i(const Array *a, int64_t i) {
  const void *p = a->data;
  switch (a->elem) {
  case EL_I32: return ((const int32_t *)p)[i];
  case EL_I8: return ((const int8_t *)p)[i];
  case EL_U8: return ((const uint8_t *)p)[i];
  case EL_I16: return ((const int16_t *)p)[i];
  case EL_U16: return ((const uint16_t *)p)[i];
  case EL_U32: return ((const uint32_t *)p)[i];
  case EL_I64: return ((const int64_t *)p)[i];
  default: return rt_trunc_i64(arr_load(a, i));
  }
}

void arr_load_c(const Array *a, int64_t i, double *re, double *im) {
  if (a->elem == EL_C64) {
    *re = ((const float *)a->data)[2 * i];
    *im = ((const float *)a->data)[2 * i + 1];
  } else if (a->elem == EL_C128) {
    *re = ((const double *)a->data)[2 * i];
    *im = ((const double *)a->data)[2 * i + 1];
  } else {
    *re = arr_load(a, i);
    *im = 0;
  }
}

void arr_store_i(Array *a, int64_t i, int64_t x) {
  void *p = a->data;
  switch (a->elem) {
  case EL_I32: ((int32_t *)p)[i] = (int32_t)x; break;
  case EL_I8: ((int8_t *)p)[i] = (int8_t)x; break;
  case EL_U8: ((uint8_t *)p)[i] = (uint8_t)x; break;
  case EL_I16: ((int16_t *)p)[i] = (int16_t)x; break;
  case EL_U16: ((uint16_t *)p)[i] = (uint16_t)x; break;
  case EL_U32: ((uint32_t *)p)[i] = (uint32_t)x; break;
  case EL_I64: ((int64_t *)p)[i] = x; break;
  default: arr_store(a, i, (double)x); break;
  }
}

void arr_store(Array *a, int64_t i, double x) {
  switch (a->elem) {
  case EL_F32: ((float *)a->data)[i] = (float)x; break;
  case EL_F64: ((double *)a->data)[i] = x; break;
  case EL_C64: case EL_C128: arr_store_c(a, i, x, 0); break;
  default: arr_store_i(a, i, rt_trunc_i64(x)); break;
  }
}

void arr_store_c(Array *a, int64_t i, double re, double im) {
  if (a->elem == EL_C64) {
    ((float *)a->data)[2 * i] = (float)re;
    ((float *)a->data)[2 * i + 1] = (float)im;
  } else if (a->elem == EL_C128) {
    ((double *)a->data)[2 * i] = re;
    ((double *)a->data)[2 * i + 1] = im;
  } else arr_store(a, i, re);
}

Value arr_get(const Array *a, int64_t i) {
  switch (el_class(a->elem)) {
  case NC_INT: return v_int(arr_load_i(a, i));
  case NC_REAL: return v_scalar(arr_load(a, i));
  default: {
    double re, im;
    arr_load_c(a, i, &re, &im);
    return v_cscalar(re, im);
  }
  }
}

void arr_set(Array *a, int64_t i, Value v, SrcLoc loc) {
  switch (v.kind) {
  case V_BOOL: case V_INT: arr_store_i(a, i, v.i); break;
  case V_SCALAR: arr_store(a, i, v.s); break;
  case V_CSCALAR:
    if (!el_is_complex(a->elem))
      rt_error(loc, "cannot store a cscalar in an element of a %s", rt_kind_name(v_array(a)));
    arr_store_c(a, i, v.c.re, v.c.im);
    break;
  default:
    rt_error(loc, "cannot store a %s in an element of a %s", rt_kind_name(v),
             rt_kind_name(v_array(a)));
  }
}

Value rt_coerce_elem(Value v, ElemType e, SrcLoc loc) {
  unsigned char buf[16];   /* one element of any type */
  Array tmp = { .refcount = 1, .elem = e, .rank = 1, .dims = { 1 }, .numel = 1, .data = buf };
  arr_set(&tmp, 0, v, loc);
  return arr_get(&tmp, 0);
}

/* ---- conversions and checks ---- */

int64_t rt_to_int(Value v, SrcLoc loc) {
  switch (v.kind) {
  case V_BOOL: case V_INT: return v.i;
  case V_SCALAR:
    if (!isfinite(v.s)) rt_error(loc, "expected an integer, got %g", v.s);
    return rt_trunc_i64(v.s);
  case V_CSCALAR:
    if (v.c.im == 0 && isfinite(v.c.re)) return rt_trunc_i64(v.c.re);
    rt_error(loc, "expected an integer, got a cscalar");
  default:
    rt_error(loc, "expected an integer, got a %s", rt_kind_name(v));
  }
}

double rt_to_real(Value v, SrcLoc loc) {
  switch (v.kind) {
  case V_BOOL: case V_INT: return (double)v.i;
  case V_SCALAR: return v.s;
  default:
    rt_error(loc, "expected a real number, got a %s", rt_kind_name(v));
  }
}

bool rt_truthy(Value v, SrcLoc loc) {
  switch (v.kind) {
  case V_BOOL: case V_INT: return v.i != 0;
  case V_SCALAR: return v.s != 0;
  case V_CSCALAR: return v.c.re != 0 || v.c.im != 0;
  case V_ARRAY: {
    const Array *a = v.arr;
    if (a->numel == 0) return false;
    for (int64_t i = 0; i < a->numel; i++) {
      double re, im;
      arr_load_c(a, i, &re, &im);
      if (re == 0 && im == 0) return false;
    }
    return true;
  }
  case V_OBJECT: case V_CELL: return true;
  case V_NULL: return false;
  default:
    rt_error(loc, "a %s cannot be used as a condition", rt_kind_name(v));
  }
}

/* Names are built in a few rotating buffers so that one message can hold several. */
static char *name_buf(void) {
  static char bufs[8][64];
  static int next;
  return bufs[next++ & 7];
}

static const char *array_kind_name(const Array *a) {
  static const char *base[] = { "", "vec", "mat", "cube" };
  char *buf = name_buf();
  char rankname[24];
  if (a->rank <= 3) snprintf(rankname, sizeof rankname, "%s", base[a->rank]);
  else snprintf(rankname, sizeof rankname, "cube{%d}", a->rank);
  if (a->elem == el_scalar()) snprintf(buf, 64, "%s", rankname);
  else if (a->elem == el_cscalar()) snprintf(buf, 64, "c%s", rankname);
  else snprintf(buf, 64, "%s[%s]", rankname, el_name(a->elem));
  return buf;
}

const char *rt_kind_name(Value v) {
  switch (v.kind) {
  case V_NONE: return "none";
  case V_BOOL: return "bool";
  case V_INT: return "int";
  case V_SCALAR: return "scalar";
  case V_CSCALAR: return "cscalar";
  case V_STRING: return "string";
  case V_ARRAY: return array_kind_name(v.arr);
  case V_COLON: return "':'";
  case V_FUNC: return "function";
  case V_TYPE: return "type";
  case V_TUPLE: return "tuple";
  case V_OBJECT: return v.obj->cls && v.obj->cls->name ? v.obj->cls->name : "object";
  case V_CELL: return "cell array";
  case V_NULL: return "nullptr";
  case V_HANDLE: return v.h->cls->name;
  }
  return "?";
}

char *rt_dims_str(char *buf, size_t n, int rank, const int64_t *dims) {
  size_t len = 0;
  len += (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < rank && len < n; d++)
    len += (size_t)snprintf(buf + len, n - len, d ? ",%lld" : "%lld", (long long)dims[d]);
  if (len < n) snprintf(buf + len, n - len, "]");
  return buf;
}

/* ---- conversion to declared types ---- */

static const char *type_name(const Type *t) {
  return t->name ? t->name : "the declared type";
}

/* What a conversion converts, for its message: `what`, or "argument 'param' of <kind>'fn'"
   (formatted only when the conversion fails: argument binding is on every call's path). */
typedef struct Named { const char *what, *param, *kind, *fn; } Named;

_Noreturn static void mismatch(Value v, const Type *t, const Named *nm, SrcLoc loc,
                               const char *detail) {
  char what[200];
  if (nm->param) snprintf(what, sizeof what, "argument '%s' of %s'%s'", nm->param, nm->kind, nm->fn);
  else snprintf(what, sizeof what, "%s", nm->what ? nm->what : "value");
  rt_error(loc, "type mismatch: %s expects %s, got %s%s", what, type_name(t), rt_kind_name(v),
           detail ? detail : "");
}

/* Rank ignoring trailing dimensions of 1 (a [3,1] matrix is a valid vec). */
static int effective_rank(const Array *a) {
  int r = a->rank;
  while (r > 1 && a->dims[r - 1] == 1) r--;
  return r;
}

static int64_t wrap_int(int64_t x, TypeKind k) {
  switch (k) {
  case TY_INT8: return (int8_t)x;
  case TY_UINT8: return (uint8_t)x;
  case TY_INT16: return (int16_t)x;
  case TY_UINT16: return (uint16_t)x;
  case TY_INT32: return (int32_t)x;
  case TY_UINT32: return (uint32_t)x;
  default: return x;
  }
}

static Value convert_int(Value v, const Type *t, const Named *what, SrcLoc loc) {
  switch (v.kind) {
  case V_BOOL: case V_INT: return v_int(wrap_int(v.i, t->kind));
  case V_SCALAR:
    if (v.s != floor(v.s) || !isfinite(v.s)) mismatch(v, t, what, loc, " (not an integer)");
    return v_int(wrap_int(rt_trunc_i64(v.s), t->kind));
  default: mismatch(v, t, what, loc, NULL);
  }
}

static Value convert_array(Value v, const Type *t, const Named *what, SrcLoc loc) {
  if (v.kind == V_CELL && (!t->elem || t->elem->kind == TY_NAMED || type_is_cell_elem(t->elem))) {
    val_retain(v);   /* vec[vec], vec[cube], vec[point]: a cell array */
    return v;
  }
  if (v.kind != V_ARRAY) mismatch(v, t, what, loc, NULL);
  Array *a = v.arr;
  if (t->rank > 0 && effective_rank(a) > t->rank) mismatch(v, t, what, loc, NULL);
  if (t->fixed_len > 0 && a->numel != t->fixed_len) {
    char detail[48];
    snprintf(detail, sizeof detail, " of %lld elements", (long long)a->numel);
    mismatch(v, t, what, loc, detail);
  }
  const Type *et = t->elem;
  if (!et || et->kind == TY_UNKNOWN || et->kind == TY_NAMED || et->kind == TY_ARRAY ||
      et->kind == TY_CELL || et->kind == TY_FUNC || et->kind == TY_STRING) {
    val_retain(v);
    return v;
  }
  ElemType e = el_from_type(et, loc);
  if (e == a->elem) {
    val_retain(v);
    return v;
  }
  if (el_is_complex(a->elem) && !el_is_complex(e)) mismatch(v, t, what, loc, NULL);
  if ((a->state & ARR_HOST_STALE) && rt_array_host_hook) rt_array_host_hook(a, loc);   /* the copy reads them */
  return v_array(arr_convert(a, e));
}

static Value convert(Value v, const Type *t, const Named *what, SrcLoc loc) {
  if (!t) { val_retain(v); return v; }
  switch (t->kind) {
  case TY_SCALAR:
    if (!v_is_real(v)) mismatch(v, t, what, loc, NULL);
    return v.kind == V_SCALAR ? v : v_scalar((double)v.i);
  case TY_CSCALAR:
    if (v.kind == V_CSCALAR) return v;
    if (!v_is_real(v)) mismatch(v, t, what, loc, NULL);
    return v_cscalar(v.kind == V_SCALAR ? v.s : (double)v.i, 0);
  case TY_INT: case TY_INT8: case TY_UINT8: case TY_INT16: case TY_UINT16: case TY_INT32:
  case TY_UINT32: case TY_INT64:
    return convert_int(v, t, what, loc);
  case TY_BOOL:
    if (!v_is_real(v)) mismatch(v, t, what, loc, NULL);
    return v_bool(v.kind == V_SCALAR ? v.s != 0 : v.i != 0);
  case TY_STRING:
    if (v.kind != V_STRING) mismatch(v, t, what, loc, NULL);
    val_retain(v);
    return v;
  case TY_ARRAY:
    return convert_array(v, t, what, loc);
  case TY_FUNC:
    if (v.kind != V_FUNC) mismatch(v, t, what, loc, NULL);
    val_retain(v);
    return v;
  case TY_NAMED:   /* a class name: an object of another class is a mismatch */
    if (v.kind == V_OBJECT && v.obj->cls && t->name && strcmp(t->name, rt_kind_name(v)))
      mismatch(v, t, what, loc, NULL);
    val_retain(v);
    return v;
  default:   /* TY_UNKNOWN, TY_CELL, TY_THREAD_BLOCK: anything goes */
    val_retain(v);
    return v;
  }
}

Value rt_convert(Value v, const Type *t, const char *what, SrcLoc loc) {
  return convert(v, t, &(Named){.what = what}, loc);
}

Value rt_convert_arg(Value v, const Type *t, const char *param, const char *kind, const char *fn, SrcLoc loc) {
  return convert(v, t, &(Named){.param = param, .kind = kind, .fn = fn}, loc);
}

const char *callable_name(const Callable *c) {
  if (c->name) return c->name;
  return func_shown_name(c->kind == CALL_USER ? c->func : NULL);
}
