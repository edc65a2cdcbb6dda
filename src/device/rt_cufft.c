/* rt_cufft.c: FFTs on the GPU through cuFFT (rt_cunum.h). cuFFT's plans take up to three
   transformed dimensions with one batch stride, so a transform is done in passes: the
   transformed dimensions (lengths of 1 left out) are cut into runs of consecutive
   dimensions of at most three; each run is one plan (cufftPlanMany with the run's inner
   stride), executed once per block of the dimensions before it. The first pass reads the
   operand, the others work in place on the result. cuFFT does not scale the inverse: a
   helper kernel (compiled by NVRTC once, cached on disk) multiplies by 1/N, or keeps the
   real parts for irealfft. Plans are kept in a cache keyed by precision and layout
   (the direction is an argument of the execution). */
#include "device/rt_cunum.h"
#include "device/cunum_priv.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the part of cufft.h that is used ---- */
typedef int cufftHandle;
typedef int cufftResult;
enum { CUFFT_C2C = 0x29, CUFFT_Z2Z = 0x69, CUFFT_FWD = -1, CUFFT_INV = 1 };

/* The helper kernels: grid-stride loops over n elements. */
static const char helper_src[] =
  "extern \"C\" __global__ void oq_scale_f32(float *x, long long n, float s) {\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
  "       i += (long long)gridDim.x * blockDim.x) x[i] *= s; }\n"
  "extern \"C\" __global__ void oq_scale_f64(double *x, long long n, double s) {\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
  "       i += (long long)gridDim.x * blockDim.x) x[i] *= s; }\n"
  "extern \"C\" __global__ void oq_real_f32(const float *z, float *r, long long n, float s) {\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
  "       i += (long long)gridDim.x * blockDim.x) r[i] = z[2 * i] * s; }\n"
  "extern \"C\" __global__ void oq_real_f64(const double *z, double *r, long long n, double s) {\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
  "       i += (long long)gridDim.x * blockDim.x) r[i] = z[2 * i] * s; }\n"
  "extern \"C\" __global__ void oq_cplx_f32(const float *r, float *z, long long n) {\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
  "       i += (long long)gridDim.x * blockDim.x) { z[2 * i] = r[i]; z[2 * i + 1] = 0; } }\n"
  "extern \"C\" __global__ void oq_cplx_f64(const double *r, double *z, long long n) {\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
  "       i += (long long)gridDim.x * blockDim.x) { z[2 * i] = r[i]; z[2 * i + 1] = 0; } }\n";

/* ---- loading ---- */

static bool load_fft(CuNum *C) {
  static const char *const names[] = { "libcufft.so", "libcufft.so.12", "libcufft.so.11",
                                       "libcufft.so.13", "libcufft.so.10" };
  CufftApi *f = &C->fft;
  const CunumSym syms[] = {
    { "cufftPlanMany", (void **)&f->plan_many }, { "cufftExecC2C", (void **)&f->exec_c2c },
    { "cufftExecZ2Z", (void **)&f->exec_z2z }, { "cufftDestroy", (void **)&f->destroy },
  };
  const CunumLib lib = { "cuFFT", names, sizeof names / sizeof *names, syms, sizeof syms / sizeof *syms, NULL };
  return cunum_load(&lib, f->why, sizeof f->why);
}

bool cufft_available(CuNum *C, char *why, size_t n) {
  return cunum_available(C, &C->fft.state, load_fft, C->fft.why, why, n);
}

/* ---- helper kernels ---- */

static CudaKernel *helper(CuNum *C, const char *name, SrcLoc loc) {
  if (!C->helpers) {
    void *image;
    size_t size;
    char *log = NULL;
    if (!cuda_compile(helper_src, "oq_cunum", cuda_device()->arch, &image, &size, &log, loc))
      rt_error(loc, "the FFT helper kernels did not compile: %s", log ? log : "?");
    free(log);
    C->helpers = cuda_module_load(image, size, "oq_cunum", loc);
    free(image);
  }
  return cuda_kernel(C->helpers, name, loc);
}

static void grid_of(int64_t n, unsigned grid[3], unsigned block[3]) {
  int64_t blocks = (n + 255) / 256;
  int64_t cap = (int64_t)cuda_device()->sm_count * 32;
  grid[0] = (unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks);
  grid[1] = grid[2] = 1;
  block[0] = 256;
  block[1] = block[2] = 1;
}

/* x[0..n) *= s (floats or doubles). */
static void scale(CuNum *C, bool dbl, CudaPtr x, int64_t n, double s, SrcLoc loc) {
  CudaKernel *k = helper(C, dbl ? "oq_scale_f64" : "oq_scale_f32", loc);
  unsigned grid[3], block[3];
  grid_of(n, grid, block);
  long long nn = n;
  float sf = (float)s;
  void *params[] = { &x, &nn, dbl ? (void *)&s : (void *)&sf };
  cuda_launch(k, grid, block, 0, false, params, loc);
}

/* r[i] = re(z[i]) * s, or z[i] = r[i] (to_complex), over n elements. */
static void convert(CuNum *C, bool dbl, bool to_complex, CudaPtr src, CudaPtr dst, int64_t n,
                    double s, SrcLoc loc) {
  const char *name = to_complex ? (dbl ? "oq_cplx_f64" : "oq_cplx_f32") : (dbl ? "oq_real_f64" : "oq_real_f32");
  CudaKernel *k = helper(C, name, loc);
  unsigned grid[3], block[3];
  grid_of(n, grid, block);
  long long nn = n;
  float sf = (float)s;
  void *params[] = { &src, &dst, &nn, dbl ? (void *)&s : (void *)&sf };
  cuda_launch(k, grid, block, 0, false, params, loc);
}

/* ---- plans ---- */

static const char *fft_err(cufftResult r) {
  static const char *const names[] = {
    "CUFFT_SUCCESS", "CUFFT_INVALID_PLAN", "CUFFT_ALLOC_FAILED", "CUFFT_INVALID_TYPE",
    "CUFFT_INVALID_VALUE", "CUFFT_INTERNAL_ERROR", "CUFFT_EXEC_FAILED", "CUFFT_SETUP_FAILED",
    "CUFFT_INVALID_SIZE", "CUFFT_UNALIGNED_DATA",
  };
  return r >= 0 && r < (int)(sizeof names / sizeof *names) ? names[r] : "a cuFFT error";
}

static bool same_plan(const FftPlanKey *a, const FftPlanKey *b) {
  return a->dbl == b->dbl && a->rank == b->rank && a->stride == b->stride &&
         a->dist == b->dist && a->batch == b->batch && !memcmp(a->n, b->n, sizeof a->n);
}

static cufftHandle plan_for(CuNum *C, const FftPlanKey *key, const char *fn, SrcLoc loc) {
  CufftApi *f = &C->fft;
  for (int i = 0; i < f->nplans; i++)
    if (same_plan(&f->plans[i].key, key)) {
      f->plans[i].used = ++f->clock;
      return f->plans[i].handle;
    }
  CufftPlan *slot;
  if (f->nplans < CUFFT_PLANS_MAX) slot = &f->plans[f->nplans++];
  else {
    slot = &f->plans[0];
    for (int i = 1; i < f->nplans; i++)
      if (f->plans[i].used < slot->used) slot = &f->plans[i];
    f->destroy(slot->handle);
  }
  int n[3] = { key->n[0], key->n[1], key->n[2] };
  cufftHandle h = 0;
  cufftResult r = f->plan_many(&h, key->rank, n, n, key->stride, key->dist, n, key->stride,
                               key->dist, key->dbl ? CUFFT_Z2Z : CUFFT_C2C, key->batch);
  if (r) {
    if (slot == &f->plans[f->nplans - 1] && f->nplans) f->nplans--;
    rt_error(loc, "%s: cuFFT could not plan the transform (%s)", fn, fft_err(r));
  }
  slot->key = *key;
  slot->handle = h;
  slot->used = ++f->clock;
  return h;
}

/* ---- passes ---- */

typedef struct Pass { FftPlanKey key; int64_t outer, block; } Pass;   /* block: elements */

static int fit_int(const char *fn, int64_t v, SrcLoc loc) {
  if (v > 0x7fffffff) rt_error(loc, "%s: a length of %lld is too large for cuFFT", fn, (long long)v);
  return (int)v;
}

/* The passes of a transform of x along ax (rt_cufft.c's header comment). */
static int make_passes(const Array *x, const FftAxes *ax, bool dbl, Pass *out, const char *fn, SrcLoc loc) {
  bool along[OQ_MAX_RANK] = { 0 };
  for (int i = 0; i < ax->n; i++) along[ax->axis[i]] = true;
  int np = 0;
  for (int d = 0; d < x->rank;) {
    if (!along[d] || x->dims[d] == 1) { d++; continue; }
    Pass p = { .key = { .dbl = dbl } };
    int start = d;
    while (d < x->rank && p.key.rank < 3 && (along[d] || x->dims[d] == 1)) {
      if (x->dims[d] > 1) p.key.n[p.key.rank++] = fit_int(fn, x->dims[d], loc);
      d++;
    }
    int64_t inner = 1, outer = 1, len = 1;
    for (int e = d; e < x->rank; e++) inner *= x->dims[e];
    for (int e = 0; e < start; e++) outer *= x->dims[e];
    for (int i = 0; i < p.key.rank; i++) len *= p.key.n[i];
    if (inner == 1) {   /* one execution over every block */
      p.key.stride = 1;
      p.key.dist = fit_int(fn, len, loc);
      p.key.batch = fit_int(fn, outer, loc);
      p.outer = 1;
    } else {            /* interleaved: the inner elements are the batch */
      p.key.stride = fit_int(fn, inner, loc);
      p.key.dist = 1;
      p.key.batch = fit_int(fn, inner, loc);
      p.outer = outer;
    }
    p.block = len * inner;
    out[np++] = p;
  }
  return np;
}

static void exec(CuNum *C, cufftHandle h, bool dbl, CudaPtr in, CudaPtr out, int dir,
                 const char *fn, SrcLoc loc) {
  cufftResult r = dbl ? C->fft.exec_z2z(h, (void *)(uintptr_t)in, (void *)(uintptr_t)out, dir)
                      : C->fft.exec_c2c(h, (void *)(uintptr_t)in, (void *)(uintptr_t)out, dir);
  if (r) rt_error(loc, "%s: cuFFT failed (%s)", fn, fft_err(r));
}

/* The operand on the device as complex of the working precision: its own device copy, or
   a temporary (*tmp, *tmp_bytes: to be freed) converted on the GPU (real of the same
   precision) or on the host (other element types). */
static CudaPtr complex_operand(CuNum *C, Array *x, ElemType ce, CudaPtr *tmp, size_t *tmp_bytes, SrcLoc loc) {
  *tmp = 0;
  *tmp_bytes = 0;
  if (x->elem == ce) return (CudaPtr)(uintptr_t)cuda_array_device(x, true, loc);
  bool dbl = ce == EL_C128;
  *tmp_bytes = (size_t)x->numel * el_size(ce);
  *tmp = cuda_mem_alloc(*tmp_bytes, loc);
  if (x->elem == (dbl ? EL_F64 : EL_F32)) {
    CudaPtr src = (CudaPtr)(uintptr_t)cuda_array_device(x, true, loc);
    convert(C, dbl, true, src, *tmp, x->numel, 1, loc);
  } else {
    Array *c = arr_convert(x, ce);
    cuda_raw_htod(*tmp, c->data, *tmp_bytes, loc);
    val_release(v_array(c));
  }
  return *tmp;
}

Array *cufft_transform(CuNum *C, Array *x, const FftAxes *ax, FftKind kind, const char *fn,
                       SrcLoc loc) {
  ElemType ce = el_cscalar();
  bool dbl = ce == EL_C128;
  size_t esize = el_size(ce);
  Pass passes[OQ_MAX_RANK];
  int np = make_passes(x, ax, dbl, passes, fn, loc);
  Array *R = arr_new_uninit(fft_result_elem(kind), x->rank, x->dims);
  if (!x->numel) return R;
  cuda_submit();   /* the kernels queued before, first */
  CudaPtr tmp, cplx = 0;
  size_t tmp_bytes, cplx_bytes = (size_t)x->numel * esize;
  CudaPtr in = complex_operand(C, x, ce, &tmp, &tmp_bytes, loc);
  CudaPtr out = kind == FFT_INVERSE_REAL ? (cplx = cuda_mem_alloc(cplx_bytes, loc))
                                         : (CudaPtr)(uintptr_t)cuda_array_device(R, false, loc);
  int dir = kind == FFT_FORWARD ? CUFFT_FWD : CUFFT_INV;
  if (!np) cuda_raw_dtod(out, in, cplx_bytes, loc);   /* lengths of 1: identity */
  for (int p = 0; p < np; p++) {
    cufftHandle h = plan_for(C, &passes[p].key, fn, loc);
    CudaPtr src = p == 0 ? in : out;
    for (int64_t o = 0; o < passes[p].outer; o++) {
      size_t off = (size_t)(o * passes[p].block) * esize;
      exec(C, h, dbl, src + off, out + off, dir, fn, loc);
    }
  }
  double s = 1.0 / (double)fft_axes_count(x, ax);
  if (kind == FFT_INVERSE) scale(C, dbl, out, x->numel * 2, s, loc);
  if (kind == FFT_INVERSE_REAL) {
    CudaPtr r = (CudaPtr)(uintptr_t)cuda_array_device(R, false, loc);
    convert(C, dbl, false, out, r, x->numel, s, loc);
    cuda_submit();
    cuda_mem_free(cplx, cplx_bytes);   /* ordered on the stream after the kernel */
  }
  if (tmp) {
    cuda_submit();
    cuda_mem_free(tmp, tmp_bytes);
  }
  cuda_array_written(R);
  C->pending = true;
  return R;
}
