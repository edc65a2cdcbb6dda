/* interp_kernel.c: the reference execution of kernels, the oracle the compiled back ends are
   tested against. parallel_do runs every thread of every block in order. Threads of a kernel
   that calls syncthreads run as fibers (ucontext) that switch at each barrier: all threads of
   a block (of the grid, for syncthreads(grid)) reach the barrier before any goes on. Warp
   collectives (coalesced_threads.shfl_down(v, d), syncthreads(warp), ...) are exchanges of
   the 32 consecutive threads of a block that form a warp, on the same fibers.

   Block sizes (plan.c, plan_blocks): a launch without explicit block dimensions uses, per
   dimension, the largest divisor of the data size that is at most a cap (1-D: 512; 2-D:
   16x32; 3-D: 8x16x4), so blocks tile the data exactly. max_block_size answers min(size,
   cap). With explicit block dimensions that do not divide the data, the grid is rounded up;
   the extra threads run only when the kernel has barriers (they must reach them), otherwise
   they are skipped. */
/* Fibers switch stacks with _longjmp; a fortified build (_FORTIFY_SOURCE, on by default in
   Ubuntu's compiler) checks that a jump stays on one stack and aborts. */
#undef _FORTIFY_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "interp/interp_priv.h"
#include "backend/plan.h"
#include "backend/cpu/rt_cpu.h"
#include "backend/cuda/rt_gpu.h"
#include "device/rt_cuda.h"
#include "backend/rt_profile.h"

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
  bool explicit_blk;        /* parallel_do([dims, blkdims], ...) */
  bool fibers, grid_fibers;
  ucontext_t sched;         /* where a fiber's first switch returns to */
  jmp_buf sched_jb;         /* where barriers and finished fibers jump back to */
  void **stacks;            /* fiber stacks, reused from block to block */
  int64_t nstacks;
} Launch;

/* The shared memory of one block: its k-th shared() call gets arr[k]. */
typedef struct SharedSet { Array **arr; int n, cap; } SharedSet;

/* Why a fiber jumped back to the scheduler. */
typedef enum Wait { WAIT_NONE, WAIT_BARRIER, WAIT_WARP } Wait;

struct KernelThread {
  Launch *L;
  SharedSet *shared;
  int64_t blkidx[OQ_MAX_RANK], blkpos[OQ_MAX_RANK];
  int shared_next;
  bool done, started;
  Wait wait;
  Node *wait_site;          /* the barrier or collective it waits at */
  GroupOp wait_op;          /* WAIT_WARP: the collective (G_SYNC: a warp barrier) */
  Value give;               /* WAIT_WARP: the value (or predicate) this lane brings */
  int64_t arg;              /* ... and a shuffle's lane argument */
  Value got;                /* what the collective gave this lane */
  ucontext_t ctx;           /* only to enter the fiber the first time */
  jmp_buf jb;               /* where the fiber resumes after a barrier */
};

/* ---- block sizes (the oracle's: plan.c, plan_blocks) ---- */

/* Reads a size: a number, or a vector of numbers. Returns the count. */
/* One dimension of a launch or block size: a finite number below 2^62 (a NaN or a huge
   value converted to int64 is undefined behaviour, and wraps in practice). Negative sizes
   are refused by the callers with their own message. */
static int64_t launch_extent(double x, const char *what, SrcLoc loc) {
  if (!(x > -0x1p62 && x < 0x1p62)) rt_error(loc, "%s: the dimension %g is not a size", what, x);
  return (int64_t)x;
}

static int read_dims(Value v, int64_t *dims, const char *what, SrcLoc loc) {
  if (v_is_real(v)) { dims[0] = rt_to_int(v, loc); return 1; }
  if (v.kind != V_ARRAY || v.arr->rank != 1 || v.arr->numel < 1 || v.arr->numel > OQ_MAX_RANK)
    rt_error(loc, "%s must be a number or a vector of at most %d numbers, not a %s", what,
             OQ_MAX_RANK, rt_kind_name(v));
  for (int64_t i = 0; i < v.arr->numel; i++) dims[i] = launch_extent(arr_load(v.arr, i), what, loc);
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
      int64_t cap = plan_block_cap(D, d, false);
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
  if (!strcmp(n, "coalesced_threads") || !strcmp(n, "this_thread_block")) return v_none();   /* kernel_group */
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

/* Sums and products of scalar outputs are kept in double over the threads and rounded once
   at the end of the launch (round_outs), as the compiled back ends' per-worker accumulators
   are (docs/language.md, "Precision of accumulators"). */
static void combine_out(Launch *L, int o, Value v) {
  Op op = func_info(L->func)->out_op[o];
  Op combine = op == OP_MAX || op == OP_MIN || op == OP_MUL ? op : OP_ADD;
  Value *acc = &L->acc[o];
  if ((combine == OP_ADD || combine == OP_MUL) && acc->kind == V_SCALAR && v_is_real(v)) {
    double x = v.kind == V_SCALAR ? v.s : (double)v.i;
    acc->s = combine == OP_ADD ? acc->s + x : acc->s * x;
    return;
  }
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

/* Jumps back to the scheduler until the wait is over (run_fibers). */
static void fiber_wait(KernelThread *t, Wait w, Node *site) {
  t->wait = w;
  t->wait_site = site;
  if (!_setjmp(t->jb)) _longjmp(t->L->sched_jb, 1);
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

/* ---- warps ----
   A warp is 32 consecutive threads of a block in row-major order (CUDA's own order: the last
   dimension runs along threadIdx.x); the last warp of a block may have fewer. */

static int64_t thread_linear(KernelThread *t) { return linear(t->blkpos, t->L->blk, t->L->D); }

/* The threads of the warp of the thread of linear index lin. */
static int warp_threads(Launch *L, int64_t lin) {
  int64_t rest = product(L->blk, L->D) - (lin - lin % WARP_SIZE);
  return rest < WARP_SIZE ? (int)rest : WARP_SIZE;
}

/* The lane a shuffle reads: its own where the source lies outside the warp. */
static int64_t shfl_source(GroupOp op, int64_t lane, int64_t arg, int size) {
  int64_t src = op == G_SHFL ? (arg % size + size) % size
              : op == G_SHFL_UP ? lane - arg : op == G_SHFL_DOWN ? lane + arg : lane ^ arg;
  return src < 0 || src >= size ? lane : src;
}

/* What the collective gives lane k of warp w (size lanes, every live one waiting at it). */
static Value collective_result(Launch *L, KernelThread *w, int size, int k) {
  KernelThread *t = &w[k];
  uint32_t mask = 0;
  bool all = true;
  switch (t->wait_op) {
  case G_SYNC: return v_none();
  case G_ALL: case G_ANY: case G_BALLOT:
    for (int j = 0; j < size; j++)
      if (!w[j].done && w[j].give.i) mask |= 1u << j;
      else if (!w[j].done) all = false;
    return t->wait_op == G_BALLOT ? v_int((int32_t)mask) : v_bool(t->wait_op == G_ALL ? all : mask != 0);
  default: {
    int64_t src = shfl_source(t->wait_op, k, t->arg, size);
    if (w[src].done)
      rt_error(t->wait_site->loc, "kernel '%s': %s: lane %d reads lane %lld, which has finished the kernel",
               callable_name(L->kernel), group_op_name(t->wait_op), k, (long long)src);
    Value v = w[src].give;
    if (v.kind == V_ARRAY) return v_array(arr_copy(v.arr));
    return v;
  }
  }
}

static const char *wait_name(KernelThread *t) {
  if (t->wait == WAIT_BARRIER) return "a barrier";
  return t->wait_op == G_SYNC ? "a warp barrier" : group_op_name(t->wait_op);
}

/* A warp whose live threads all wait at one collective (or all at warp barriers) completes
   it and runs on: true. Lanes at different collectives, or some at a collective and others
   at a block barrier, can never meet: an error naming the kernel and both lines. */
static bool warp_meet(Launch *L, KernelThread *w, int size) {
  KernelThread *at = NULL;
  for (int k = 0; k < size && !at; k++)
    if (!w[k].done && w[k].wait == WAIT_WARP) at = &w[k];
  if (!at) return false;
  for (int k = 0; k < size; k++) {
    KernelThread *t = &w[k];
    bool syncs = t->wait_op == G_SYNC && at->wait_op == G_SYNC;
    if (t->done || (t->wait == WAIT_WARP && (t->wait_site == at->wait_site || syncs))) continue;
    rt_error(at->wait_site->loc,
             "kernel '%s': the threads of a warp must meet at the same collective: lane %d is at %s (line %d), lane %d at %s (line %d)",
             callable_name(L->kernel), (int)(at - w), wait_name(at), at->wait_site->loc.line, k, wait_name(t),
             t->wait_site->loc.line);
  }
  for (int k = 0; k < size; k++)
    if (!w[k].done) w[k].got = collective_result(L, w, size, k);
  for (int k = 0; k < size; k++) w[k].wait = WAIT_NONE;
  return true;
}

/* Every warp of the n threads (whole blocks of nthreads, in order) that can meet does. */
static bool warps_meet(Launch *L, KernelThread *ts, int64_t n) {
  int64_t nthreads = product(L->blk, L->D);
  bool met = false;
  for (int64_t b = 0; b < n; b += nthreads)
    for (int64_t lin = 0; lin < nthreads; lin += WARP_SIZE)
      met |= warp_meet(L, ts + b + lin, warp_threads(L, lin));
  return met;
}

/* Runs threads as fibers until every one has finished. A thread that waits jumps back here;
   once every runnable thread has run up to its wait, the warps that can meet at a
   collective do so and run on; when none can, every live thread waits at a barrier and
   all are released together. */
static void run_fibers(Launch *L, KernelThread *ts, int64_t n) {
  for (int64_t i = 0; i < n; i++) fiber_stack(L, i);
  for (;;) {
    int64_t live = 0;
    for (int64_t i = 0; i < n; i++) {
      if (!ts[i].done && !ts[i].wait) fiber_resume(L, &ts[i], L->stacks[i]);
      live += !ts[i].done;
    }
    if (!live) return;
    if (warps_meet(L, ts, n)) continue;
    for (int64_t i = 0; i < n; i++) ts[i].wait = WAIT_NONE;
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

/* The launch's dimensions, and its block dimensions when they are given ([dims, blkdims]). */
static void parse_launch_size(Launch *L, Value spec, SrcLoc loc) {
  L->explicit_blk = spec.kind == V_ARRAY && spec.arr->rank == 2 && spec.arr->dims[0] == 2;
  if (L->explicit_blk) {
    L->D = (int)spec.arr->dims[1];
    if (L->D > OQ_MAX_RANK) rt_error(loc, "parallel_do: too many dimensions");
    for (int d = 0; d < L->D; d++) {
      L->dims[d] = launch_extent(arr_load(spec.arr, d), "parallel_do's data size", loc);
      L->blk[d] = launch_extent(arr_load(spec.arr, L->D + d), "parallel_do's block size", loc);
      if (L->blk[d] < 1) rt_error(loc, "parallel_do: block dimensions must be positive");
    }
  } else {
    L->D = read_dims(spec, L->dims, "parallel_do's data size", loc);
  }
  int64_t total = 1;
  for (int d = 0; d < L->D; d++) {
    if (L->dims[d] < 0) rt_error(loc, "parallel_do: negative data size");
    /* the positions are counted in int64 everywhere (here, the back ends, the GPU grid) */
    if (__builtin_mul_overflow(total, L->dims[d], &total))
      rt_error(loc, "parallel_do: the launch has more than 2^63 positions (dimensions multiply past int64)");
  }
}

/* The dimensions a special parameter's declared type holds: 1 for int/scalar, N for
   ivecN/vecN, 0 (any) when untyped or of open length. */
static int declared_dims(const Type *ty) {
  if (ty->kind == TY_INT || ty->kind == TY_SCALAR) return 1;
  return ty->kind == TY_ARRAY ? ty->fixed_len : 0;
}

/* A launch that `pos`, `blkpos` or `blkdim` cannot hold would cover part of the data silently
   (parallel_do([4,4], y, k) with pos : int): an error, as in Quasar. An int holds a launch
   with at most one dimension above 1 (seed 107's [1, BLOCK_SIZE]); an ivecN one whose
   dimensions past N are 1. Shorter launches are padded (special_value). */
static void check_launch_dims(const Launch *L) {
  int wide = 0, last = 0;   /* dimensions above 1; 1 + the last of them */
  for (int d = 0; d < L->D; d++)
    if (L->dims[d] > 1) wide++, last = d + 1;
  const Func *f = L->func;
  for (int i = 0; i < f->nparams; i++) {
    const Param *p = &f->params[i];
    if (strcmp(p->name, "pos") && strcmp(p->name, "blkpos") && strcmp(p->name, "blkdim")) continue;
    int n = declared_dims(p->type);
    if (n && (n == 1 ? wide > 1 : last > n))
      rt_error(L->site->loc, "parallel_do: kernel '%s' declares '%s : %s' (%d-D), but the launch is %d-D",
               callable_name(L->kernel), p->name, p->type->name ? p->type->name : "int", n, L->D);
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
    if (a < nargs && (args[a].kind == V_OBJECT || args[a].kind == V_CELL || args[a].kind == V_NULL))
      rt_error(L->site->loc, "parallel_do: argument '%s' of kernel '%s' is %s %s: kernels take arrays and "
               "numbers, not objects or cell arrays (pass the field or element, p.img or c[i])",
               p->name, kname, args[a].kind == V_CELL ? "a" : "an", args[a].kind == V_CELL ? "cell array" :
               args[a].kind == V_NULL ? "object pointer (nullptr)" : "object");
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
  parse_launch_size(&L, argv[0], site->loc);
  plan_blocks(L.D, L.dims, L.explicit_blk, plan_long_rows(L.func), L.blk, L.cnt);
  bind_kernel_args(&L, argc - 2, argv + 1);
  check_launch_dims(&L);
  FuncInfo *fi = func_info(L.func);
  L.fibers = fi->uses_barrier;
  L.grid_fibers = fi->uses_grid_barrier;
  LaunchPlan plan;
  KLaunch cl = {I->prog->opt, site, L.kernel, L.D, L.dims, L.blk, L.cnt, L.args, L.explicit_blk, &plan};
  launch_plan(&cl, &plan);
  Value compiled;
  for (int i = 0; i < plan.nsteps && plan.step[i] != STEP_INTERP; i++) {
    LaunchStep step = plan.step[i];
    if (step == STEP_CUDA_CHECK) gpu_check(&cl);
    else if (step == STEP_CUDA ? gpu_launch(&cl, &compiled) : cpu_launch(&cl, &compiled)) {
      release_kernel_args(&L);
      return compiled;
    }
  }
  /* the interpreter reads the arguments on the host (captures go through variables) */
  for (int i = 0; i < L.func->nparams; i++)
    if (L.args[i].kind == V_ARRAY) cuda_host_touch(L.args[i].arr, site->loc);
  double t0 = rt_now_ms();
  L.acc = calloc(L.func->nouts + 1, sizeof *L.acc);
  for (int o = 0; o < L.func->nouts; o++) L.acc[o] = out_identity(&L, o);
  prof_in_oracle(true);
  if (product(L.dims, L.D) > 0) {
    if (L.grid_fibers) {
      run_grid_fibers(&L);
    } else {
      int64_t bi[OQ_MAX_RANK] = {0};
      do run_block(&L, bi); while (next_index(bi, L.cnt, L.D));
    }
  }
  prof_in_oracle(false);
  free_stacks(&L);
  if (I->prog->opt && I->prog->opt->profile) cpu_note_interp(&cl, rt_now_ms() - t0);
  release_kernel_args(&L);
  for (int o = 0; o < L.func->nouts; o++)
    if (L.acc[o].kind == V_SCALAR) L.acc[o].s = rt_round(L.acc[o].s);   /* once, at the end */
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

void kernel_syncthreads(Interp *I, Node *site, BarrierKind k) {
  KernelThread *t = I->thread;
  if (!t) rt_error(site->loc, "syncthreads is only allowed in kernel functions");
  Launch *L = t->L;
  if (!L->fibers)
    rt_error(site->loc, "syncthreads in a __device__ function is not supported by the interpreter; call it from the kernel itself");
  if (k == BK_GRID && !L->grid_fibers)
    rt_error(site->loc, "syncthreads(grid) inside a device function is not supported");
  t->wait_op = G_SYNC;
  fiber_wait(t, k == BK_WARP ? WAIT_WARP : WAIT_BARRIER, site);
}

/* g.thread_idx, g.size, g.sync() of coalesced_threads (the thread's warp) or
   this_thread_block; the warp's shuffles and votes (resolution made the kernel's threads
   fibers). */
Value kernel_group(Interp *I, Node *n, GroupOp op, bool warp) {
  KernelThread *t = I->thread;
  if (!t) rt_error(n->loc, "cooperative groups are only available in kernels");
  int64_t lin = thread_linear(t);
  if (op == G_THREAD_IDX) return v_int(warp ? lin % WARP_SIZE : lin);
  if (op == G_SIZE) return v_int(warp ? warp_threads(t->L, lin) : product(t->L->blk, t->L->D));
  if (op == G_SYNC) {   /* (this_thread_block.sync() became syncthreads() in resolution) */
    kernel_syncthreads(I, n, BK_WARP);
    return v_none();
  }
  Value v = eval(I, n->list.items[0]);
  if (op <= G_SHFL_XOR) {
    if (!v_is_real(v) && !(v.kind == V_ARRAY && !el_is_complex(v.arr->elem)))
      rt_error(n->list.items[0]->loc, "%s of a %s: only int, scalar and vector values", group_op_name(op), rt_kind_name(v));
    Value a = eval(I, n->list.items[1]);
    t->arg = rt_to_int(a, n->list.items[1]->loc);
    val_release(a);
    t->give = v;
  } else {
    t->give = v_bool(rt_truthy(v, n->list.items[0]->loc));
    val_release(v);
  }
  t->wait_op = op;
  fiber_wait(t, WAIT_WARP, n);
  val_release(t->give);
  t->give = v_none();
  Value r = t->got;
  t->got = v_none();
  return r;
}
