/* tools/cusolver_stub.c: a libcusolver for a machine without a GPU, whose dense functions
   call LAPACK on "device" memory that tools/cuda_stub.c keeps in host memory. It checks
   oq's cuSOLVER path (device/rt_cusolver.c: buffers, layouts, the wide SVD done as its
   transpose, Q from geqrf's reflectors) where no GPU is at hand, for the real types S and D and
   the complex C and Z (whose orgqr and syevd are ungqr and heevd); gesvd refuses m < n as
   cuSOLVER does. Workspaces are the stub's own (bufferSize answers 1).
     cc -O2 -shared -fPIC -o /tmp/libcuda.so.1 tools/cuda_stub.c
     mkdir -p /tmp/cus/lib64 && cc -O2 -shared -fPIC -o /tmp/cus/lib64/libcusolver.so \
        tools/cusolver_stub.c -l:liblapack.so.3
     OQ_LIBCUDA=/tmp/libcuda.so.1 CUDA_HOME=/tmp/cus OQ_LINALG_GPU=1 \
        build/oq run tests/lang/linalg_factor.q */
#include <complex.h>
#include <stdlib.h>

typedef int fint;
typedef float complex cf;
typedef double complex cd;
/* R: the real type of T; Q: orgqr or ungqr; M: ormqr or unmqr */
#define DECL(T, R, p, Q, M)                                                                      \
  void p##potrf_(const char *, const fint *, T *, const fint *, fint *, size_t);                 \
  void p##getrf_(const fint *, const fint *, T *, const fint *, fint *, fint *);                 \
  void p##getrs_(const char *, const fint *, const fint *, const T *, const fint *, const fint *, \
                 T *, const fint *, fint *, size_t);                                             \
  void p##geqrf_(const fint *, const fint *, T *, const fint *, T *, T *, const fint *, fint *);  \
  void p##Q##_(const fint *, const fint *, const fint *, T *, const fint *, const T *, T *,       \
               const fint *, fint *);                                                            \
  void p##M##_(const char *, const char *, const fint *, const fint *, const fint *, const T *,   \
               const fint *, const T *, T *, const fint *, T *, const fint *, fint *, size_t,     \
               size_t);
DECL(float, float, s, orgqr, ormqr)
DECL(double, double, d, orgqr, ormqr)
DECL(cf, float, c, ungqr, unmqr)
DECL(cd, double, z, ungqr, unmqr)
void sgesvd_(const char *, const char *, const fint *, const fint *, float *, const fint *,
             float *, float *, const fint *, float *, const fint *, float *, const fint *,
             fint *, size_t, size_t);
void dgesvd_(const char *, const char *, const fint *, const fint *, double *, const fint *,
             double *, double *, const fint *, double *, const fint *, double *, const fint *,
             fint *, size_t, size_t);
void cgesvd_(const char *, const char *, const fint *, const fint *, cf *, const fint *, float *,
             cf *, const fint *, cf *, const fint *, cf *, const fint *, float *, fint *, size_t,
             size_t);
void zgesvd_(const char *, const char *, const fint *, const fint *, cd *, const fint *, double *,
             cd *, const fint *, cd *, const fint *, cd *, const fint *, double *, fint *, size_t,
             size_t);
void ssyevd_(const char *, const char *, const fint *, float *, const fint *, float *, float *,
             const fint *, fint *, const fint *, fint *, size_t, size_t);
void dsyevd_(const char *, const char *, const fint *, double *, const fint *, double *, double *,
             const fint *, fint *, const fint *, fint *, size_t, size_t);
void cheevd_(const char *, const char *, const fint *, cf *, const fint *, float *, cf *,
             const fint *, float *, const fint *, fint *, const fint *, fint *, size_t, size_t);
void zheevd_(const char *, const char *, const fint *, cd *, const fint *, double *, cd *,
             const fint *, double *, const fint *, fint *, const fint *, fint *, size_t, size_t);

int cusolverDnCreate(void **h) { *h = malloc(8); return 0; }
int cusolverDnDestroy(void *h) { free(h); return 0; }

#define ONE(name, ...) int name(__VA_ARGS__) { *lw = 1; return 0; }
/* T the element type, R its real type, P cuSOLVER's letter, p LAPACK's, Q orgqr or ungqr,
   E syevd or heevd, M ormqr or unmqr */
#define STUB(T, R, P, p, Q, E, M)                                                               \
  ONE(cusolverDn##P##M##_bufferSize, void *h, int sd, int tr, int m, int n, int k, const T *a,  \
      int lda, const T *tau, const T *c, int ldc, int *lw)                                      \
  int cusolverDn##P##M(void *h, int sd, int tr, int m, int n, int k, const T *a, int lda,       \
                       const T *tau, T *c, int ldc, T *w, int lw, int *info) {                  \
    fint q = 64 * (m + n + 1);                                                                  \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    p##M##_(sd ? "R" : "L", tr == 2 ? "C" : tr ? "T" : "N", &m, &n, &k, a, &lda, tau, c, &ldc,  \
            work, &q, info, 1, 1);                                                              \
    free(work);                                                                                 \
    return 0;                                                                                   \
  }                                                                                             \
  ONE(cusolverDn##P##potrf_bufferSize, void *h, int u, int n, T *a, int lda, int *lw)           \
  ONE(cusolverDn##P##getrf_bufferSize, void *h, int m, int n, T *a, int lda, int *lw)           \
  ONE(cusolverDn##P##geqrf_bufferSize, void *h, int m, int n, T *a, int lda, int *lw)           \
  ONE(cusolverDn##P##Q##_bufferSize, void *h, int m, int n, int k, const T *a, int lda,         \
      const T *tau, int *lw)                                                                    \
  ONE(cusolverDn##P##gesvd_bufferSize, void *h, int m, int n, int *lw)                          \
  ONE(cusolverDn##P##E##_bufferSize, void *h, int j, int u, int n, const T *a, int lda,         \
      const R *w, int *lw)                                                                      \
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
    p##getrs_(t == 2 ? "C" : t ? "T" : "N", &n, &r, a, &lda, piv, b, &ldb, info, 1);            \
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
  int cusolverDn##P##Q(void *h, int m, int n, int k, T *a, int lda, const T *tau, T *w,         \
                       int lw, int *info) {                                                     \
    fint q = 64 * (n + 1);                                                                      \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    p##Q##_(&m, &n, &k, a, &lda, tau, work, &q, info);                                          \
    free(work);                                                                                 \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##gesvd(void *h, signed char ju, signed char jv, int m, int n, T *a, int lda, \
                           R *s, T *u, int ldu, T *vt, int ldvt, T *w, int lw, R *rw,           \
                           int *info) {                                                         \
    if (m < n) return 3; /* CUSOLVER_STATUS_INVALID_VALUE, as cuSOLVER */                        \
    char cu[2] = { (char)ju, 0 }, cv[2] = { (char)jv, 0 };                                      \
    fint q = 8 * (m + n) + 64 * (m + n);                                                         \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    GESVD_##P(cu, cv, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &q, info);                   \
    free(work);                                                                                 \
    return 0;                                                                                   \
  }                                                                                             \
  int cusolverDn##P##E(void *h, int j, int u, int n, T *a, int lda, R *wv, T *w, int lw,        \
                       int *info) {                                                             \
    fint q = 1 + 6 * n + 2 * n * n, iq = 3 + 5 * n, rq = 1 + 5 * n + 2 * n * n;                  \
    T *work = malloc(sizeof(T) * (size_t)q);                                                    \
    R *rwork = malloc(sizeof(R) * (size_t)rq);                                                  \
    fint *iwork = malloc(sizeof(fint) * (size_t)iq);                                            \
    EVD_##P(j ? "V" : "N", u ? "U" : "L", &n, a, &lda, wv, work, &q, rwork, &rq, iwork, &iq,     \
            info);                                                                              \
    free(work);                                                                                 \
    free(rwork);                                                                                \
    free(iwork);                                                                                \
    return 0;                                                                                   \
  }
/* LAPACK's complex gesvd and heevd take a real workspace more */
#define GESVD_S(...) sgesvd_(__VA_ARGS__, 1, 1)
#define GESVD_D(...) dgesvd_(__VA_ARGS__, 1, 1)
#define CGESVD(f, cu, cv, m, n, a, lda, s, u, ldu, vt, ldvt, work, q, info)                      \
  do {                                                                                          \
    __typeof__(*(s)) *rw5 = malloc(sizeof *rw5 * 5 * (size_t)(*(n) + 1));                       \
    f(cu, cv, m, n, a, lda, s, u, ldu, vt, ldvt, work, q, rw5, info, 1, 1);                     \
    free(rw5);                                                                                  \
  } while (0)
#define GESVD_C(...) CGESVD(cgesvd_, __VA_ARGS__)
#define GESVD_Z(...) CGESVD(zgesvd_, __VA_ARGS__)
#define EVD_S(jz, ul, n, a, lda, wv, work, q, rwork, rq, iwork, iq, info)                       \
  ssyevd_(jz, ul, n, a, lda, wv, work, q, iwork, iq, info, 1, 1)
#define EVD_D(jz, ul, n, a, lda, wv, work, q, rwork, rq, iwork, iq, info)                       \
  dsyevd_(jz, ul, n, a, lda, wv, work, q, iwork, iq, info, 1, 1)
#define EVD_C(...) cheevd_(__VA_ARGS__, 1, 1)
#define EVD_Z(...) zheevd_(__VA_ARGS__, 1, 1)
STUB(float, float, S, s, orgqr, syevd, ormqr)
STUB(double, double, D, d, orgqr, syevd, ormqr)
STUB(cf, float, C, c, ungqr, heevd, unmqr)
STUB(cd, double, Z, z, ungqr, heevd, unmqr)

/* The 64-bit API's Xgeev (CUDA 12.6 and later; left out with -DSTUB_NO_XGEEV, as an older
   library): right eigenvectors only (jobvl must be NOVECTOR), a real A's eigenvalues into a
   complex W (the option device/rt_cusolver.c uses), through LAPACK's ?geev. */
#ifndef STUB_NO_XGEEV
void sgeev_(const char *, const char *, const fint *, float *, const fint *, float *, float *,
            float *, const fint *, float *, const fint *, float *, const fint *, fint *, size_t,
            size_t);
void dgeev_(const char *, const char *, const fint *, double *, const fint *, double *, double *,
            double *, const fint *, double *, const fint *, double *, const fint *, fint *,
            size_t, size_t);
void cgeev_(const char *, const char *, const fint *, cf *, const fint *, cf *, cf *,
            const fint *, cf *, const fint *, cf *, const fint *, float *, fint *, size_t, size_t);
void zgeev_(const char *, const char *, const fint *, cd *, const fint *, cd *, cd *,
            const fint *, cd *, const fint *, cd *, const fint *, double *, fint *, size_t, size_t);

int cusolverDnCreateParams(void **p) { *p = malloc(8); return 0; }
int cusolverDnDestroyParams(void *p) { free(p); return 0; }
int cusolverDnXgeev_bufferSize(void *h, void *pr, int jl, int jr, long long n, int ta,
                               const void *a, long long lda, int tw, const void *w, int tl,
                               const void *vl, long long ldvl, int tr, const void *vr,
                               long long ldvr, int tc, size_t *dev, size_t *host) {
  *dev = 8;
  *host = 8;
  return 0;
}
int cusolverDnXgeev(void *h, void *pr, int jl, int jr, long long n64, int ta, void *a,
                    long long lda64, int tw, void *w, int tl, void *vl, long long ldvl64, int tr,
                    void *vr, long long ldvr64, int tc, void *dw, size_t dn, void *hw, size_t hn,
                    int *info) {
  fint n = (fint)n64, lda = (fint)lda64, ldvr = (fint)ldvr64, one = 1, q = 8 * (n + 1) + 64 * n;
  const char *jv = jr ? "V" : "N";
  if (jl) return 3;   /* left vectors: not here */
  if (ta == 0 || ta == 1) {   /* real: W complex (4, 5) */
    size_t es = ta ? 8 : 4;
    char *wr = malloc(es * (size_t)(n + 1)), *wi = malloc(es * (size_t)(n + 1));
    char *work = malloc(es * (size_t)q), dummy[16];
    if (ta) dgeev_("N", jv, &n, a, &lda, (double *)wr, (double *)wi, (double *)dummy, &one, vr,
                   &ldvr, (double *)work, &q, info, 1, 1);
    else sgeev_("N", jv, &n, a, &lda, (float *)wr, (float *)wi, (float *)dummy, &one, vr, &ldvr,
                (float *)work, &q, info, 1, 1);
    for (fint i = 0; i < n; i++) {
      if (ta) { ((double *)w)[2 * i] = ((double *)wr)[i]; ((double *)w)[2 * i + 1] = ((double *)wi)[i]; }
      else { ((float *)w)[2 * i] = ((float *)wr)[i]; ((float *)w)[2 * i + 1] = ((float *)wi)[i]; }
    }
    free(wr);
    free(wi);
    free(work);
  } else {
    size_t es = ta == 5 ? 16 : 8;
    char *work = malloc(es * (size_t)q), *rwork = malloc(es * 2 * (size_t)(n + 1)), dummy[32];
    if (ta == 5) zgeev_("N", jv, &n, a, &lda, w, (cd *)dummy, &one, vr, &ldvr, (cd *)work, &q,
                        (double *)rwork, info, 1, 1);
    else cgeev_("N", jv, &n, a, &lda, w, (cf *)dummy, &one, vr, &ldvr, (cf *)work, &q,
                (float *)rwork, info, 1, 1);
    free(work);
    free(rwork);
  }
  return 0;
}
#endif
