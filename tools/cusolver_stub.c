/* tools/cusolver_stub.c: a libcusolver for a machine without a GPU, whose dense functions
   call LAPACK on "device" memory that tools/cuda_stub.c keeps in host memory. It checks
   oq's cuSOLVER path (device/rt_cusolver.c: buffers, layouts, the wide SVD done as its
   transpose, Q from geqrf's reflectors) where no GPU is at hand; gesvd refuses m < n as
   cuSOLVER does. Workspaces are the stub's own (bufferSize answers 1).
     cc -O2 -shared -fPIC -o /tmp/libcuda.so.1 tools/cuda_stub.c
     mkdir -p /tmp/cus/lib64 && cc -O2 -shared -fPIC -o /tmp/cus/lib64/libcusolver.so \
        tools/cusolver_stub.c -l:liblapack.so.3
     OQ_LIBCUDA=/tmp/libcuda.so.1 CUDA_HOME=/tmp/cus OQ_LINALG_GPU=1 \
        build/oq run tests/lang/linalg_factor.q */
#include <stdlib.h>

typedef int fint;
#define DECL(T, p)                                                                               \
  void p##potrf_(const char *, const fint *, T *, const fint *, fint *, size_t);                 \
  void p##getrf_(const fint *, const fint *, T *, const fint *, fint *, fint *);                 \
  void p##getrs_(const char *, const fint *, const fint *, const T *, const fint *, const fint *, \
                 T *, const fint *, fint *, size_t);                                             \
  void p##geqrf_(const fint *, const fint *, T *, const fint *, T *, T *, const fint *, fint *);  \
  void p##orgqr_(const fint *, const fint *, const fint *, T *, const fint *, const T *, T *,     \
                 const fint *, fint *);                                                          \
  void p##gesvd_(const char *, const char *, const fint *, const fint *, T *, const fint *, T *,  \
                 T *, const fint *, T *, const fint *, T *, const fint *, fint *, size_t, size_t); \
  void p##syevd_(const char *, const char *, const fint *, T *, const fint *, T *, T *,          \
                 const fint *, fint *, const fint *, fint *, size_t, size_t);
DECL(float, s)
DECL(double, d)

int cusolverDnCreate(void **h) { *h = malloc(8); return 0; }
int cusolverDnDestroy(void *h) { free(h); return 0; }

#define ONE(name, ...) int name(__VA_ARGS__) { *lw = 1; return 0; }
#define STUB(T, P, p)                                                                           \
  ONE(cusolverDn##P##potrf_bufferSize, void *h, int u, int n, T *a, int lda, int *lw)           \
  ONE(cusolverDn##P##getrf_bufferSize, void *h, int m, int n, T *a, int lda, int *lw)           \
  ONE(cusolverDn##P##geqrf_bufferSize, void *h, int m, int n, T *a, int lda, int *lw)           \
  ONE(cusolverDn##P##orgqr_bufferSize, void *h, int m, int n, int k, const T *a, int lda,       \
      const T *tau, int *lw)                                                                    \
  ONE(cusolverDn##P##gesvd_bufferSize, void *h, int m, int n, int *lw)                          \
  ONE(cusolverDn##P##syevd_bufferSize, void *h, int j, int u, int n, const T *a, int lda,       \
      const T *w, int *lw)                                                                      \
  int cusolverDn##P##potrf(void *h, int u, int n, T *a, int lda, T *w, int lw, int *info) {     \
    p##potrf_(u ? "U" : "L", &n, a, &lda, info, 1);                                             \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##getrf(void *h, int m, int n, T *a, int lda, T *w, int *piv, int *info) {   \
    p##getrf_(&m, &n, a, &lda, piv, info);                                                      \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##getrs(void *h, int t, int n, int r, const T *a, int lda, const int *piv,   \
                           T *b, int ldb, int *info) {                                          \
    p##getrs_(t ? "T" : "N", &n, &r, a, &lda, piv, b, &ldb, info, 1);                           \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##geqrf(void *h, int m, int n, T *a, int lda, T *tau, T *w, int lw,          \
                           int *info) {                                                         \
    fint q = 64 * (n + 1);                                                                      \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    p##geqrf_(&m, &n, a, &lda, tau, work, &q, info);                                            \
    free(work);                                                                                 \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##orgqr(void *h, int m, int n, int k, T *a, int lda, const T *tau, T *w,     \
                           int lw, int *info) {                                                 \
    fint q = 64 * (n + 1);                                                                      \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    p##orgqr_(&m, &n, &k, a, &lda, tau, work, &q, info);                                        \
    free(work);                                                                                 \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##gesvd(void *h, signed char ju, signed char jv, int m, int n, T *a, int lda, \
                           T *s, T *u, int ldu, T *vt, int ldvt, T *w, int lw, T *rw,           \
                           int *info) {                                                         \
    if (m < n) return 3; /* CUSOLVER_STATUS_INVALID_VALUE, as cuSOLVER */                        \
    char cu[2] = { (char)ju, 0 }, cv[2] = { (char)jv, 0 };                                      \
    fint q = 8 * (m + n) + 64 * (m + n);                                                         \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    p##gesvd_(cu, cv, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &q, info, 1, 1);            \
    free(work);                                                                                 \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##syevd(void *h, int j, int u, int n, T *a, int lda, T *wv, T *w, int lw,    \
                           int *info) {                                                         \
    fint q = 1 + 6 * n + 2 * n * n, iq = 3 + 5 * n;                                              \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    fint *iwork = malloc(sizeof(fint) * (size_t)iq);                                            \
    p##syevd_(j ? "V" : "N", u ? "U" : "L", &n, a, &lda, wv, work, &q, iwork, &iq, info, 1, 1);  \
    free(work);                                                                                 \
    free(iwork);                                                                                \
    return 0;                                                                                   \
  }
STUB(float, S, s)
STUB(double, D, d)
