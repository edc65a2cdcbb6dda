/* value.h: run-time values of the host interpreter, and the runtime library that operates on
   them (rt_value.c, rt_ops.c, rt_index.c, rt_print.c, rt_builtins.c).
   Arrays are reference-counted and shared by assignment (B = A aliases; copy() copies), as in
   Quasar. Scalars are unboxed. Every function that can fail takes the SrcLoc to blame and
   reports through rt_error (diag.h), which exits with status 1. */
#ifndef OQ_VALUE_H
#define OQ_VALUE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "front/ast.h"
#include "base/diag.h"

#define OQ_MAX_RANK 16

/* Global run-time settings, set once from the command line. */
typedef struct RtConfig {
  bool double_precision;  /* --precision double: `scalar` is double, else float */
} RtConfig;
extern RtConfig rt_config;

/* Storage types of array elements. `scalar` is EL_F32 or EL_F64 by precision (el_scalar());
   `cscalar` is EL_C64 or EL_C128 (el_cscalar()); `int` arrays are EL_I32. */
typedef enum ElemType {
  EL_F32, EL_F64, EL_C64, EL_C128, EL_I32, EL_I8, EL_U8, EL_I16, EL_U16, EL_U32, EL_I64,
  EL_COUNT
} ElemType;

typedef struct Array {
  int refcount;
  ElemType elem;
  int rank;                     /* >= 1; dimensions past rank are 1 */
  int64_t dims[OQ_MAX_RANK];    /* row-major: the last index varies fastest */
  int64_t numel;
  void *data;                   /* host copy, numel elements */
  void *device;                 /* device copy (CUDA back end, rt_devmem.c), or NULL */
  unsigned state;               /* ARR_* bits; 0: the host copy is the only valid one */
} Array;

/* Array.state, kept by rt_devmem.c (rt_cuda.h has the protocol). */
#define ARR_DEVICE_VALID 1u     /* the device copy holds the current values */
#define ARR_HOST_STALE   2u     /* the device copy is newer than the host copy */
#define ARR_HOST_PINNED  4u     /* data is page-locked (cuMemHostRegister) */
#define ARR_PIN_FAILED   8u     /* pinning was refused once; not tried again */
#define ARR_TRANSFERRED 16u     /* crossed the bus at least once (pinning policy) */

/* Called by val_free_ before an array with a device copy is freed; set by the CUDA layer. */
extern void (*rt_array_free_hook)(Array *a);
/* Makes the host copy of an array with ARR_HOST_STALE current (before the runtime library
   copies its elements); set by the CUDA layer. */
extern void (*rt_array_host_hook)(Array *a, SrcLoc loc);

typedef struct String { int refcount; int len; char s[]; } String;

typedef struct Value Value;
typedef struct Tuple { int refcount; int n; Value *v; } Tuple;
typedef struct Callable Callable;   /* defined by the interpreter (functions, closures) */

/* An object: an instance of a class (`type point : mutable class`, cls its definition) or a
   dynamic object (`object()`, cls NULL: fields are added by assignment). Objects are
   reference values, shared by assignment and passing, as arrays are (rt_object.c). */
typedef struct Object {
  int refcount;
  const Type *cls;              /* the class (class_kind != CLASS_NONE), or NULL */
  int n, cap;                   /* fields */
  const char **names;           /* field names; a class's are its definition's */
  Value *vals;
} Object;

/* A cell array: `cell(n)`, `vec[vec](n)`, `vec[cube](n)`, `vec[point](n)`: an array whose
   elements are any values (arrays, objects, numbers...), reference-counted like arrays. */
typedef struct Cell {
  int refcount;
  int rank;
  int64_t dims[OQ_MAX_RANK];
  int64_t numel;
  const Type *elem;             /* declared element type (converts stores), or NULL: any */
  Value *v;
} Cell;

typedef enum ValueKind {
  V_NONE,      /* no value (result of a function without outputs) */
  V_BOOL,      /* i: 0 or 1; result of comparisons and logic; behaves as int in arithmetic */
  V_INT,       /* i: int (64-bit in host code) */
  V_SCALAR,    /* s: rounded to float after every operation unless double precision */
  V_CSCALAR,   /* c */
  V_STRING,    /* str */
  V_ARRAY,     /* arr: vectors, matrices, cubes of any element type */
  V_COLON,     /* ':' inside an index list */
  V_FUNC,      /* fn: a function value (reference-counted by the interpreter) */
  V_TYPE,      /* type: a type used as a value: vec, cube[int], ... */
  V_TUPLE,     /* tup: several results of a function with several outputs */
  V_OBJECT,    /* obj: an instance of a class, or a dynamic object() */
  V_CELL,      /* cell: a cell array */
  V_NULL,      /* nullptr: the empty pointer (`^point` fields start as it) */
  V_HANDLE,    /* h: a native object of the runtime library (a video stream, an EXR image) */
} ValueKind;

/* A native object: opaque, reference-counted, with read-only fields its class computes
   (stream.rgb_data, exrread(f).data). Its struct starts with a Handle. */
typedef struct Handle Handle;
typedef struct HandleClass {
  const char *name;                                         /* "vidstream": kind name, print */
  Value (*field)(Handle *h, const char *name, SrcLoc loc);  /* a new reference; unknown: error */
  void (*destroy)(Handle *h);                               /* frees h (refcount reached 0) */
} HandleClass;
struct Handle { int refcount; const HandleClass *cls; };

struct Value {
  ValueKind kind;
  union {
    int64_t i;
    double s;
    struct { double re, im; } c;
    Array *arr;
    String *str;
    Callable *fn;
    Type *type;
    Tuple *tup;
    Object *obj;
    Cell *cell;
    Handle *h;
  };
};

/* ---- constructors (an array/string/tuple argument's reference is taken over) ---- */
static inline Value v_none(void) { Value v; v.kind = V_NONE; v.i = 0; return v; }
static inline Value v_bool(bool b) { Value v; v.kind = V_BOOL; v.i = b; return v; }
static inline Value v_int(int64_t i) { Value v; v.kind = V_INT; v.i = i; return v; }
static inline double rt_round(double x) { return rt_config.double_precision ? x : (double)(float)x; }
static inline Value v_scalar(double s) { Value v; v.kind = V_SCALAR; v.s = rt_round(s); return v; }
static inline Value v_cscalar(double re, double im) {
  Value v; v.kind = V_CSCALAR; v.c.re = rt_round(re); v.c.im = rt_round(im); return v;
}
static inline Value v_array(Array *a) { Value v; v.kind = V_ARRAY; v.arr = a; return v; }
static inline Value v_colon(void) { Value v; v.kind = V_COLON; v.i = 0; return v; }
static inline Value v_func(Callable *f) { Value v; v.kind = V_FUNC; v.fn = f; return v; }
static inline Value v_type(Type *t) { Value v; v.kind = V_TYPE; v.type = t; return v; }
static inline Value v_null(void) { Value v; v.kind = V_NULL; v.i = 0; return v; }
static inline Value v_object(Object *o) { Value v; v.kind = V_OBJECT; v.obj = o; return v; }
static inline Value v_cell(Cell *c) { Value v; v.kind = V_CELL; v.cell = c; return v; }
static inline Value v_handle(Handle *h) { Value v; v.kind = V_HANDLE; v.h = h; return v; }
Value v_string(const char *s, int len);      /* copies */
Value v_tuple(int n);                        /* n V_NONE slots, to be filled */

static inline bool v_is_num(Value v) { return v.kind >= V_BOOL && v.kind <= V_CSCALAR; }
static inline bool v_is_real(Value v) { return v.kind >= V_BOOL && v.kind <= V_SCALAR; }

/* ---- reference counting ---- */
/* A Callable starts with its reference count (an int); the interpreter frees it. */
void val_free_(Value v);
void callable_free(Callable *c);
static inline void val_retain(Value v) {
  if (v.kind == V_ARRAY) v.arr->refcount++;
  else if (v.kind == V_STRING) v.str->refcount++;
  else if (v.kind == V_TUPLE) v.tup->refcount++;
  else if (v.kind == V_FUNC) ++*(int *)v.fn;
  else if (v.kind == V_OBJECT) v.obj->refcount++;
  else if (v.kind == V_CELL) v.cell->refcount++;
  else if (v.kind == V_HANDLE) v.h->refcount++;
}
static inline void val_release(Value v) {
  if ((v.kind == V_ARRAY && --v.arr->refcount == 0) ||
      (v.kind == V_STRING && --v.str->refcount == 0) ||
      (v.kind == V_TUPLE && --v.tup->refcount == 0) ||
      (v.kind == V_OBJECT && --v.obj->refcount == 0) ||
      (v.kind == V_CELL && --v.cell->refcount == 0) ||
      (v.kind == V_HANDLE && --v.h->refcount == 0))
    val_free_(v);
  else if (v.kind == V_FUNC && --*(int *)v.fn == 0)
    callable_free(v.fn);
}

/* ---- element types ---- */
ElemType el_scalar(void);                 /* EL_F32 or EL_F64 */
ElemType el_cscalar(void);                /* EL_C64 or EL_C128 */
size_t el_size(ElemType e);
const char *el_name(ElemType e);          /* "scalar", "int", "uint8", "cscalar", ... */
bool el_is_complex(ElemType e);
bool el_is_integer(ElemType e);
ElemType el_from_type(const Type *t, SrcLoc loc);   /* element type a Type names */

/* ---- arrays ---- */
Array *arr_new(ElemType e, int rank, const int64_t *dims);         /* zero-filled */
Array *arr_new_uninit(ElemType e, int rank, const int64_t *dims);
Array *arr_vec(ElemType e, int64_t n);                             /* rank-1, zeroed */
Array *arr_copy(const Array *a);
Array *arr_convert(const Array *a, ElemType e);                    /* new array */
int64_t arr_dim(const Array *a, int d);                            /* 1 past rank */
/* Element access by linear index (no checks). Loads convert to double / complex. */
double arr_load(const Array *a, int64_t i);
void arr_store(Array *a, int64_t i, double x);    /* converts: truncation toward zero for
                                                     integer arrays, rounding to float for F32 */
Value arr_get(const Array *a, int64_t i);         /* V_INT, V_SCALAR or V_CSCALAR */
void arr_set(Array *a, int64_t i, Value v, SrcLoc loc);
bool arr_same_shape(const Array *a, const Array *b);
/* The largest divisor of n that is at most cap (n itself when n <= cap, 1 for n < 1): a block
   extent that tiles n exactly. Kept for the sizes asked last (launches repeat theirs, and a
   prime n costs cap divisions); host thread only. */
int64_t rt_largest_divisor(int64_t n, int64_t cap);

/* ---- conversions and checks ---- */
int64_t rt_to_int(Value v, SrcLoc loc);     /* truncates toward zero; errors on non-numbers */
double rt_to_real(Value v, SrcLoc loc);     /* errors on complex, arrays, strings */
bool rt_truthy(Value v, SrcLoc loc);        /* nonzero; an array: all elements nonzero */
const char *rt_kind_name(Value v);          /* "int", "scalar", "vec", "mat", "cube",
                                               "cube{4}", "vec[int]", "string", "function"... */
/* Converts v to the declared type t (parameter passing, typed declarations):
   int -> scalar/cscalar; an integral scalar -> int; arrays to the element type of t; an array
   of higher rank than t or a non-integral scalar for int is a type mismatch error that names
   `what` (e.g. "argument 'x' of 'f'"). TY_UNKNOWN/TY_NAMED accept anything. Returns a new
   reference (v itself retained when no conversion is needed). */
Value rt_convert(Value v, const Type *t, const char *what, SrcLoc loc);
/* The same for argument `param` of function fn; kind ("kernel " or "") prefixes fn's name in
   the message, which is only formatted when the conversion fails. */
Value rt_convert_arg(Value v, const Type *t, const char *param, const char *kind, const char *fn, SrcLoc loc);

/* ---- operators ---- */
/* All binary operators of ast.h on every pair of values: numbers, arrays (element-wise with
   broadcasting of scalars; equal shapes otherwise), strings (+ concatenates, == compares).
   OP_MUL on two arrays of rank <= 2 is the matrix product (a vector is a 1xN row); OP_DIV and
   OP_EDIV always give scalar (real division, even for ints); `^` of scalars is power; OP_MOD
   follows the sign of the dividend (fmod / C %); int op int stays int for + - * mod and
   the compound bit/min/max operators. Comparisons give V_BOOL (arrays: arrays of 0/1 ints).
   Returns a new reference. */
/* The comparison operators (OP_EQ..OP_GE) on two ints or two reals; shared by rt_binary and
   the interpreter's fast path so both compare alike. */
static inline bool rt_cmp_int(Op op, int64_t x, int64_t y) {
  switch (op) {
  case OP_EQ: return x == y;
  case OP_NE: return x != y;
  case OP_LT: return x < y;
  case OP_LE: return x <= y;
  case OP_GT: return x > y;
  default: return x >= y;
  }
}
static inline bool rt_cmp_real(Op op, double x, double y) {
  switch (op) {
  case OP_EQ: return x == y;
  case OP_NE: return x != y;
  case OP_LT: return x < y;
  case OP_LE: return x <= y;
  case OP_GT: return x > y;
  default: return x >= y;
  }
}
static inline bool op_is_comparison(Op op) { return op >= OP_EQ && op <= OP_GE; }
Value rt_binary(Op op, Value a, Value b, SrcLoc loc);
Value rt_unary(Op op, Value a, SrcLoc loc);
/* z^w as every back end computes it: small integral real exponents by squaring (exact for
   (1+2i)^2), cpow otherwise. */
double _Complex rt_cpow(double _Complex z, double _Complex w);

/* ---- indexing ---- */
/* How an index that falls outside the array is treated. */
typedef struct IndexCtx {
  unsigned mods;          /* boundary modifier bits of the variable (TM_BOUNDARY), or 0 */
  bool in_kernel;         /* 0 mods: in a kernel reads give 0 and writes are dropped; in host
                             code it is an error */
  const char *array_name; /* for messages, may be NULL */
  const char *func_name;  /* kernel/function for messages, may be NULL */
  SrcLoc loc;
} IndexCtx;
/* a[idx...]. Indices: V_INT/V_SCALAR/V_BOOL (scalars truncate toward zero), V_ARRAY of
   indices (gather along that dimension), V_COLON (whole dimension). Fewer indices than the
   rank of a: the last index is linear over the remaining dimensions (row-major). A single
   index that is a numeric vector on an array of rank >= 2 is a position: its elements index
   successive dimensions (x[pos] with pos an ivec3). Dimensions indexed by a scalar are
   dropped from the result; all dropped: the element itself.
   Boundary rules (no modifier: see IndexCtx.in_kernel): 'checked and 'unchecked: an error
   naming the array, the index and the size ('unchecked is undefined in Quasar; the
   interpreter reports it); 'safe: reads 0, writes dropped; 'circular: periodic; 'mirror:
   Quasar's |n| mod 2N, folded to 2N-1-m where m >= N (-1 -> 1, N -> N-1, period 2N);
   'clamped: nearest edge element. */
Value rt_index_get(Value a, int nidx, const Value *idx, const IndexCtx *ctx);
/* The shape of a slice x[i, j, ...] with two or more indices, at least one of them kept (a
   range or ':'), by rt_index_get's rule: kept[d] for such an index, count[d] its length (1
   for a number). Returns the rank; *first is the index the result's dimension 0 comes
   from (dimension o from index first + o). */
int rt_slice_shape(int nidx, const bool *kept, const int64_t *count, int64_t *dims, int *first);
/* a[idx...] = v. v may be a scalar (broadcast over a slice) or an array with as many
   elements as the slice. Element-type conversion as arr_set. */
void rt_index_set(Value a, int nidx, const Value *idx, Value v, const IndexCtx *ctx);
/* a[idx...] op= v, returning the new value (compound assignment on array elements; atomic
   on the parallel back ends, plain read-modify-write here). */
Value rt_index_update(Value a, int nidx, const Value *idx, Op op, Value v, const IndexCtx *ctx);

/* ---- printing ---- */
/* Formats as `print` shows it: ints as integers; scalars with up to 6 significant digits
   (%.6g: 0.5, 3.14159, 1e+06); complex as 1+2i / 1-2i; booleans as true/false; strings
   raw; vectors [1,2,3]; matrices one row a line: [[1,2],\n [3,4]]; higher ranks nest the
   same way. Returns a malloc'ed string. */
char *rt_format(Value v);
void rt_print(FILE *out, Value v);

/* ---- pure built-in functions (rt_builtins.c) ---- */
/* argv is borrowed; the result is a new reference. */
typedef Value (*BuiltinFn)(int argc, const Value *argv, SrcLoc loc);
typedef struct Builtin {
  const char *name;
  BuiltinFn fn;
  int min_args, max_args;   /* max_args -1: any number */
} Builtin;
const Builtin *rt_builtin_lookup(const char *name);   /* NULL if none */
const char *rt_builtin_name(size_t i);   /* the i-th built-in's name; NULL past the last */
/* The form of built-in `name` that `[a, b, ...] = name(...)` calls: it returns a tuple of
   every output (max, min, sort, find, unique, histc, mode, meshgrid; rt_stats.c). NULL: the
   built-in has one output. */
BuiltinFn rt_builtin_outputs(const char *name);
void rt_seed_random(uint64_t seed);

/* ---- additions (runtime branch) ---- */
/* The named constants pi, e, Inf, NaN, eps (of `scalar`), true and false; *found tells
   whether name is one of them (else V_NONE is returned). */
Value rt_constant(const char *name, bool *found);

/* ---- objects and cell arrays (rt_object.c) ---- */
/* A new object of class cls, every field set to its type's empty value (obj_empty_value):
   the caller sets the fields given or defaulted. */
Object *obj_new(const Type *cls);
Object *obj_new_dynamic(void);                   /* object() */
int obj_field_index(const Object *o, const char *name);   /* -1 when there is none */
/* o.name; an error naming the class and the field when there is none. New reference. */
Value obj_get(Value o, const char *name, SrcLoc loc);
/* o.name = v (v consumed), converted to the field's declared type (or to decl, a typed
   field assignment `o.a : scalar = 1.45`, which adds the field to a dynamic object). An
   immutable class's fields cannot be assigned: an error naming the class. */
void obj_set(Value o, const char *name, Value v, const Type *decl, SrcLoc loc);
/* Sets field i of a new object (construction), converting to the field's type. */
void obj_init_field(Object *o, int i, Value v, SrcLoc loc);
/* The value a field or cell element of type t holds before it is assigned: 0 for numbers,
   "" for strings, an empty array of t's rank for arrays, an empty cell for cell types, and
   nullptr for classes, pointers and unknown types. */
Value obj_empty_value(const Type *t, SrcLoc loc);
/* True when t, an element type of an array type, makes a cell array (vec[vec], vec[cube],
   vec[point], vec[??], vec[string]): anything but numbers. */
bool type_is_cell_elem(const Type *t);
Cell *cell_new(int rank, const int64_t *dims, const Type *elem, SrcLoc loc);
/* c[idx...] as a value, and c[idx...] = v (v consumed): number indices only (scalars
   truncate toward zero, as array indices); out of bounds is an error. */
Value cell_get(Value c, int nidx, const Value *idx, SrcLoc loc);
void cell_set(Value c, int nidx, const Value *idx, Value v, SrcLoc loc);

#endif
