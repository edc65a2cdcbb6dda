/* plan.c: where and how a kernel launch runs (plan.h). */
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "backend/plan.h"

/* ---- the oracle's blocks ---- */

/* The largest block of each dimension. 3-D: 8 x 16 x 4 as Quasar, whose programs size shared
   tiles by it (seed 003's filters assert blkdim <= 8 x 16); a kernel whose shared memory
   does not depend on the block (rows = true) gets long rows of h x w x channel images,
   2 x 64 x 4 (seed 000's hist_shared reads 6 % faster on the H100). */
int64_t plan_block_cap(int D, int d, bool rows) {
  static const int64_t caps2[] = {16, 32}, caps3[] = {8, 16, 4}, rows3[] = {2, 64, 4};
  if (D == 1) return 512;
  if (D == 2) return caps2[d];
  int first3 = D - 3;
  return d < first3 ? 1 : (rows ? rows3 : caps3)[d - first3];
}

/* Whether f's 3-D launches get long rows (plan_block_cap): it sees blocks, and its shared
   memory cannot depend on their size. */
bool plan_long_rows(Func *f) {
  FuncInfo *fi = func_info(f);
  return fi->block_params && !fi->shared_by_block;
}

void plan_blocks(int D, const int64_t *dims, bool explicit_blk, bool rows, int64_t *blk, int64_t *cnt) {
  if (!explicit_blk) {
    /* a launch of at most 512 threads is one block (tests/README.md, semantics 4: seed
       10.9's kernel1 reduces over the whole launch); else each dimension's block divides it */
    int64_t n = 1;
    for (int d = 0; d < D; d++) n *= dims[d];
    for (int d = 0; d < D; d++)
      blk[d] = n <= 512 ? (dims[d] < 1 ? 1 : dims[d]) : rt_largest_divisor(dims[d], plan_block_cap(D, d, rows));
  }
  for (int d = 0; d < D; d++) cnt[d] = (dims[d] + blk[d] - 1) / blk[d];
}

/* ---- the back ends and their keys ---- */

bool plan_cuda_check_enabled(void) {
  static int on = -1;
  if (on < 0) {
    on = config()->cuda_check && nvrtc_available(NULL, 0);
  }
  return on;
}

/* The CPU compiles a kernel with block parameters for its block size (phase loops with known
   trip counts). x86-64 addresses take int64 indices without sign extensions: int32 ones
   measured 5-10 % slower (bench/hist.q, session 4). OQ_DEV_CPU_IDX32=1 compiles them all the same
   (tests run the int32 index code here, where no GPU is). */
static void cpu_key(const KLaunch *cl, PlanKey *k) {
  if (cl->D <= 3 && func_info(cl->kernel->func)->block_params)
    for (int d = 0; d < cl->D; d++) k->cblk[d] = cl->blk[d];
  k->idx32 = config()->dev.cpu_idx32;
}

/* Whether a CUDA launch's block size is part of its key: barrier kernels with block
   parameters compile per block size (constant blkdim, as on the CPU) and may get virtual
   threads. */
static bool cuda_block_keyed(const KLaunch *cl) {
  FuncInfo *fi = func_info(cl->kernel->func);
  return cl->D <= 3 && fi->block_params && fi->uses_barrier && !fi->uses_grid_barrier;
}

/* Virtual threads (emit_cuda) proposed for a launch's block: F Quasar threads per GPU thread
   along dimension 0, 4 or else 2, when F divides it and leaves a block of at least 64 GPU
   threads (seed 002's transpose on the H100: 4 was the best for 16x16 tiles and, without
   zeroing, for 32x32 ones); OQ_DEV_CUDA_VTHREADS=F asks for F (1: none). */
static int cuda_vthreads(const KLaunch *cl) {
  if (!cuda_block_keyed(cl)) return 1;
  const int64_t *blk = cl->blk;
  int64_t threads = 1;
  for (int d = 0; d < cl->D; d++) threads *= blk[d];
  int want = config()->dev.cuda_vthreads;   /* at each launch: bench-gpu changes it between cases */
  if (want) return blk[0] % want ? 1 : want;
  for (int F = 4; F >= 2; F /= 2)
    if (blk[0] % F == 0 && threads / F >= 64) return F;
  return 1;
}

/* Persistent blocks' proposal of 4 Quasar threads per GPU thread (coarse.c's em_cuda_coarse_ahead):
   for launches of 2^24 positions or more. Its 1-D blocks have 4 times fewer threads, so a
   small launch fills the SMs with 4 times more resident blocks, each with its own prologue
   and merge: on the H100, 1920x1080x3 lost 5-60 % with them, 8192x8192x3 gained 4 %.
   OQ_DEV_CUDA_COARSE_VEC=1 proposes it for every launch, =0 for none (tuning, tests). */
static int cuda_cvec(const KLaunch *cl) {
  int want = config()->dev.coarse_vec;
  int64_t n = 1;
  for (int d = 0; d < cl->D; d++) n *= cl->dims[d];
  return want == 2 ? (n >= (1 << 24) ? 4 : 1) : want ? 4 : 1;
}

static void cuda_key(const KLaunch *cl, PlanKey *k) {
  if (cuda_block_keyed(cl))
    for (int d = 0; d < cl->D; d++) k->cblk[d] = cl->blk[d];
  k->idx32 = true;
  k->vthreads = cuda_vthreads(cl);
  k->cvec = cuda_cvec(cl);
}

void plan_key(const PlanKey *k, KSpec *S) {
  memcpy(S->cblk, k->cblk, sizeof S->cblk);
  S->idx32 &= k->idx32;
  S->tr.vthreads = k->vthreads;
  S->tr.cvec = k->cvec;
}

/* CUDA first when it is the target, then the CPU (--target cpu and auto), the interpreter
   last; the CUDA source is checked before the CPU runs a launch. */
void launch_plan(const KLaunch *cl, LaunchPlan *p) {
  Target target = cl->opt ? cl->opt->target : TARGET_INTERP;
  bool check = target != TARGET_INTERP && (plan_cuda_check_enabled() || (cl->opt && cl->opt->emit_cuda));
  memset(p, 0, sizeof *p);
  if (target == TARGET_CUDA) p->step[p->nsteps++] = STEP_CUDA;
  if (check) p->step[p->nsteps++] = STEP_CUDA_CHECK;
  if (target != TARGET_INTERP) p->step[p->nsteps++] = STEP_CPU;
  p->step[p->nsteps++] = STEP_INTERP;
  p->cuda_refusal = cl->D > 3 ? "launches of more than 3 dimensions run on the CPU" : NULL;
  if (target != TARGET_INTERP) cpu_key(cl, &p->cpu);
  if (target == TARGET_CUDA || check) cuda_key(cl, &p->cuda);
}

/* ---- the GPU's blocks ---- */

/* A kernel that sees blocks (blkpos, blkdim, shared, barriers), or an explicit [dims,
   blkdims], runs with the oracle's. Another gets the occupancy calculator's threads per block
   for its registers, filled from Quasar's last dimension (CUDA x: consecutive threads touch
   consecutive elements) outward. Dimensions after the first get divisors of the oracle's
   extents (cnt * blk), so that a linear `pos` stays the oracle's; the first is padded: its
   grid rounds up and the extra threads do nothing. */
void plan_cuda_blocks(const KLaunch *cl, const CudaDevice *dev, bool own_blocks, int (*occupancy_threads)(void *),
                      void *ctx, int64_t *blk, int64_t *cnt) {
  if (own_blocks || cl->explicit_blk) {
    memcpy(blk, cl->blk, cl->D * sizeof *blk);
    memcpy(cnt, cl->cnt, cl->D * sizeof *cnt);
    return;
  }
  int64_t budget = occupancy_threads(ctx);
  for (int d = cl->D - 1; d >= 0; d--) {
    int64_t cap = budget < dev->max_block_dim[cl->D - 1 - d] ? budget : dev->max_block_dim[cl->D - 1 - d];
    if (d == 0) {
      blk[0] = cl->dims[0] < cap ? (cl->dims[0] < 1 ? 1 : cl->dims[0]) : cap;
      cnt[0] = (cl->dims[0] + blk[0] - 1) / blk[0];
    } else {
      int64_t ext = cl->cnt[d] * cl->blk[d];
      blk[d] = rt_largest_divisor(ext, cap);
      cnt[d] = ext / blk[d];
    }
    budget /= blk[d];
    if (budget < 1) budget = 1;
  }
}

static bool extent_refused(const LaunchSpec *h, int64_t blk, int64_t cnt) {
  return h->small_launch && cnt * blk > (1 << 23);
}

const char *plan_extents_refusal(const LaunchSpec *h, int D, const int64_t *blk, const int64_t *cnt) {
  for (int d = 0; d < D; d++)
    if (extent_refused(h, blk[d], cnt[d])) return "launch extents above 2^23";
  return NULL;
}

const char *plan_cuda_shape_refusal(const KLaunch *cl, const CudaDevice *dev, const LaunchSpec *h, bool cooperative,
                                    int max_threads, const int64_t *blk, const int64_t *cnt) {
  const KTransforms *tr = &h->tr;
  int64_t threads = 1;
  for (int d = 0; d < cl->D; d++) {
    int axis = cl->D - 1 - d;
    threads *= blk[d];
    /* a tiled kernel's grid and blocks are gpu_tiling's, whatever the data's shape; grids
       beyond the y and z limits run in chunks (rt_gpu.c launch), unless a grid barrier spans
       them */
    bool chunked = axis > 0 && !cooperative;
    if (!tr->tiled && (blk[d] > dev->max_block_dim[axis] || (cnt[d] > dev->max_grid_dim[axis] && !chunked)))
      return "the launch's blocks or grid exceed the device's limits";
    if (extent_refused(h, blk[d], cnt[d])) return "launch extents above 2^23";
  }
  if (!tr->tiled && threads / tr->vthreads / tr->cvec * tr->vblocks > max_threads)
    return "the block has more threads than the kernel can run";
  return NULL;
}

/* OQ_DEV_CUDA_VBLOCKS=V: at most V (read at each launch: bench-gpu changes it between cases). */
int plan_cuda_vblocks(int kernel_most, int64_t cnt0) {
  int most = config()->dev.cuda_vblocks;
  return plan_pow2_dividing(most < kernel_most ? most : kernel_most, cnt0);
}

int plan_pow2_dividing(int most, int64_t n) {
  int v = 1;
  while (v * 2 <= most && n % (v * 2) == 0) v *= 2;
  return v;
}
