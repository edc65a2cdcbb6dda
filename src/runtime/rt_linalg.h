/* rt_linalg.h: linear algebra on the host, on OpenBLAS and LAPACK (Debian libopenblas0, which
   holds both; else the reference libblas.so.3 and liblapack.so.3), loaded with dlopen and
   called through their Fortran symbols (sgemm_, dgetrf_, ...; no header needed).

   Matrices are row-major arrays of rank 2; a vec used as a matrix is a 1 x N row (Quasar's
   rule). The factorizations run in double precision on a column-major copy and return
   arrays of `scalar`; complex matrices are supported by the matrix product (GEMM) only.
   Every function takes borrowed arguments, returns a new reference (a tuple for several
   outputs) and names itself in its errors. */
#ifndef OQ_RT_LINALG_H
#define OQ_RT_LINALG_H
#include "runtime/value.h"

/* BLAS and LAPACK once loaded, kept while the program runs. */
typedef struct LapackLib LapackLib;
LapackLib *lapack_lib_new(int threads);
void lapack_lib_free(LapackLib *L);

/* Matrices at least this large in every dimension go to GEMM in the matrix product '*'. */
#define LINALG_GEMM_MIN 64

/* C = A * B (rank <= 2 operands; a vec is a 1 x N row) through ?gemm_ when both are arrays of
   one floating element type (float, double, complex) of at least LINALG_GEMM_MIN in every
   dimension and BLAS loads. NULL when it does not apply (the caller multiplies itself). */
Array *linalg_matmul(LapackLib *L, const Array *A, const Array *B, SrcLoc loc);

typedef Value (*LinalgFn)(LapackLib *L, int argc, const Value *argv, SrcLoc loc);
typedef struct LinalgBuiltin {
  const char *name;
  LinalgFn fn;
  int min_args, max_args;
} LinalgBuiltin;
/* The functions of linalg.q and seed 001's blas_* list; NULL for another name. */
const LinalgBuiltin *linalg_lookup(const char *name);

#endif
