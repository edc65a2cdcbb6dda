/* rt_fft.c: FFTs on the host through FFTW's guru interface (any set of transformed
   dimensions, the others batched, all in one plan), loaded with dlopen. Plans are made with
   FFTW_ESTIMATE (no measuring runs: the first call of a size costs microseconds, not
   seconds) and kept in a cache; a plan is reused with other arrays through the new-array
   execute functions, which need the same alignment, so the alignment is part of the key. */
#include "runtime/rt_fft.h"
#include "runtime/rt_internal.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* ---- the part of fftw3.h that is used (fftw_ and fftwf_ take the same arguments) ---- */
typedef struct FftwIodim64 { ptrdiff_t n, is, os; } FftwIodim64;
#define FFTW_FORWARD_SIGN (-1)
#define FFTW_BACKWARD_SIGN (+1)
#define FFTW_ESTIMATE_FLAG (1U << 6)
#define FFTW_PRESERVE_INPUT_FLAG (1U << 4)

typedef struct FftwApi {
  void *(*plan)(int, const FftwIodim64 *, int, const FftwIodim64 *, void *, void *, int, unsigned);
  void (*execute)(void *, void *, void *);
  void (*destroy)(void *);
  int (*alignment_of)(void *);
  int (*init_threads)(void);                 /* NULL: no threads library */
  void (*plan_with_nthreads)(int);
} FftwApi;

enum { PREC_SINGLE, PREC_DOUBLE };
#define PLAN_CACHE_MAX 64          /* plans kept; the least recently used goes first */
#define THREADS_FROM 32768         /* elements: smaller transforms run on one thread */

typedef struct PlanKey {
  int prec, sign, rank, howmany_rank, align_in, align_out, nthreads;
  bool inplace;
  FftwIodim64 dims[OQ_MAX_RANK], howmany[OQ_MAX_RANK];
} PlanKey;

typedef struct Plan { PlanKey key; void *plan; uint64_t used; } Plan;

struct FftwLib {
  int state[2];                    /* per precision: 0 not tried, 1 loaded, -1 missing */
  void *handle[2];
  FftwApi api[2];
  int threads;
  Plan plans[PLAN_CACHE_MAX];
  int nplans;
  uint64_t clock;                  /* for least-recently-used eviction */
};

FftwLib *fftw_lib_new(int threads) {
  FftwLib *L = calloc(1, sizeof *L);
  L->threads = threads < 1 ? 1 : threads;
  return L;
}

void fftw_lib_free(FftwLib *L) {
  if (!L) return;
  for (int i = 0; i < L->nplans; i++) L->api[L->plans[i].key.prec].destroy(L->plans[i].plan);
  free(L);
}

/* ---- loading ---- */

static void *sym(void *h, const char *prefix, const char *name) {
  char full[64];
  snprintf(full, sizeof full, "%s%s", prefix, name);
  return dlsym(h, full);
}

/* The threads library pulls in the plain one; without it FFTW runs on one thread. */
static bool load(FftwLib *L, int prec) {
  static const char *const threaded[2] = { "libfftw3f_threads.so.3", "libfftw3_threads.so.3" };
  static const char *const plain[2] = { "libfftw3f.so.3", "libfftw3.so.3" };
  const char *prefix = prec == PREC_SINGLE ? "fftwf_" : "fftw_";
  void *h = dlopen(threaded[prec], RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen(plain[prec], RTLD_NOW | RTLD_LOCAL);
  if (!h) return false;
  FftwApi *a = &L->api[prec];
  *(void **)&a->plan = sym(h, prefix, "plan_guru64_dft");
  *(void **)&a->execute = sym(h, prefix, "execute_dft");
  *(void **)&a->destroy = sym(h, prefix, "destroy_plan");
  *(void **)&a->alignment_of = sym(h, prefix, "alignment_of");
  *(void **)&a->init_threads = sym(h, prefix, "init_threads");
  *(void **)&a->plan_with_nthreads = sym(h, prefix, "plan_with_nthreads");
  if (!a->plan || !a->execute || !a->destroy || !a->alignment_of) {
    dlclose(h);
    return false;
  }
  if (!a->plan_with_nthreads || (a->init_threads && !a->init_threads())) a->init_threads = NULL;
  L->handle[prec] = h;
  return true;
}

bool fftw_available(FftwLib *L) {
  int prec = el_cscalar() == EL_C64 ? PREC_SINGLE : PREC_DOUBLE;
  if (!L->state[prec]) L->state[prec] = load(L, prec) ? 1 : -1;
  return L->state[prec] > 0;
}

static const FftwApi *api(FftwLib *L, int prec, const char *fn, SrcLoc loc) {
  if (!L->state[prec]) L->state[prec] = load(L, prec) ? 1 : -1;
  if (L->state[prec] < 0)
    rt_error(loc, "%s: FFTW is not installed (%s not found: install the Debian package %s)", fn,
             prec == PREC_SINGLE ? "libfftw3f.so.3" : "libfftw3.so.3",
             prec == PREC_SINGLE ? "libfftw3-single3" : "libfftw3-double3");
  return &L->api[prec];
}

/* ---- axes ---- */

FftAxes fft_axes_k(int k, int rank) {
  FftAxes ax = { 0 };
  if (k == 1) ax.axis[ax.n++] = rank - 1;
  else
    for (int d = 0; d < k && d < rank; d++) ax.axis[ax.n++] = d;
  return ax;
}

FftAxes fft_axes_list(const char *fn, Value dims, int rank, SrcLoc loc) {
  FftAxes ax = { 0 };
  bool seen[OQ_MAX_RANK] = { 0 };
  int64_t n = dims.kind == V_ARRAY ? dims.arr->numel : 1;
  if (!(v_is_real(dims) || (dims.kind == V_ARRAY && !el_is_complex(dims.arr->elem))))
    rt_error(loc, "%s: the dimensions must be a number or a vector of numbers, got %s", fn,
             rt_kind_name(dims));
  if (n < 1) rt_error(loc, "%s: no dimension to transform along", fn);
  for (int64_t i = 0; i < n; i++) {
    int64_t d = dims.kind == V_ARRAY ? arr_load_i(dims.arr, i) : rt_to_int(dims, loc);
    if (d < 0 || d >= rank)
      rt_error(loc, "%s: dimension %lld is outside the array's %d dimension%s (0-based)", fn,
               (long long)d, rank, rank == 1 ? "" : "s");
    if (seen[d]) rt_error(loc, "%s: dimension %lld is given twice", fn, (long long)d);
    seen[d] = true;
  }
  for (int d = 0; d < rank; d++)
    if (seen[d]) ax.axis[ax.n++] = d;
  return ax;
}

int64_t fft_axes_count(const Array *x, const FftAxes *ax) {
  int64_t n = 1;
  for (int i = 0; i < ax->n; i++) n *= x->dims[ax->axis[i]];
  return n;
}

ElemType fft_result_elem(FftKind k) { return k == FFT_INVERSE_REAL ? el_scalar() : el_cscalar(); }

/* ---- plans ---- */

/* The guru layout of x along ax: transformed dimensions and batch dimensions (lengths of 1
   left out: FFTW needs none of them). */
static void layout(const Array *x, const FftAxes *ax, PlanKey *k) {
  int64_t stride[OQ_MAX_RANK];
  int64_t s = 1;
  for (int d = x->rank - 1; d >= 0; d--) { stride[d] = s; s *= x->dims[d]; }
  bool along[OQ_MAX_RANK] = { 0 };
  for (int i = 0; i < ax->n; i++) along[ax->axis[i]] = true;
  for (int d = 0; d < x->rank; d++) {
    if (x->dims[d] == 1) continue;
    FftwIodim64 io = { (ptrdiff_t)x->dims[d], (ptrdiff_t)stride[d], (ptrdiff_t)stride[d] };
    if (along[d]) k->dims[k->rank++] = io;
    else k->howmany[k->howmany_rank++] = io;
  }
}

static bool same_key(const PlanKey *a, const PlanKey *b) {
  if (a->prec != b->prec || a->sign != b->sign || a->rank != b->rank ||
      a->howmany_rank != b->howmany_rank || a->align_in != b->align_in ||
      a->align_out != b->align_out || a->nthreads != b->nthreads || a->inplace != b->inplace)
    return false;
  return !memcmp(a->dims, b->dims, sizeof(FftwIodim64) * (size_t)a->rank) &&
         !memcmp(a->howmany, b->howmany, sizeof(FftwIodim64) * (size_t)a->howmany_rank);
}

static Plan *cache_slot(FftwLib *L) {
  if (L->nplans < PLAN_CACHE_MAX) return &L->plans[L->nplans++];
  Plan *old = &L->plans[0];
  for (int i = 1; i < L->nplans; i++)
    if (L->plans[i].used < old->used) old = &L->plans[i];
  L->api[old->key.prec].destroy(old->plan);
  return old;
}

static void *plan_for(FftwLib *L, const FftwApi *A, PlanKey *key, void *in, void *out,
                      const char *fn, SrcLoc loc) {
  for (int i = 0; i < L->nplans; i++)
    if (same_key(&L->plans[i].key, key)) {
      L->plans[i].used = ++L->clock;
      return L->plans[i].plan;
    }
  if (A->init_threads) A->plan_with_nthreads(key->nthreads);
  void *p = A->plan(key->rank, key->dims, key->howmany_rank, key->howmany, in, out, key->sign,
                    FFTW_ESTIMATE_FLAG | FFTW_PRESERVE_INPUT_FLAG);
  if (!p) rt_error(loc, "%s: FFTW could not plan this transform", fn);
  Plan *slot = cache_slot(L);
  slot->key = *key;
  slot->plan = p;
  slot->used = ++L->clock;
  return p;
}

/* ---- the transform ---- */

static void scale(Array *r, double s) {
  if (r->elem == EL_F32 || r->elem == EL_C64) {
    float *p = r->data, f = (float)s;
    int64_t n = r->numel * (r->elem == EL_C64 ? 2 : 1);
    for (int64_t i = 0; i < n; i++) p[i] *= f;
  } else {
    double *p = r->data;
    int64_t n = r->numel * (r->elem == EL_C128 ? 2 : 1);
    for (int64_t i = 0; i < n; i++) p[i] *= s;
  }
}

/* The real parts of complex z, times s, into the real array r of the same precision. */
static void real_part(Array *r, const Array *z, double s) {
  if (r->elem == EL_F32) {
    const float *p = z->data;
    float *q = r->data, f = (float)s;
    for (int64_t i = 0; i < r->numel; i++) q[i] = p[2 * i] * f;
  } else {
    const double *p = z->data;
    double *q = r->data;
    for (int64_t i = 0; i < r->numel; i++) q[i] = p[2 * i] * s;
  }
}

Array *fftw_transform(FftwLib *L, const Array *x, const FftAxes *ax, FftKind kind,
                      const char *fn, SrcLoc loc) {
  ElemType ce = el_cscalar();
  int prec = ce == EL_C64 ? PREC_SINGLE : PREC_DOUBLE;
  const FftwApi *A = api(L, prec, fn, loc);
  Array *in = x->elem == ce ? (Array *)x : arr_convert(x, ce);
  Array *out = arr_new_uninit(ce, x->rank, x->dims);
  int64_t count = fft_axes_count(x, ax);
  PlanKey key = { .prec = prec, .sign = kind == FFT_FORWARD ? FFTW_FORWARD_SIGN : FFTW_BACKWARD_SIGN };
  layout(x, ax, &key);
  if (x->numel == 0) {
    /* nothing to transform */
  } else if (key.rank == 0) {
    memcpy(out->data, in->data, (size_t)x->numel * el_size(ce));   /* lengths of 1: identity */
  } else {
    key.nthreads = x->numel >= THREADS_FROM && A->init_threads ? L->threads : 1;
    key.align_in = A->alignment_of(in->data);
    key.align_out = A->alignment_of(out->data);
    void *p = plan_for(L, A, &key, in->data, out->data, fn, loc);
    A->execute(p, in->data, out->data);
  }
  if (in != x) val_release(v_array(in));
  if (kind == FFT_FORWARD || x->numel == 0) {
    if (kind == FFT_INVERSE_REAL) {
      Array *r = arr_new(el_scalar(), x->rank, x->dims);
      val_release(v_array(out));
      return r;
    }
    return out;
  }
  if (kind == FFT_INVERSE) {
    scale(out, 1.0 / (double)count);
    return out;
  }
  Array *r = arr_new_uninit(el_scalar(), x->rank, x->dims);
  real_part(r, out, 1.0 / (double)count);
  val_release(v_array(out));
  return r;
}
