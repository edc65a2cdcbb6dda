/* interp_numlib.c: the built-ins on numerical libraries — the FFTs (FFTW on the host, cuFFT
   on the GPU), linalg.q's functions and seed 001's blas_* list (LAPACK/BLAS), and the
   matrix product of large matrices (GEMM: OpenBLAS or cuBLAS) — and where each call runs.
   The libraries, their plans and handles live in the program's NumLib (made at the first
   call). On --target cuda an FFT or a product runs on the GPU when its operand's device copy
   is current or the operand is large (NUMLIB_GPU_MIN elements), or FFTW is missing, and
   cuFFT/cuBLAS load; a factorization runs on cuSOLVER when its matrix's device copy is
   current or it is large (LINALG_GPU_MIN), or OQ_LINALG_GPU=1: on --target cuda with the
   matrix and its factors on the device (cusolver_resident; real and complex), else (another
   target with OQ_LINALG_GPU=1, a function it lacks) through the host (rt_linalg.c's
   LinalgGpu, real matrices); everything else runs on the host. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "interp/interp_priv.h"
#include "base/config.h"
#include "runtime/rt_fft.h"
#include "runtime/rt_linalg.h"
#include "device/rt_cunum.h"

#define NUMLIB_GPU_MIN 16384   /* elements: smaller operands stay on the host */
#define LINALG_GPU_MIN 65536   /* elements: smaller matrices are factorized on the host */

struct NumLib {
  FftwLib *fftw;
  LapackLib *lapack;
  CuNum *cu;
  bool told_geev;            /* --verbose said that eig goes through the host */
};

static int host_threads(void) {
  if (config()->threads > 0) return config()->threads;
  return config()->cpus;
}

/* Results of FFTs and products are large and made again and again (`y = fft2(x)` in a
   loop). glibc serves blocks of 32 MiB and more with fresh mmap'ed pages and unmaps them at
   free, so each result would pay a page fault per 4 KiB (and their zeroing) before the
   library writes it: measured 1.3 s for 32 MiB on the shared test machine, against 2 ms
   for memory reused. From the first library call on, large blocks come from the heap and
   freed ones are kept for reuse (up to 1 GiB at its top). */
static void keep_large_blocks(void) {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

static NumLib *numlib(Interp *I) {
  Program *P = I->prog;
  if (!P->num) {
    keep_large_blocks();
    P->num = calloc(1, sizeof *P->num);
    P->num->fftw = fftw_lib_new(host_threads());
    P->num->lapack = lapack_lib_new(host_threads());
    P->num->cu = cunum_new();
  }
  return P->num;
}

void numlib_sync(Program *P, SrcLoc loc) {
  if (P->num) cunum_sync(P->num->cu, loc);
}

void numlib_free(Program *P) {
  if (!P->num) return;
  fftw_lib_free(P->num->fftw);
  lapack_lib_free(P->num->lapack);
  cunum_free(P->num->cu);
  free(P->num);
  P->num = NULL;
}

static bool on_gpu_target(Interp *I) { return I->prog->opt && I->prog->opt->target == TARGET_CUDA; }

/* Whether an operand of n elements goes to the GPU. */
static bool wants_gpu(Interp *I, const Array *a, int64_t n) {
  return on_gpu_target(I) && a->numel > 0 && ((a->state & ARR_DEVICE_VALID) || n >= NUMLIB_GPU_MIN);
}

/* ---- FFT ---- */

typedef struct FftFn { const char *name; int k; FftKind kind; } FftFn;   /* k 0: fftn */

static Value fft_call(Interp *I, Node *call, int argc, Value *argv, const FftFn *f) {
  SrcLoc loc = call->loc;
  if (argc != (f->k ? 1 : 2))
    rt_error(loc, f->k ? "%s takes one array" : "%s takes an array and a list of dimensions", f->name);
  Value x = argv[0];
  if (!v_is_num(x) && x.kind != V_ARRAY)
    rt_error(loc, "%s: expected a number or an array, got %s", f->name, rt_kind_name(x));
  Array *a;
  if (x.kind == V_ARRAY) {
    a = x.arr;
    a->refcount++;
  } else {
    a = arr_vec(el_cscalar(), 1);
    arr_set(a, 0, x, loc);
  }
  FftAxes ax = f->k ? fft_axes_k(f->k, a->rank) : fft_axes_list(f->name, argv[1], a->rank, loc);
  NumLib *L = numlib(I);
  Array *r = NULL;
  char why[300];
  /* small operands on the host, unless FFTW is missing there */
  bool gpu = wants_gpu(I, a, a->numel) || (on_gpu_target(I) && !fftw_available(L->fftw));
  if (gpu && cufft_available(L->cu, why, sizeof why)) {
    r = cufft_transform(L->cu, a, &ax, f->kind, f->name, loc);
  } else {
    cuda_host_read(a, loc);
    r = fftw_transform(L->fftw, a, &ax, f->kind, f->name, loc);
  }
  val_release(v_array(a));
  return v_array(r);
}

#define FFT(fname, k, kind)                                                      \
  static Value ib_##fname(Interp *I, Node *call, int argc, Value *argv) {        \
    static const FftFn f = { #fname, k, kind };                                  \
    return fft_call(I, call, argc, argv, &f);                                    \
  }
FFT(fft1, 1, FFT_FORWARD)
FFT(fft2, 2, FFT_FORWARD)
FFT(fft3, 3, FFT_FORWARD)
FFT(fftn, 0, FFT_FORWARD)
FFT(ifft1, 1, FFT_INVERSE)
FFT(ifft2, 2, FFT_INVERSE)
FFT(ifft3, 3, FFT_INVERSE)
FFT(ifftn, 0, FFT_INVERSE)
FFT(irealfft1, 1, FFT_INVERSE_REAL)
FFT(irealfft2, 2, FFT_INVERSE_REAL)
FFT(irealfft3, 3, FFT_INVERSE_REAL)
FFT(irealfftn, 0, FFT_INVERSE_REAL)

/* ---- linear algebra ---- */

/* The factorizations that cuSOLVER may run (rt_linalg.h, LinalgGpu). */
static bool factorizes(const char *name) {
  static const char *const names[] = { "inv", "det", "solve", "mldivide", "chol", "lu", "qr",
                                       "svd", "symeig", "eig", "pinv", "blas_chol", "blas_lu",
                                       "blas_gesvd" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

/* Whether factorization `name` of argv[0] asks for cuSOLVER: OQ_LINALG_GPU=1 for any operand
   (on any target), or unset on --target cuda for a matrix on the GPU or of LINALG_GPU_MIN
   elements and more; never with OQ_LINALG_GPU=0. */
static bool linalg_wants_gpu(Interp *I, const char *name, int argc, Value *argv) {
  int mode = config()->linalg_gpu;
  if (mode == 0 || argc < 1 || !factorizes(name)) return false;
  if (mode > 0) return true;
  const Array *a = argv[0].kind == V_ARRAY ? argv[0].arr : NULL;
  return a && on_gpu_target(I) && a->numel && ((a->state & ARR_DEVICE_VALID) || a->numel >= LINALG_GPU_MIN);
}

/* Where a factorization runs through the host: cuSOLVER (into g) when it asks for it
   (linalg_wants_gpu), else LAPACK (NULL). A real matrix only (complex ones are LAPACK's). */
static const LinalgGpu *linalg_gpu(Interp *I, const char *name, int argc, Value *argv,
                                   LinalgGpu *g, SrcLoc loc) {
  bool cplx = argc > 0 && (argv[0].kind == V_CSCALAR ||
                           (argv[0].kind == V_ARRAY && el_is_complex(argv[0].arr->elem)));
  if (cplx || !linalg_wants_gpu(I, name, argc, argv)) return NULL;
  NumLib *L = numlib(I);
  char why[300];
  if (!cusolver_available(L->cu, why, sizeof why)) {
    if (config()->linalg_gpu > 0)
      rt_error(loc, "%s: OQ_LINALG_GPU=1 asks for cuSOLVER, which cannot run: %s", name, why);
    return NULL;
  }
  *g = cusolver_linalg(L->cu);
  return g;
}

/* Whether a factorization may run on cuSOLVER with its operand and results on the device
   (cusolver_resident): on --target cuda, a matrix (real or complex, not empty) that asks for
   cuSOLVER. */
static bool linalg_resident(Interp *I, const char *name, int argc, Value *argv) {
  if (!on_gpu_target(I) || argc < 1 || argv[0].kind != V_ARRAY || !argv[0].arr->numel ||
      !linalg_wants_gpu(I, name, argc, argv))
    return false;
  return cusolver_available(numlib(I)->cu, NULL, 0);
}

static Value linalg_call(Interp *I, Node *call, int argc, Value *argv, const char *name) {
  const LinalgBuiltin *b = linalg_lookup(name);
  if (argc < b->min_args || (b->max_args >= 0 && argc > b->max_args))
    rt_error(call->loc, "wrong number of arguments to '%s' (got %d)", name, argc);
  NumLib *L = numlib(I);
  if (linalg_resident(I, name, argc, argv)) {
    Value r = cusolver_resident(L->cu, name, argc, argv, call->loc);
    if (r.kind != V_NONE) return r;
    if (!strcmp(name, "eig") && I->prog->opt && I->prog->opt->verbose && !L->told_geev &&
        !cusolver_has_geev(L->cu)) {
      L->told_geev = true;
      fprintf(stderr, "oq: eig: this cuSOLVER lacks cusolverDnXgeev (CUDA 12.6 and later have "
              "it): a matrix that is not symmetric goes through the host (LAPACK)\n");
    }
  }
  for (int i = 0; i < argc; i++)   /* the host's way: the host copies made current */
    if (argv[i].kind == V_ARRAY) cuda_host_read(argv[i].arr, call->loc);
  LinalgGpu g;
  lapack_set_gpu(L->lapack, linalg_gpu(I, name, argc, argv, &g, call->loc));
  Value r = b->fn(L->lapack, argc, argv, call->loc);
  lapack_set_gpu(L->lapack, NULL);
  return r;
}

#define LINALG_NAMES(X)                                                                       \
  X(inv) X(det) X(solve) X(mldivide) X(chol) X(lu) X(qr) X(svd) X(symeig) X(eig) X(pinv)      \
  X(diag) X(eye) X(kron) X(trace) X(norm) X(blas_amax) X(blas_amin) X(blas_asum) X(blas_axpy) \
  X(blas_chol) X(blas_cholsolve) X(blas_dot) X(blas_geam) X(blas_gemm) X(blas_gemv)           \
  X(blas_gesvd) X(blas_hermtranspose) X(blas_lu) X(blas_lubatched) X(blas_lumatinvbatched)    \
  X(blas_lusolve) X(blas_lusolvebatched) X(blas_matinvbatches) X(blas_nrm2) X(blas_q)         \
  X(blas_qr) X(blas_scal) X(blas_transpose) X(blas_trsv) X(blas_version)

#define WRAP(n)                                                          \
  static Value ib_##n(Interp *I, Node *call, int argc, Value *argv) {    \
    return linalg_call(I, call, argc, argv, #n);                         \
  }
LINALG_NAMES(WRAP)

/* ---- the matrix product ---- */

Value numlib_matmul(Interp *I, Value a, Value b, SrcLoc loc) {
  if (a.kind != V_ARRAY || b.kind != V_ARRAY || a.arr->rank != 2 || b.arr->rank != 2)
    return v_none();
  Array *A = a.arr, *B = b.arr;
  if (A->dims[0] < LINALG_GEMM_MIN || A->dims[1] < LINALG_GEMM_MIN || B->dims[1] < LINALG_GEMM_MIN)
    return v_none();
  NumLib *L = numlib(I);
  Array *R = NULL;
  if ((wants_gpu(I, A, A->numel) || wants_gpu(I, B, B->numel)) && cublas_available(L->cu, NULL, 0))
    R = cublas_matmul(L->cu, A, B, loc);
  if (!R) {
    cuda_host_read(A, loc);
    cuda_host_read(B, loc);
    R = linalg_matmul(L->lapack, A, B, loc);
  }
  return R ? v_array(R) : v_none();
}

/* ---- the table ---- */

static const struct { const char *name; InterpBuiltinFn fn; } fft_fns[] = {
  {"fft1", ib_fft1}, {"fft2", ib_fft2}, {"fft3", ib_fft3}, {"fftn", ib_fftn},
  {"ifft1", ib_ifft1}, {"ifft2", ib_ifft2}, {"ifft3", ib_ifft3}, {"ifftn", ib_ifftn},
  {"irealfft1", ib_irealfft1}, {"irealfft2", ib_irealfft2}, {"irealfft3", ib_irealfft3},
  {"irealfftn", ib_irealfftn},
};

#define ENTRY(n) {#n, ib_##n},
static const struct { const char *name; InterpBuiltinFn fn; } linalg_fns[] = {
  LINALG_NAMES(ENTRY)
};

InterpBuiltinFn numlib_lookup(const char *name, const char **stored_name) {
  for (size_t i = 0; i < sizeof fft_fns / sizeof *fft_fns; i++)
    if (!strcmp(fft_fns[i].name, name)) { *stored_name = fft_fns[i].name; return fft_fns[i].fn; }
  for (size_t i = 0; i < sizeof linalg_fns / sizeof *linalg_fns; i++)
    if (!strcmp(linalg_fns[i].name, name)) { *stored_name = linalg_fns[i].name; return linalg_fns[i].fn; }
  return NULL;
}

bool numlib_moves_own(InterpBuiltinFn fn) {
  for (size_t i = 0; i < sizeof fft_fns / sizeof *fft_fns; i++)
    if (fft_fns[i].fn == fn) return true;
  for (size_t i = 0; i < sizeof linalg_fns / sizeof *linalg_fns; i++)
    if (linalg_fns[i].fn == fn) return true;
  return false;
}
