/* interp_kernel.c: the reference execution of kernels, the oracle the compiled back ends are
   tested against. parallel_do runs every thread of every block in order. Threads of a kernel
   that calls syncthreads run as fibers (ucontext) that switch at each barrier: all threads of
   a block (of the grid, for syncthreads(grid)) reach the barrier before any goes on.

   Block sizes: a launch without explicit block dimensions uses, per dimension, the largest
   divisor of the data size that is at most a cap (1-D: 512; 2-D: 16x32; 3-D: 8x16x4), so
   blocks tile the data exactly. max_block_size answers min(size, cap). With explicit block
   dimensions that do not divide the data, the grid is rounded up; the extra threads run only
   when the kernel has barriers (they must reach them), otherwise they are skipped. */
/* Fibers switch stacks with _longjmp; a fortified build (_FORTIFY_SOURCE, on by default in
   Ubuntu's compiler) checks that a jump stays on one stack and aborts. */
#undef _FORTIFY_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "interp_priv.h"
#include "rt_gpu.h"
#include "rt_cuda.h"
#include "rt_profile.h"

#define FIBER_STACK (1 << 20)
#define GRID_FIBER_LIMIT 16384
#define WARP_SIZE 32

typedef struct Launch {
  Interp *host;
  Node *site;
  Callable *kernel;
  Func *func;
  int D;
  int64_t dims[OQ_MAX_RANK], blk[OQ_MAX_RANK], cnt[OQ_MAX_RANK];
  Value *args;              /* converted arguments, by parameter index (V_NONE: special) */
  Value few_args[8];        /* args when they fit (no allocation per launch) */
  Value *acc;               /* kernel outputs, combined over threads */
  bool fibers, grid_fibers;
  ucontext_t sched;         /* where a fiber's first switch returns to */
  jmp_buf sched_jb;         /* where barriers and finished fibers jump back to */
  void **stacks;            /* fiber stacks, reused from block to block */
  int64_t nstacks;
} Launch;

/* The shared memory of one block: its k-th shared() call gets arr[k]. */
typedef struct SharedSet { Array **arr; int n, cap; } SharedSet;

struct KernelThread {
  Launch *L;
  SharedSet *shared;
  int64_t blkidx[OQ_MAX_RANK], blkpos[OQ_MAX_RANK];
  int shared_next;
  bool done, started;
  ucontext_t ctx;           /* only to enter the fiber the first time */
  jmp_buf jb;               /* where the fiber resumes after a barrier */
};

/* ---- block sizes ---- */

/* The largest block of each dimension. 3-D: 8 x 16 x 4 as Quasar, whose programs size shared
   tiles by it (seed 003's filters assert blkdim <= 8 x 16); a kernel whose shared memory
   does not depend on the block (rows = true) gets long rows of h x w x channel images,
   2 x 64 x 4 (seed 000's hist_shared reads 6 % faster on the H100). */
static int64_t block_cap(int D, int d, bool rows) {
  static const int64_t caps2[] = {16, 32}, caps3[] = {8, 16, 4}, rows3[] = {2, 64, 4};
  if (D == 1) return 512;
  if (D == 2) return caps2[d];
  int first3 = D - 3;
  return d < first3 ? 1 : (rows ? rows3 : caps3)[d - first3];
}

/* Whether f's 3-D launches get long rows (block_cap): it sees blocks, and its shared memory
   cannot depend on their size. */
static bool long_rows(Func *f) {
  FuncInfo *fi = func_info(f);
  return fi->block_params && !fi->shared_by_block;
}

/* Reads a size: a number, or a vector of numbers. Returns the count. */
static int read_dims(Value v, int64_t *dims, const char *what, SrcLoc loc) {
  if (v_is_real(v)) { dims[0] = rt_to_int(v, loc); return 1; }
  if (v.kind != V_ARRAY || v.arr->rank != 1 || v.arr->numel < 1 || v.arr->numel > OQ_MAX_RANK)
    rt_error(loc, "%s must be a number or a vector of at most %d numbers, not a %s", what,
             OQ_MAX_RANK, rt_kind_name(v));
  for (int64_t i = 0; i < v.arr->numel; i++) dims[i] = (int64_t)arr_load(v.arr, i);
  return (int)v.arr->numel;
}

static Value int_vector(const int64_t *x, int n) {
  Array *a = arr_vec(EL_I32, n);
  for (int i = 0; i < n; i++) arr_store(a, i, (double)x[i]);
  return v_array(a);
}

static int64_t product(const int64_t *x, int D);

/* Halves the largest of out[0..D) until their product is at most limit (none when 0). */
static void halve_to(int64_t *out, int D, int64_t limit) {
  while (limit > 0 && product(out, D) > limit) {
    int big = 0;
    for (int d = 1; d < D; d++) big = out[d] > out[big] ? d : big;
    out[big] = (out[big] + 1) / 2;
  }
}

Value kernel_block_size(Interp *I, Node *site, int argc, Value *argv, bool count) {
  int need = count ? 3 : 2;
  const char *fname = count ? "opt_block_cnt" : "max_block_size";
  if (argc != need) rt_error(site->loc, "%s takes %d arguments", fname, need);
  int64_t dims[OQ_MAX_RANK], blk[OQ_MAX_RANK], out[OQ_MAX_RANK];
  Value dv = argv[argc - 1], kv = argv[0];
  /* the kernel, when launches go to the GPU: the answers fit it there */
  Func *gk = I->prog->opt && I->prog->opt->target == TARGET_CUDA && kv.kind == V_FUNC &&
             kv.fn->kind == CALL_USER ? kv.fn->func : NULL;
  int D = read_dims(dv, dims, "the data size", site->loc);
  if (count) {
    int Db = read_dims(argv[1], blk, "the block size", site->loc);
    if (Db != D) rt_error(site->loc, "opt_block_cnt: block and data sizes differ in length");
    for (int d = 0; d < D; d++) {
      if (blk[d] < 1) rt_error(site->loc, "opt_block_cnt: block size must be positive");
      out[d] = (dims[d] + blk[d] - 1) / blk[d];
    }
    /* on the GPU, no more blocks than it holds at once (grid barriers need them all
       resident; a grid-stride loop covers the rest) */
    halve_to(out, D, gk ? gpu_resident_blocks(gk, product(blk, D)) : 0);
  } else {
    for (int d = 0; d < D; d++) {
      int64_t cap = block_cap(D, d, false);
      out[d] = dims[d] < 1 ? 1 : (dims[d] < cap ? dims[d] : cap);
    }
    /* on the GPU, no more threads than the kernel can run there */
    halve_to(out, D, gk ? gpu_max_block_threads(gk) : 0);
  }
  return v_is_real(dv) ? v_int(out[0]) : int_vector(out, D);
}

/* ---- special parameters ---- */

static int64_t linear(const int64_t *x, const int64_t *extent, int D) {
  int64_t k = 0;
  for (int d = 0; d < D; d++) k = k * extent[d] + x[d];
  return k;
}

static int64_t product(const int64_t *x, int D) {
  int64_t p = 1;
  for (int d = 0; d < D; d++) p *= x[d];
  return p;
}

/* The value of a special kernel parameter for thread t, shaped by its declared type:
   an int (or untyped in a 1-D launch) gets the row-major linear index or the product; an
   ivecN/vecN gets N components (padded with 0 for positions and 1 for sizes). */
static Value special_value(KernelThread *t, const Param *p, SrcLoc loc) {
  Launch *L = t->L;
  int D = L->D;
  int64_t v[OQ_MAX_RANK];
  const char *n = p->name;
  bool is_size = !strcmp(n, "blkdim") || !strcmp(n, "blkcnt");
  if (!strcmp(n, "warpsize")) return v_int(WARP_SIZE);
  if (!strcmp(n, "blkpos")) memcpy(v, t->blkpos, sizeof v);
  else if (!strcmp(n, "blkidx")) memcpy(v, t->blkidx, sizeof v);
  else if (!strcmp(n, "blkdim")) memcpy(v, L->blk, sizeof v);
  else if (!strcmp(n, "blkcnt")) memcpy(v, L->cnt, sizeof v);
  else if (!strcmp(n, "pos"))
    for (int d = 0; d < D; d++) v[d] = t->blkidx[d] * L->blk[d] + t->blkpos[d];
  else
    rt_error(loc, "kernel parameter '%s' (cooperative groups) is not supported by the interpreter yet", n);
  const Type *ty = p->type;
  bool scalar_type = ty->kind == TY_INT || ty->kind == TY_SCALAR;
  if (scalar_type || (ty->kind == TY_UNKNOWN && D == 1)) {
    if (is_size) return v_int(product(v, D));
    if (!strcmp(n, "pos")) {
      int64_t ext[OQ_MAX_RANK];
      for (int d = 0; d < D; d++) ext[d] = L->cnt[d] * L->blk[d];
      return v_int(linear(v, ext, D));
    }
    return v_int(linear(v, !strcmp(n, "blkpos") ? L->blk : L->cnt, D));
  }
  int len = ty->kind == TY_ARRAY && ty->fixed_len ? ty->fixed_len : D;
  for (int d = D; d < len; d++) v[d] = is_size ? 1 : 0;
  Value iv = int_vector(v, len);
  if (ty->kind == TY_UNKNOWN) return iv;
  Value c = rt_convert(iv, ty, n, loc);
  val_release(iv);
  return c;
}

/* ---- running threads ---- */

static Value out_identity(Launch *L, int o) {
  FuncInfo *fi = func_info(L->func);
  bool is_int = L->func->outs[o].type->kind == TY_INT;
  switch (fi->out_op[o]) {
  case OP_MAX: return is_int ? v_int(INT64_MIN) : v_scalar(-INFINITY);
  case OP_MIN: return is_int ? v_int(INT64_MAX) : v_scalar(INFINITY);
  case OP_MUL: return is_int ? v_int(1) : v_scalar(1);
  default: return is_int ? v_int(0) : v_scalar(0);
  }
}

static void combine_out(Launch *L, int o, Value v) {
  Op op = func_info(L->func)->out_op[o];
  Op combine = op == OP_MAX || op == OP_MIN || op == OP_MUL ? op : OP_ADD;
  Value r = rt_binary(combine, L->acc[o], v, L->site->loc);
  val_release(L->acc[o]);
  L->acc[o] = r;
}

static void run_thread(KernelThread *t) {
  Launch *L = t->L;
  Func *f = L->func;
  FuncInfo *fi = func_info(f);
  Frame *fr = frame_new(fi->nslots, L->kernel->env);
  int base = f->ngenerics;
  for (int i = 0; i < f->ngenerics && i < L->kernel->ngeneric_args; i++) {
    fr->slots[i] = L->kernel->generic_args[i];
    val_retain(fr->slots[i]);
  }
  for (int i = 0; i < f->nparams; i++) {
    Value v = L->args[i];
    if (v.kind == V_NONE) v = special_value(t, &f->params[i], L->site->loc);
    else val_retain(v);
    fr->slots[base + i] = v;
  }
  int obase = base + f->nparams;
  for (int o = 0; o < f->nouts; o++) fr->slots[obase + o] = out_identity(L, o);
  Interp I = {.prog = L->host->prog, .frame = L->host->frame, .func = L->host->func,
              .thread = t, .depth = L->host->depth};
  val_release(call_user(&I, L->kernel, 0, NULL, L->site, fr));
  for (int o = 0; o < f->nouts; o++) combine_out(L, o, fr->slots[obase + o]);
  frame_release(fr);
}

static bool thread_in_range(Launch *L, KernelThread *t) {
  for (int d = 0; d < L->D; d++)
    if (t->blkidx[d] * L->blk[d] + t->blkpos[d] >= L->dims[d]) return false;
  return true;
}

/* Steps a multi-index through extent in row-major order; false after the last. */
static bool next_index(int64_t *x, const int64_t *extent, int D) {
  for (int d = D - 1; d >= 0; d--) {
    if (++x[d] < extent[d]) return true;
    x[d] = 0;
  }
  return false;
}

static void shared_free(SharedSet *s) {
  for (int i = 0; i < s->n; i++) val_release(v_array(s->arr[i]));
  free(s->arr);
  *s = (SharedSet){0};
}

/* Fibers: makecontext/swapcontext enter a fiber the first time; after that, switches use
   _setjmp/_longjmp, which (unlike swapcontext) make no system call. */
static KernelThread *fiber_arg;

static void fiber_main(void) {
  KernelThread *t = fiber_arg;
  run_thread(t);
  t->done = true;
  _longjmp(t->L->sched_jb, 1);
}

static void *fiber_stack(Launch *L, int64_t i) {
  if (i >= L->nstacks) {
    L->stacks = realloc(L->stacks, (i + 1) * sizeof *L->stacks);
    for (int64_t k = L->nstacks; k <= i; k++) {
      L->stacks[k] = mmap(NULL, FIBER_STACK, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (L->stacks[k] == MAP_FAILED) rt_error(L->site->loc, "cannot allocate a kernel thread stack");
    }
    L->nstacks = i + 1;
  }
  return L->stacks[i];
}

static void fiber_resume(Launch *L, KernelThread *t, void *stack) {
  if (_setjmp(L->sched_jb)) return;   /* back from a barrier or the fiber's end */
  if (t->started) _longjmp(t->jb, 1);
  t->started = true;
  getcontext(&t->ctx);
  t->ctx.uc_stack.ss_sp = stack;
  t->ctx.uc_stack.ss_size = FIBER_STACK;
  t->ctx.uc_link = NULL;
  fiber_arg = t;
  makecontext(&t->ctx, fiber_main, 0);
  swapcontext(&L->sched, &t->ctx);
}

/* Runs threads as fibers until every one has finished; a barrier jumps back here, and a
   round in which every live thread ran up to its barrier releases the barrier. */
static void run_fibers(Launch *L, KernelThread *ts, int64_t n) {
  for (int64_t i = 0; i < n; i++) fiber_stack(L, i);
  for (int64_t live = n; live > 0;) {
    live = 0;
    for (int64_t i = 0; i < n; i++) {
      if (ts[i].done) continue;
      fiber_resume(L, &ts[i], L->stacks[i]);
      if (!ts[i].done) live++;
    }
  }
}

static void free_stacks(Launch *L) {
  for (int64_t i = 0; i < L->nstacks; i++) munmap(L->stacks[i], FIBER_STACK);
  free(L->stacks);
}

static void run_block(Launch *L, const int64_t *blkidx) {
  int64_t nthreads = product(L->blk, L->D);
  SharedSet shared = {0};
  if (!L->fibers) {
    KernelThread t = {.L = L, .shared = &shared};
    memcpy(t.blkidx, blkidx, sizeof t.blkidx);
    do {
      t.shared_next = 0;
      if (thread_in_range(L, &t)) run_thread(&t);
    } while (next_index(t.blkpos, L->blk, L->D));
    shared_free(&shared);
    return;
  }
  KernelThread *ts = calloc(nthreads, sizeof *ts);
  int64_t pos[OQ_MAX_RANK] = {0};
  for (int64_t i = 0; i < nthreads; i++) {
    ts[i].L = L;
    ts[i].shared = &shared;
    memcpy(ts[i].blkidx, blkidx, sizeof ts[i].blkidx);
    memcpy(ts[i].blkpos, pos, sizeof pos);
    next_index(pos, L->blk, L->D);
  }
  run_fibers(L, ts, nthreads);
  free(ts);
  shared_free(&shared);
}

/* syncthreads(grid): every thread of the grid is a fiber; shared memory is per block. */
static void run_grid_fibers(Launch *L) {
  int64_t nblocks = product(L->cnt, L->D), nthreads = product(L->blk, L->D);
  if (nblocks * nthreads > GRID_FIBER_LIMIT)
    rt_error(L->site->loc, "syncthreads(grid): the interpreter runs at most %d threads, this launch has %lld",
             GRID_FIBER_LIMIT, (long long)(nblocks * nthreads));
  KernelThread *ts = calloc(nblocks * nthreads, sizeof *ts);
  SharedSet *shared = calloc(nblocks, sizeof *shared);
  int64_t bi[OQ_MAX_RANK] = {0};
  for (int64_t b = 0; b < nblocks; b++) {
    int64_t pos[OQ_MAX_RANK] = {0};
    for (int64_t i = 0; i < nthreads; i++) {
      KernelThread *t = &ts[b * nthreads + i];
      t->L = L;
      t->shared = &shared[b];
      memcpy(t->blkidx, bi, sizeof bi);
      memcpy(t->blkpos, pos, sizeof pos);
      next_index(pos, L->blk, L->D);
    }
    next_index(bi, L->cnt, L->D);
  }
  run_fibers(L, ts, nblocks * nthreads);
  free(ts);
  for (int64_t b = 0; b < nblocks; b++) shared_free(&shared[b]);
  free(shared);
}

/* ---- parallel_do ---- */

static void parse_launch_size(Launch *L, Value spec, SrcLoc loc, bool rows) {
  bool explicit_blk = spec.kind == V_ARRAY && spec.arr->rank == 2 && spec.arr->dims[0] == 2;
  if (explicit_blk) {
    L->D = (int)spec.arr->dims[1];
    if (L->D > OQ_MAX_RANK) rt_error(loc, "parallel_do: too many dimensions");
    for (int d = 0; d < L->D; d++) {
      L->dims[d] = (int64_t)arr_load(spec.arr, d);
      L->blk[d] = (int64_t)arr_load(spec.arr, L->D + d);
      if (L->blk[d] < 1) rt_error(loc, "parallel_do: block dimensions must be positive");
    }
  } else {
    L->D = read_dims(spec, L->dims, "parallel_do's data size", loc);
    /* a launch of at most 512 threads is one block (tests/README.md, semantics 4: seed
       10.9's kernel1 reduces over the whole launch); else each dimension's block divides it */
    bool one_block = product(L->dims, L->D) <= 512;
    for (int d = 0; d < L->D; d++)
      L->blk[d] = one_block ? (L->dims[d] < 1 ? 1 : L->dims[d]) : rt_largest_divisor(L->dims[d], block_cap(L->D, d, rows));
  }
  for (int d = 0; d < L->D; d++) {
    if (L->dims[d] < 0) rt_error(loc, "parallel_do: negative data size");
    L->cnt[d] = (L->dims[d] + L->blk[d] - 1) / L->blk[d];
  }
}

static void bind_kernel_args(Launch *L, int nargs, Value *args) {
  Func *f = L->func;
  const char *kname = callable_name(L->kernel);
  const bool *special = func_info(f)->special_params;
  L->args = f->nparams < 8 ? L->few_args : malloc((f->nparams + 1) * sizeof *L->args);
  int a = 0;
  for (int i = 0; i < f->nparams; i++) {
    Param *p = &f->params[i];
    L->args[i] = v_none();
    if (special[i]) continue;
    if (a < nargs) L->args[i] = rt_convert_arg(args[a], p->type, p->name, "kernel ", kname, L->site->loc);
    a++;
  }
  if (a != nargs)
    rt_error(L->site->loc, "parallel_do: kernel '%s' takes %d argument%s (besides pos, blkpos, ...), got %d",
             kname, a, a == 1 ? "" : "s", nargs);
}

static void release_kernel_args(Launch *L) {
  for (int i = 0; i < L->func->nparams; i++) val_release(L->args[i]);
  if (L->args != L->few_args) free(L->args);
}

Value kernel_parallel_do(Interp *I, Node *site, int argc, Value *argv) {
  if (I->thread) rt_error(site->loc, "parallel_do inside a kernel (nested parallelism) is not supported");
  if (argc < 2) rt_error(site->loc, "parallel_do needs a size and a kernel");
  Value kv = argv[argc - 1];
  if (kv.kind != V_FUNC || kv.fn->kind != CALL_USER || kv.fn->func->kind != FK_KERNEL)
    rt_error(site->loc, "parallel_do: the last argument must be a __kernel__ function, not a %s",
             kv.kind == V_FUNC ? "non-kernel function" : rt_kind_name(kv));
  Launch L = {.host = I, .site = site, .kernel = kv.fn, .func = kv.fn->func};
  if (argv[0].kind == V_ARRAY) cuda_host_read(argv[0].arr, site->loc);   /* the launch's size */
  parse_launch_size(&L, argv[0], site->loc, long_rows(L.func));
  bind_kernel_args(&L, argc - 2, argv + 1);
  FuncInfo *fi = func_info(L.func);
  L.fibers = fi->uses_barrier;
  L.grid_fibers = fi->uses_grid_barrier;
  /* the compiled back end, unless the interpreter is asked for */
  Target target = I->prog->opt ? I->prog->opt->target : TARGET_INTERP;
  CpuLaunch cl = {I->prog->opt, site, L.kernel, L.D, L.dims, L.blk, L.cnt, L.args,
                  argv[0].kind == V_ARRAY && argv[0].arr->rank == 2 && argv[0].arr->dims[0] == 2};
  Value compiled;
  bool on_gpu = target == TARGET_CUDA && gpu_launch(&cl, &compiled);
  if (!on_gpu && target != TARGET_INTERP && (gpu_check_enabled() || (cl.opt && cl.opt->emit_cuda))) gpu_check(&cl);
  if (on_gpu || (target != TARGET_INTERP && cpu_launch(&cl, &compiled))) {
    release_kernel_args(&L);
    return compiled;
  }
  /* the interpreter reads the arguments on the host (captures go through variables) */
  for (int i = 0; i < L.func->nparams; i++)
    if (L.args[i].kind == V_ARRAY) cuda_host_touch(L.args[i].arr, site->loc);
  double t0 = rt_now_ms();
  L.acc = calloc(L.func->nouts + 1, sizeof *L.acc);
  for (int o = 0; o < L.func->nouts; o++) L.acc[o] = out_identity(&L, o);
  if (product(L.dims, L.D) > 0) {
    if (L.grid_fibers) {
      run_grid_fibers(&L);
    } else {
      int64_t bi[OQ_MAX_RANK] = {0};
      do run_block(&L, bi); while (next_index(bi, L.cnt, L.D));
    }
  }
  free_stacks(&L);
  if (I->prog->opt && I->prog->opt->profile) cpu_note_interp(&cl, rt_now_ms() - t0);
  release_kernel_args(&L);
  Value result = v_none();
  if (L.func->nouts == 1) result = L.acc[0];
  else if (L.func->nouts > 1) {
    result = v_tuple(L.func->nouts);
    for (int o = 0; o < L.func->nouts; o++) result.tup->v[o] = L.acc[o];
  }
  free(L.acc);
  return result;
}

/* shared(dims...): the k-th call of a thread returns the block's k-th shared array. */
Value kernel_shared(Interp *I, Node *site, int argc, Value *argv, bool zeroed) {
  (void)zeroed;   /* shared memory is zero-filled here either way */
  KernelThread *t = I->thread;
  if (!t) rt_error(site->loc, "shared memory can only be allocated in a kernel");
  int64_t dims[OQ_MAX_RANK];
  int rank = 0;
  for (int i = 0; i < argc; i++) {
    int64_t d[OQ_MAX_RANK];
    int n = read_dims(argv[i], d, "a shared memory size", site->loc);
    for (int k = 0; k < n && rank < OQ_MAX_RANK; k++) dims[rank++] = d[k];
  }
  if (!rank) rt_error(site->loc, "shared needs a size");
  SharedSet *s = t->shared;
  if (t->shared_next < s->n) {
    Array *a = s->arr[t->shared_next++];
    bool same = a->rank == rank;
    for (int d = 0; same && d < rank; d++) same = a->dims[d] == dims[d];
    if (!same) rt_error(site->loc, "threads of one block allocate shared memory of different sizes");
    a->refcount++;
    return v_array(a);
  }
  for (int d = 0; d < rank; d++)
    if (dims[d] < 0 || dims[d] > (1 << 24)) rt_error(site->loc, "shared memory size out of range");
  Array *a = arr_new(el_scalar(), rank, dims);
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 4;
    s->arr = realloc(s->arr, s->cap * sizeof *s->arr);
  }
  s->arr[s->n++] = a;
  t->shared_next++;
  a->refcount++;
  return v_array(a);
}

void kernel_syncthreads(Interp *I, Node *site, const char *scope) {
  KernelThread *t = I->thread;
  if (!t) rt_error(site->loc, "syncthreads is only allowed in kernel functions");
  Launch *L = t->L;
  if (!L->fibers)
    rt_error(site->loc, "syncthreads in a __device__ function is not supported by the interpreter; call it from the kernel itself");
  if (!strcmp(scope, "grid") && !L->grid_fibers)
    rt_error(site->loc, "syncthreads(grid) inside a device function is not supported");
  if (!_setjmp(t->jb)) _longjmp(L->sched_jb, 1);
}
