/* plan.c: where and how a kernel launch runs (plan.h). */
#include <stdint.h>
#include <stdio.h>
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

/* (nvrtc_available loads NVRTC once) */
bool plan_cuda_check_enabled(void) { return config()->cuda_check && nvrtc_available(NULL, 0); }

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
  int64_t n = launch_positions(cl);
  return want == 2 ? (n >= (1 << 24) ? 4 : 1) : want ? 4 : 1;
}

/* (tv20) Rows per GPU thread proposed for a 2-D kernel that does not see its blocks: 4 from
   2^22 positions. The TV gradient of bench/arrayexpr (4096^2, H200, precise division and
   square root) ran 12 % faster so: the row's index arithmetic and launch share is paid once
   per 4 positions (bench/arrayexpr/bw.sh, tv rows4). OQ_DEV_CUDA_ROWS=R asks for R (1: none). */
static int cuda_rows(const KLaunch *cl) {
  FuncInfo *fi = func_info(cl->kernel->func);
  if (cl->D != 2 || cl->explicit_blk || fi->block_params || fi->uses_barrier) return 1;
  int want = config()->dev.cuda_rows;
  if (want) return want;
  return cl->dims[0] * cl->dims[1] >= (1 << 22) ? 4 : 1;
}

static void cuda_key(const KLaunch *cl, PlanKey *k) {
  if (cuda_block_keyed(cl))
    for (int d = 0; d < cl->D; d++) k->cblk[d] = cl->blk[d];
  k->idx32 = true;
  k->proposals = true;
  k->vthreads = cuda_vthreads(cl);
  k->cvec = cuda_cvec(cl);
  k->rows = cuda_rows(cl);
}

char *plan_key(const PlanKey *k, KSpec *S, Value *args) {
  memcpy(S->cblk, k->cblk, sizeof S->cblk);
  S->idx32 &= k->idx32;
  S->tr.vthreads = k->vthreads;
  S->tr.cvec = k->cvec;
  S->tr.rows = k->rows;
  char *key = ksema_key(S, args);
  if (!k->proposals) return key;
  size_t n = strlen(key);
  key = realloc(key, n + 48);
  size_t m = n + (size_t)snprintf(key + n, 24, "|vt%d|cv%d", S->tr.vthreads, S->tr.cvec);
  if (S->tr.rows > 1) snprintf(key + m, 24, "|rw%d", S->tr.rows);
  return key;
}

size_t plan_cmem_size(const Array *a) { return (a->numel * el_size(a->elem) + 15) & ~(size_t)15; }

void plan_cuda_cmem_key(const KLaunch *cl, char **key, bool *no_cmem) {
  Func *f = cl->kernel->func;
  size_t need = 0;
  for (int i = 0; i < f->nparams && i < 32; i++)
    if ((func_info(f)->slot_mods[f->ngenerics + i] & TM_HWCONST) && cl->args[i].kind == V_ARRAY)
      need += plan_cmem_size(cl->args[i].arr);
  *no_cmem = need > K_CMEM_BYTES;
  if (!*no_cmem) return;
  size_t n = strlen(*key);
  *key = realloc(*key, n + 6);
  memcpy(*key + n, "|gmem", 6);
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

/* ---- the CPU's runs ---- */

/* Barriers make phases (each block's threads run up to a barrier, then the next phase);
   blocks without them run block by block; a kernel that sees no blocks runs positions, or
   the tiles of its !kernel_tiling. */
CpuShape plan_cpu_shape(const KSpec *S) {
  CpuShape s = {.mode = S->barrier ? CPU_PHASES : S->uses_block ? CPU_BLOCKS : CPU_FLAT};
  s.tiled = s.mode == CPU_FLAT && ktiling_cpu_tile(&S->tr.tiling, s.tile);
  return s;
}

/* Private copies of the += arrays: small ones (a copy per worker costs memory and a pass to
   add it in, so at most 65536 elements and one per 64 positions) that no other argument or
   capture shares; none for a small launch on one worker. */
static unsigned cpu_private_mask(const LaunchSpec *h, const KLaunch *cl, const KSpec *S, int workers, int64_t npos) {
  Func *f = S->kfunc;
  unsigned mask = 0;
  if (workers < 2 && npos < 4096) return 0;
  for (int k = 0; k < h->tr.npriv; k++) {
    int a = h->tr.priv_arg[k];
    Value v = a < f->nparams ? cl->args[a] : S->caps[a - f->nparams].value;
    if (v.kind != V_ARRAY || v.arr->numel > 65536 || v.arr->numel * 64 > npos) continue;
    bool shared = false;
    for (int b = 0; b < f->nparams + S->ncaps && !shared; b++) {
      if (b == a) continue;
      Value w = b < f->nparams ? cl->args[b] : S->caps[b - f->nparams].value;
      shared = w.kind == V_ARRAY && w.arr->data == v.arr->data;
    }
    if (!shared) mask |= 1u << k;
  }
  return mask;
}

/* Positions go in chunks of at least 4096 (a chunk's bookkeeping against its bodies); blocks
   and tiles one at a time at least. */
CpuWork plan_cpu_work(const CpuShape *s, const LaunchSpec *h, const KLaunch *cl, const KSpec *S, int workers) {
  int64_t npos = 1, nblk = 1, tiles = 1;
  for (int d = 0; d < cl->D; d++) {
    npos *= cl->dims[d];
    nblk *= cl->cnt[d];
    if (s->tiled) tiles *= (cl->dims[d] + s->tile[d] - 1) / s->tile[d];
  }
  CpuWork w = {.items = nblk, .min_chunk = 1, .priv_mask = cpu_private_mask(h, cl, S, workers, npos)};
  if (npos <= 0) w.items = 0;
  else if (s->tiled) w.items = tiles;
  else if (s->mode == CPU_FLAT) w.items = npos, w.min_chunk = 4096;
  return w;
}

/* ---- the GPU's blocks ---- */

/* (tv20) The most threads of such a block: 256 (OQ_DEV_CUDA_BLOCK_MOST). At 4096^2 on the
   H200, one-position-per-thread copy, map and TV-gradient kernels ran 13-17 % faster in
   blocks of 256 than of 1024, the occupancy calculator's answer for small kernels; 128 was
   slower than both (bench/arrayexpr/bw.sh; in oq, tv_grad 0.107 -> 0.096 ms, knobs.sh). Not
   where the last dimension's extent has no divisor from 32 to 256 but a larger one up to the
   old budget: short rows would cost more. */
static int64_t cuda_free_budget(const KLaunch *cl, int64_t budget) {
  const int64_t most = config()->dev.cuda_block_most;
  if (budget <= most) return budget;
  int D = cl->D;
  int64_t ext = D > 1 ? cl->cnt[D - 1] * cl->blk[D - 1] : 0;
  if (D > 1 && ext > most && rt_largest_divisor(ext, most) < 32 && rt_largest_divisor(ext, budget) >= 32)
    return budget;
  return most;
}

/* A kernel that sees blocks (blkpos, blkdim, shared, barriers), or an explicit [dims,
   blkdims], runs with the oracle's. Another gets the occupancy calculator's threads per block
   for its registers, filled from Quasar's last dimension (CUDA x: consecutive threads touch
   consecutive elements) outward. Dimensions after the first get divisors of the oracle's
   extents (cnt * blk), so that a linear `pos` stays the oracle's; the first is padded: its
   grid rounds up and the extra threads do nothing. */
void plan_cuda_blocks(const KLaunch *cl, const CudaOcc *occ, bool own_blocks, int64_t *blk, int64_t *cnt) {
  const CudaDevice *dev = occ->dev;
  if (own_blocks || cl->explicit_blk) {
    memcpy(blk, cl->blk, cl->D * sizeof *blk);
    memcpy(cnt, cl->cnt, cl->D * sizeof *cnt);
    return;
  }
  int64_t budget = cuda_free_budget(cl, occ->block_size(occ->ctx));
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
    /* a tiled kernel's grid and blocks are plan_cuda_tiling's, whatever the data's shape; grids
       beyond the y and z limits run in chunks (plan_cuda_chunk), unless a grid barrier spans
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

/* syncthreads(grid) waits for every block: all of them must be resident on the device at
   once (a cooperative launch refuses more). A grid_stride kernel starts only as many as fit
   and loops them over the launch's blocks; for the others, too many is an error that names
   the kernel (the CPU back end and the interpreter cannot run such a launch either). */
static void cuda_cooperative(const LaunchSpec *h, const KLaunch *cl, const CudaOcc *occ, const int64_t *blk,
                             const int64_t *cnt, CudaGrid *gr) {
  const CudaDevice *dev = occ->dev;
  SrcLoc loc = cl->site->loc;
  if (!dev->cooperative)
    rt_error(loc, "kernel '%s' uses syncthreads(grid), and %s does not support cooperative launches", h->name,
             dev->name);
  int64_t blocks = 1, threads = 1;
  for (int d = 0; d < cl->D; d++) {
    blocks *= cnt[d];
    threads *= blk[d];
  }
  int64_t fit = (int64_t)occ->blocks_per_sm(occ->ctx, (int)threads, gr->shared) * dev->sm_count;
  if (h->tr.grid_stride && fit > 0) {
    gr->stride_blocks = (unsigned)(blocks < fit ? blocks : fit);
    return;
  }
  if (blocks > fit)
    rt_error(loc, "kernel '%s' uses syncthreads(grid), which needs all %lld blocks of the launch on the GPU at "
             "once; %s holds at most %lld blocks of %lld threads of this kernel (use fewer threads, or "
             "opt_block_size/opt_block_cnt with a loop over the data)", h->name, (long long)blocks, dev->name,
             (long long)fit, (long long)threads);
}

/* (kernels of virtual blocks are not tiled: xf is theirs) */
void plan_cuda_launch(const LaunchSpec *h, const KLaunch *cl, const CudaOcc *occ, bool cooperative,
                      const int64_t *blk, const int64_t *cnt, CudaGrid *gr) {
  gr->vblocks = plan_cuda_vblocks(h->tr.vblocks, cnt[0]);
  gr->xf = h->tr.vblocks > 1 ? (unsigned)gr->vblocks : 0;
  gr->shared = plan_cuda_shared(h, gr->vblocks, cl->D, blk);
  if (cooperative) cuda_cooperative(h, cl, occ, blk, cnt, gr);
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

/* ---- the GPU's grid ---- */

CudaGrid plan_cuda_grid_init(const LaunchSpec *h) {
  return (CudaGrid){.vblocks = 1, .cgroups = 1, .shared = h->nshared ? OQ_SHARED_MAX : 0};
}

size_t plan_cuda_shared(const LaunchSpec *h, int vblocks, int D, const int64_t *blk) {
  return ksema_shared_bytes(h->tr.shsize, h->nshared, h->tr.shsized, D, blk) * vblocks;
}

/* !kernel_tiling's threads (emit_cuda.c, cuda_sweep_body): the grid's a*b*c as many times
   as the device holds them (at least once, at most once per tile: seed 000's [128,256,1]
   was a whole GPU of its day, an eighth of an H100), or one per box of local mode alone;
   with global auto the boxes take the place of positions. */
static void sweep_grid(const LaunchSpec *h, const KLaunch *cl, CudaGrid *gr) {
  const KTiling *t = &h->tr.tiling;
  int64_t boxes = 1, threads = 1, tiles = 1;
  for (int d = 0; d < 3; d++) {
    int64_t n = d < cl->D ? cl->dims[d] : 1, v = (n + t->box[d] - 1) / t->box[d];
    boxes *= v;
    threads *= t->grid[0] ? t->grid[d] : 1;
    tiles *= t->grid[0] ? (v + t->grid[d] - 1) / t->grid[d] : 1;
  }
  if (!t->grid[0]) threads = boxes;
  int64_t copies = (int64_t)gr->tgrid * OQ_TILE_THREADS / threads;
  if (t->grid[0] && copies > 1) threads *= copies < tiles ? copies : tiles;
  int64_t blocks = (threads + OQ_TILE_THREADS - 1) / OQ_TILE_THREADS;
  if (t->global_auto && !t->grid[0]) blocks = blocks < gr->tgrid ? blocks : gr->tgrid;   /* the occupancy's */
  if (blocks > INT32_MAX) rt_error(cl->site->loc, "kernel '%s': the tiling needs more than 2^31 blocks", h->name);
  gr->tgrid = (unsigned)(blocks > 0 ? blocks : 1);
}

/* Which private arrays get shared-memory copies (small ones no other argument aliases; 2^lgR
   replicas each, the most that fit in OQ_PRIV_SHMEM, OQ_DEV_CUDA_LGR at most): xf's bits
   0-7, the replicas' log in bits 8-10; a 1-D grid of OQ_TILE_THREADS threads per block, as
   many blocks as are resident at once (fewer for small launches). */
static void plan_cuda_tiling(const LaunchSpec *h, const KLaunch *cl, const KSpec *S, const OqkArg *args,
                             int64_t npos, const CudaOcc *occ, CudaGrid *gr) {
  const KTransforms *tr = &h->tr;
  Func *f = S->kfunc;
  unsigned mask = 0;
  size_t per = 0, counts = 8;   /* bytes of one replica of every chosen copy; of the scratch */
  for (int k = 0; k < tr->npriv; k++) {
    int a = tr->priv_arg[k];
    Value v = a < f->nparams ? cl->args[a] : S->caps[a - f->nparams].value;
    if (!tr->priv_esz[k] || v.kind != V_ARRAY || v.arr->numel * tr->priv_esz[k] > OQ_PRIV_SHMEM) continue;
    bool shared = false;   /* by device address: the host copy may be gone */
    for (int b = 0; b < f->nparams + S->ncaps && !shared; b++) {
      Value w = b < f->nparams ? cl->args[b] : S->caps[b - f->nparams].value;
      shared = b != a && w.kind == V_ARRAY && args[b].data == args[a].data;
    }
    if (shared || per + v.arr->numel * tr->priv_esz[k] + 16 > OQ_PRIV_SHMEM) continue;
    mask |= 1u << k;
    per += v.arr->numel * tr->priv_esz[k] + 16;
    if (tr->priv_count[k]) counts += v.arr->numel * 8 * tr->merge_copies;
  }
  gr->scratch = counts > 8 ? counts : 0;
  unsigned lg = (unsigned)config()->dev.cuda_lgr;   /* log2 of the replicas */
  while (lg > 0 && per << lg > OQ_PRIV_SHMEM) lg--;
  gr->xf = mask ? mask | lg << 8 : 0;
  gr->tshared = mask ? per << lg : 0;
  int per_sm = occ->blocks_per_sm(occ->ctx, OQ_TILE_THREADS, gr->tshared);
  /* each thread at least a step of the vector loads (fewer blocks to merge; OQ_DEV_CUDA_TILE_MIN: a
     tuning knob) */
  int64_t ppt = config()->dev.cuda_tile_min;
  if (!ppt) ppt = tr->tile_ppt > 1 ? tr->tile_ppt : 1;
  int64_t want = (npos + OQ_TILE_THREADS * ppt - 1) / (OQ_TILE_THREADS * ppt);
  int64_t most = (int64_t)occ->dev->sm_count * (per_sm > 0 ? per_sm : 1);
  gr->tgrid = (unsigned)(want < most ? want : most);
  if (tr->tiling_swept) sweep_grid(h, cl, gr);
}

/* Persistent blocks: as many blocks as are resident at once (OQ_DEV_CUDA_COARSE_OCC per SM
   at most), but no more than give each a run of OQ_DEV_CUDA_COARSE_RUN blocks (a small
   launch runs on fewer, fuller blocks: each resident block's prologue, epilogue and share
   of the merge cost about as much as a few steps of bodies; 1080p's 16200 blocks of 384
   threads on the H100: 4 per SM were faster than 5 or 3), and enough that no block's shared
   counts pass 2^24 when every update adds the int coarse_inc (float counts stay exact); the
   scratch: the blocks-done counter and the shadows of the epilogue's float arrays. Under
   coarse groups (coarse.c's em_cuda_coarse_ahead) a GPU block holds V launch blocks'
   threads (OQ_DEV_CUDA_COARSE_GROUPS, 4 at most) around one accumulator. */
static void plan_cuda_coarse(const LaunchSpec *h, const KLaunch *cl, const int64_t *blk, const int64_t *cnt,
                             const CudaOcc *occ, CudaGrid *gr) {
  const KTransforms *tr = &h->tr;
  const OqDevConfig *knob = &config()->dev;
  int64_t blocks = 1, threads = 1;
  for (int d = 0; d < cl->D; d++) blocks *= cnt[d], threads *= blk[d];
  /* coarse groups: as many launch blocks' threads per GPU block as the kernel and the knob
     allow, dividing the group digit's count */
  int vmost = tr->cgroups < knob->coarse_groups ? tr->cgroups : knob->coarse_groups;
  int fit = (int)(occ->max_threads / (threads / tr->cvec));
  int V = vmost > 1 ? plan_pow2_dividing(vmost < fit ? vmost : fit, cnt[tr->cgroup_dim]) : 1;   /* (cgroup_dim: only then) */
  gr->cgroups = V;
  int resident = occ->blocks_per_sm(occ->ctx, (int)(threads / tr->cvec * V), gr->shared);
  int per_sm = resident > 0 ? resident : 1, most = knob->coarse_occ;
  int64_t grid = (int64_t)occ->dev->sm_count * (per_sm < most ? per_sm : most);
  int64_t run = knob->coarse_run * (int64_t)V, fill = (blocks + run - 1) / run;   /* (a run per group) */
  if (grid > fill) grid = fill > 0 ? fill : 1;
  if (grid > (blocks + V - 1) / V) grid = (blocks + V - 1) / V;
  if (tr->coarse_inc) {
    int64_t per = ((int64_t)1 << 24) / (threads * tr->coarse_inc);   /* blocks per accumulator */
    int64_t least = per > 0 ? (blocks + per - 1) / per : blocks;
    if (grid < least) grid = least;
  }
  if (grid > blocks) grid = blocks;
  if (grid > INT32_MAX) grid = INT32_MAX;
  gr->stride_blocks = (unsigned)grid;
  size_t bytes = 8;
  for (int k = 0; k < tr->ncoarse; k++) {
    Value v = cl->args[tr->coarse_arg[k]];
    bytes += v.kind == V_ARRAY ? (size_t)v.arr->numel * 8 * tr->merge_copies : 0;
  }
  gr->scratch = bytes;
}

void plan_cuda_kind_grid(const LaunchSpec *h, const KLaunch *cl, const KSpec *S, const OqkArg *args, int64_t npos,
                         const int64_t *blk, const int64_t *cnt, const CudaOcc *occ, CudaGrid *gr) {
  if (h->tr.tiled) plan_cuda_tiling(h, cl, S, args, npos, occ, gr);
  if (h->tr.coarse) plan_cuda_coarse(h, cl, blk, cnt, occ, gr);
}

/* Dimension 0's blocks hold vthreads Quasar threads per GPU thread and vblocks launch blocks;
   a tiled launch is 1-D blocks of OQ_TILE_THREADS; persistent blocks of cvec Quasar threads
   per GPU thread are 1-D blocks of cgroups launch blocks; grid-stride kinds start
   stride_blocks blocks. */
CudaDims plan_cuda_dims(const LaunchSpec *h, const CudaGrid *gr, const CudaDevice *dev, int D, const int64_t *blk,
                        const int64_t *cnt) {
  const KTransforms *tr = &h->tr;
  CudaDims c = {.D = D, .shared = tr->tiled ? gr->tshared : gr->shared};
  for (int a = 0; a < 3; a++) c.grid[a] = 1, c.block[a] = 1, c.most[a] = dev->max_grid_dim[a] > 0 ? dev->max_grid_dim[a] : 1;
  for (int d = 0; d < D; d++) {
    c.grid[D - 1 - d] = cnt[d];
    c.block[D - 1 - d] = (unsigned)(d ? blk[d] : blk[0] / tr->vthreads * gr->vblocks);
  }
  c.grid[D - 1] /= gr->vblocks;   /* (plan_cuda_vblocks: it divides the grid there) */
  if (tr->rows > 1) c.grid[D - 1] = (c.grid[D - 1] + tr->rows - 1) / tr->rows;
  if (tr->tiled) c.grid[0] = gr->tgrid, c.block[0] = OQ_TILE_THREADS, c.block[1] = c.block[2] = 1;
  if (tr->cvec > 1) c.block[0] = c.block[0] * c.block[1] * c.block[2] / tr->cvec * gr->cgroups, c.block[1] = c.block[2] = 1;
  if (tr->grid_stride || tr->coarse) c.grid[0] = gr->stride_blocks;
  if (tr->tiled || tr->grid_stride || tr->coarse) c.grid[1] = c.grid[2] = 1;
  return c;
}

/* The blocks of the chunk that starts at block `first` of an axis of n blocks. */
static unsigned chunk_blocks(int64_t n, int64_t most, int64_t first) {
  return (unsigned)(n - first < most ? n - first : most);
}

/* Quasar dimension D-2 is CUDA y, D-3 is z. */
bool plan_cuda_chunk(const CudaDims *d, int64_t i, CudaChunk *c) {
  int64_t ny = (d->grid[1] + d->most[1] - 1) / d->most[1], nz = (d->grid[2] + d->most[2] - 1) / d->most[2];
  if (i < 0 || i >= ny * nz) return false;
  int64_t y = i % ny * d->most[1], z = i / ny * d->most[2];
  *c = (CudaChunk){.grid = {(unsigned)d->grid[0], chunk_blocks(d->grid[1], d->most[1], y),
                            chunk_blocks(d->grid[2], d->most[2], z)}};
  if (d->D >= 2) c->boff[d->D - 2] = y;
  if (d->D >= 3) c->boff[d->D - 3] = z;
  return true;
}
