/* rt_cublas.c: the matrix product on the GPU through cuBLAS's GEMM (rt_cunum.h). Arrays are
   row-major and cuBLAS column-major, so C = A B is computed as C' = B' A': the same buffers,
   the operands swapped, no transposition. cuBLAS's default math mode is kept (no TF32:
   single precision stays IEEE float). */
#include "device/rt_cunum.h"
#include "device/cunum_priv.h"
#include "runtime/rt_linalg.h"
#include <stdio.h>
#include <stdlib.h>

enum { CUBLAS_OP_N = 0 };

static bool load_blas(CuNum *C) {
  static const char *const names[] = { "libcublas.so", "libcublas.so.12", "libcublas.so.13",
                                       "libcublas.so.11" };
  CublasApi *b = &C->blas;
  const CunumSym syms[] = {
    { "cublasCreate_v2", (void **)&b->create }, { "cublasDestroy_v2", (void **)&b->destroy },
    { "cublasSgemm_v2", (void **)&b->gemm[0] }, { "cublasDgemm_v2", (void **)&b->gemm[1] },
    { "cublasCgemm_v2", (void **)&b->gemm[2] }, { "cublasZgemm_v2", (void **)&b->gemm[3] },
  };
  const CunumLib lib = { "cuBLAS", names, sizeof names / sizeof *names, syms, sizeof syms / sizeof *syms, NULL };
  return cunum_load(&lib, b->why, sizeof b->why);
}

bool cublas_available(CuNum *C, char *why, size_t n) {
  return cunum_available(C, &C->blas.state, load_blas, C->blas.why, why, n);
}

static int gemm_index(ElemType e) {
  return e == EL_F32 ? 0 : e == EL_F64 ? 1 : e == EL_C64 ? 2 : e == EL_C128 ? 3 : -1;
}

Array *cublas_matmul(CuNum *C, Array *A, Array *B, SrcLoc loc) {
  int t = gemm_index(A->elem);
  if (A->rank != 2 || B->rank != 2 || A->elem != B->elem || t < 0) return NULL;
  int64_t m = A->dims[0], n = A->dims[1], p = B->dims[1];
  if (B->dims[0] != n || m < LINALG_GEMM_MIN || n < LINALG_GEMM_MIN || p < LINALG_GEMM_MIN ||
      m > 0x7fffffff || n > 0x7fffffff || p > 0x7fffffff)
    return NULL;
  if (!cublas_available(C, NULL, 0)) return NULL;
  CublasApi *b = &C->blas;
  if (!b->handle && b->create(&b->handle))
    rt_error(loc, "matrix product: cuBLAS could not start (cublasCreate failed)");
  int64_t dims[2] = { m, p };
  Array *R = arr_new_uninit(A->elem, 2, dims);
  cuda_submit();
  void *da = cuda_array_device(A, true, loc), *db = cuda_array_device(B, true, loc);
  void *dc = cuda_array_device(R, false, loc);
  float f1[2] = { 1, 0 }, f0[2] = { 0, 0 };
  double d1[2] = { 1, 0 }, d0[2] = { 0, 0 };
  bool single = t == 0 || t == 2;
  int r = b->gemm[t](b->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)p, (int)m, (int)n,
                     single ? (void *)f1 : (void *)d1, db, (int)p, da, (int)n,
                     single ? (void *)f0 : (void *)d0, dc, (int)p);
  if (r) rt_error(loc, "matrix product: cuBLAS GEMM failed (status %d)", r);
  cuda_array_written(R);
  C->pending = true;
  return R;
}
