/* rt_cusolver.c: the dense factorizations on the GPU through cuSOLVER (rt_cunum.h), in two
   ways.
   Resident (cusolver_resident, the end of this file): on --target cuda the matrix's device
   copy is factorized where it lies and the factors are new arrays whose device copy is the
   newest, for real and complex matrices (cuSOLVER's S, D, C and Z routines); layout kernels
   of our own (NVRTC) move between the row-major arrays and cuSOLVER's column-major buffers.
   Through the host (LinalgGpu, offered to rt_linalg.c): rt_linalg hands over column-major
   double matrices on the host (its Mat); each function uploads one (converted to float for
   `scalar` in single precision), runs cuSOLVER's routine and copies the factors back; this
   serves the functions the resident way lacks and OQ_LINALG_GPU=1 on the other targets.
   Library calls run on the legacy default stream after the launches queued before them.
   The transfers are O(n^2) against the O(n^3) of the factorization. cuSOLVER has no getri
   (inv solves A X = I) and its gesvd wants m >= n (a wide matrix is done as its
   transpose). */
#include "device/rt_cunum.h"
#include "device/cunum_priv.h"
#include <complex.h>
#include <dlfcn.h>
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
  /* per type S, D, C, Z; the complex ones' orgqr and syevd are ungqr and heevd */
  static const char *const fns[] = { "potrf_bufferSize", "potrf", "getrf_bufferSize", "getrf",
                                     "getrs", "geqrf_bufferSize", "geqrf", "orgqr_bufferSize",
                                     "orgqr", "gesvd_bufferSize", "gesvd", "syevd_bufferSize",
                                     "syevd", "ormqr_bufferSize", "ormqr" };
  static const char *const cfns[] = { [7] = "ungqr_bufferSize", [8] = "ungqr",
                                      [11] = "heevd_bufferSize", [12] = "heevd",
                                      [13] = "unmqr_bufferSize", [14] = "unmqr" };
  void **slots[][4] = {
#define SLOT4(f) { (void **)&s->f[0], (void **)&s->f[1], (void **)&s->f[2], (void **)&s->f[3] }
    SLOT4(potrf_size), SLOT4(potrf), SLOT4(getrf_size), SLOT4(getrf), SLOT4(getrs),
    SLOT4(geqrf_size), SLOT4(geqrf), SLOT4(orgqr_size), SLOT4(orgqr), SLOT4(gesvd_size),
    SLOT4(gesvd), SLOT4(syevd_size), SLOT4(syevd), SLOT4(ormqr_size), SLOT4(ormqr),
#undef SLOT4
  };
  enum { NFNS = sizeof fns / sizeof *fns };
  char names_buf[4 * NFNS][48];
  CunumSym syms[2 + 4 * NFNS];
  syms[0] = (CunumSym){ "cusolverDnCreate", (void **)&s->create };
  syms[1] = (CunumSym){ "cusolverDnDestroy", (void **)&s->destroy };
  for (int i = 0; i < NFNS; i++)
    for (int t = 0; t < 4; t++) {
      char *nm = names_buf[4 * i + t];
      const char *fn = t >= 2 && cfns[i] ? cfns[i] : fns[i];
      snprintf(nm, sizeof names_buf[0], "cusolverDn%c%s", "SDCZ"[t], fn);
      syms[2 + 4 * i + t] = (CunumSym){ nm, slots[i][t] };
    }
  const CunumLib lib = { "cuSOLVER", names, sizeof names / sizeof *names, syms,
                         sizeof syms / sizeof *syms, &s->lib };
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

/* The bytes of an element of type t: 0 float, 1 double, 2 complex float, 3 complex double. */
static size_t elsize(int t) { return t == 0 ? 4 : t == 3 ? 16 : 8; }

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

/* A workspace of lwork elements of type t. */
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

/* ---- resident operands: the matrix on the device, the results left there ----
   An array is row-major and cuSOLVER column-major, so the device buffer of an m x n A is the
   column-major A' (the plain transpose). Each function picks the cheaper of two ways: work
   on A' directly (chol, inv, solve, symeig: the factor of A' gives A's by a transposed read),
   or make A's column-major copy with one layout kernel (lu, qr, svd). The factors come back
   into row-major arrays through the same kernel, which also masks triangles, sets the unit
   diagonal and conjugates; all of it O(n^2) next to the factorization's O(n^3). */

/* The layout kernels, per element type: 0 float, 1 double, 2 complex float, 3 complex
   double (oq_unpack_T and oq_setdiag_T, oq_symcheck_T), and the permutation matrix of
   getrf's pivots (oq_luperm_T, real types). oq_unpack writes the rows x cols row-major out
   from the column-major w (leading dimension ld): out[i, j] = w[i + j ld], or w[j + i ld]
   (mode 1: transposed), conjugated (2), zero below the diagonal (4: upper) or unit lower
   (8: zero above, one on the diagonal). */
static const char kernels_src[] =
  "struct alignas(8) c32 { float x, y; };\n"
  "struct alignas(16) c64 { double x, y; };\n"
  "__device__ float cj(float a) { return a; }\n"
  "__device__ double cj(double a) { return a; }\n"
  "__device__ c32 cj(c32 a) { a.y = -a.y; return a; }\n"
  "__device__ c64 cj(c64 a) { a.y = -a.y; return a; }\n"
  "__device__ void setr(float &o, double v) { o = (float)v; }\n"
  "__device__ void setr(double &o, double v) { o = v; }\n"
  "__device__ void setr(c32 &o, double v) { o.x = (float)v; o.y = 0.0f; }\n"
  "__device__ void setr(c64 &o, double v) { o.x = v; o.y = 0.0; }\n"
  "__device__ double dist(float a, float b) { return fabs((double)a - (double)b); }\n"
  "__device__ double dist(double a, double b) { return fabs(a - b); }\n"
  "__device__ double dist(c32 a, c32 b) { return hypot((double)a.x - b.x, (double)a.y - b.y); }\n"
  "__device__ double dist(c64 a, c64 b) { return hypot(a.x - b.x, a.y - b.y); }\n"
  "#define LOOP(n) for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < (n); \\\n"
  "                     t += (long long)gridDim.x * blockDim.x)\n"
  "template <class T> __device__ void unpack(const T *w, long long ld, T *out, long long ldo,\n"
  "                                          long long rows, long long cols, int mode) {\n"
  "  LOOP(rows * cols) {\n"
  "    long long i = t / cols, j = t % cols;\n"
  "    T v = (mode & 1) ? w[j + i * ld] : w[i + j * ld];\n"
  "    if (mode & 2) v = cj(v);\n"
  "    if (((mode & 4) && j < i) || ((mode & 24) && j > i)) setr(v, 0.0);\n"
  "    else if ((mode & 8) && j == i) setr(v, 1.0);\n"
  "    out[i * ldo + j] = v;\n"
  "  }\n"
  "}\n"
  /* the k diagonal elements of the column-major w (leading dimension ld) */
  "template <class T> __device__ void diag(const T *w, long long ld, long long k, T *out) {\n"
  "  LOOP(k) out[t] = w[t * (ld + 1)];\n"
  "}\n"
  /* acc += a b w */
  "__device__ void fmadd(float &acc, float a, float b, double w) { acc += (float)(a * b * w); }\n"
  "__device__ void fmadd(double &acc, double a, double b, double w) { acc += a * b * w; }\n"
  "__device__ void fmadd(c32 &acc, c32 a, c32 b, double w) {\n"
  "  acc.x += (float)((a.x * b.x - a.y * b.y) * w); acc.y += (float)((a.x * b.y + a.y * b.x) * w);\n"
  "}\n"
  "__device__ void fmadd(c64 &acc, c64 a, c64 b, double w) {\n"
  "  acc.x += (a.x * b.x - a.y * b.y) * w; acc.y += (a.x * b.y + a.y * b.x) * w;\n"
  "}\n"
  /* pinv of the gm x gn (gm >= gn) B = U S V' from gesvd's column-major u (gm x gm), vt
     (gn x gn) and s: pinv(B)[i, j] = sum over s_r > cut of conj(vt[r, i]) conj(u[j, r]) / s_r,
     written row-major (gn x gm) or column-major (the row-major transpose: pinv of B') */
  "template <class T, class R> __device__ void pinv(const T *u, const T *vt, const R *s,\n"
  "    long long gm, long long gn, int has_tol, double tol, double eps, int colmajor, T *out) {\n"
  "  double cut = has_tol ? tol : (double)gm * (double)s[0] * eps;\n"
  "  LOOP(gn * gm) {\n"
  "    long long i = t / gm, j = t % gm;\n"
  "    T acc; setr(acc, 0.0);\n"
  "    for (long long r = 0; r < gn; r++)\n"
  "      if ((double)s[r] > cut) fmadd(acc, cj(vt[r + i * gn]), cj(u[j + r * gm]), 1.0 / (double)s[r]);\n"
  "    out[colmajor ? i + j * gn : t] = acc;\n"
  "  }\n"
  "}\n"
  /* the complex n x n row-major V from geev's real column-major vr: a complex pair j, j + 1
     (w[j].y > 0) is vr[:, j] +- i vr[:, j + 1] */
  "template <class T, class C> __device__ void geevvec(const T *vr, const C *w, long long n, C *out) {\n"
  "  LOOP(n * n) {\n"
  "    long long i = t / n, j = t % n;\n"
  "    C v; v.x = vr[i + j * n]; v.y = 0;\n"
  "    if (w[j].y > 0 && j + 1 < n) v.y = vr[i + (j + 1) * n];\n"
  "    else if (w[j].y < 0 && j > 0) { v.x = vr[i + (j - 1) * n]; v.y = -vr[i + j * n]; }\n"
  "    out[t] = v;\n"
  "  }\n"
  "}\n"
  /* out = src + add over n ints: 0-based pivots */
  "extern \"C\" __global__ void oq_ints(const int *src, int *out, long long n, int add) {\n"
  "  LOOP(n) out[t] = src[t] + add;\n"
  "}\n"
  "template <class T, class R> __device__ void setdiag(T *out, long long cols, long long k,\n"
  "                                                    const R *vals) {\n"
  "  LOOP(k) { T v; setr(v, vals ? (double)vals[t] : 1.0); out[t * cols + t] = v; }\n"
  "}\n"
  /* the largest |a[i, j] - conj(a[j, i])| and |a[i, j]| (as float bits: non-negative floats
     order as their bits), reduced in each warp first */
  "template <class T> __device__ void symcheck(const T *a, long long n, unsigned *out) {\n"
  "  float d = 0.0f, b = 0.0f;\n"
  "  T zero; setr(zero, 0.0);\n"
  "  LOOP(n * n) {\n"
  "    long long i = t / n, j = t % n;\n"
  "    double dd = dist(a[t], cj(a[j * n + i])), bb = dist(a[t], zero);\n"
  "    d = fmaxf(d, dd <= 3.0e38 ? (float)dd : 3.0e38f);   /* NaN: not symmetric */\n"
  "    b = fmaxf(b, bb <= 3.0e38 ? (float)bb : 3.0e38f);\n"
  "  }\n"
  "  unsigned ud = __float_as_uint(d), ub = __float_as_uint(b);\n"
  "  for (int o = 16; o; o >>= 1) {\n"
  "    ud = max(ud, __shfl_xor_sync(0xffffffffu, ud, o));\n"
  "    ub = max(ub, __shfl_xor_sync(0xffffffffu, ub, o));\n"
  "  }\n"
  "  if ((threadIdx.x & 31) == 0) { atomicMax(out, ud); atomicMax(out + 1, ub); }\n"
  "}\n"
  "template <class T> __device__ void luperm(const int *ipiv, int k, int m, int *perm, T *P) {\n"
  "  if (blockIdx.x || threadIdx.x) return;\n"
  "  for (int i = 0; i < m; i++) perm[i] = i;\n"
  "  for (int i = 0; i < k; i++) {\n"
  "    int p = ipiv[i] - 1, s = perm[i];\n"
  "    perm[i] = perm[p];\n"
  "    perm[p] = s;\n"
  "  }\n"
  "  for (int i = 0; i < m; i++) P[(long long)i * m + perm[i]] = (T)1;\n"
  "}\n"
  "#define INST(S, T, R) \\\n"
  "extern \"C\" __global__ void oq_unpack_##S(const T *w, long long ld, T *out, long long ldo, \\\n"
  "    long long rows, long long cols, int mode) { unpack(w, ld, out, ldo, rows, cols, mode); } \\\n"
  "extern \"C\" __global__ void oq_diag_##S(const T *w, long long ld, long long k, T *out) { \\\n"
  "    diag(w, ld, k, out); } \\\n"
  "extern \"C\" __global__ void oq_pinv_##S(const T *u, const T *vt, const R *s, long long gm, \\\n"
  "    long long gn, int has_tol, double tol, double eps, int colmajor, T *out) { \\\n"
  "    pinv(u, vt, s, gm, gn, has_tol, tol, eps, colmajor, out); } \\\n"
  "extern \"C\" __global__ void oq_setdiag_##S(T *out, long long cols, long long k, \\\n"
  "    const R *vals) { setdiag(out, cols, k, vals); } \\\n"
  "extern \"C\" __global__ void oq_symcheck_##S(const T *a, long long n, unsigned *out) { \\\n"
  "    symcheck(a, n, out); }\n"
  "INST(0, float, float) INST(1, double, double) INST(2, c32, float) INST(3, c64, double)\n"
  "extern \"C\" __global__ void oq_luperm_0(const int *ipiv, int k, int m, int *perm, float *P) {\n"
  "  luperm(ipiv, k, m, perm, P); }\n"
  "extern \"C\" __global__ void oq_luperm_1(const int *ipiv, int k, int m, int *perm, double *P) {\n"
  "  luperm(ipiv, k, m, perm, P); }\n"
  "extern \"C\" __global__ void oq_geevvec_0(const float *vr, const c32 *w, long long n, c32 *out) {\n"
  "  geevvec(vr, w, n, out); }\n"
  "extern \"C\" __global__ void oq_geevvec_1(const double *vr, const c64 *w, long long n, c64 *out) {\n"
  "  geevvec(vr, w, n, out); }\n";

enum { UN_PLAIN = 0, UN_TRANS = 1, UN_CONJ = 2, UN_UPPER = 4, UN_UNIT_LOWER = 8, UN_LOWER = 16 };

static CudaKernel *layout_kernel(CuNum *C, const char *base, int t, SrcLoc loc) {
  CusolverApi *s = &C->solver;
  if (!s->kernels) {
    void *image;
    size_t size;
    char *log = NULL;
    if (!cuda_compile(kernels_src, "oq_cusolver", cuda_device()->arch, &image, &size, &log, loc))
      rt_error(loc, "cuSOLVER's layout kernels did not compile: %s", log ? log : "?");
    free(log);
    s->kernels = cuda_module_load(image, size, "oq_cusolver", loc);
    free(image);
  }
  char name[32];
  if (t < 0) snprintf(name, sizeof name, "oq_%s", base);   /* one for every type */
  else snprintf(name, sizeof name, "oq_%s_%d", base, t);
  return cuda_kernel(s->kernels, name, loc);
}

static void launch_over(CudaKernel *k, int64_t n, void **params, SrcLoc loc) {
  int64_t blocks = (n + 255) / 256, cap = (int64_t)cuda_device()->sm_count * 32;
  unsigned grid[3] = { (unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks), 1, 1 };
  unsigned block[3] = { 256, 1, 1 };
  cuda_launch(k, grid, block, 0, false, params, loc);
}

/* out (rows x cols, row-major, ldo elements a row) from the column-major w of leading
   dimension ld (UN_*). */
static void unpack_ld(CuNum *C, int t, CudaPtr w, int64_t ld, CudaPtr out, int64_t ldo,
                      int64_t rows, int64_t cols, int mode, SrcLoc loc) {
  if (!rows || !cols) return;
  long long l = ld, lo = ldo, r = rows, c = cols;
  void *params[] = { &w, &l, &out, &lo, &r, &c, &mode };
  launch_over(layout_kernel(C, "unpack", t, loc), rows * cols, params, loc);
}

static void unpack(CuNum *C, int t, CudaPtr w, int64_t ld, CudaPtr out, int64_t rows,
                   int64_t cols, int mode, SrcLoc loc) {
  unpack_ld(C, t, w, ld, out, cols, rows, cols, mode, loc);
}

/* The first k diagonal elements of the row-major out (cols columns): vals (reals of t's
   precision), or 1 where vals is 0. */
static void set_diag(CuNum *C, int t, CudaPtr out, int64_t cols, int64_t k, CudaPtr vals, SrcLoc loc) {
  if (!k) return;
  long long c = cols, kk = k;
  void *params[] = { &out, &c, &kk, &vals };
  launch_over(layout_kernel(C, "setdiag", t, loc), k, params, loc);
}

static int real_of(int t) { return t & 1; }

/* The type index of an array's elements; -1 for any other than scalar and cscalar. */
static int type_of(const Array *a) {
  if (a->elem != el_scalar() && a->elem != el_cscalar()) return -1;
  return a->elem == EL_F32 ? 0 : a->elem == EL_F64 ? 1 : a->elem == EL_C64 ? 2 : 3;
}

/* A new rows x cols array (a vec when rows is 0 or 1: Quasar's 1 x N row, as the host's
   results) of type t, or real when real is set, whose device copy is to be written; its
   device pointer in *d. */
static Array *result(int t, bool real, int64_t rows, int64_t cols, CudaPtr *d, SrcLoc loc) {
  ElemType e = real ? (real_of(t) ? EL_F64 : EL_F32) : (ElemType[]){ EL_F32, EL_F64, EL_C64, EL_C128 }[t];
  bool vec = rows <= 1;
  int64_t dims[2] = { vec ? cols : rows, cols };
  Array *R = arr_new_uninit(e, vec ? 1 : 2, dims);
  *d = (CudaPtr)(uintptr_t)cuda_array_device(R, false, loc);
  return R;
}

static CudaPtr dptr(Array *a, SrcLoc loc) { return (CudaPtr)(uintptr_t)cuda_array_device(a, true, loc); }

static Dev dev_copy(CudaPtr src, size_t bytes, SrcLoc loc) {
  Dev d = dev_new(bytes, loc);
  cuda_raw_dtod(d.p, src, bytes, loc);
  return d;
}

static Value pair(Array *a, Array *b) {
  Value v = v_tuple(2);
  v.tup->v[0] = v_array(a);
  v.tup->v[1] = v_array(b);
  return v;
}

static Value triple(Array *a, Array *b, Array *c) {
  Value v = v_tuple(3);
  v.tup->v[0] = v_array(a);
  v.tup->v[1] = v_array(b);
  v.tup->v[2] = v_array(c);
  return v;
}

static Value done(CuNum *C, Value v) {
  C->pending = true;
  return v;
}

/* R = chol(A): potrf (lower) of A's buffer, which is A' (conj(A) for a Hermitian A): its
   factor L has L L' = A', so R = transpose(L) (read transposed, the rest zero) has
   R' R = A; potrf reads A's upper triangle, as LAPACK does on the host. */
static Value res_chol(CuNum *C, const char *fn, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int n = (int)A->dims[0], lwork = 0;
  Dev W = dev_copy(dptr(A, loc), cells(n, n) * elsize(t), loc), info = dev_new(sizeof(int), loc);
  check(s->potrf_size[t](s->handle, 0, n, ptr(W), n, &lwork), "potrf_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->potrf[t](s->handle, 0, n, ptr(W), n, ptr(work), lwork, (int *)ptr(info)), "potrf", loc);
  int r = get_info(info, loc);
  dev_free(&work);
  dev_free(&info);
  if (r > 0) {
    dev_free(&W);
    rt_error(loc, "%s: the matrix is not positive definite", fn);
  }
  CudaPtr d;
  Array *R = result(t, false, n, n, &d, loc);
  unpack(C, t, W.p, n, d, n, n, UN_TRANS | UN_UPPER, loc);
  cuda_submit();
  dev_free(&W);   /* ordered on the stream after the kernel */
  cuda_array_written(R);
  return done(C, v_array(R));
}

/* getrf of the n x n buffer W (A' of a row-major A) into piv; an error when singular. */
static void factor_square(CusolverApi *s, int t, int n, Dev W, Dev piv, Dev info, const char *fn, SrcLoc loc) {
  int lwork = 0;
  check(s->getrf_size[t](s->handle, n, n, ptr(W), n, &lwork), "getrf_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->getrf[t](s->handle, n, n, ptr(W), n, ptr(work), (int *)ptr(piv), (int *)ptr(info)), "getrf", loc);
  int r = get_info(info, loc);
  dev_free(&work);
  if (r > 0) rt_error(loc, "%s: the matrix is singular", fn);
}

/* inv(A): A' = P' L U (getrf of the buffer), then A' X = I (getrs) gives X = inv(A') =
   transpose(inv(A)), whose column-major buffer is inv(A) row-major: the result as is. */
static Value res_inv(CuNum *C, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int n = (int)A->dims[0];
  Dev W = dev_copy(dptr(A, loc), cells(n, n) * elsize(t), loc);
  Dev piv = dev_new(sizeof(int) * (size_t)n, loc), info = dev_new(sizeof(int), loc);
  factor_square(s, t, n, W, piv, info, "inv", loc);
  CudaPtr d;
  Array *X = result(t, false, n, n, &d, loc);
  cuda_raw_memset(d, 0, cells(n, n) * elsize(t), loc);
  set_diag(C, t, d, n, n, 0, loc);
  cuda_submit();
  check(s->getrs[t](s->handle, CUBLAS_OP_N, n, n, ptr(W), n, (const int *)ptr(piv), (void *)(uintptr_t)d, n,
                    (int *)ptr(info)), "getrs", loc);
  dev_free(&W);
  dev_free(&piv);
  dev_free(&info);
  cuda_array_written(X);
  return done(C, v_array(X));
}

/* solve(A, B) of a square A: getrf of A' and getrs transposed (op T: (A')' X = B). A vec b
   is one column as it is; a matrix B goes to column-major and X back by the layout kernel. */
static Value res_solve(CuNum *C, const char *fn, Array *A, Array *B, int t, SrcLoc loc) {
  enum { OP_T = 1 };
  CusolverApi *s = solver(C, loc);
  int n = (int)A->dims[0];
  bool vec = B->rank == 1;
  int nrhs = vec ? 1 : (int)B->dims[1];
  size_t es = elsize(t);
  CudaPtr bd = dptr(B, loc);
  Dev W = dev_copy(dptr(A, loc), cells(n, n) * es, loc);
  Dev piv = dev_new(sizeof(int) * (size_t)n, loc), info = dev_new(sizeof(int), loc);
  factor_square(s, t, n, W, piv, info, fn, loc);
  CudaPtr d;
  Array *X = result(t, false, vec ? 0 : n, vec ? n : nrhs, &d, loc);
  Dev Xc = { 0, 0 };
  if (vec) {
    cuda_raw_dtod(d, bd, (size_t)n * es, loc);
  } else {
    Xc = dev_new(cells(n, nrhs) * es, loc);
    unpack(C, t, bd, nrhs, Xc.p, nrhs, n, UN_PLAIN, loc);   /* B column-major */
    cuda_submit();
  }
  check(s->getrs[t](s->handle, OP_T, n, nrhs, ptr(W), n, (const int *)ptr(piv),
                    vec ? (void *)(uintptr_t)d : ptr(Xc), n, (int *)ptr(info)), "getrs", loc);
  if (!vec) unpack(C, t, Xc.p, n, d, n, nrhs, UN_PLAIN, loc);
  cuda_submit();
  dev_free(&Xc);
  dev_free(&W);
  dev_free(&piv);
  dev_free(&info);
  cuda_array_written(X);
  return done(C, v_array(X));
}

/* A's column-major copy (m x n, leading dimension m). */
static Dev column_major(CuNum *C, Array *A, int t, int m, int n, SrcLoc loc) {
  Dev W = dev_new(cells(m, n) * elsize(t), loc);
  unpack(C, t, dptr(A, loc), n, W.p, n, m, UN_PLAIN, loc);
  cuda_submit();
  return W;
}

/* [L, U, P] = lu(A): getrf of A's column-major copy; L, U by masked reads, P from the
   pivots on the device (P real). */
static Value res_lu(CuNum *C, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int m = (int)A->dims[0], n = (int)A->dims[1], k = m < n ? m : n, lwork = 0;
  Dev W = column_major(C, A, t, m, n, loc);
  Dev piv = dev_new(sizeof(int) * (size_t)k, loc), info = dev_new(sizeof(int), loc);
  check(s->getrf_size[t](s->handle, m, n, ptr(W), m, &lwork), "getrf_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->getrf[t](s->handle, m, n, ptr(W), m, ptr(work), (int *)ptr(piv), (int *)ptr(info)), "getrf", loc);
  get_info(info, loc);   /* > 0: U is singular, still valid */
  CudaPtr dl, du, dp;
  Array *L = result(t, false, m, k, &dl, loc), *U = result(t, false, k, n, &du, loc);
  Array *P = result(t, true, m, m, &dp, loc);
  unpack(C, t, W.p, m, dl, m, k, UN_UNIT_LOWER, loc);
  unpack(C, t, W.p, m, du, k, n, UN_UPPER, loc);
  cuda_raw_memset(dp, 0, cells(m, m) * elsize(real_of(t)), loc);
  Dev perm = dev_new(sizeof(int) * (size_t)m, loc);
  CudaPtr pv = piv.p, pm = perm.p;
  void *params[] = { &pv, &k, &m, &pm, &dp };
  unsigned one[3] = { 1, 1, 1 };
  cuda_launch(layout_kernel(C, "luperm", real_of(t), loc), one, one, 0, false, params, loc);
  cuda_submit();
  Dev *all[] = { &W, &piv, &info, &work, &perm };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) dev_free(all[i]);
  cuda_array_written(L);
  cuda_array_written(U);
  cuda_array_written(P);
  return done(C, triple(L, U, P));
}

/* [Q, R] = qr(A): geqrf of A's column-major copy, Q (m x m) by orgqr/ungqr from the
   reflectors, R the upper part. */
static Value res_qr(CuNum *C, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int m = (int)A->dims[0], n = (int)A->dims[1], k = m < n ? m : n, lwork = 0;
  size_t es = elsize(t);
  Dev W = column_major(C, A, t, m, n, loc);
  Dev tau = dev_new(es * (size_t)k, loc), info = dev_new(sizeof(int), loc);
  check(s->geqrf_size[t](s->handle, m, n, ptr(W), m, &lwork), "geqrf_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->geqrf[t](s->handle, m, n, ptr(W), m, ptr(tau), ptr(work), lwork, (int *)ptr(info)), "geqrf", loc);
  get_info(info, loc);
  dev_free(&work);
  Dev Qc = dev_new(cells(m, m) * es, loc);
  cuda_raw_memset(Qc.p, 0, cells(m, m) * es, loc);
  cuda_raw_dtod(Qc.p, W.p, cells(m, k) * es, loc);
  check(s->orgqr_size[t](s->handle, m, m, k, ptr(Qc), m, ptr(tau), &lwork), "orgqr_bufferSize", loc);
  work = work_new(lwork, t, loc);
  check(s->orgqr[t](s->handle, m, m, k, ptr(Qc), m, ptr(tau), ptr(work), lwork, (int *)ptr(info)), "orgqr", loc);
  get_info(info, loc);
  CudaPtr dq, dr;
  Array *Q = result(t, false, m, m, &dq, loc), *R = result(t, false, m, n, &dr, loc);
  unpack(C, t, Qc.p, m, dq, m, m, UN_PLAIN, loc);
  unpack(C, t, W.p, m, dr, m, n, UN_UPPER, loc);
  cuda_submit();
  Dev *all[] = { &W, &tau, &info, &work, &Qc };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) dev_free(all[i]);
  cuda_array_written(Q);
  cuda_array_written(R);
  return done(C, pair(Q, R));
}

/* gesvd of a resident m x n A, which wants gm >= gn: a tall A from its column-major copy, a
   wide A from its buffer (the tall A'). The buffers stay for the caller (gesvd_free). */
typedef struct Gesvd {
  bool tall;
  int gm, gn;                /* the shape factored */
  Dev W, Sv, Uc, VTc, rwork, info, work;
} Gesvd;

static Gesvd gesvd_run(CuNum *C, const char *fn, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int m = (int)A->dims[0], n = (int)A->dims[1], lwork = 0;
  Gesvd g = { .tall = m >= n, .gm = m >= n ? m : n, .gn = m >= n ? n : m };
  size_t es = elsize(t), rs = elsize(real_of(t));
  g.W = g.tall ? column_major(C, A, t, m, n, loc) : dev_copy(dptr(A, loc), cells(m, n) * es, loc);
  g.Sv = dev_new(rs * (size_t)g.gn, loc);
  g.Uc = dev_new(cells(g.gm, g.gm) * es, loc);
  g.VTc = dev_new(cells(g.gn, g.gn) * es, loc);
  g.rwork = dev_new(rs * (size_t)g.gn, loc);
  g.info = dev_new(sizeof(int), loc);
  check(s->gesvd_size[t](s->handle, g.gm, g.gn, &lwork), "gesvd_bufferSize", loc);
  g.work = work_new(lwork, t, loc);
  check(s->gesvd[t](s->handle, 'A', 'A', g.gm, g.gn, ptr(g.W), g.gm, ptr(g.Sv), ptr(g.Uc), g.gm,
                    ptr(g.VTc), g.gn, ptr(g.work), lwork, ptr(g.rwork), (int *)ptr(g.info)),
        "gesvd", loc);
  if (get_info(g.info, loc) > 0) rt_error(loc, "%s: the SVD did not converge", fn);
  return g;
}

static void gesvd_free(Gesvd *g) {
  Dev *all[] = { &g->W, &g->Sv, &g->Uc, &g->VTc, &g->rwork, &g->info, &g->work };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) dev_free(all[i]);
}

/* [U, S, V] = svd(A) (and blas_gesvd): a tall A's U as gesvd gives it, V = (V')' read
   transposed and conjugated; of a wide A, gesvd factors the tall A' = U2 S V2' (so
   A = conj(V2) S U2^T: U = V2' read transposed, V = conj(U2)). */
static Value res_svd(CuNum *C, const char *fn, Array *A, int t, SrcLoc loc) {
  int m = (int)A->dims[0], n = (int)A->dims[1];
  Gesvd g = gesvd_run(C, fn, A, t, loc);
  size_t rs = elsize(real_of(t));
  CudaPtr du, ds, dv;
  Array *U = result(t, false, m, m, &du, loc), *S = result(t, true, m, n, &ds, loc);
  Array *V = result(t, false, n, n, &dv, loc);
  if (g.tall) {
    unpack(C, t, g.Uc.p, m, du, m, m, UN_PLAIN, loc);
    unpack(C, t, g.VTc.p, n, dv, n, n, UN_TRANS | UN_CONJ, loc);
  } else {
    unpack(C, t, g.VTc.p, m, du, m, m, UN_TRANS, loc);
    unpack(C, t, g.Uc.p, n, dv, n, n, UN_CONJ, loc);
  }
  cuda_raw_memset(ds, 0, cells(m, n) * rs, loc);
  set_diag(C, real_of(t), ds, n, g.gn, g.Sv.p, loc);
  cuda_submit();
  gesvd_free(&g);
  cuda_array_written(U);
  cuda_array_written(S);
  cuda_array_written(V);
  return done(C, triple(U, S, V));
}

/* pinv(A [, tol]) = V diag(1/s) U' over the singular values above tol (by default
   max(m, n) s_max eps, as rt_linalg.c), one kernel over gesvd's factors: pinv of the tall B
   that gesvd factors, row-major for B = A, column-major (its transpose) for B = A'. */
static Value res_pinv(CuNum *C, Array *A, int t, bool has_tol, double tol, SrcLoc loc) {
  int m = (int)A->dims[0], n = (int)A->dims[1];
  Gesvd g = gesvd_run(C, "pinv", A, t, loc);
  CudaPtr dp, u = g.Uc.p, vt = g.VTc.p, sv = g.Sv.p;
  Array *P = result(t, false, n, m, &dp, loc);
  long long gm = g.gm, gn = g.gn;
  double eps = real_of(t) ? 2.220446049250313e-16 : 1.1920929e-7;
  int colmajor = !g.tall, given = has_tol;
  void *params[] = { &u, &vt, &sv, &gm, &gn, &given, &tol, &eps, &colmajor, &dp };
  launch_over(layout_kernel(C, "pinv", t, loc), gm * gn, params, loc);
  cuda_submit();
  gesvd_free(&g);
  cuda_array_written(P);
  return done(C, v_array(P));
}

/* Whether the n x n device matrix equals its conjugate transpose within 64 eps of its
   largest element (as rt_linalg.c's test on the host). */
static bool res_symmetric(CuNum *C, Array *A, int t, SrcLoc loc) {
  Dev out = dev_new(2 * sizeof(unsigned), loc);
  cuda_raw_memset(out.p, 0, 2 * sizeof(unsigned), loc);
  CudaPtr a = dptr(A, loc), o = out.p;
  long long n = A->dims[0];
  void *params[] = { &a, &n, &o };
  launch_over(layout_kernel(C, "symcheck", t, loc), n * n, params, loc);
  unsigned bits[2];
  cuda_raw_dtoh(bits, out.p, sizeof bits, loc);
  dev_free(&out);
  float diff, big;
  memcpy(&diff, &bits[0], sizeof diff);
  memcpy(&big, &bits[1], sizeof big);
  double eps = real_of(t) ? 2.220446049250313e-16 : 1.1920929e-7;
  return diff <= 64 * eps * big;
}

/* [V, d] = symeig(A) of a symmetric (Hermitian) A: syevd (heevd) of A's buffer, which is
   conj(A) with A's eigenvalues and the conjugate eigenvectors: V = conj of them. */
static Value res_symeig(CuNum *C, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int n = (int)A->dims[0], lwork = 0;
  Dev W = dev_copy(dptr(A, loc), cells(n, n) * elsize(t), loc), info = dev_new(sizeof(int), loc);
  CudaPtr dv, dd;
  Array *V = result(t, false, n, n, &dv, loc), *d = result(t, true, 0, n, &dd, loc);
  check(s->syevd_size[t](s->handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, ptr(W), n,
                         (void *)(uintptr_t)dd, &lwork), "syevd_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->syevd[t](s->handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, ptr(W), n,
                    (void *)(uintptr_t)dd, ptr(work), lwork, (int *)ptr(info)), "syevd", loc);
  int r = get_info(info, loc);
  if (r > 0) rt_error(loc, "symeig: the eigenvalues did not converge");
  unpack(C, t, W.p, n, dv, n, n, UN_CONJ, loc);
  cuda_submit();
  dev_free(&W);
  dev_free(&info);
  dev_free(&work);
  cuda_array_written(V);
  cuda_array_written(d);
  return done(C, pair(V, d));
}

/* out = src + add over n ints (blas_lu's 0-based pivots from getrf's). */
static void ints(CuNum *C, CudaPtr src, CudaPtr out, int64_t n, int add, SrcLoc loc) {
  long long nn = n;
  void *params[] = { &src, &out, &nn, &add };
  launch_over(layout_kernel(C, "ints", -1, loc), n, params, loc);
}

/* The k diagonal elements of the column-major w (leading dimension ld) on the host (k
   numbers come back: a determinant, a rank test); malloc'ed, of t's element type. */
static void *diag_host(CuNum *C, int t, CudaPtr w, int64_t ld, int64_t k, SrcLoc loc) {
  size_t bytes = (size_t)k * elsize(t);
  Dev out = dev_new(bytes, loc);
  long long l = ld, kk = k;
  CudaPtr o = out.p;
  void *params[] = { &w, &l, &kk, &o };
  launch_over(layout_kernel(C, "diag", t, loc), k, params, loc);
  void *h = malloc(bytes ? bytes : 1);
  cuda_raw_dtoh(h, out.p, bytes, loc);
  dev_free(&out);
  return h;
}

/* re + i im, its parts stored directly (C11: a complex is an array of its two parts), so an
   infinite part makes no NaN; CMPLX is not in clang's <complex.h> with this glibc (the
   fuzzers' build). */
static double complex parts(double re, double im) {
  double complex z;
  ((double *)&z)[0] = re;
  ((double *)&z)[1] = im;
  return z;
}

/* Element i of the host buffer h of type t. */
static double complex elem_at(const void *h, int t, int64_t i) {
  switch (t) {
  case 0: return ((const float *)h)[i];
  case 1: return ((const double *)h)[i];
  case 2: return parts(((const float *)h)[2 * i], ((const float *)h)[2 * i + 1]);
  default: return parts(((const double *)h)[2 * i], ((const double *)h)[2 * i + 1]);
  }
}

/* det(A): getrf of A's buffer, A' (det A' = det A), and the product of U's diagonal with a
   sign per row exchange on the host: the n diagonal values and the n pivots come back; 0
   for a singular A, as rt_linalg.c. */
static Value res_det(CuNum *C, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int n = (int)A->dims[0];
  Dev W = dev_copy(dptr(A, loc), cells(n, n) * elsize(t), loc);
  Dev piv = dev_new(sizeof(int) * (size_t)n, loc), info = dev_new(sizeof(int), loc);
  double complex d = 0;
  if (getrf_dev(s, t, n, n, W, piv, info, loc) == 0) {
    void *dg = diag_host(C, t, W.p, n, n, loc);
    int *ip = malloc(sizeof(int) * (size_t)n);
    cuda_raw_dtoh(ip, piv.p, sizeof(int) * (size_t)n, loc);
    d = 1;
    for (int i = 0; i < n; i++) d *= ip[i] != i + 1 ? -elem_at(dg, t, i) : elem_at(dg, t, i);
    free(ip);
    free(dg);
  }
  dev_free(&W);
  dev_free(&piv);
  dev_free(&info);
  return t >= 2 ? v_cscalar(creal(d), cimag(d)) : v_scalar(creal(d));
}

/* [LU, piv] = blas_lu(A) of a real square A: getrf of A's column-major copy; the packed
   factors read row-major and the 0-based pivots (an int vec) from getrf's 1-based ones, both
   on the device. */
static Value res_blas_lu(CuNum *C, Array *A, int t, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int n = (int)A->dims[0];
  Dev W = column_major(C, A, t, n, n, loc);
  Dev piv = dev_new(sizeof(int) * (size_t)n, loc), info = dev_new(sizeof(int), loc);
  factor_square(s, t, n, W, piv, info, "blas_lu", loc);
  CudaPtr dl;
  Array *LU = result(t, false, n, n, &dl, loc);
  unpack(C, t, W.p, n, dl, n, n, UN_PLAIN, loc);
  int64_t dims[1] = { n };
  Array *P = arr_new_uninit(EL_I32, 1, dims);
  ints(C, piv.p, (CudaPtr)(uintptr_t)cuda_array_device(P, false, loc), n, -1, loc);
  cuda_submit();
  dev_free(&W);
  dev_free(&piv);
  dev_free(&info);
  cuda_array_written(LU);
  cuda_array_written(P);
  return done(C, pair(LU, P));
}

/* C = op(Q) C for the Q of geqrf's k reflectors in W (ormqr; unmqr for complex types). */
static void apply_q(CusolverApi *s, int t, int op, int m, int nrhs, int k, Dev W, Dev tau, Dev Y,
                    Dev info, SrcLoc loc) {
  enum { SIDE_LEFT = 0 };
  int lwork = 0;
  check(s->ormqr_size[t](s->handle, SIDE_LEFT, op, m, nrhs, k, ptr(W), m, ptr(tau), ptr(Y), m,
                         &lwork), "ormqr_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->ormqr[t](s->handle, SIDE_LEFT, op, m, nrhs, k, ptr(W), m, ptr(tau), ptr(Y), m,
                    ptr(work), lwork, (int *)ptr(info)), "ormqr", loc);
  get_info(info, loc);
  dev_free(&work);
}

/* geqrf of the gm x gn W (gm >= gn) for least squares: tau, and R (gn x gn, column-major,
   zero below the diagonal: the row-major R' read transposed and masked); an error when R
   has an exact zero on its diagonal (gels's test of full rank). */
static void lstsq_qr(CuNum *C, int t, int gm, int gn, Dev W, Dev tau, Dev Rc, Dev info,
                     const char *fn, SrcLoc loc) {
  CusolverApi *s = solver(C, loc);
  int lwork = 0;
  check(s->geqrf_size[t](s->handle, gm, gn, ptr(W), gm, &lwork), "geqrf_bufferSize", loc);
  Dev work = work_new(lwork, t, loc);
  check(s->geqrf[t](s->handle, gm, gn, ptr(W), gm, ptr(tau), ptr(work), lwork, (int *)ptr(info)),
        "geqrf", loc);
  get_info(info, loc);
  dev_free(&work);
  void *dg = diag_host(C, t, W.p, gm, gn, loc);
  for (int i = 0; i < gn; i++)
    if (elem_at(dg, t, i) == 0) {
      free(dg);
      rt_error(loc, "%s: the matrix does not have full rank", fn);
    }
  free(dg);
  unpack(C, t, W.p, gm, Rc.p, gn, gn, UN_TRANS | UN_LOWER, loc);
}

/* B (m rows; a vec: one column) as the first m rows of a new column-major buffer of rows
   rows and nrhs columns, zero below. */
static Dev rhs_columns(CuNum *C, int t, Array *B, int m, int rows, int nrhs, SrcLoc loc) {
  size_t es = elsize(t);
  Dev Y = dev_new(cells(rows, nrhs) * es, loc);
  if (rows > m) cuda_raw_memset(Y.p, 0, cells(rows, nrhs) * es, loc);
  if (B->rank == 1) cuda_raw_dtod(Y.p, dptr(B, loc), (size_t)m * es, loc);
  else unpack_ld(C, t, dptr(B, loc), nrhs, Y.p, rows, nrhs, m, UN_PLAIN, loc);
  return Y;
}

/* solve(A, B) of an m x n A with m != n, in the least-squares sense as LAPACK's gels, which
   rt_linalg.c calls: A of full rank (lstsq_qr). m > n: A = Q R (geqrf of A's column-major
   copy), X = R \ (Q' B)[first n rows] (ormqr, then R's triangular solve as getrs with
   identity pivots on R masked upper: L = I). m < n: the smallest X, from A' = Q R (geqrf of
   the conjugated buffer, which is A' column-major): X = Q [R' \ B; 0]. Y, the right-hand
   side column-major with max(m, n) rows, becomes X. */
static Value res_lstsq(CuNum *C, const char *fn, Array *A, Array *B, int t, SrcLoc loc) {
  enum { OP_N = 0 };
  CusolverApi *s = solver(C, loc);
  int m = (int)A->dims[0], n = (int)A->dims[1];
  bool tall = m > n, vec = B->rank == 1;
  int gm = tall ? m : n, gn = tall ? n : m;   /* the gm x gn matrix factored: A or A' */
  int nrhs = vec ? 1 : (int)B->dims[1], opc = t >= 2 ? 2 : 1;   /* OP_C, OP_T of reals */
  size_t es = elsize(t);
  Dev W;
  if (tall) {
    W = column_major(C, A, t, m, n, loc);
  } else {
    W = dev_new(cells(m, n) * es, loc);
    unpack(C, t, dptr(A, loc), 1, W.p, 1, (int64_t)m * n, UN_CONJ, loc);   /* flat */
  }
  Dev tau = dev_new(es * (size_t)gn, loc), info = dev_new(sizeof(int), loc);
  Dev Rc = dev_new(cells(gn, gn) * es, loc), ipiv = dev_new(sizeof(int) * (size_t)gn, loc);
  lstsq_qr(C, t, gm, gn, W, tau, Rc, info, fn, loc);
  int *iota = malloc(sizeof(int) * (size_t)gn);   /* identity pivots: gn numbers go up */
  for (int i = 0; i < gn; i++) iota[i] = i + 1;
  cuda_raw_htod(ipiv.p, iota, sizeof(int) * (size_t)gn, loc);
  free(iota);
  Dev Y = rhs_columns(C, t, B, m, gm, nrhs, loc);
  cuda_submit();
  if (tall) {
    apply_q(s, t, opc, m, nrhs, n, W, tau, Y, info, loc);
    check(s->getrs[t](s->handle, OP_N, n, nrhs, ptr(Rc), n, (const int *)ptr(ipiv), ptr(Y), m,
                      (int *)ptr(info)), "getrs", loc);
  } else {
    check(s->getrs[t](s->handle, opc, m, nrhs, ptr(Rc), m, (const int *)ptr(ipiv), ptr(Y), n,
                      (int *)ptr(info)), "getrs", loc);
    apply_q(s, t, OP_N, n, nrhs, m, W, tau, Y, info, loc);
  }
  CudaPtr d;
  Array *X = result(t, false, vec ? 0 : n, vec ? n : nrhs, &d, loc);
  if (vec) cuda_raw_dtod(d, Y.p, (size_t)n * es, loc);
  else unpack(C, t, Y.p, gm, d, n, nrhs, UN_PLAIN, loc);
  cuda_submit();
  Dev *all[] = { &W, &tau, &info, &Rc, &ipiv, &Y };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) dev_free(all[i]);
  cuda_array_written(X);
  return done(C, v_array(X));
}

bool cusolver_has_geev(CuNum *C) {
  CusolverApi *s = &C->solver;
  if (!s->geev_state) {
    const CunumSym syms[] = { { "cusolverDnCreateParams", (void **)&s->create_params },
                              { "cusolverDnDestroyParams", (void **)&s->destroy_params },
                              { "cusolverDnXgeev_bufferSize", (void **)&s->geev_size },
                              { "cusolverDnXgeev", (void **)&s->geev } };
    s->geev_state = 1;
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
      *syms[i].slot = s->lib ? dlsym(s->lib, syms[i].name) : NULL;
      if (!*syms[i].slot) s->geev_state = -1;
    }
  }
  return s->geev_state > 0;
}

/* [V, d] = eig(A) of a square A that is not symmetric (Hermitian): Xgeev of A's column-major
   copy, right eigenvectors only (unit length, the largest component real, as LAPACK's). Of a
   real A the eigenvalues come complex (W of the complex type, computed in real arithmetic)
   and the vectors as LAPACK's packed pairs, which a kernel unfolds into the complex V; a
   complex A's V is read row-major as it comes. */
static Value res_geev(CuNum *C, Array *A, int t, SrcLoc loc) {
  enum { NOVECTOR = 0, VECTOR = 1 };
  static const int dtype[4] = { 0, 1, 4, 5 };   /* CUDA_R_32F, R_64F, C_32F, C_64F */
  CusolverApi *s = solver(C, loc);
  if (!s->params && s->create_params(&s->params))
    rt_error(loc, "cuSOLVER could not start (cusolverDnCreateParams failed)");
  int64_t n = A->dims[0];
  int ta = dtype[t], tc = t | 2, tw = dtype[tc];   /* tc: the complex type index */
  Dev W = column_major(C, A, t, (int)n, (int)n, loc);
  Dev VR = dev_new(cells((int)n, (int)n) * elsize(t), loc), info = dev_new(sizeof(int), loc);
  CudaPtr dv, dd;
  Array *V = result(tc, false, n, n, &dv, loc), *d = result(tc, false, 0, n, &dd, loc);
  void *w = (void *)(uintptr_t)dd;
  size_t dbytes = 0, hbytes = 0;
  check(s->geev_size(s->handle, s->params, NOVECTOR, VECTOR, n, ta, ptr(W), n, tw, w, ta, NULL, 1,
                     ta, ptr(VR), n, ta, &dbytes, &hbytes), "Xgeev_bufferSize", loc);
  Dev work = dev_new(dbytes, loc);
  void *hwork = malloc(hbytes ? hbytes : 1);
  check(s->geev(s->handle, s->params, NOVECTOR, VECTOR, n, ta, ptr(W), n, tw, w, ta, NULL, 1, ta,
                ptr(VR), n, ta, ptr(work), dbytes, hwork, hbytes, (int *)ptr(info)), "Xgeev", loc);
  int r = get_info(info, loc);
  free(hwork);
  if (r > 0) rt_error(loc, "eig: the eigenvalues did not converge");
  if (t >= 2) {
    unpack(C, t, VR.p, n, dv, n, n, UN_PLAIN, loc);
  } else {
    long long nn = n;
    CudaPtr vr = VR.p;
    void *params[] = { &vr, &dd, &nn, &dv };
    launch_over(layout_kernel(C, "geevvec", t, loc), n * n, params, loc);
  }
  cuda_submit();
  Dev *all[] = { &W, &VR, &info, &work };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) dev_free(all[i]);
  cuda_array_written(V);
  cuda_array_written(d);
  return done(C, pair(V, d));
}

static bool square(const Array *a) { return a->dims[0] == a->dims[1]; }

/* The right-hand side b of solve(A, b) when the resident way takes it: A's element type, the
   rows of A (a vec: one column). */
static bool rhs_fits(const Array *A, Value b) {
  return b.kind == V_ARRAY && b.arr->elem == A->elem && b.arr->rank <= 2 && b.arr->numel &&
         b.arr->dims[0] == A->dims[0] && (b.arr->rank == 1 || b.arr->dims[1] <= 0x7fffffff);
}

Value cusolver_resident(CuNum *C, const char *name, int argc, const Value *argv, SrcLoc loc) {
  if (argc < 1 || argv[0].kind != V_ARRAY) return v_none();
  Array *A = argv[0].arr;
  int t = type_of(A);
  if (t < 0 || A->rank != 2 || !A->numel || A->dims[0] > 0x7fffffff || A->dims[1] > 0x7fffffff)
    return v_none();
  bool sq = square(A);
  if ((!strcmp(name, "chol") || !strcmp(name, "blas_chol")) && sq) return res_chol(C, name, A, t, loc);
  if (!strcmp(name, "inv") && sq) return res_inv(C, A, t, loc);
  if (!strcmp(name, "det") && sq) return res_det(C, A, t, loc);
  if ((!strcmp(name, "solve") || !strcmp(name, "mldivide")) && argc == 2 && rhs_fits(A, argv[1]))
    return sq ? res_solve(C, name, A, argv[1].arr, t, loc) : res_lstsq(C, name, A, argv[1].arr, t, loc);
  if (!strcmp(name, "lu")) return res_lu(C, A, t, loc);
  if (!strcmp(name, "blas_lu") && sq && t < 2) return res_blas_lu(C, A, t, loc);
  if (!strcmp(name, "qr")) return res_qr(C, A, t, loc);
  if (!strcmp(name, "svd") || !strcmp(name, "blas_gesvd")) return res_svd(C, name, A, t, loc);
  if (!strcmp(name, "pinv") && (argc == 1 || v_is_num(argv[1])))
    return res_pinv(C, A, t, argc > 1, argc > 1 ? rt_to_real(argv[1], loc) : 0, loc);
  if ((!strcmp(name, "symeig") || !strcmp(name, "eig")) && sq) {
    if (res_symmetric(C, A, t, loc)) return res_symeig(C, A, t, loc);
    if (!strcmp(name, "eig") && cusolver_has_geev(C)) return res_geev(C, A, t, loc);
  }
  return v_none();
}
