/* rt_linalg.h: linear algebra on the host, on OpenBLAS and LAPACK (Debian libopenblas0, which
   holds both; else the reference libblas.so.3 and liblapack.so.3), loaded with dlopen and
   called through their Fortran symbols (sgemm_, dgetrf_, ...; no header needed).

   Matrices are row-major arrays of rank 2; a vec used as a matrix is a 1 x N row (Quasar's
   rule). The factorizations run in double precision on a column-major copy and return
   arrays of `scalar`; complex matrices go to LAPACK's z routines in inv, det, solve, chol,
   lu, qr, svd, pinv, eig and symeig (Hermitian), which return `cscalar` arrays, and to GEMM
   in the product.
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

/* Dense factorizations on the GPU (cuSOLVER: device/rt_cusolver.c), which the caller offers
   for the calls that follow (lapack_set_gpu; NULL: LAPACK again): inv, det, solve/mldivide
   of a square matrix, chol, lu, qr, svd, pinv, symeig and eig of a symmetric matrix, and
   blas_chol, blas_lu, blas_gesvd then run there. They take column-major double matrices
   on the host (leading dimension: the rows), compute in float when `single`, and return
   LAPACK's info (> 0: singular, not positive definite, not converged); a failure of the
   library itself is their own rt_error. */
typedef struct LinalgGpu {
  void *ctx;
  /* P A = L U of the m x n a in place; ipiv (min(m, n)) 1-based, as LAPACK's */
  int (*getrf)(void *ctx, bool single, int m, int n, double *a, int *ipiv, SrcLoc loc);
  /* A X = B for the n x n a (overwritten) and the n x nrhs b, which becomes X */
  int (*gesv)(void *ctx, bool single, int n, int nrhs, double *a, double *b, SrcLoc loc);
  /* the upper Cholesky factor R (R' R = A) in a's upper triangle */
  int (*potrf)(void *ctx, bool single, int n, double *a, SrcLoc loc);
  /* R in a's upper triangle (below it: anything) and the m x m orthogonal q, Q R = A */
  int (*qr)(void *ctx, bool single, int m, int n, double *a, double *q, SrcLoc loc);
  /* the min(m, n) singular values s, descending, and u (m x m) and vt (n x n), A = U S V';
     u and vt NULL: the values only. a is overwritten. */
  int (*svd)(void *ctx, bool single, int m, int n, double *a, double *s, double *u, double *vt,
             SrcLoc loc);
  /* of the symmetric n x n a: the eigenvalues w ascending, a's columns their eigenvectors */
  int (*syevd)(void *ctx, bool single, int n, double *a, double *w, SrcLoc loc);
} LinalgGpu;
void lapack_set_gpu(LapackLib *L, const LinalgGpu *gpu);

typedef Value (*LinalgFn)(LapackLib *L, int argc, const Value *argv, SrcLoc loc);
typedef struct LinalgBuiltin {
  const char *name;
  LinalgFn fn;
  int min_args, max_args;
} LinalgBuiltin;
/* The functions of linalg.q and seed 001's blas_* list; NULL for another name. */
const LinalgBuiltin *linalg_lookup(const char *name);

#endif
