/* rt_linalg.c: linalg.q's functions and seed 001's blas_* list on the host, on BLAS and
   LAPACK loaded with dlopen (rt_linalg.h). The factorizations copy their operand into a
   column-major double matrix (Mat), call LAPACK, and copy the factors back into row-major
   arrays of `scalar` (complex ones: a column-major complex copy, CMat, and the z routines);
   GEMM runs in the operands' own precision with the row-major trick (C = A B is C' = B' A'
   in column-major terms, so no copy is needed). The interpreter may offer the GPU's
   factorizations for a call (LinalgGpu, lapack_set_gpu): the real ones then run there
   (on --target cuda a matrix on the GPU is factorized there before it reaches this file:
   device/rt_cusolver.c's cusolver_resident). */
#include <complex.h>   /* first: rt_internal.h defines CMPLX where it lacks (clang: the fuzzers) */
#include "runtime/rt_linalg.h"
#include "runtime/rt_internal.h"
#include <dlfcn.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the Fortran interface (LP64: 32-bit integers; a hidden length per character
   argument, passed as 1) ---- */
typedef int fint;
typedef size_t flen;
typedef void (*GemmFn)(const char *, const char *, const fint *, const fint *, const fint *,
                       const void *, const void *, const fint *, const void *, const fint *,
                       const void *, void *, const fint *, flen, flen);

typedef struct LapackApi {
  GemmFn gemm[4];                                          /* s, d, c, z */
  void (*getrf)(const fint *, const fint *, double *, const fint *, fint *, fint *);
  void (*getri)(const fint *, double *, const fint *, const fint *, double *, const fint *, fint *);
  void (*getrs)(const char *, const fint *, const fint *, const double *, const fint *,
                const fint *, double *, const fint *, fint *, flen);
  void (*gels)(const char *, const fint *, const fint *, const fint *, double *, const fint *,
               double *, const fint *, double *, const fint *, fint *, flen);
  void (*potrf)(const char *, const fint *, double *, const fint *, fint *, flen);
  void (*potrs)(const char *, const fint *, const fint *, const double *, const fint *,
                double *, const fint *, fint *, flen);
  void (*geqrf)(const fint *, const fint *, double *, const fint *, double *, double *,
                const fint *, fint *);
  void (*orgqr)(const fint *, const fint *, const fint *, double *, const fint *,
                const double *, double *, const fint *, fint *);
  void (*gesdd)(const char *, const fint *, const fint *, double *, const fint *, double *,
                double *, const fint *, double *, const fint *, double *, const fint *,
                fint *, fint *, flen);
  void (*syevd)(const char *, const char *, const fint *, double *, const fint *, double *,
                double *, const fint *, fint *, const fint *, fint *, flen, flen);
  void (*geev)(const char *, const char *, const fint *, double *, const fint *, double *,
               double *, double *, const fint *, double *, const fint *, double *,
               const fint *, fint *, flen, flen);
  void (*trtrs)(const char *, const char *, const char *, const fint *, const fint *,
                const double *, const fint *, double *, const fint *, fint *, flen, flen, flen);
  /* complex double (z): every factorization of complex matrices */
  void (*zgetrf)(const fint *, const fint *, double complex *, const fint *, fint *, fint *);
  void (*zgetri)(const fint *, double complex *, const fint *, const fint *, double complex *,
                 const fint *, fint *);
  void (*zgetrs)(const char *, const fint *, const fint *, const double complex *, const fint *,
                 const fint *, double complex *, const fint *, fint *, flen);
  void (*zgels)(const char *, const fint *, const fint *, const fint *, double complex *,
                const fint *, double complex *, const fint *, double complex *, const fint *,
                fint *, flen);
  void (*zgesdd)(const char *, const fint *, const fint *, double complex *, const fint *,
                 double *, double complex *, const fint *, double complex *, const fint *,
                 double complex *, const fint *, double *, fint *, fint *, flen);
  void (*zgeev)(const char *, const char *, const fint *, double complex *, const fint *,
                double complex *, double complex *, const fint *, double complex *, const fint *,
                double complex *, const fint *, double *, fint *, flen, flen);
  void (*zheevd)(const char *, const char *, const fint *, double complex *, const fint *,
                 double *, double complex *, const fint *, double *, const fint *, fint *,
                 const fint *, fint *, flen, flen);
  void (*zpotrf)(const char *, const fint *, double complex *, const fint *, fint *, flen);
  void (*zgeqrf)(const fint *, const fint *, double complex *, const fint *, double complex *,
                 double complex *, const fint *, fint *);
  void (*zungqr)(const fint *, const fint *, const fint *, double complex *, const fint *,
                 const double complex *, double complex *, const fint *, fint *);
  void (*set_threads)(int);                                /* OpenBLAS only */
  const LinalgGpu *gpu;     /* the factorizations of the current call run there (NULL: here) */
  char *(*get_config)(void);                               /* OpenBLAS only */
} LapackApi;

struct LapackLib {
  int state;                /* 0 not tried, 1 loaded, -1 missing */
  void *handle;
  const char *name;         /* the library that loaded */
  int threads;
  LapackApi f;
};

LapackLib *lapack_lib_new(int threads) {
  LapackLib *L = calloc(1, sizeof *L);
  L->threads = threads < 1 ? 1 : threads;
  return L;
}

void lapack_lib_free(LapackLib *L) { free(L); }

void lapack_set_gpu(LapackLib *L, const LinalgGpu *gpu) { L->f.gpu = gpu; }

/* The GPU's factorizations compute in the precision of `scalar`. */
static bool gpu_single(void) { return !rt_config.double_precision; }

/* ---- loading ---- */

static bool bind_all(LapackLib *L, void *h) {
  static const char *const gemm[4] = { "sgemm_", "dgemm_", "cgemm_", "zgemm_" };
  LapackApi *f = &L->f;
  for (int i = 0; i < 4; i++) *(void **)&f->gemm[i] = dlsym(h, gemm[i]);
  static const struct { const char *sym; size_t off; } t[] = {
    { "dgetrf_", offsetof(LapackApi, getrf) }, { "dgetri_", offsetof(LapackApi, getri) },
    { "dgetrs_", offsetof(LapackApi, getrs) }, { "dgels_", offsetof(LapackApi, gels) },
    { "dpotrf_", offsetof(LapackApi, potrf) }, { "dpotrs_", offsetof(LapackApi, potrs) },
    { "dgeqrf_", offsetof(LapackApi, geqrf) }, { "dorgqr_", offsetof(LapackApi, orgqr) },
    { "dgesdd_", offsetof(LapackApi, gesdd) }, { "dsyevd_", offsetof(LapackApi, syevd) },
    { "dgeev_", offsetof(LapackApi, geev) }, { "dtrtrs_", offsetof(LapackApi, trtrs) },
    { "zgetrf_", offsetof(LapackApi, zgetrf) }, { "zgetri_", offsetof(LapackApi, zgetri) },
    { "zgetrs_", offsetof(LapackApi, zgetrs) }, { "zgels_", offsetof(LapackApi, zgels) },
    { "zgesdd_", offsetof(LapackApi, zgesdd) }, { "zgeev_", offsetof(LapackApi, zgeev) },
    { "zheevd_", offsetof(LapackApi, zheevd) }, { "zpotrf_", offsetof(LapackApi, zpotrf) },
    { "zgeqrf_", offsetof(LapackApi, zgeqrf) }, { "zungqr_", offsetof(LapackApi, zungqr) },
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    void *p = dlsym(h, t[i].sym);
    if (!p) return false;
    *(void **)((char *)f + t[i].off) = p;
  }
  for (int i = 0; i < 4; i++)
    if (!f->gemm[i]) return false;
  *(void **)&f->set_threads = dlsym(h, "openblas_set_num_threads");
  *(void **)&f->get_config = dlsym(h, "openblas_get_config");
  return true;
}

static bool load(LapackLib *L) {
  /* OpenBLAS has BLAS and LAPACK in one library; the reference LAPACK pulls in libblas. */
  static const char *const names[] = { "libopenblas.so.0", "liblapack.so.3" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    if (bind_all(L, h)) {
      L->handle = h;
      L->name = names[i];
      if (L->f.set_threads) L->f.set_threads(L->threads);
      return true;
    }
    dlclose(h);
  }
  return false;
}

static const LapackApi *api(LapackLib *L, const char *fn, SrcLoc loc) {
  if (!L->state) L->state = load(L) ? 1 : -1;
  if (L->state < 0)
    rt_error(loc, "%s: BLAS/LAPACK is not installed (neither libopenblas.so.0 nor liblapack.so.3 "
             "loads: install the Debian package libopenblas0 or liblapack3)", fn);
  return &L->f;
}

/* ---- column-major double matrices ---- */

typedef struct Mat { fint m, n; double *a; } Mat;     /* a[i + j * m] */
#define AT(M, i, j) ((M).a[(size_t)(i) + (size_t)(j) * (size_t)(M).m])

_Noreturn static void bad(const char *fn, const char *what, Value v, SrcLoc loc) {
  rt_error(loc, "%s: expected %s, got %s", fn, what, rt_kind_name(v));
}

static fint fit(const char *fn, int64_t n, SrcLoc loc) {
  if (n > INT_MAX) rt_error(loc, "%s: a dimension of %lld is too large for LAPACK", fn, (long long)n);
  return (fint)n;
}

static Mat mat_new(fint m, fint n) {
  Mat M = { m, n, calloc((size_t)(m ? m : 1) * (size_t)(n ? n : 1), sizeof(double)) };
  return M;
}

static void mat_free(Mat *M) { free(M->a); M->a = NULL; }

/* The rows and columns of a matrix operand: a vec is a 1 x N row, a number 1 x 1. */
static void shape_of(const char *fn, Value v, int64_t *m, int64_t *n, SrcLoc loc) {
  if (v_is_num(v)) { *m = *n = 1; return; }
  if (v.kind != V_ARRAY || v.arr->rank > 2) bad(fn, "a vector or a matrix", v, loc);
  const Array *A = v.arr;
  *m = A->rank == 1 ? 1 : A->dims[0];
  *n = A->rank == 1 ? A->dims[0] : A->dims[1];
}

/* A real matrix operand as a column-major copy. */
static Mat mat_from(const char *fn, Value v, SrcLoc loc) {
  int64_t m, n;
  shape_of(fn, v, &m, &n, loc);
  if (val_class(v) == NC_COMPLEX)
    rt_error(loc, "%s: complex matrices are not supported (inv, det, solve, chol, lu, qr, svd, pinv, "
             "eig and symeig take them)", fn);
  Mat M = mat_new(fit(fn, m, loc), fit(fn, n, loc));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      AT(M, i, j) = v.kind == V_ARRAY ? arr_load(v.arr, i * n + j) : rt_to_real(v, loc);
  return M;
}

static Mat square_from(const char *fn, Value v, SrcLoc loc) {
  Mat M = mat_from(fn, v, loc);
  if (M.m != M.n) {
    mat_free(&M);
    int64_t m, n;
    shape_of(fn, v, &m, &n, loc);
    rt_error(loc, "%s: expected a square matrix, got %lld x %lld", fn, (long long)m, (long long)n);
  }
  return M;
}

/* Rows r0.. and columns c0.. of M, m x n of them, as a row-major `scalar` array (a 1 x N
   result is a vec, Quasar's rule). */
static Value mat_part(Mat M, fint r0, fint c0, fint m, fint n) {
  int64_t dims[2] = { m, n };
  int rank = 2;
  rt_shape_normalize(&rank, dims);
  Array *A = arr_new(el_scalar(), rank, dims);
  for (fint i = 0; i < m; i++)
    for (fint j = 0; j < n; j++) arr_store(A, (int64_t)i * n + j, AT(M, r0 + i, c0 + j));
  return v_array(A);
}

static Value mat_to(Mat M) { return mat_part(M, 0, 0, M.m, M.n); }

static Value vec_of(const double *x, int64_t n) {
  Array *A = arr_vec(el_scalar(), n);
  for (int64_t i = 0; i < n; i++) arr_store(A, i, x[i]);
  return v_array(A);
}

static Value tuple2(Value a, Value b) {
  Value t = v_tuple(2);
  t.tup->v[0] = a;
  t.tup->v[1] = b;
  return t;
}

static Value tuple3(Value a, Value b, Value c) {
  Value t = v_tuple(3);
  t.tup->v[0] = a;
  t.tup->v[1] = b;
  t.tup->v[2] = c;
  return t;
}

static double eps_scalar(void) { return rt_config.double_precision ? DBL_EPSILON : FLT_EPSILON; }

/* ---- GEMM ---- */

static int gemm_index(ElemType e) {
  return e == EL_F32 ? 0 : e == EL_F64 ? 1 : e == EL_C64 ? 2 : e == EL_C128 ? 3 : -1;
}

/* C = alpha op(A) op(B) + beta C of row-major arrays of element type e, op(A) m x k,
   op(B) k x p; C (m x p) is overwritten (read when beta is not 0). */
static void gemm_rows(const LapackApi *f, ElemType e, bool ta, bool tb, fint m, fint p, fint k,
                      double complex alpha, const Array *A, const Array *B, double complex beta,
                      Array *C) {
  int t = gemm_index(e);
  float fa[2] = { (float)creal(alpha), (float)cimag(alpha) }, fb[2] = { (float)creal(beta), (float)cimag(beta) };
  double da[2] = { creal(alpha), cimag(alpha) }, db[2] = { creal(beta), cimag(beta) };
  const void *al = t == 0 || t == 2 ? (const void *)fa : (const void *)da;
  const void *be = t == 0 || t == 2 ? (const void *)fb : (const void *)db;
  fint lda = A->rank == 1 ? (fint)A->dims[0] : (fint)A->dims[1];
  fint ldb = B->rank == 1 ? (fint)B->dims[0] : (fint)B->dims[1];
  fint ldc = p;
  if (lda < 1) lda = 1;
  if (ldb < 1) ldb = 1;
  if (ldc < 1) ldc = 1;
  if (!m || !p) return;
  if (!k) {   /* an empty inner dimension: C = beta C */
    for (int64_t i = 0; i < C->numel; i++) {
      double re, im;
      arr_load_c(C, i, &re, &im);
      double complex z = beta * CMPLX(re, im);
      arr_store_c(C, i, creal(z), cimag(z));
    }
    return;
  }
  f->gemm[t](tb ? "T" : "N", ta ? "T" : "N", &p, &m, &k, al, B->data, &ldb, A->data, &lda, be,
             C->data, &ldc, 1, 1);
}

Array *linalg_matmul(LapackLib *L, const Array *A, const Array *B, SrcLoc loc) {
  if (A->rank != 2 || B->rank != 2 || A->elem != B->elem || gemm_index(A->elem) < 0) return NULL;
  int64_t m = A->dims[0], n = A->dims[1], p = B->dims[1];
  if (B->dims[0] != n || m < LINALG_GEMM_MIN || n < LINALG_GEMM_MIN || p < LINALG_GEMM_MIN ||
      m > INT_MAX || n > INT_MAX || p > INT_MAX)
    return NULL;
  if (!L->state) L->state = load(L) ? 1 : -1;
  if (L->state < 0) return NULL;   /* the plain loop still gives the product */
  int64_t dims[2] = { m, p };
  Array *C = arr_new_uninit(A->elem, 2, dims);
  gemm_rows(&L->f, A->elem, false, false, (fint)m, (fint)p, (fint)n, 1, A, B, 0, C);
  (void)loc;
  return C;
}

/* The element type two operands compute in: cscalar when either is complex, else scalar. */
static ElemType common_elem(Value a, Value b) {
  return val_class(a) == NC_COMPLEX || val_class(b) == NC_COMPLEX ? el_cscalar() : el_scalar();
}

/* v as an array of element type e (a number as a 1-element vec); a new reference. */
static Array *as_elem(Value v, ElemType e, SrcLoc loc) {
  if (v.kind == V_ARRAY) {
    if (v.arr->elem == e) { v.arr->refcount++; return v.arr; }
    return arr_convert(v.arr, e);
  }
  Array *A = arr_vec(e, 1);
  arr_set(A, 0, v, loc);
  return A;
}

static bool flag_arg(const char *fn, int argc, const Value *argv, int i, SrcLoc loc) {
  if (argc <= i) return false;
  if (!v_is_real(argv[i])) bad(fn, "true or false for a transposition", argv[i], loc);
  return rt_truthy(argv[i], loc);
}

static double complex num_arg(const char *fn, Value v, SrcLoc loc) {
  if (!v_is_num(v)) bad(fn, "a number", v, loc);
  if (v.kind == V_CSCALAR) return CMPLX(v.c.re, v.c.im);
  return rt_to_real(v, loc);
}

static _Noreturn void dims_error(const char *fn, const char *what, int64_t a, int64_t b, SrcLoc loc) {
  rt_error(loc, "%s: %s disagree (%lld and %lld)", fn, what, (long long)a, (long long)b);
}

/* alpha op(A) op(B) + beta C (C may be the number 0). */
static Value gemm_value(LapackLib *L, const char *fn, double complex alpha, Value va, Value vb,
                        double complex beta, Value vc, bool ta, bool tb, SrcLoc loc) {
  const LapackApi *f = api(L, fn, loc);
  int64_t am, an, bm, bn;
  shape_of(fn, va, &am, &an, loc);
  shape_of(fn, vb, &bm, &bn, loc);
  int64_t m = ta ? an : am, k = ta ? am : an, k2 = tb ? bn : bm, p = tb ? bm : bn;
  if (k != k2) dims_error(fn, "inner dimensions", k, k2, loc);
  ElemType e = common_elem(va, vb);
  if (vc.kind == V_ARRAY && el_is_complex(vc.arr->elem)) e = el_cscalar();
  Array *A = as_elem(va, e, loc), *B = as_elem(vb, e, loc);
  int64_t dims[2] = { m, p };
  Array *C = arr_new(e, 2, dims);
  if (vc.kind == V_ARRAY && beta != 0) {
    int64_t cm, cn;
    shape_of(fn, vc, &cm, &cn, loc);
    if (cm != m || cn != p) rt_error(loc, "%s: C is %lld x %lld, the product %lld x %lld", fn,
                                     (long long)cm, (long long)cn, (long long)m, (long long)p);
    for (int64_t i = 0; i < C->numel; i++) {
      double re, im;
      arr_load_c(vc.arr, i, &re, &im);
      arr_store_c(C, i, re, im);
    }
  } else if (!(v_is_num(vc) && num_arg(fn, vc, loc) == 0) && beta != 0) {
    bad(fn, "a matrix C (or 0)", vc, loc);
  }
  gemm_rows(f, e, ta, tb, fit(fn, m, loc), fit(fn, p, loc), fit(fn, k, loc), alpha, A, B, beta, C);
  val_release(v_array(A));
  val_release(v_array(B));
  int rank = 2;
  rt_shape_normalize(&rank, C->dims);
  C->rank = rank;
  return v_array(C);
}

static void check_info(const char *fn, fint info, SrcLoc loc) {
  if (info < 0) rt_error(loc, "%s: LAPACK rejected argument %d", fn, -info);
}

/* ---- complex matrices (LAPACK's z routines) ---- */

typedef struct CMat { fint m, n; double complex *a; } CMat;   /* a[i + j * m] */

static bool is_complex(Value v) {
  return v.kind == V_CSCALAR || (v.kind == V_ARRAY && el_is_complex(v.arr->elem));
}

/* Elements allocated past a complex matrix's end: Debian's OpenBLAS (0.3.21) zgemv_n
   Haswell kernel, which zgesdd reaches through zgebrd/zlarf, reads past the end of the
   matrix for some shapes (OpenBLAS issue 4013); under ASan's allocator that read left the
   mapping (a 100 x 40 pinv crashed make asan). */
#define CMAT_SLACK 64

static CMat cmat_new(fint m, fint n) {
  size_t cells = (size_t)(m ? m : 1) * (size_t)(n ? n : 1) + CMAT_SLACK;
  CMat M = { m, n, calloc(cells, sizeof(double complex)) };
  return M;
}

static void cmat_free(CMat *M) { free(M->a); M->a = NULL; }

static void load_c(Value v, int64_t i, double *re, double *im);

/* A matrix operand (real or complex) as a column-major complex copy. */
static CMat cmat_from(const char *fn, Value v, SrcLoc loc) {
  int64_t m, n;
  shape_of(fn, v, &m, &n, loc);
  CMat M = cmat_new(fit(fn, m, loc), fit(fn, n, loc));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double re, im;
      load_c(v, i * n + j, &re, &im);
      M.a[i + j * m] = CMPLX(re, im);
    }
  return M;
}

static CMat csquare_from(const char *fn, Value v, SrcLoc loc) {
  CMat M = cmat_from(fn, v, loc);
  if (M.m != M.n) {
    fint m = M.m, n = M.n;
    cmat_free(&M);
    rt_error(loc, "%s: expected a square matrix, got %d x %d", fn, m, n);
  }
  return M;
}

/* Rows r0.. and columns c0.. of M (m x n of them) as a row-major cscalar array; conj: the
   conjugate transpose of that part instead. */
static Value cmat_part(CMat M, fint r0, fint c0, fint m, fint n, bool conj) {
  int64_t dims[2] = { conj ? n : m, conj ? m : n };
  int rank = 2;
  rt_shape_normalize(&rank, dims);
  Array *A = arr_new(el_cscalar(), rank, dims);
  for (fint i = 0; i < m; i++)
    for (fint j = 0; j < n; j++) {
      double complex z = M.a[(size_t)(r0 + i) + (size_t)(c0 + j) * (size_t)M.m];
      if (conj) arr_store_c(A, (int64_t)j * m + i, creal(z), -cimag(z));
      else arr_store_c(A, (int64_t)i * n + j, creal(z), cimag(z));
    }
  return v_array(A);
}

static Value cmat_to(CMat M) { return cmat_part(M, 0, 0, M.m, M.n, false); }

/* LAPACK's optimal workspace from a query's first element. */
static fint zlwork(double complex q) { return (fint)creal(q) > 1 ? (fint)creal(q) : 1; }

static Value cinv(const LapackApi *f, const char *fn, Value v, SrcLoc loc) {
  CMat M = csquare_from(fn, v, loc);
  fint n = M.n, info = 0, lwork = -1;
  if (n) {
    fint *ipiv = malloc(sizeof(fint) * (size_t)n);
    f->zgetrf(&n, &n, M.a, &n, ipiv, &info);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the matrix is singular", fn);
    double complex q;
    f->zgetri(&n, M.a, &n, ipiv, &q, &lwork, &info);
    lwork = zlwork(q);
    double complex *work = malloc(sizeof *work * (size_t)lwork);
    f->zgetri(&n, M.a, &n, ipiv, work, &lwork, &info);
    free(work);
    free(ipiv);
    check_info(fn, info, loc);
  }
  Value r = cmat_to(M);
  cmat_free(&M);
  return r;
}

static Value cdet(const LapackApi *f, Value v, SrcLoc loc) {
  CMat M = csquare_from("det", v, loc);
  fint n = M.n, info = 0;
  fint *ipiv = malloc(sizeof(fint) * (size_t)(n ? n : 1));
  double complex d = 1;
  if (n) f->zgetrf(&n, &n, M.a, &n, ipiv, &info);
  check_info("det", info, loc);
  if (info > 0) d = 0;
  else
    for (fint i = 0; i < n; i++) d *= ipiv[i] != i + 1 ? -M.a[i + i * n] : M.a[i + i * n];
  free(ipiv);
  cmat_free(&M);
  return v_cscalar(creal(d), cimag(d));
}

/* X with A X = B when A or B is complex: LU for a square A, least squares (QR) else. */
static Value csolve(const LapackApi *f, const char *fn, Value a, Value b, SrcLoc loc) {
  CMat A = cmat_from(fn, a, loc);
  bool as_vec = b.kind == V_ARRAY && b.arr->rank == 1;
  CMat B;
  if (as_vec) {   /* a vec is one column */
    if (b.arr->numel != A.m) dims_error(fn, "the rows of A and the length of b", A.m, b.arr->numel, loc);
    B = cmat_new(A.m, 1);
    for (fint i = 0; i < A.m; i++) {
      double re, im;
      load_c(b, i, &re, &im);
      B.a[i] = CMPLX(re, im);
    }
  } else {
    B = cmat_from(fn, b, loc);
    if (B.m != A.m) dims_error(fn, "the rows of A and B", A.m, B.m, loc);
  }
  fint info = 0, ldb = A.m > A.n ? A.m : A.n;
  CMat X = cmat_new(ldb, B.n);
  for (fint j = 0; j < B.n; j++)
    for (fint i = 0; i < B.m; i++) X.a[i + j * ldb] = B.a[i + j * B.m];
  if (!A.m || !A.n || !B.n) {
    /* empty: the zero solution */
  } else if (A.m == A.n) {
    fint *ipiv = malloc(sizeof(fint) * (size_t)A.n);
    f->zgetrf(&A.m, &A.n, A.a, &A.m, ipiv, &info);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the matrix is singular", fn);
    f->zgetrs("N", &A.n, &B.n, A.a, &A.m, ipiv, X.a, &ldb, &info, 1);
    free(ipiv);
    check_info(fn, info, loc);
  } else {
    fint lwork = -1;
    double complex q;
    f->zgels("N", &A.m, &A.n, &B.n, A.a, &A.m, X.a, &ldb, &q, &lwork, &info, 1);
    lwork = zlwork(q);
    double complex *work = malloc(sizeof *work * (size_t)lwork);
    f->zgels("N", &A.m, &A.n, &B.n, A.a, &A.m, X.a, &ldb, work, &lwork, &info, 1);
    free(work);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the matrix does not have full rank", fn);
  }
  Value r;
  if (as_vec) {   /* the n x 1 column as a vec */
    Array *c = arr_vec(el_cscalar(), A.n);
    for (fint i = 0; i < A.n; i++) arr_store_c(c, i, creal(X.a[i]), cimag(X.a[i]));
    r = v_array(c);
  } else {
    r = cmat_part(X, 0, 0, A.n, B.n, false);
  }
  cmat_free(&A);
  cmat_free(&B);
  cmat_free(&X);
  return r;
}

/* The full SVD of the complex A (overwritten, zgesdd): the min(m, n) values s descending,
   U (m x m) and V' (n x n, the conjugate transpose of V). */
static void csvd_run(const LapackApi *f, const char *fn, CMat A, double *s, CMat *U, CMat *VT,
                     SrcLoc loc) {
  fint m = A.m, n = A.n, k = m < n ? m : n, mx = m > n ? m : n, info = 0, lwork = -1;
  *U = cmat_new(m, m);
  *VT = cmat_new(n, n);
  if (!k) {
    for (fint i = 0; i < m; i++) U->a[i + i * m] = 1;
    for (fint i = 0; i < n; i++) VT->a[i + i * n] = 1;
    return;
  }
  size_t lrwork = (size_t)k * (size_t)(5 * k + 7 > 2 * mx + 2 * k + 1 ? 5 * k + 7 : 2 * mx + 2 * k + 1);
  double *rwork = malloc(sizeof(double) * (lrwork ? lrwork : 1));
  fint *iwork = malloc(sizeof(fint) * 8 * (size_t)k);
  double complex q;
  f->zgesdd("A", &m, &n, A.a, &m, s, U->a, &m, VT->a, &n, &q, &lwork, rwork, iwork, &info, 1);
  lwork = zlwork(q);
  double complex *work = malloc(sizeof *work * (size_t)lwork);
  f->zgesdd("A", &m, &n, A.a, &m, s, U->a, &m, VT->a, &n, work, &lwork, rwork, iwork, &info, 1);
  free(work);
  free(rwork);
  free(iwork);
  check_info(fn, info, loc);
  if (info > 0) rt_error(loc, "%s: the SVD did not converge", fn);
}

/* [U, S, V] = svd(A) of a complex A: A = U S V' (V' the conjugate transpose), U and V
   unitary (cmat), S real m x n with the singular values descending. */
static Value csvd(const LapackApi *f, const char *fn, Value a, SrcLoc loc) {
  CMat A = cmat_from(fn, a, loc), U, VT;
  fint m = A.m, n = A.n, k = m < n ? m : n;
  double *s = calloc((size_t)k + 1, sizeof(double));
  csvd_run(f, fn, A, s, &U, &VT, loc);
  Mat S = mat_new(m, n);
  for (fint i = 0; i < k; i++) AT(S, i, i) = s[i];
  Value r = tuple3(cmat_to(U), mat_to(S), cmat_part(VT, 0, 0, n, n, true));
  free(s);
  mat_free(&S);
  cmat_free(&A);
  cmat_free(&U);
  cmat_free(&VT);
  return r;
}

/* pinv of a complex A: V diag(1/s) U' over the singular values above tol (as the real one). */
static Value cpinv(const LapackApi *f, Value a, double tol, bool has_tol, SrcLoc loc) {
  CMat A = cmat_from("pinv", a, loc), U, VT;
  fint m = A.m, n = A.n, k = m < n ? m : n;
  double *s = calloc((size_t)k + 1, sizeof(double));
  csvd_run(f, "pinv", A, s, &U, &VT, loc);
  if (!has_tol) tol = (m > n ? m : n) * (k ? s[0] : 0) * eps_scalar();
  CMat P = cmat_new(n, m);
  for (fint r = 0; r < k; r++) {
    if (s[r] <= tol) continue;
    for (fint j = 0; j < m; j++) {
      double complex uj = conj(U.a[j + r * m]) / s[r];   /* U'[r, j] / s_r */
      for (fint i = 0; i < n; i++) P.a[i + j * n] += conj(VT.a[r + i * n]) * uj;   /* V[i, r] */
    }
  }
  Value res = cmat_to(P);
  free(s);
  cmat_free(&A);
  cmat_free(&U);
  cmat_free(&VT);
  cmat_free(&P);
  return res;
}

/* R = chol(A) of a complex A: the upper R with R' R = A (zpotrf on A's upper triangle). */
static Value cchol(const LapackApi *f, const char *fn, Value a, SrcLoc loc) {
  CMat M = csquare_from(fn, a, loc);
  fint n = M.n, info = 0;
  if (n) f->zpotrf("U", &n, M.a, &n, &info, 1);
  check_info(fn, info, loc);
  if (info > 0) {
    cmat_free(&M);
    rt_error(loc, "%s: the matrix is not positive definite", fn);
  }
  for (fint j = 0; j < n; j++)
    for (fint i = j + 1; i < n; i++) M.a[i + j * n] = 0;
  Value r = cmat_to(M);
  cmat_free(&M);
  return r;
}

/* The permutation matrix P (m x m, real) with P A = the rows of A exchanged as getrf's ipiv
   (k exchanges, 1-based) says. */
static Value perm_matrix(const fint *ipiv, fint m, fint k);

/* [L, U, P] = lu(A) of a complex A (zgetrf): P A = L U, L unit lower m x k, U upper k x n. */
static Value clu(const LapackApi *f, Value a, SrcLoc loc) {
  CMat A = cmat_from("lu", a, loc);
  fint m = A.m, n = A.n, k = m < n ? m : n, info = 0;
  fint *ipiv = calloc((size_t)(k ? k : 1), sizeof(fint));
  if (k) f->zgetrf(&m, &n, A.a, &m, ipiv, &info);   /* info > 0: U is singular, still valid */
  check_info("lu", info, loc);
  CMat Lm = cmat_new(m, k), U = cmat_new(k, n);
  for (fint i = 0; i < m; i++)
    for (fint j = 0; j < k; j++) Lm.a[i + j * m] = i == j ? 1 : i > j ? A.a[i + j * m] : 0;
  for (fint i = 0; i < k; i++)
    for (fint j = i; j < n; j++) U.a[i + j * k] = A.a[i + j * m];
  Value r = tuple3(cmat_to(Lm), cmat_to(U), perm_matrix(ipiv, m, k));
  free(ipiv);
  cmat_free(&A);
  cmat_free(&Lm);
  cmat_free(&U);
  return r;
}

/* [Q, R] = qr(A) of a complex A (zgeqrf, zungqr): Q m x m unitary, R m x n upper, Q R = A. */
static Value cqr(const LapackApi *f, Value a, SrcLoc loc) {
  CMat A = cmat_from("qr", a, loc);
  fint m = A.m, n = A.n, k = m < n ? m : n, info = 0, lwork = -1;
  CMat Q = cmat_new(m, m);
  if (k) {
    double complex *tau = calloc((size_t)k, sizeof *tau), q;
    f->zgeqrf(&m, &n, A.a, &m, tau, &q, &lwork, &info);
    lwork = zlwork(q);
    double complex *work = malloc(sizeof *work * (size_t)lwork);
    f->zgeqrf(&m, &n, A.a, &m, tau, work, &lwork, &info);
    free(work);
    check_info("qr", info, loc);
    for (fint j = 0; j < k; j++)
      for (fint i = 0; i < m; i++) Q.a[i + j * m] = A.a[i + j * m];
    lwork = -1;
    f->zungqr(&m, &m, &k, Q.a, &m, tau, &q, &lwork, &info);
    lwork = zlwork(q);
    work = malloc(sizeof *work * (size_t)lwork);
    f->zungqr(&m, &m, &k, Q.a, &m, tau, work, &lwork, &info);
    free(work);
    free(tau);
    check_info("qr", info, loc);
  } else {
    for (fint i = 0; i < m; i++) Q.a[i + i * m] = 1;
  }
  for (fint j = 0; j < n; j++)
    for (fint i = j + 1; i < m; i++) A.a[i + j * m] = 0;
  Value r = tuple2(cmat_to(Q), cmat_to(A));
  cmat_free(&A);
  cmat_free(&Q);
  return r;
}

static bool is_hermitian(CMat M) {
  double big = 0, diff = 0;
  for (fint j = 0; j < M.n; j++)
    for (fint i = 0; i < M.m; i++) {
      big = fmax(big, cabs(M.a[i + j * M.m]));
      diff = fmax(diff, cabs(M.a[i + j * M.m] - conj(M.a[j + i * M.m])));
    }
  return diff <= 64 * eps_scalar() * big;
}

/* [V, d] of a Hermitian M (zheevd): d real, ascending; V a cmat of orthonormal columns. */
static Value cherm_eig(const LapackApi *f, const char *fn, CMat M, SrcLoc loc) {
  fint n = M.n, info = 0, lwork = -1, lrwork = -1, liwork = -1, iq;
  double *w = calloc((size_t)n + 1, sizeof(double)), rq;
  if (n) {
    double complex q;
    f->zheevd("V", "U", &n, M.a, &n, w, &q, &lwork, &rq, &lrwork, &iq, &liwork, &info, 1, 1);
    lwork = zlwork(q);
    lrwork = (fint)rq > 1 ? (fint)rq : 1;
    liwork = iq > 1 ? iq : 1;
    double complex *work = malloc(sizeof *work * (size_t)lwork);
    double *rwork = malloc(sizeof(double) * (size_t)lrwork);
    fint *iwork = malloc(sizeof(fint) * (size_t)liwork);
    f->zheevd("V", "U", &n, M.a, &n, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info, 1, 1);
    free(work);
    free(rwork);
    free(iwork);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the eigenvalues did not converge", fn);
  }
  Value r = tuple2(cmat_to(M), vec_of(w, n));
  free(w);
  return r;
}

/* [V, d] = eig(A) of a complex A: a Hermitian A as symeig (zheevd); otherwise zgeev: d a cvec, V a cmat of right eigenvectors (unit
   length), A V = V diag(d). */
static Value ceig(const LapackApi *f, Value a, SrcLoc loc) {
  CMat M = csquare_from("eig", a, loc);
  if (is_hermitian(M)) {
    Value r = cherm_eig(f, "eig", M, loc);
    cmat_free(&M);
    return r;
  }
  fint n = M.n, info = 0, lwork = -1, one = 1;
  CMat VR = cmat_new(n, n);
  double complex *w = calloc((size_t)n + 1, sizeof *w), dummy[1], q;
  if (n) {
    double *rwork = malloc(sizeof(double) * 2 * (size_t)n);
    f->zgeev("N", "V", &n, M.a, &n, w, dummy, &one, VR.a, &n, &q, &lwork, rwork, &info, 1, 1);
    lwork = zlwork(q);
    double complex *work = malloc(sizeof *work * (size_t)lwork);
    f->zgeev("N", "V", &n, M.a, &n, w, dummy, &one, VR.a, &n, work, &lwork, rwork, &info, 1, 1);
    free(work);
    free(rwork);
    check_info("eig", info, loc);
    if (info > 0) rt_error(loc, "eig: the eigenvalues did not converge");
  }
  Array *d = arr_vec(el_cscalar(), n);
  for (fint j = 0; j < n; j++) arr_store_c(d, j, creal(w[j]), cimag(w[j]));
  Value r = tuple2(cmat_to(VR), v_array(d));
  free(w);
  cmat_free(&VR);
  cmat_free(&M);
  return r;
}

/* ---- linalg.q ---- */

#define LA(name) static Value la_##name(LapackLib *L, int argc, const Value *argv, SrcLoc loc)


/* P M = L U of the m x n M in place (ipiv 1-based, min(m, n) of them); LAPACK's info. */
static fint getrf_any(const LapackApi *f, const char *fn, Mat M, fint *ipiv, SrcLoc loc) {
  fint info = 0;
  if (f->gpu) info = f->gpu->getrf(f->gpu->ctx, gpu_single(), M.m, M.n, M.a, ipiv, loc);
  else f->getrf(&M.m, &M.n, M.a, &M.m, ipiv, &info);
  check_info(fn, info, loc);
  return info;
}

/* LU of the square M in place; false when M is singular. */
static bool lu_factor(const LapackApi *f, const char *fn, Mat M, fint *ipiv, SrcLoc loc) {
  return getrf_any(f, fn, M, ipiv, loc) == 0;
}

/* The inverse of the square M on the GPU: A X = I (getrf + getrs; cuSOLVER has no getri). */
static void inverse_gpu(const LapackApi *f, const char *fn, Mat M, SrcLoc loc) {
  Mat X = mat_new(M.n, M.n);
  for (fint i = 0; i < M.n; i++) AT(X, i, i) = 1;
  fint info = f->gpu->gesv(f->gpu->ctx, gpu_single(), M.n, M.n, M.a, X.a, loc);
  check_info(fn, info, loc);
  if (info > 0) {
    mat_free(&X);
    rt_error(loc, "%s: the matrix is singular", fn);
  }
  memcpy(M.a, X.a, sizeof(double) * (size_t)M.n * (size_t)M.n);
  mat_free(&X);
}

static Mat inverse(const LapackApi *f, const char *fn, Value v, SrcLoc loc) {
  Mat M = square_from(fn, v, loc);
  if (!M.n) return M;
  if (f->gpu) {
    inverse_gpu(f, fn, M, loc);
    return M;
  }
  fint *ipiv = malloc(sizeof(fint) * (size_t)M.n), info = 0, lwork = -1;
  if (!lu_factor(f, fn, M, ipiv, loc)) rt_error(loc, "%s: the matrix is singular", fn);
  double q;
  f->getri(&M.n, M.a, &M.m, ipiv, &q, &lwork, &info);
  lwork = (fint)q > 1 ? (fint)q : 1;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  f->getri(&M.n, M.a, &M.m, ipiv, work, &lwork, &info);
  check_info(fn, info, loc);
  if (info > 0) rt_error(loc, "%s: the matrix is singular", fn);
  free(work);
  free(ipiv);
  return M;
}

LA(inv) {
  (void)argc;
  if (is_complex(argv[0])) return cinv(api(L, "inv", loc), "inv", argv[0], loc);
  Mat M = inverse(api(L, "inv", loc), "inv", argv[0], loc);
  Value r = mat_to(M);
  mat_free(&M);
  return r;
}

LA(det) {
  (void)argc;
  const LapackApi *f = api(L, "det", loc);
  if (is_complex(argv[0])) return cdet(f, argv[0], loc);
  Mat M = square_from("det", argv[0], loc);
  fint *ipiv = malloc(sizeof(fint) * (size_t)(M.n ? M.n : 1));
  double d = 1;
  if (M.n && !lu_factor(f, "det", M, ipiv, loc)) d = 0;
  else
    for (fint i = 0; i < M.n; i++) d *= ipiv[i] != i + 1 ? -AT(M, i, i) : AT(M, i, i);
  free(ipiv);
  mat_free(&M);
  return v_scalar(d);
}

/* The right-hand side of solve: a vec is one column (the result is then a vec too). */
static Mat rhs_from(const char *fn, Value b, fint rows, bool *as_vec, SrcLoc loc) {
  *as_vec = b.kind == V_ARRAY && b.arr->rank == 1;
  if (!*as_vec) {
    Mat B = mat_from(fn, b, loc);
    if (B.m != rows) dims_error(fn, "the rows of A and B", rows, B.m, loc);
    return B;
  }
  if (val_class(b) == NC_COMPLEX) rt_error(loc, "%s: complex right-hand sides are not supported", fn);
  if (b.arr->numel != rows) dims_error(fn, "the rows of A and the length of b", rows, b.arr->numel, loc);
  Mat B = mat_new(rows, 1);
  for (fint i = 0; i < rows; i++) B.a[i] = arr_load(b.arr, i);
  return B;
}

/* X with A X = B: LU for a square A, least squares (QR) for a full-rank rectangular one. */
static Value solve(LapackLib *L, const char *fn, Value a, Value b, SrcLoc loc) {
  const LapackApi *f = api(L, fn, loc);
  if (is_complex(a) || is_complex(b)) return csolve(f, fn, a, b, loc);
  Mat A = mat_from(fn, a, loc);
  bool as_vec;
  Mat B = rhs_from(fn, b, A.m, &as_vec, loc);
  fint info = 0, ldb = A.m > A.n ? A.m : A.n;
  Mat X = mat_new(ldb, B.n);   /* gels needs max(m, n) rows */
  for (fint i = 0; i < B.m; i++)
    for (fint j = 0; j < B.n; j++) AT(X, i, j) = AT(B, i, j);
  if (!A.m || !A.n || !B.n) {
    /* empty: the zero solution */
  } else if (A.m == A.n && f->gpu) {
    info = f->gpu->gesv(f->gpu->ctx, gpu_single(), A.n, B.n, A.a, X.a, loc);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the matrix is singular", fn);
  } else if (A.m == A.n) {
    fint *ipiv = malloc(sizeof(fint) * (size_t)A.n);
    if (!lu_factor(f, fn, A, ipiv, loc)) rt_error(loc, "%s: the matrix is singular", fn);
    f->getrs("N", &A.n, &B.n, A.a, &A.m, ipiv, X.a, &ldb, &info, 1);
    check_info(fn, info, loc);
    free(ipiv);
  } else {
    fint lwork = -1;
    double q;
    f->gels("N", &A.m, &A.n, &B.n, A.a, &A.m, X.a, &ldb, &q, &lwork, &info, 1);
    lwork = (fint)q > 1 ? (fint)q : 1;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    f->gels("N", &A.m, &A.n, &B.n, A.a, &A.m, X.a, &ldb, work, &lwork, &info, 1);
    free(work);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the matrix does not have full rank", fn);
  }
  Value r = as_vec ? vec_of(X.a, A.n) : mat_part(X, 0, 0, A.n, B.n);
  mat_free(&A);
  mat_free(&B);
  mat_free(&X);
  return r;
}

LA(solve) { (void)argc; return solve(L, "solve", argv[0], argv[1], loc); }
LA(mldivide) { (void)argc; return solve(L, "mldivide", argv[0], argv[1], loc); }

/* The upper Cholesky factor R (R' R = A) of the upper triangle of M, in place. */
static void cholesky(const LapackApi *f, const char *fn, Mat M, SrcLoc loc) {
  fint info = 0;
  if (!M.n) return;
  if (f->gpu) info = f->gpu->potrf(f->gpu->ctx, gpu_single(), M.n, M.a, loc);
  else f->potrf("U", &M.n, M.a, &M.m, &info, 1);
  check_info(fn, info, loc);
  if (info > 0) rt_error(loc, "%s: the matrix is not positive definite", fn);
  for (fint j = 0; j < M.n; j++)
    for (fint i = j + 1; i < M.n; i++) AT(M, i, j) = 0;
}

static Value chol_value(LapackLib *L, const char *fn, Value a, SrcLoc loc) {
  const LapackApi *f = api(L, fn, loc);
  if (is_complex(a)) return cchol(f, fn, a, loc);
  Mat M = square_from(fn, a, loc);
  cholesky(f, fn, M, loc);
  Value r = mat_to(M);
  mat_free(&M);
  return r;
}

LA(chol) { (void)argc; return chol_value(L, "chol", argv[0], loc); }

/* [L, U, P] with P A = L U: L m x k unit lower, U k x n upper, P m x m (k = min(m, n)). */
LA(lu) {
  (void)argc;
  const LapackApi *f = api(L, "lu", loc);
  if (is_complex(argv[0])) return clu(f, argv[0], loc);
  Mat A = mat_from("lu", argv[0], loc);
  fint m = A.m, n = A.n, k = m < n ? m : n;
  fint *ipiv = calloc((size_t)(k ? k : 1), sizeof(fint));
  if (k) getrf_any(f, "lu", A, ipiv, loc);   /* info > 0: U is singular, still valid */
  Mat Lm = mat_new(m, k), U = mat_new(k, n);
  for (fint i = 0; i < m; i++)
    for (fint j = 0; j < k; j++) AT(Lm, i, j) = i == j ? 1 : i > j ? AT(A, i, j) : 0;
  for (fint i = 0; i < k; i++)
    for (fint j = i; j < n; j++) AT(U, i, j) = AT(A, i, j);
  Value r = tuple3(mat_to(Lm), mat_to(U), perm_matrix(ipiv, m, k));
  free(ipiv);
  mat_free(&A);
  mat_free(&Lm);
  mat_free(&U);
  return r;
}

static Value perm_matrix(const fint *ipiv, fint m, fint k) {
  fint *perm = malloc(sizeof(fint) * (size_t)(m ? m : 1));
  for (fint i = 0; i < m; i++) perm[i] = i;
  for (fint i = 0; i < k; i++) {
    fint t = perm[i];
    perm[i] = perm[ipiv[i] - 1];
    perm[ipiv[i] - 1] = t;
  }
  Mat P = mat_new(m, m);
  for (fint i = 0; i < m; i++) AT(P, i, perm[i]) = 1;   /* (P A)[i] = A[perm[i]] */
  Value r = mat_to(P);
  free(perm);
  mat_free(&P);
  return r;
}

/* Householder QR of A in place (geqrf); tau gets min(m, n) factors. */
static void qr_factor(const LapackApi *f, const char *fn, Mat A, double *tau, SrcLoc loc) {
  fint info = 0, lwork = -1;
  if (!A.m || !A.n) return;
  double q;
  f->geqrf(&A.m, &A.n, A.a, &A.m, tau, &q, &lwork, &info);
  lwork = (fint)q > 1 ? (fint)q : 1;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  f->geqrf(&A.m, &A.n, A.a, &A.m, tau, work, &lwork, &info);
  free(work);
  check_info(fn, info, loc);
}

/* The first `cols` columns of Q (cols >= k) from geqrf's reflectors in A. */
static Mat q_factor(const LapackApi *f, const char *fn, Mat A, const double *tau, fint cols, SrcLoc loc) {
  fint k = A.m < A.n ? A.m : A.n, info = 0, lwork = -1;
  Mat Q = mat_new(A.m, cols);
  for (fint j = 0; j < k; j++)
    for (fint i = 0; i < A.m; i++) AT(Q, i, j) = AT(A, i, j);
  if (!A.m || !cols) return Q;
  double q;
  f->orgqr(&Q.m, &cols, &k, Q.a, &Q.m, tau, &q, &lwork, &info);
  lwork = (fint)q > 1 ? (fint)q : 1;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  f->orgqr(&Q.m, &cols, &k, Q.a, &Q.m, tau, work, &lwork, &info);
  free(work);
  check_info(fn, info, loc);
  return Q;
}

/* [Q, R] = qr(A): Q m x m orthogonal, R m x n upper triangular, Q R = A. */
LA(qr) {
  (void)argc;
  const LapackApi *f = api(L, "qr", loc);
  if (is_complex(argv[0])) return cqr(f, argv[0], loc);
  Mat A = mat_from("qr", argv[0], loc);
  double *tau = calloc((size_t)(A.m < A.n ? A.m : A.n) + 1, sizeof(double));
  Mat Q;
  if (f->gpu && A.m && A.n) {
    Q = mat_new(A.m, A.m);
    check_info("qr", f->gpu->qr(f->gpu->ctx, gpu_single(), A.m, A.n, A.a, Q.a, loc), loc);
  } else {
    qr_factor(f, "qr", A, tau, loc);
    Q = q_factor(f, "qr", A, tau, A.m, loc);
  }
  for (fint j = 0; j < A.n; j++)
    for (fint i = j + 1; i < A.m; i++) AT(A, i, j) = 0;
  Value r = tuple2(mat_to(Q), mat_to(A));
  free(tau);
  mat_free(&Q);
  mat_free(&A);
  return r;
}

/* Singular values s (descending) and, when U is not NULL, U (m x m) and V' (n x n). */
static void svd_run(const LapackApi *f, const char *fn, Mat A, double *s, Mat *U, Mat *VT, SrcLoc loc) {
  fint k = A.m < A.n ? A.m : A.n, info = 0, lwork = -1;
  if (U) { *U = mat_new(A.m, A.m); *VT = mat_new(A.n, A.n); }
  if (!k) {
    if (U) {
      for (fint i = 0; i < A.m; i++) AT(*U, i, i) = 1;
      for (fint i = 0; i < A.n; i++) AT(*VT, i, i) = 1;
    }
    return;
  }
  if (f->gpu) {
    info = f->gpu->svd(f->gpu->ctx, gpu_single(), A.m, A.n, A.a, s, U ? U->a : NULL,
                       U ? VT->a : NULL, loc);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the SVD did not converge", fn);
    return;
  }
  const char *job = U ? "A" : "N";
  fint ldu = A.m, ldvt = A.n;
  double *u = U ? U->a : NULL, *vt = U ? VT->a : NULL, q, dummy[1];
  if (!U) { u = vt = dummy; ldu = ldvt = 1; }
  fint *iwork = malloc(sizeof(fint) * 8 * (size_t)k);
  f->gesdd(job, &A.m, &A.n, A.a, &A.m, s, u, &ldu, vt, &ldvt, &q, &lwork, iwork, &info, 1);
  lwork = (fint)q > 1 ? (fint)q : 1;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  f->gesdd(job, &A.m, &A.n, A.a, &A.m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  free(work);
  free(iwork);
  check_info(fn, info, loc);
  if (info > 0) rt_error(loc, "%s: the SVD did not converge", fn);
}

/* [U, S, V] = svd(A): A = U S V', U m x m, S m x n (the singular values on its diagonal,
   descending), V n x n, as MATLAB's full SVD. */
static Value svd_value(LapackLib *L, const char *fn, Value a, SrcLoc loc) {
  const LapackApi *f = api(L, fn, loc);
  if (is_complex(a)) return csvd(f, fn, a, loc);
  Mat A = mat_from(fn, a, loc);
  fint k = A.m < A.n ? A.m : A.n;
  double *s = calloc((size_t)k + 1, sizeof(double));
  Mat U, VT;
  svd_run(f, fn, A, s, &U, &VT, loc);
  Mat S = mat_new(A.m, A.n), V = mat_new(A.n, A.n);
  for (fint i = 0; i < k; i++) AT(S, i, i) = s[i];
  for (fint i = 0; i < A.n; i++)
    for (fint j = 0; j < A.n; j++) AT(V, i, j) = AT(VT, j, i);
  Value r = tuple3(mat_to(U), mat_to(S), mat_to(V));
  free(s);
  mat_free(&A);
  mat_free(&U);
  mat_free(&VT);
  mat_free(&S);
  mat_free(&V);
  return r;
}

LA(svd) { (void)argc; return svd_value(L, "svd", argv[0], loc); }

static bool is_symmetric(Mat M) {
  double big = 0, diff = 0;
  for (fint j = 0; j < M.n; j++)
    for (fint i = 0; i < M.m; i++) {
      big = fmax(big, fabs(AT(M, i, j)));
      diff = fmax(diff, fabs(AT(M, i, j) - AT(M, j, i)));
    }
  return diff <= 64 * eps_scalar() * big;
}

/* [V, d] of a symmetric matrix: A V = V diag(d), d ascending, V's columns orthonormal. */
static Value symeig_of(const LapackApi *f, const char *fn, Mat M, SrcLoc loc) {
  double *w = calloc((size_t)M.n + 1, sizeof(double));
  if (M.n && f->gpu) {
    fint info = f->gpu->syevd(f->gpu->ctx, gpu_single(), M.n, M.a, w, loc);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the eigenvalues did not converge", fn);
  } else if (M.n) {
    fint info = 0, lwork = -1, liwork = -1, iq;
    double q;
    f->syevd("V", "U", &M.n, M.a, &M.m, w, &q, &lwork, &iq, &liwork, &info, 1, 1);
    lwork = (fint)q > 1 ? (fint)q : 1;
    liwork = iq > 1 ? iq : 1;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    fint *iwork = malloc(sizeof(fint) * (size_t)liwork);
    f->syevd("V", "U", &M.n, M.a, &M.m, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    free(work);
    free(iwork);
    check_info(fn, info, loc);
    if (info > 0) rt_error(loc, "%s: the eigenvalues did not converge", fn);
  }
  Value r = tuple2(mat_to(M), vec_of(w, M.n));
  free(w);
  return r;
}

LA(symeig) {
  (void)argc;
  const LapackApi *f = api(L, "symeig", loc);
  if (is_complex(argv[0])) {
    CMat C = csquare_from("symeig", argv[0], loc);
    if (!is_hermitian(C)) {
      cmat_free(&C);
      rt_error(loc, "symeig: the complex matrix is not Hermitian (eig takes any square matrix)");
    }
    Value r = cherm_eig(f, "symeig", C, loc);
    cmat_free(&C);
    return r;
  }
  Mat M = square_from("symeig", argv[0], loc);
  if (!is_symmetric(M)) rt_error(loc, "symeig: the matrix is not symmetric (eig takes any square matrix)");
  Value r = symeig_of(f, "symeig", M, loc);
  mat_free(&M);
  return r;
}

/* [V, d] = eig(A): symmetric A as symeig; otherwise dgeev's eigenvalues (a cvec) and right
   eigenvectors (a cmat, columns of unit length), A V = V diag(d). */
LA(eig) {
  (void)argc;
  const LapackApi *f = api(L, "eig", loc);
  if (is_complex(argv[0])) return ceig(f, argv[0], loc);
  Mat M = square_from("eig", argv[0], loc);
  if (is_symmetric(M)) {
    Value r = symeig_of(f, "eig", M, loc);
    mat_free(&M);
    return r;
  }
  fint n = M.n, info = 0, lwork = -1, one = 1;
  double *wr = calloc((size_t)n, sizeof(double)), *wi = calloc((size_t)n, sizeof(double)), q, dummy[1];
  Mat VR = mat_new(n, n);
  f->geev("N", "V", &n, M.a, &n, wr, wi, dummy, &one, VR.a, &n, &q, &lwork, &info, 1, 1);
  lwork = (fint)q > 1 ? (fint)q : 1;
  double *work = malloc(sizeof(double) * (size_t)lwork);
  f->geev("N", "V", &n, M.a, &n, wr, wi, dummy, &one, VR.a, &n, work, &lwork, &info, 1, 1);
  free(work);
  check_info("eig", info, loc);
  if (info > 0) rt_error(loc, "eig: the eigenvalues did not converge");
  int64_t dims[2] = { n, n };
  Array *V = arr_new(el_cscalar(), 2, dims), *d = arr_vec(el_cscalar(), n);
  for (fint j = 0; j < n; j++) {
    arr_store_c(d, j, wr[j], wi[j]);
    for (fint i = 0; i < n; i++) {
      /* a complex pair: v_j = vr[:, j] + i vr[:, j+1], v_{j+1} its conjugate */
      double re = AT(VR, i, j), im = 0;
      if (wi[j] > 0 && j + 1 < n) im = AT(VR, i, j + 1);
      else if (wi[j] < 0 && j > 0) { re = AT(VR, i, j - 1); im = -AT(VR, i, j); }
      arr_store_c(V, (int64_t)i * n + j, re, im);
    }
  }
  free(wr);
  free(wi);
  mat_free(&VR);
  mat_free(&M);
  return tuple2(v_array(V), v_array(d));
}

/* pinv(A [, tol]): V diag(1/s) U' over the singular values above tol (default
   max(m, n) * s_max * eps of `scalar`). */
LA(pinv) {
  const LapackApi *f = api(L, "pinv", loc);
  if (is_complex(argv[0])) return cpinv(f, argv[0], argc > 1 ? rt_to_real(argv[1], loc) : 0, argc > 1, loc);
  Mat A = mat_from("pinv", argv[0], loc);
  fint m = A.m, n = A.n, k = m < n ? m : n;
  double *s = calloc((size_t)k + 1, sizeof(double));
  Mat U, VT;
  svd_run(f, "pinv", A, s, &U, &VT, loc);
  double tol = argc > 1 ? rt_to_real(argv[1], loc) : (m > n ? m : n) * (k ? s[0] : 0) * eps_scalar();
  Mat P = mat_new(n, m);
  /* P = V_k diag(1/s) U_k' by one GEMM: U's first k columns scaled (0 past the cut), then
     P = (VT's first k rows)' (U_k scaled)' */
  for (fint r = 0; r < k; r++)
    for (fint j = 0; j < m; j++) AT(U, j, r) = s[r] > tol ? AT(U, j, r) / s[r] : 0;
  const double one = 1, zero = 0;
  if (k) f->gemm[1]("T", "T", &n, &m, &k, &one, VT.a, &n, U.a, &m, &zero, P.a, &n, 1, 1);
  Value res = mat_to(P);
  free(s);
  mat_free(&A);
  mat_free(&U);
  mat_free(&VT);
  mat_free(&P);
  return res;
}

/* ---- element-type-preserving helpers: diag, eye, kron, trace, norm ---- */

static ElemType value_elem(Value v) {
  if (v.kind == V_ARRAY) return v.arr->elem;
  return v.kind == V_CSCALAR ? el_cscalar() : v.kind == V_SCALAR ? el_scalar() : EL_I32;
}

static void load_c(Value v, int64_t i, double *re, double *im) {
  if (v.kind == V_ARRAY) { arr_load_c(v.arr, i, re, im); return; }
  *re = v.kind == V_CSCALAR ? v.c.re : v.kind == V_SCALAR ? v.s : (double)v.i;
  *im = v.kind == V_CSCALAR ? v.c.im : 0;
}

static int64_t int_arg(const char *fn, Value v, SrcLoc loc) {
  if (!v_is_real(v)) bad(fn, "an integer", v, loc);
  return rt_to_int(v, loc);
}

/* diag(v [, k]): a vec gives a square matrix with v on diagonal k (k > 0 above the main
   one); a matrix gives its diagonal k as a vec. */
LA(diag) {
  (void)L;
  Value x = argv[0];
  int64_t k = argc > 1 ? int_arg("diag", argv[1], loc) : 0;
  if (!(v_is_num(x) || x.kind == V_ARRAY) || (x.kind == V_ARRAY && x.arr->rank > 2))
    bad("diag", "a vector or a matrix", x, loc);
  ElemType e = value_elem(x);
  if (x.kind == V_ARRAY && x.arr->rank == 1) {
    int64_t n = x.arr->numel, size = n + (k < 0 ? -k : k), dims[2] = { size, size };
    Array *D = arr_new(e, 2, dims);
    for (int64_t i = 0; i < n; i++) {
      double re, im;
      load_c(x, i, &re, &im);
      int64_t r = k >= 0 ? i : i - k, c = k >= 0 ? i + k : i;
      arr_store_c(D, r * size + c, re, im);
    }
    return v_array(D);
  }
  int64_t m, n;
  shape_of("diag", x, &m, &n, loc);
  int64_t r0 = k >= 0 ? 0 : -k, c0 = k >= 0 ? k : 0, len = 0;
  while (r0 + len < m && c0 + len < n) len++;
  Array *d = arr_vec(e, len);
  for (int64_t i = 0; i < len; i++) {
    double re, im;
    load_c(x, (r0 + i) * n + c0 + i, &re, &im);
    arr_store_c(d, i, re, im);
  }
  return v_array(d);
}

/* eye(n), eye(m, n), eye([m, n]). */
LA(eye) {
  (void)L;
  int64_t m, n;
  if (argc == 1 && argv[0].kind == V_ARRAY) {
    if (argv[0].arr->numel != 2 || el_is_complex(argv[0].arr->elem))
      bad("eye", "a size n, m and n, or [m, n]", argv[0], loc);
    m = arr_load_i(argv[0].arr, 0);
    n = arr_load_i(argv[0].arr, 1);
  } else {
    m = int_arg("eye", argv[0], loc);
    n = argc > 1 ? int_arg("eye", argv[1], loc) : m;
  }
  if (m < 0 || n < 0) rt_error(loc, "eye: negative size %lld x %lld", (long long)m, (long long)n);
  int64_t dims[2] = { m, n };
  Array *Id = arr_new(el_scalar(), 2, dims);
  for (int64_t i = 0; i < m && i < n; i++) arr_store(Id, i * n + i, 1);
  return v_array(Id);
}

/* kron(A, B): the block matrix [A[i,j] B]; vecs are 1 x N rows. */
LA(kron) {
  (void)L; (void)argc;
  int64_t am, an, bm, bn;
  shape_of("kron", argv[0], &am, &an, loc);
  shape_of("kron", argv[1], &bm, &bn, loc);
  NumClass c = val_class(argv[0]) > val_class(argv[1]) ? val_class(argv[0]) : val_class(argv[1]);
  ElemType e = c == NC_COMPLEX ? el_cscalar() : c == NC_REAL ? el_scalar() : EL_I32;
  int64_t dims[2] = { am * bm, an * bn };
  int rank = 2;
  rt_shape_normalize(&rank, dims);
  Array *K = arr_new(e, rank, dims);
  int64_t cols = an * bn;
  for (int64_t i = 0; i < am; i++)
    for (int64_t j = 0; j < an; j++) {
      double ar, ai;
      load_c(argv[0], i * an + j, &ar, &ai);
      for (int64_t p = 0; p < bm; p++)
        for (int64_t q = 0; q < bn; q++) {
          double br, bi;
          load_c(argv[1], p * bn + q, &br, &bi);
          int64_t at = (i * bm + p) * cols + j * bn + q;
          if (e == EL_I32) arr_store_i(K, at, (int64_t)ar * (int64_t)br);
          else arr_store_c(K, at, ar * br - ai * bi, ar * bi + ai * br);
        }
    }
  return v_array(K);
}

LA(trace) {
  (void)L; (void)argc;
  int64_t m, n;
  shape_of("trace", argv[0], &m, &n, loc);
  if (m != n) rt_error(loc, "trace: expected a square matrix, got %lld x %lld", (long long)m, (long long)n);
  double re = 0, im = 0;
  for (int64_t i = 0; i < n; i++) {
    double r, j;
    load_c(argv[0], i * n + i, &r, &j);
    re += r;
    im += j;
  }
  NumClass c = val_class(argv[0]);
  if (c == NC_COMPLEX) return v_cscalar(re, im);
  if (c == NC_INT) return v_int((int64_t)re);
  return v_scalar(re);
}

/* p of norm: a number, Inf, or "fro". 0 stands for "fro". */
static double norm_p(Value p, SrcLoc loc) {
  if (p.kind == V_STRING) {
    if (!strcmp(p.str->s, "fro")) return 0;
    rt_error(loc, "norm: unknown norm \"%s\" (1, 2, Inf, \"fro\" or a number p >= 1)", p.str->s);
  }
  double x = rt_to_real(p, loc);
  if (!(x >= 1)) rt_error(loc, "norm: p must be at least 1, got %g", x);
  return x;
}

/* norm(x [, p]): of a vector the p-norm (2 by default, Inf the largest magnitude); of a
   matrix the 2-norm (largest singular value), 1 (largest column sum), Inf (largest row
   sum) or "fro". */
LA(norm) {
  Value x = argv[0];
  if (!(v_is_num(x) || x.kind == V_ARRAY)) bad("norm", "a vector or a matrix", x, loc);
  double p = argc > 1 ? norm_p(argv[1], loc) : 2;
  int64_t m = 1, n = 1;
  bool vector = v_is_num(x) || x.arr->rank == 1;
  if (!vector) shape_of("norm", x, &m, &n, loc);
  if (!vector && m == 1) vector = true;
  int64_t count = v_is_num(x) ? 1 : x.arr->numel;
  if (vector || p == 0) {
    double s = 0;
    for (int64_t i = 0; i < count; i++) {
      double re, im;
      load_c(x, i, &re, &im);
      double a = hypot(re, im);
      if (isinf(p)) s = fmax(s, a);
      else s += p == 0 || p == 2 ? a * a : pow(a, p);
    }
    return v_scalar(isinf(p) ? s : p == 0 || p == 2 ? sqrt(s) : pow(s, 1 / p));
  }
  if (p == 1 || isinf(p)) {
    double best = 0;
    for (int64_t o = 0; o < (p == 1 ? n : m); o++) {
      double s = 0;
      for (int64_t i = 0; i < (p == 1 ? m : n); i++) {
        double re, im;
        load_c(x, p == 1 ? i * n + o : o * n + i, &re, &im);
        s += hypot(re, im);
      }
      best = fmax(best, s);
    }
    return v_scalar(best);
  }
  if (p != 2) rt_error(loc, "norm: the %g-norm of a matrix is not supported (1, 2, Inf, \"fro\")", p);
  const LapackApi *f = api(L, "norm", loc);
  Mat A = mat_from("norm", x, loc);
  fint k = A.m < A.n ? A.m : A.n;
  double *s = calloc((size_t)k + 1, sizeof(double));
  svd_run(f, "norm", A, s, NULL, NULL, loc);
  double r = k ? s[0] : 0;
  free(s);
  mat_free(&A);
  return v_scalar(r);
}

/* ---- seed 001's blas_* functions (signatures chosen here: docs/library.md) ---- */

static const Array *vector_arg(const char *fn, Value v, SrcLoc loc) {
  if (v.kind != V_ARRAY) bad(fn, "a vector or a matrix", v, loc);
  return v.arr;
}

/* blas_amax / blas_amin: the 0-based index of the first element of largest / smallest
   magnitude (|re| + |im|, as BLAS's i?amax). */
static Value amax_amin(const char *fn, Value v, bool largest, SrcLoc loc) {
  const Array *x = vector_arg(fn, v, loc);
  if (!x->numel) rt_error(loc, "%s: the vector is empty", fn);
  int64_t best = 0;
  double bv = 0;
  for (int64_t i = 0; i < x->numel; i++) {
    double re, im;
    arr_load_c(x, i, &re, &im);
    double a = fabs(re) + fabs(im);
    if (i == 0 || (largest ? a > bv : a < bv)) { best = i; bv = a; }
  }
  return v_int(best);
}

LA(blas_amax) { (void)L; (void)argc; return amax_amin("blas_amax", argv[0], true, loc); }
LA(blas_amin) { (void)L; (void)argc; return amax_amin("blas_amin", argv[0], false, loc); }

LA(blas_asum) {
  (void)L; (void)argc;
  const Array *x = vector_arg("blas_asum", argv[0], loc);
  double s = 0;
  for (int64_t i = 0; i < x->numel; i++) {
    double re, im;
    arr_load_c(x, i, &re, &im);
    s += fabs(re) + fabs(im);
  }
  return v_scalar(s);
}

LA(blas_nrm2) {
  (void)argc;
  vector_arg("blas_nrm2", argv[0], loc);
  Value p = v_int(2);
  Value args[2] = { argv[0], p };
  Value x = argv[0];
  if (x.arr->rank == 2) {   /* every element, as BLAS sees the matrix's storage */
    int64_t n = x.arr->numel;
    Array *flat = arr_copy(x.arr);
    flat->rank = 1;
    flat->dims[0] = n;
    flat->dims[1] = 1;
    args[0] = v_array(flat);
    Value r = la_norm(L, 1, args, loc);
    val_release(args[0]);
    return r;
  }
  return la_norm(L, 1, args, loc);
}

/* Two arrays of one shape and count, for the element-wise BLAS-1 functions. */
static void same_count(const char *fn, const Array *x, const Array *y, SrcLoc loc) {
  if (x->numel != y->numel) dims_error(fn, "the element counts", x->numel, y->numel, loc);
}

LA(blas_dot) {
  (void)L; (void)argc;
  const Array *x = vector_arg("blas_dot", argv[0], loc), *y = vector_arg("blas_dot", argv[1], loc);
  same_count("blas_dot", x, y, loc);
  double complex s = 0;
  for (int64_t i = 0; i < x->numel; i++) {
    double a, b, c, d;
    arr_load_c(x, i, &a, &b);
    arr_load_c(y, i, &c, &d);
    s += CMPLX(a, b) * CMPLX(c, d);
  }
  if (val_class(argv[0]) == NC_COMPLEX || val_class(argv[1]) == NC_COMPLEX) return v_cscalar(creal(s), cimag(s));
  return v_scalar(creal(s));
}

/* a x + b y element-wise, y's shape (blas_axpy: b = 1; blas_scal: y = x, b = 0). */
static Value axpby(const char *fn, double complex a, const Array *x, double complex b, const Array *y, bool cplx) {
  ElemType e = cplx || el_is_complex(x->elem) || el_is_complex(y->elem) ? el_cscalar() : el_scalar();
  Array *r = arr_new_uninit(e, y->rank, y->dims);
  (void)fn;
  for (int64_t i = 0; i < y->numel; i++) {
    double xr, xi, yr, yi;
    arr_load_c(x, i, &xr, &xi);
    arr_load_c(y, i, &yr, &yi);
    double complex z = a * CMPLX(xr, xi) + (b == 0 ? 0 : b * CMPLX(yr, yi));
    arr_store_c(r, i, creal(z), cimag(z));
  }
  return v_array(r);
}

/* blas_axpy(alpha, x, y): alpha x + y, a new array. */
LA(blas_axpy) {
  (void)L; (void)argc;
  double complex a = num_arg("blas_axpy", argv[0], loc);
  const Array *x = vector_arg("blas_axpy", argv[1], loc), *y = vector_arg("blas_axpy", argv[2], loc);
  same_count("blas_axpy", x, y, loc);
  return axpby("blas_axpy", a, x, 1, y, cimag(a) != 0);
}

/* blas_scal(alpha, x): alpha x. */
LA(blas_scal) {
  (void)L; (void)argc;
  double complex a = num_arg("blas_scal", argv[0], loc);
  const Array *x = vector_arg("blas_scal", argv[1], loc);
  return axpby("blas_scal", a, x, 0, x, cimag(a) != 0);
}

/* The transpose (conjugated when herm) of a matrix; a vec is a 1 x N row. */
static Value transpose_of(const char *fn, Value v, bool herm, SrcLoc loc) {
  int64_t m, n;
  shape_of(fn, v, &m, &n, loc);
  int64_t dims[2] = { n, m };
  int rank = 2;
  rt_shape_normalize(&rank, dims);
  ElemType e = value_elem(v);
  Array *T = arr_new(e, rank, dims);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double re, im;
      load_c(v, i * n + j, &re, &im);
      if (el_is_integer(e)) arr_store_i(T, j * m + i, v.kind == V_ARRAY ? arr_load_i(v.arr, i * n + j) : (int64_t)re);
      else arr_store_c(T, j * m + i, re, herm ? -im : im);
    }
  return v_array(T);
}

LA(blas_transpose) { (void)L; (void)argc; return transpose_of("blas_transpose", argv[0], false, loc); }
LA(blas_hermtranspose) { (void)L; (void)argc; return transpose_of("blas_hermtranspose", argv[0], true, loc); }

/* blas_geam(alpha, A, beta, B [, transa, transb]): alpha op(A) + beta op(B). */
LA(blas_geam) {
  (void)L;
  double complex a = num_arg("blas_geam", argv[0], loc), b = num_arg("blas_geam", argv[2], loc);
  bool ta = flag_arg("blas_geam", argc, argv, 4, loc), tb = flag_arg("blas_geam", argc, argv, 5, loc);
  Value A = ta ? transpose_of("blas_geam", argv[1], false, loc) : (val_retain(argv[1]), argv[1]);
  Value B = tb ? transpose_of("blas_geam", argv[3], false, loc) : (val_retain(argv[3]), argv[3]);
  int64_t am, an, bm, bn;
  shape_of("blas_geam", A, &am, &an, loc);
  shape_of("blas_geam", B, &bm, &bn, loc);
  if (am != bm || an != bn)
    rt_error(loc, "blas_geam: op(A) is %lld x %lld, op(B) %lld x %lld", (long long)am, (long long)an,
             (long long)bm, (long long)bn);
  Value r = axpby("blas_geam", a, vector_arg("blas_geam", A, loc), b, vector_arg("blas_geam", B, loc),
                  cimag(a) != 0 || cimag(b) != 0);
  val_release(A);
  val_release(B);
  return r;
}

/* blas_gemm(alpha, A, B, beta, C [, transa, transb]): alpha op(A) op(B) + beta C. */
LA(blas_gemm) {
  double complex a = num_arg("blas_gemm", argv[0], loc), b = num_arg("blas_gemm", argv[3], loc);
  bool ta = flag_arg("blas_gemm", argc, argv, 5, loc), tb = flag_arg("blas_gemm", argc, argv, 6, loc);
  return gemm_value(L, "blas_gemm", a, argv[1], argv[2], b, argv[4], ta, tb, loc);
}

/* A vector argument of gemv as an n x 1 column (a new reference). */
static Value column_of(const char *fn, Value v, SrcLoc loc) {
  if (v.kind != V_ARRAY || v.arr->rank != 1) bad(fn, "a vec", v, loc);
  Array *c = arr_copy(v.arr);
  c->rank = 2;
  c->dims[1] = 1;
  return v_array(c);
}

/* blas_gemv(alpha, A, x, beta, y [, transa]): alpha op(A) x + beta y, x and y vecs; a vec. */
LA(blas_gemv) {
  double complex a = num_arg("blas_gemv", argv[0], loc), b = num_arg("blas_gemv", argv[3], loc);
  bool ta = flag_arg("blas_gemv", argc, argv, 5, loc);
  Value x = column_of("blas_gemv", argv[2], loc);
  Value y = argv[4].kind == V_ARRAY ? column_of("blas_gemv", argv[4], loc) : (val_retain(argv[4]), argv[4]);
  Value r = gemm_value(L, "blas_gemv", a, argv[1], x, b, y, ta, false, loc);
  val_release(x);
  val_release(y);
  if (r.arr->rank == 2 && r.arr->dims[1] == 1) { r.arr->rank = 1; }   /* m x 1 -> vec of m */
  return r;
}

LA(blas_chol) { (void)argc; return chol_value(L, "blas_chol", argv[0], loc); }

/* blas_cholsolve(R, B): X with R' R X = B, R from blas_chol / chol. */
LA(blas_cholsolve) {
  (void)argc;
  const LapackApi *f = api(L, "blas_cholsolve", loc);
  Mat R = square_from("blas_cholsolve", argv[0], loc);
  bool as_vec;
  Mat B = rhs_from("blas_cholsolve", argv[1], R.m, &as_vec, loc);
  fint info = 0;
  if (R.n && B.n) f->potrs("U", &R.n, &B.n, R.a, &R.m, B.a, &B.m, &info, 1);
  check_info("blas_cholsolve", info, loc);
  Value r = as_vec ? vec_of(B.a, B.m) : mat_to(B);
  mat_free(&R);
  mat_free(&B);
  return r;
}

LA(blas_gesvd) { (void)argc; return svd_value(L, "blas_gesvd", argv[0], loc); }

/* [LU, piv] = blas_lu(A), A square: L (unit lower, below the diagonal) and U packed in LU,
   piv the 0-based row exchanges (row i was exchanged with row piv[i]), as getrf gives them. */
static Value lu_packed(const LapackApi *f, const char *fn, Value a, SrcLoc loc) {
  Mat A = square_from(fn, a, loc);
  fint *ipiv = calloc((size_t)A.n + 1, sizeof(fint));
  if (A.n && !lu_factor(f, fn, A, ipiv, loc)) rt_error(loc, "%s: the matrix is singular", fn);
  Array *piv = arr_vec(EL_I32, A.n);
  for (fint i = 0; i < A.n; i++) arr_store_i(piv, i, ipiv[i] - 1);
  Value r = tuple2(mat_to(A), v_array(piv));
  free(ipiv);
  mat_free(&A);
  return r;
}

LA(blas_lu) { (void)argc; return lu_packed(api(L, "blas_lu", loc), "blas_lu", argv[0], loc); }

/* LU and pivots from a row-major packed LU array and an int vec of pivots. */
static Mat lu_from(const char *fn, Value lu, Value piv, fint **ipiv, SrcLoc loc) {
  Mat A = square_from(fn, lu, loc);
  if (piv.kind != V_ARRAY || piv.arr->numel != A.n)
    rt_error(loc, "%s: expected the pivots of blas_lu (a vec of %d indices)", fn, A.n);
  *ipiv = malloc(sizeof(fint) * ((size_t)A.n + 1));
  for (fint i = 0; i < A.n; i++) {
    int64_t p = arr_load_i(piv.arr, i);
    if (p < 0 || p >= A.n) rt_error(loc, "%s: pivot %lld is out of range", fn, (long long)p);
    (*ipiv)[i] = (fint)p + 1;
  }
  return A;
}

static Value lu_solve(const LapackApi *f, const char *fn, Value lu, Value piv, Value b, SrcLoc loc) {
  fint *ipiv;
  Mat A = lu_from(fn, lu, piv, &ipiv, loc);
  bool as_vec;
  Mat B = rhs_from(fn, b, A.m, &as_vec, loc);
  fint info = 0;
  if (A.n && B.n) f->getrs("N", &A.n, &B.n, A.a, &A.m, ipiv, B.a, &B.m, &info, 1);
  check_info(fn, info, loc);
  Value r = as_vec ? vec_of(B.a, B.m) : mat_to(B);
  free(ipiv);
  mat_free(&A);
  mat_free(&B);
  return r;
}

/* blas_lusolve(LU, piv, B): X with A X = B from blas_lu's factors. */
LA(blas_lusolve) {
  (void)argc;
  return lu_solve(api(L, "blas_lusolve", loc), "blas_lusolve", argv[0], argv[1], argv[2], loc);
}

/* ---- batched forms: a stack of n x n matrices is an n x n x b cube (matrix k is
   X[:, :, k]) ---- */

static Value slice_k(const Array *X, int64_t cols, int64_t k) {
  int64_t m = X->dims[0], n = cols, b = X->rank > 2 ? X->dims[2] : 1;
  int64_t dims[2] = { m, n };
  Array *S = arr_new(X->elem, 2, dims);
  for (int64_t i = 0; i < m * n; i++) {
    double re, im;
    arr_load_c(X, i * b + k, &re, &im);
    arr_store_c(S, i, re, im);
  }
  return v_array(S);
}

static void put_k(Array *X, Value S, int64_t k) {
  int64_t b = X->rank > 2 ? X->dims[2] : 1;
  for (int64_t i = 0; i < S.arr->numel; i++) {
    double re, im;
    arr_load_c(S.arr, i, &re, &im);
    if (el_is_integer(X->elem)) arr_store_i(X, i * b + k, arr_load_i(S.arr, i));
    else arr_store_c(X, i * b + k, re, im);
  }
}

static const Array *stack_arg(const char *fn, Value v, SrcLoc loc) {
  if (v.kind != V_ARRAY || v.arr->rank < 2 || v.arr->rank > 3)
    bad(fn, "a stack of matrices (an m x n x b cube)", v, loc);
  return v.arr;
}

static int64_t stack_count(const Array *X) { return X->rank > 2 ? X->dims[2] : 1; }

static Array *stack_new(ElemType e, int64_t m, int64_t n, int64_t b) {
  int64_t dims[3] = { m, n, b };
  return arr_new(e, 3, dims);
}

/* [LU, piv] = blas_lubatched(X): blas_lu of every matrix; LU a cube, piv an n x b matrix
   of int (column k: matrix k's pivots). */
LA(blas_lubatched) {
  (void)argc;
  const LapackApi *f = api(L, "blas_lubatched", loc);
  const Array *X = stack_arg("blas_lubatched", argv[0], loc);
  int64_t n = X->dims[0], b = stack_count(X);
  Array *LU = stack_new(el_scalar(), n, X->dims[1], b);
  int64_t pd[2] = { n, b };
  Array *P = arr_new(EL_I32, 2, pd);
  for (int64_t k = 0; k < b; k++) {
    Value S = slice_k(X, X->dims[1], k);
    Value r = lu_packed(f, "blas_lubatched", S, loc);
    put_k(LU, r.tup->v[0], k);
    for (int64_t i = 0; i < n; i++) arr_store_i(P, i * b + k, arr_load_i(r.tup->v[1].arr, i));
    val_release(r);
    val_release(S);
  }
  return tuple2(v_array(LU), v_array(P));
}

/* The pivots of matrix k from blas_lubatched's n x b pivot matrix. */
static Value piv_k(const char *fn, Value piv, int64_t n, int64_t b, int64_t k, SrcLoc loc) {
  if (piv.kind != V_ARRAY || piv.arr->numel != n * b)
    rt_error(loc, "%s: expected the pivots of blas_lubatched (%lld x %lld)", fn, (long long)n, (long long)b);
  Array *p = arr_vec(EL_I32, n);
  for (int64_t i = 0; i < n; i++) arr_store_i(p, i, arr_load_i(piv.arr, i * b + k));
  return v_array(p);
}

/* blas_lusolvebatched(LU, piv, B): blas_lusolve of every matrix; B an n x r x b cube. */
LA(blas_lusolvebatched) {
  (void)argc;
  const LapackApi *f = api(L, "blas_lusolvebatched", loc);
  const Array *X = stack_arg("blas_lusolvebatched", argv[0], loc);
  const Array *B = stack_arg("blas_lusolvebatched", argv[2], loc);
  int64_t n = X->dims[0], b = stack_count(X);
  if (stack_count(B) != b) dims_error("blas_lusolvebatched", "the stack sizes", b, stack_count(B), loc);
  Array *R = stack_new(el_scalar(), n, B->dims[1], b);
  for (int64_t k = 0; k < b; k++) {
    Value S = slice_k(X, X->dims[1], k), Bk = slice_k(B, B->dims[1], k);
    Value p = piv_k("blas_lusolvebatched", argv[1], n, b, k, loc);
    Value r = lu_solve(f, "blas_lusolvebatched", S, p, Bk, loc);
    if (r.arr->numel != B->dims[0] * B->dims[1]) dims_error("blas_lusolvebatched", "the rows", n, B->dims[0], loc);
    put_k(R, r, k);
    val_release(r);
    val_release(p);
    val_release(S);
    val_release(Bk);
  }
  return v_array(R);
}

/* blas_lumatinvbatched(LU, piv): the inverse of every factored matrix. */
LA(blas_lumatinvbatched) {
  (void)argc;
  const LapackApi *f = api(L, "blas_lumatinvbatched", loc);
  const Array *X = stack_arg("blas_lumatinvbatched", argv[0], loc);
  int64_t n = X->dims[0], b = stack_count(X);
  Array *R = stack_new(el_scalar(), n, n, b);
  int64_t idims[2] = { n, n };
  for (int64_t k = 0; k < b; k++) {
    Value S = slice_k(X, X->dims[1], k), p = piv_k("blas_lumatinvbatched", argv[1], n, b, k, loc);
    Array *Id = arr_new(el_scalar(), 2, idims);
    for (int64_t i = 0; i < n; i++) arr_store(Id, i * n + i, 1);
    Value r = lu_solve(f, "blas_lumatinvbatched", S, p, v_array(Id), loc);
    put_k(R, r, k);
    val_release(r);
    val_release(v_array(Id));
    val_release(p);
    val_release(S);
  }
  return v_array(R);
}

/* blas_matinvbatches(X): the inverse of every matrix of the stack. */
LA(blas_matinvbatches) {
  (void)argc;
  const LapackApi *f = api(L, "blas_matinvbatches", loc);
  const Array *X = stack_arg("blas_matinvbatches", argv[0], loc);
  int64_t n = X->dims[0], b = stack_count(X);
  Array *R = stack_new(el_scalar(), n, X->dims[1], b);
  for (int64_t k = 0; k < b; k++) {
    Value S = slice_k(X, X->dims[1], k);
    Mat M = inverse(f, "blas_matinvbatches", S, loc);
    Value r = mat_to(M);
    put_k(R, r, k);
    val_release(r);
    mat_free(&M);
    val_release(S);
  }
  return v_array(R);
}

/* [QR, tau] = blas_qr(A): geqrf's packed factors (R on and above the diagonal, the
   Householder vectors below) and the vec tau. */
LA(blas_qr) {
  (void)argc;
  const LapackApi *f = api(L, "blas_qr", loc);
  Mat A = mat_from("blas_qr", argv[0], loc);
  fint k = A.m < A.n ? A.m : A.n;
  double *tau = calloc((size_t)k + 1, sizeof(double));
  qr_factor(f, "blas_qr", A, tau, loc);
  Value r = tuple2(mat_to(A), vec_of(tau, k));
  free(tau);
  mat_free(&A);
  return r;
}

/* blas_q(QR, tau): the m x min(m, n) Q factor of blas_qr's result. */
LA(blas_q) {
  (void)argc;
  const LapackApi *f = api(L, "blas_q", loc);
  Mat A = mat_from("blas_q", argv[0], loc);
  fint k = A.m < A.n ? A.m : A.n;
  if (argv[1].kind != V_ARRAY || argv[1].arr->numel != k)
    rt_error(loc, "blas_q: expected blas_qr's tau (a vec of %d)", k);
  double *tau = calloc((size_t)k + 1, sizeof(double));
  for (fint i = 0; i < k; i++) tau[i] = arr_load(argv[1].arr, i);
  Mat Q = q_factor(f, "blas_q", A, tau, k, loc);
  Value r = mat_to(Q);
  free(tau);
  mat_free(&A);
  mat_free(&Q);
  return r;
}

/* blas_trsv(A, b [, uplo, trans]): x with op(A) x = b, A triangular ("U" upper, the
   default, or "L" lower; trans true: A'). */
LA(blas_trsv) {
  const LapackApi *f = api(L, "blas_trsv", loc);
  const char *uplo = "U";
  if (argc > 2) {
    if (argv[2].kind != V_STRING || (strcmp(argv[2].str->s, "U") && strcmp(argv[2].str->s, "L")))
      rt_error(loc, "blas_trsv: uplo must be \"U\" or \"L\"");
    uplo = argv[2].str->s;
  }
  bool trans = flag_arg("blas_trsv", argc, argv, 3, loc);
  Mat A = square_from("blas_trsv", argv[0], loc);
  bool as_vec;
  Mat B = rhs_from("blas_trsv", argv[1], A.m, &as_vec, loc);
  fint info = 0;
  if (A.n && B.n) f->trtrs(uplo, trans ? "T" : "N", "N", &A.n, &B.n, A.a, &A.m, B.a, &B.m, &info, 1, 1, 1);
  check_info("blas_trsv", info, loc);
  if (info > 0) rt_error(loc, "blas_trsv: the matrix is singular (zero on the diagonal)");
  Value r = as_vec ? vec_of(B.a, B.m) : mat_to(B);
  mat_free(&A);
  mat_free(&B);
  return r;
}

/* blas_version(): the BLAS library's own description (OpenBLAS's configuration). */
LA(blas_version) {
  (void)argc; (void)argv;
  api(L, "blas_version", loc);
  const char *s = L->f.get_config ? L->f.get_config() : NULL;
  char buf[300];
  snprintf(buf, sizeof buf, "%s%s%s", L->name, s ? ": " : "", s ? s : "");
  return v_string(buf, (int)strlen(buf));
}

/* ---- the table ---- */

static const LinalgBuiltin table[] = {
  { "inv", la_inv, 1, 1 }, { "det", la_det, 1, 1 }, { "solve", la_solve, 2, 2 },
  { "mldivide", la_mldivide, 2, 2 }, { "chol", la_chol, 1, 1 }, { "lu", la_lu, 1, 1 },
  { "qr", la_qr, 1, 1 }, { "svd", la_svd, 1, 1 }, { "symeig", la_symeig, 1, 1 },
  { "eig", la_eig, 1, 1 }, { "pinv", la_pinv, 1, 2 }, { "diag", la_diag, 1, 2 },
  { "eye", la_eye, 1, 2 }, { "kron", la_kron, 2, 2 }, { "trace", la_trace, 1, 1 },
  { "norm", la_norm, 1, 2 },
  { "blas_amax", la_blas_amax, 1, 1 }, { "blas_amin", la_blas_amin, 1, 1 },
  { "blas_asum", la_blas_asum, 1, 1 }, { "blas_axpy", la_blas_axpy, 3, 3 },
  { "blas_chol", la_blas_chol, 1, 1 }, { "blas_cholsolve", la_blas_cholsolve, 2, 2 },
  { "blas_dot", la_blas_dot, 2, 2 }, { "blas_geam", la_blas_geam, 4, 6 },
  { "blas_gemm", la_blas_gemm, 5, 7 }, { "blas_gemv", la_blas_gemv, 5, 6 },
  { "blas_gesvd", la_blas_gesvd, 1, 1 }, { "blas_hermtranspose", la_blas_hermtranspose, 1, 1 },
  { "blas_lu", la_blas_lu, 1, 1 }, { "blas_lubatched", la_blas_lubatched, 1, 1 },
  { "blas_lumatinvbatched", la_blas_lumatinvbatched, 2, 2 },
  { "blas_lusolve", la_blas_lusolve, 3, 3 }, { "blas_lusolvebatched", la_blas_lusolvebatched, 3, 3 },
  { "blas_matinvbatches", la_blas_matinvbatches, 1, 1 }, { "blas_nrm2", la_blas_nrm2, 1, 1 },
  { "blas_q", la_blas_q, 2, 2 }, { "blas_qr", la_blas_qr, 1, 1 }, { "blas_scal", la_blas_scal, 2, 2 },
  { "blas_transpose", la_blas_transpose, 1, 1 }, { "blas_trsv", la_blas_trsv, 2, 4 },
  { "blas_version", la_blas_version, 0, 0 },
};

const LinalgBuiltin *linalg_lookup(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (!strcmp(table[i].name, name)) return &table[i];
  return NULL;
}
