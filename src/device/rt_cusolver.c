/* rt_cusolver.c: the dense factorizations on the GPU through cuSOLVER (rt_cunum.h), offered
   to rt_linalg.c as its LinalgGpu. rt_linalg hands over column-major double matrices on the
   host (its Mat); each function uploads one (converted to float for `scalar` in single
   precision), runs cuSOLVER's routine on the legacy default stream after the launches
   queued before it, and copies the factors back. The transfers are O(n^2) against the
   O(n^3) of the factorization, so the GPU pays off on large matrices; a matrix whose
   device copy is current is read back first by the interpreter (a kernel made it), which
   costs one transfer more. cuSOLVER has no getri (inv solves A X = I) and its gesvd wants
   m >= n (a wide matrix is done as its transpose). */
#include "device/rt_cunum.h"
#include "device/cunum_priv.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the part of cusolverDn.h and cublas_api.h that is used ---- */
enum { CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_OP_N = 0, CUSOLVER_EIG_MODE_VECTOR = 1 };

static bool load_solver(CuNum *C) {
  static const char *const names[] = { "libcusolver.so", "libcusolver.so.11",
                                       "libcusolver.so.12", "libcusolver.so.10" };
  CusolverApi *s = &C->solver;
  /* [0] float, [1] double */
  static const char *const fns[] = { "potrf_bufferSize", "potrf", "getrf_bufferSize", "getrf",
                                     "getrs", "geqrf_bufferSize", "geqrf", "orgqr_bufferSize",
                                     "orgqr", "gesvd_bufferSize", "gesvd", "syevd_bufferSize",
                                     "syevd" };
  void **slots[][2] = {
    { (void **)&s->potrf_size[0], (void **)&s->potrf_size[1] },
    { (void **)&s->potrf[0], (void **)&s->potrf[1] },
    { (void **)&s->getrf_size[0], (void **)&s->getrf_size[1] },
    { (void **)&s->getrf[0], (void **)&s->getrf[1] },
    { (void **)&s->getrs[0], (void **)&s->getrs[1] },
    { (void **)&s->geqrf_size[0], (void **)&s->geqrf_size[1] },
    { (void **)&s->geqrf[0], (void **)&s->geqrf[1] },
    { (void **)&s->orgqr_size[0], (void **)&s->orgqr_size[1] },
    { (void **)&s->orgqr[0], (void **)&s->orgqr[1] },
    { (void **)&s->gesvd_size[0], (void **)&s->gesvd_size[1] },
    { (void **)&s->gesvd[0], (void **)&s->gesvd[1] },
    { (void **)&s->syevd_size[0], (void **)&s->syevd_size[1] },
    { (void **)&s->syevd[0], (void **)&s->syevd[1] },
  };
  enum { NFNS = sizeof fns / sizeof *fns };
  char names_buf[2 * NFNS][48];
  CunumSym syms[2 + 2 * NFNS];
  syms[0] = (CunumSym){ "cusolverDnCreate", (void **)&s->create };
  syms[1] = (CunumSym){ "cusolverDnDestroy", (void **)&s->destroy };
  for (int i = 0; i < NFNS; i++)
    for (int t = 0; t < 2; t++) {
      char *nm = names_buf[2 * i + t];
      snprintf(nm, sizeof names_buf[0], "cusolverDn%c%s", t ? 'D' : 'S', fns[i]);
      syms[2 + 2 * i + t] = (CunumSym){ nm, slots[i][t] };
    }
  const CunumLib lib = { "cuSOLVER", names, sizeof names / sizeof *names, syms,
                         sizeof syms / sizeof *syms };
  return cunum_load(&lib, s->why, sizeof s->why);
}

bool cusolver_available(CuNum *C, char *why, size_t n) {
  return cunum_available(C, &C->solver.state, load_solver, C->solver.why, why, n);
}

/* ---- device buffers ---- */

typedef struct Dev { CudaPtr p; size_t bytes; } Dev;

static Dev dev_new(size_t bytes, SrcLoc loc) {
  Dev d = { 0, bytes ? bytes : 8 };
  d.p = cuda_mem_alloc(d.bytes, loc);
  return d;
}

static void dev_free(Dev *d) {
  if (d->p) cuda_mem_free(d->p, d->bytes);
  d->p = 0;
}

static void *ptr(Dev d) { return (void *)(uintptr_t)d.p; }

static size_t elsize(int t) { return t ? sizeof(double) : sizeof(float); }

/* count doubles of h in a new device buffer of precision t (0 float, 1 double). */
static Dev put(const double *h, size_t count, int t, SrcLoc loc) {
  Dev d = dev_new(count * elsize(t), loc);
  if (t) {
    cuda_raw_htod(d.p, h, count * sizeof(double), loc);
  } else {
    float *f = malloc(sizeof(float) * (count ? count : 1));
    for (size_t i = 0; i < count; i++) f[i] = (float)h[i];
    cuda_raw_htod(d.p, f, count * sizeof(float), loc);
    free(f);
  }
  return d;
}

/* The first count elements of d into the doubles h. */
static void get(double *h, Dev d, size_t count, int t, SrcLoc loc) {
  if (t) {
    cuda_raw_dtoh(h, d.p, count * sizeof(double), loc);
    return;
  }
  float *f = malloc(sizeof(float) * (count ? count : 1));
  cuda_raw_dtoh(f, d.p, count * sizeof(float), loc);
  for (size_t i = 0; i < count; i++) h[i] = f[i];
  free(f);
}

static int get_info(Dev info, SrcLoc loc) {
  int v = 0;
  cuda_raw_dtoh(&v, info.p, sizeof v, loc);
  return v;
}

static void check(int status, const char *what, SrcLoc loc) {
  if (status) rt_error(loc, "cuSOLVER's %s failed (status %d)", what, status);
}

/* The solver with its handle, after the launches queued before this call. */
static CusolverApi *solver(CuNum *C, SrcLoc loc) {
  CusolverApi *s = &C->solver;
  if (!s->handle && s->create(&s->handle))
    rt_error(loc, "cuSOLVER could not start (cusolverDnCreate failed)");
  cuda_submit();
  return s;
}

/* A workspace of lwork elements of precision t. */
static Dev work_new(int lwork, int t, SrcLoc loc) {
  return dev_new((size_t)(lwork > 1 ? lwork : 1) * elsize(t), loc);
}

/* ---- the factorizations (LinalgGpu's functions; ctx is the CuNum) ---- */

static size_t cells(int m, int n) { return (size_t)m * (size_t)n; }

/* getrf of the device matrix A (m x n) into piv; its info. */
static int getrf_dev(CusolverApi *s, int t, int m, int n, Dev A, Dev piv, Dev info, SrcLoc loc) {
  int lwork = 0;
  check(s->getrf_size[t](s->handle, m, n, ptr(A), m, &lwork), "getrf_bufferSize", loc);
  Dev W = work_new(lwork, t, loc);
  check(s->getrf[t](s->handle, m, n, ptr(A), m, ptr(W), (int *)ptr(piv), (int *)ptr(info)),
        "getrf", loc);
  int r = get_info(info, loc);
  dev_free(&W);
  return r;
}

static int sv_getrf(void *ctx, bool single, int m, int n, double *a, int *ipiv, SrcLoc loc) {
  CusolverApi *s = solver(ctx, loc);
  int t = !single, k = m < n ? m : n;
  Dev A = put(a, cells(m, n), t, loc), piv = dev_new(sizeof(int) * (size_t)k, loc);
  Dev info = dev_new(sizeof(int), loc);
  int r = getrf_dev(s, t, m, n, A, piv, info, loc);
  get(a, A, cells(m, n), t, loc);
  cuda_raw_dtoh(ipiv, piv.p, sizeof(int) * (size_t)k, loc);
  dev_free(&A);
  dev_free(&piv);
  dev_free(&info);
  return r;
}

static int sv_gesv(void *ctx, bool single, int n, int nrhs, double *a, double *b, SrcLoc loc) {
  CusolverApi *s = solver(ctx, loc);
  int t = !single;
  Dev A = put(a, cells(n, n), t, loc), B = put(b, cells(n, nrhs), t, loc);
  Dev piv = dev_new(sizeof(int) * (size_t)n, loc), info = dev_new(sizeof(int), loc);
  int r = getrf_dev(s, t, n, n, A, piv, info, loc);
  if (r == 0) {
    check(s->getrs[t](s->handle, CUBLAS_OP_N, n, nrhs, ptr(A), n, (const int *)ptr(piv), ptr(B),
                      n, (int *)ptr(info)), "getrs", loc);
    r = get_info(info, loc);
    get(b, B, cells(n, nrhs), t, loc);
  }
  dev_free(&A);
  dev_free(&B);
  dev_free(&piv);
  dev_free(&info);
  return r;
}

static int sv_potrf(void *ctx, bool single, int n, double *a, SrcLoc loc) {
  CusolverApi *s = solver(ctx, loc);
  int t = !single, lwork = 0;
  Dev A = put(a, cells(n, n), t, loc), info = dev_new(sizeof(int), loc);
  check(s->potrf_size[t](s->handle, CUBLAS_FILL_MODE_UPPER, n, ptr(A), n, &lwork),
        "potrf_bufferSize", loc);
  Dev W = work_new(lwork, t, loc);
  check(s->potrf[t](s->handle, CUBLAS_FILL_MODE_UPPER, n, ptr(A), n, ptr(W), lwork,
                    (int *)ptr(info)), "potrf", loc);
  int r = get_info(info, loc);
  get(a, A, cells(n, n), t, loc);
  dev_free(&W);
  dev_free(&A);
  dev_free(&info);
  return r;
}

static int sv_qr(void *ctx, bool single, int m, int n, double *a, double *q, SrcLoc loc) {
  CusolverApi *s = solver(ctx, loc);
  int t = !single, k = m < n ? m : n, lwork = 0;
  Dev A = put(a, cells(m, n), t, loc), tau = dev_new(elsize(t) * (size_t)k, loc);
  Dev info = dev_new(sizeof(int), loc);
  check(s->geqrf_size[t](s->handle, m, n, ptr(A), m, &lwork), "geqrf_bufferSize", loc);
  Dev W = work_new(lwork, t, loc);
  check(s->geqrf[t](s->handle, m, n, ptr(A), m, ptr(tau), ptr(W), lwork, (int *)ptr(info)),
        "geqrf", loc);
  int r = get_info(info, loc);
  dev_free(&W);
  if (r == 0) {
    get(a, A, cells(m, n), t, loc);
    /* Q (m x m) from the k reflectors in A's first k columns */
    Dev Q = dev_new(cells(m, m) * elsize(t), loc);
    cuda_raw_memset(Q.p, 0, cells(m, m) * elsize(t), loc);
    cuda_raw_dtod(Q.p, A.p, cells(m, k) * elsize(t), loc);
    check(s->orgqr_size[t](s->handle, m, m, k, ptr(Q), m, ptr(tau), &lwork), "orgqr_bufferSize", loc);
    W = work_new(lwork, t, loc);
    check(s->orgqr[t](s->handle, m, m, k, ptr(Q), m, ptr(tau), ptr(W), lwork, (int *)ptr(info)),
          "orgqr", loc);
    r = get_info(info, loc);
    get(q, Q, cells(m, m), t, loc);
    dev_free(&W);
    dev_free(&Q);
  }
  dev_free(&A);
  dev_free(&tau);
  dev_free(&info);
  return r;
}

/* The full SVD of the m x n a with m >= n (gesvd's condition): u m x m, vt n x n. */
static int svd_tall(CusolverApi *s, int t, int m, int n, double *a, double *sv, double *u,
                    double *vt, SrcLoc loc) {
  int lwork = 0;
  Dev A = put(a, cells(m, n), t, loc), S = dev_new(elsize(t) * (size_t)n, loc);
  Dev U = dev_new(cells(m, m) * elsize(t), loc), VT = dev_new(cells(n, n) * elsize(t), loc);
  Dev R = dev_new(elsize(t) * (size_t)n, loc), info = dev_new(sizeof(int), loc);
  check(s->gesvd_size[t](s->handle, m, n, &lwork), "gesvd_bufferSize", loc);
  Dev W = work_new(lwork, t, loc);
  check(s->gesvd[t](s->handle, 'A', 'A', m, n, ptr(A), m, ptr(S), ptr(U), m, ptr(VT), n, ptr(W),
                    lwork, ptr(R), (int *)ptr(info)), "gesvd", loc);
  int r = get_info(info, loc);
  get(sv, S, (size_t)n, t, loc);
  get(u, U, cells(m, m), t, loc);
  get(vt, VT, cells(n, n), t, loc);
  Dev *all[] = { &A, &S, &U, &VT, &R, &info, &W };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) dev_free(all[i]);
  return r;
}

/* The transpose of the column-major m x n x into y (n x m). */
static void transpose_into(double *y, const double *x, int m, int n) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) y[(size_t)j + (size_t)i * (size_t)n] = x[(size_t)i + (size_t)j * (size_t)m];
}

static int sv_svd(void *ctx, bool single, int m, int n, double *a, double *sv, double *u,
                  double *vt, SrcLoc loc) {
  CusolverApi *s = solver(ctx, loc);
  int t = !single;
  /* gesvd computes the vectors always (the values alone are rare and cheap next to them) */
  double *uu = u ? u : malloc(sizeof(double) * cells(m, m));
  double *vv = vt ? vt : malloc(sizeof(double) * cells(n, n));
  int r;
  if (m >= n) {
    r = svd_tall(s, t, m, n, a, sv, uu, vv, loc);
  } else {
    /* A' = U2 S V2', so A = V2 S U2': U = V2 = (V2')', V' = U2' */
    double *at = malloc(sizeof(double) * cells(m, n));
    double *u2 = malloc(sizeof(double) * cells(n, n)), *vt2 = malloc(sizeof(double) * cells(m, m));
    transpose_into(at, a, m, n);
    r = svd_tall(s, t, n, m, at, sv, u2, vt2, loc);
    transpose_into(uu, vt2, m, m);
    transpose_into(vv, u2, n, n);
    free(at);
    free(u2);
    free(vt2);
  }
  if (!u) free(uu);
  if (!vt) free(vv);
  return r;
}

static int sv_syevd(void *ctx, bool single, int n, double *a, double *w, SrcLoc loc) {
  CusolverApi *s = solver(ctx, loc);
  int t = !single, lwork = 0;
  Dev A = put(a, cells(n, n), t, loc), Wd = dev_new(elsize(t) * (size_t)n, loc);
  Dev info = dev_new(sizeof(int), loc);
  check(s->syevd_size[t](s->handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, ptr(A),
                         n, ptr(Wd), &lwork), "syevd_bufferSize", loc);
  Dev W = work_new(lwork, t, loc);
  check(s->syevd[t](s->handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, ptr(A), n,
                    ptr(Wd), ptr(W), lwork, (int *)ptr(info)), "syevd", loc);
  int r = get_info(info, loc);
  get(a, A, cells(n, n), t, loc);
  get(w, Wd, (size_t)n, t, loc);
  dev_free(&A);
  dev_free(&Wd);
  dev_free(&W);
  dev_free(&info);
  return r;
}

LinalgGpu cusolver_linalg(CuNum *C) {
  LinalgGpu g = { C, sv_getrf, sv_gesv, sv_potrf, sv_qr, sv_svd, sv_syevd };
  return g;
}
