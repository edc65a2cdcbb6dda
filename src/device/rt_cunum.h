/* rt_cunum.h: the CUDA numerical libraries: cuFFT (rt_cufft.c), cuBLAS (rt_cublas.c) and
   cuSOLVER (rt_cusolver.c), with what they share in rt_cunum.c,
   loaded with dlopen from the CUDA toolkit ($CUDA_HOME/lib64, $CUDA_PATH/lib64,
   /usr/local/cuda/lib64, then the loader's path; no header needed). They work on the device
   copies of arrays (rt_cuda.h's protocol): an operand is uploaded when its device copy is
   stale, and a result is a new array whose device copy is the newest (its host copy is made
   current when host code reads it). Library calls run on the legacy default stream, after
   the launches queued before them (cuda_submit), so they are ordered with the kernels; they
   are asynchronous: cunum_sync waits for them. */
#ifndef OQ_RT_CUNUM_H
#define OQ_RT_CUNUM_H
#include "runtime/rt_fft.h"
#include "runtime/rt_linalg.h"
#include "device/rt_cuda.h"

/* The libraries once loaded, cuFFT's plans, cuBLAS's handle and a small module of helper
   kernels (scaling, real parts); kept while the program runs. */
typedef struct CuNum CuNum;
CuNum *cunum_new(void);
void cunum_free(CuNum *C);

/* The first of names (tried in the CUDA folders, then on the loader's path) that dlopen
   opens; NULL when none. */
void *cunum_open(const char *const *names, size_t n);

/* Whether cuFFT loads (and the GPU is usable); on false, why (n bytes). */
bool cufft_available(CuNum *C, char *why, size_t n);
/* x transformed along ax on the GPU: the result's device copy holds it. */
Array *cufft_transform(CuNum *C, Array *x, const FftAxes *ax, FftKind kind, const char *fn,
                       SrcLoc loc);

/* Whether cuBLAS loads (and the GPU is usable); on false, why. */
bool cublas_available(CuNum *C, char *why, size_t n);
/* A * B through cuBLAS's GEMM for matrices (rank 2) of one floating element type; NULL when
   the operands do not qualify (the caller multiplies on the host). */
Array *cublas_matmul(CuNum *C, Array *A, Array *B, SrcLoc loc);

/* Whether cuSOLVER loads (and the GPU is usable); on false, why. */
bool cusolver_available(CuNum *C, char *why, size_t n);
/* cuSOLVER's dense factorizations as rt_linalg's LinalgGpu, working through C. */
LinalgGpu cusolver_linalg(CuNum *C);

/* name's factorization on cuSOLVER with the matrix and the results on the device (no host
   round trip): chol, blas_chol, inv, det (its n diagonal values and pivots come back) and
   blas_lu (real) of a square matrix, solve and mldivide (the right-hand side of the
   matrix's element type; least squares for a rectangular matrix), lu, qr, svd, blas_gesvd,
   pinv, symeig or eig of a symmetric (Hermitian) matrix, and eig of any other square one
   where the library has Xgeev (cusolver_has_geev), for real and complex matrices of
   `scalar`/`cscalar`. v_none() when it does not apply (the caller goes the host's way).
   Errors as rt_linalg.c's. */
Value cusolver_resident(CuNum *C, const char *name, int argc, const Value *argv, SrcLoc loc);
/* Whether the loaded cuSOLVER has cusolverDnXgeev (CUDA 12.6 and later), which eig of a
   matrix that is not symmetric needs; false when cuSOLVER is not loaded. */
bool cusolver_has_geev(CuNum *C);

/* Waits for the library work in flight (tic/toc, the end of the program). */
void cunum_sync(CuNum *C, SrcLoc loc);

#endif
