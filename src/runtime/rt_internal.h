/* rt_internal.h: helpers shared by the rt_*.c files of the runtime library; not part of the
   interface the interpreter uses (that is value.h). */
#ifndef OQ_RT_INTERNAL_H
#define OQ_RT_INTERNAL_H
#include "runtime/value.h"

#define RT_PI 3.14159265358979323846
#define RT_E 2.71828182845904523536

/* The arithmetic class of a number or an array's elements: results take the larger class. */
typedef enum NumClass { NC_INT, NC_REAL, NC_COMPLEX } NumClass;
NumClass el_class(ElemType e);
NumClass val_class(Value v);        /* numbers and arrays; others NC_INT (check before) */

/* Element access beyond arr_load/arr_store: exact 64-bit integers and complex values. */
int64_t arr_load_i(const Array *a, int64_t i);        /* real elements truncate */
void arr_store_i(Array *a, int64_t i, int64_t x);     /* C cast of x to the element type */
void arr_load_c(const Array *a, int64_t i, double *re, double *im);
void arr_store_c(Array *a, int64_t i, double re, double im);   /* real arrays drop im */

/* double -> int64 toward zero; NaN gives 0 and out-of-range values saturate, so the
   conversion is never undefined behaviour. */
int64_t rt_trunc_i64(double x);

/* Element type of an array result of class c, given the operands' element types (pass
   EL_COUNT for a scalar operand): 64-bit operands keep 64-bit results. */
ElemType el_for_class(NumClass c, ElemType ea, ElemType eb);

/* An operand of an element-wise operation: a number, or an array read element by element
   (k is ignored for a number). */
typedef struct Operand {
  const Array *a;     /* NULL: the number below */
  int64_t i;          /* as int (reals truncate) */
  double r, im;       /* as real / complex */
} Operand;
Operand operand(Value v);
static inline int64_t operand_i(const Operand *o, int64_t k) { return o->a ? arr_load_i(o->a, k) : o->i; }
static inline double operand_r(const Operand *o, int64_t k) { return o->a ? arr_load(o->a, k) : o->r; }
static inline void operand_c(const Operand *o, int64_t k, double *re, double *im) {
  if (o->a) arr_load_c(o->a, k, re, im);
  else { *re = o->r; *im = o->im; }
}

/* CMPLX for compilers whose <complex.h> lacks it (clang with older glibc); the parts are
   stored directly, so CMPLX(0, Inf) has no NaN. Include <complex.h> first to get it. */
#if defined(_Complex_I) && !defined(CMPLX)
static inline double _Complex rt_cmplx(double re, double im) {
  union { double _Complex z; double p[2]; } u;
  u.p[0] = re;
  u.p[1] = im;
  return u.z;
}
#define CMPLX(re, im) rt_cmplx(re, im)
#endif

/* The shape rule of Quasar for a result built dimension by dimension (a reduction along a
   dimension, repmat, transpose, the matrix product): trailing dimensions of 1 go down to
   rank 2, and a 1 x N result is a vec of N (a vec used as a matrix is a 1 x N row), while
   an N x 1 result stays a 2-D column. rt_index.c's result_shape is the indexing form. */
void rt_shape_normalize(int *rank, int64_t *dims);

/* "[3,4]" for messages; buf has room for n bytes. */
char *rt_dims_str(char *buf, size_t n, int rank, const int64_t *dims);
const char *rt_op_sym(Op op);

/* The element of a real/int array as the value an element read gives, stored as elem type
   e would store it (used to give compound assignments the value actually stored). */
Value rt_coerce_elem(Value v, ElemType e, SrcLoc loc);

/* rt_stats.c: its table of built-ins (rt_builtin_lookup asks it), and max(x, [], dim) /
   min(x, [], dim) for rt_builtins.c's max and min (argv: x, [], dim). */
const Builtin *rt_stats_lookup(const char *name);
Value rt_extreme_along(bool want_max, const Value *argv, SrcLoc loc);
/* The next 64 random bits of the generator of rand and randn (rt_builtins.c). */
uint64_t rt_random_u64(void);

/* Growable string for formatting. */
typedef struct StrBuf { char *s; size_t len, cap; } StrBuf;
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_format_value(StrBuf *b, Value v);     /* rt_format into b */
void sb_format_real(StrBuf *b, double x);     /* %.6g with NaN, Inf, -0 -> 0 */
/* rt_object.c: objects and cell arrays as text (depth: nesting so far), and freeing them */
void sb_format_composite(StrBuf *b, Value v, int depth);
void obj_free_(Object *o);
void cell_free_(Cell *c);

#endif
