/* plan.h: where and how a kernel launch runs, decided in one place. parallel_do
   (interp_kernel.c) binds the launch's blocks (plan_blocks, the oracle's), asks launch_plan
   once and takes the plan's steps in order: the back ends it names, the CUDA check, the
   interpreter last. Each back end takes its specialization key from the plan (plan_key),
   and asks here whether its compiled code runs the launch (the refusals) and how: the CPU
   back end its mode and work items (CpuShape, CpuWork), the CUDA back end its GPU blocks
   and grid (CudaGrid: virtual blocks, shared memory, tiled and persistent grids), given
   the device's limits as the device layer describes them (CudaDevice) and the compiled
   kernel's occupancy (CudaOcc). The back ends carry the plan out. */
#ifndef OQ_PLAN_H
#define OQ_PLAN_H
#include "backend/launch.h"
#include "device/rt_cuda.h"

/* The steps of a launch, as the plan orders them: a back end runs the launch or declines it
   (its kernel or this launch's shape is not compiled for it) and hands it to the next step;
   STEP_CUDA_CHECK never runs it: it generates the CUDA source and compiles it with NVRTC
   (OQ_CUDA_CHECK, gpu_check) or prints it (`oq emit --target cuda`). */
typedef enum LaunchStep { STEP_CUDA, STEP_CUDA_CHECK, STEP_CPU, STEP_INTERP } LaunchStep;

/* What a back end's specialization key takes from the launch, besides its argument types
   (ksema_key): the block size when the code has it as constants, and CUDA's proposals. */
typedef struct PlanKey {
  int64_t cblk[3];          /* KSpec.cblk: the block size in the key (all 0: not in it) */
  bool idx32;               /* int32 index arithmetic may be kept (KSpec.idx32 &= it) */
  bool proposals;           /* CUDA: the key ends with the proposals, "|vt<F>|cv<F>" */
  int vthreads;             /* CUDA: virtual threads proposed (KSpec.tr.vthreads; 1: none) */
  int cvec;                 /* CUDA: persistent blocks' Quasar threads per GPU thread
                               proposed (KSpec.tr.cvec; 1: none) */
  int rows;                 /* CUDA: rows per GPU thread proposed (KSpec.tr.rows; 1: none;
                               "|rw<R>" ends the key when above 1) */
} PlanKey;

typedef struct LaunchPlan {
  LaunchStep step[4];       /* in order; the interpreter, last, runs every launch */
  int nsteps;
  const char *cuda_refusal; /* why no launch of this shape runs on the GPU, or NULL */
  PlanKey cpu, cuda;        /* the key's launch facts per compiled back end */
} LaunchPlan;

/* The oracle's blocks of a launch of D dimensions dims (blk, cnt: D each). With explicit
   block dimensions (blk given) only the counts; else, per dimension, the largest divisor of
   the data size up to plan_block_cap's cap, or one block for a launch of at most 512
   threads. rows: the kernel's 3-D launches get long rows (plan_long_rows). */
void plan_blocks(int D, const int64_t *dims, bool explicit_blk, bool rows, int64_t *blk, int64_t *cnt);
int64_t plan_block_cap(int D, int d, bool rows);
bool plan_long_rows(Func *f);

/* The plan of a launch whose blocks are bound (plan_blocks). */
void launch_plan(const KLaunch *cl, LaunchPlan *p);

/* The key of back end k's specialization of the launch (malloc'ed), after ksema_launch: the
   key's launch facts into S, ksema_key's key of the argument types (S gets the captured
   variables), then the proposals. */
char *plan_key(const PlanKey *k, KSpec *S, Value *args);

/* 'hwconst arrays in constant memory: the bytes an array takes there (16-byte aligned), and
   the CUDA key's part: when a launch's arrays need more than K_CMEM_BYTES, the key (the
   CUDA back end's, after plan_key) gets "|gmem" and the specialization leaves them in
   global memory (*no_cmem). */
size_t plan_cmem_size(const Array *a);
void plan_cuda_cmem_key(const KLaunch *cl, char **key, bool *no_cmem);

/* ---- the CPU ---- */

/* How compiled C code runs a launch (emit_c's entry): over positions (flat), over blocks
   (blkpos, shared memory), or over blocks whose threads run phase by phase between
   barriers. */
typedef enum CpuMode { CPU_FLAT, CPU_BLOCKS, CPU_PHASES } CpuMode;

typedef struct CpuShape {
  CpuMode mode;
  bool tiled;               /* flat, run by tiles of `tile` positions (!kernel_tiling) */
  int64_t tile[3];
} CpuShape;

/* The shape of the compiled code of S (once per specialization). */
CpuShape plan_cpu_shape(const KSpec *S);

/* One launch's work for the thread pool of `workers` threads: `items` of the entry's lo..hi
   range (positions, blocks or tiles; 0: nothing to run), handed out in chunks of at least
   min_chunk, and which of h's += arrays (bit k: h->tr.priv_arg[k]) each worker updates in a
   private copy (OqkLaunch.priv_mask): small ones that no other argument or capture of S
   shares, when the launch is large or the pool has several workers. */
typedef struct CpuWork {
  int64_t items, min_chunk;
  unsigned priv_mask;
} CpuWork;
CpuWork plan_cpu_work(const CpuShape *s, const LaunchSpec *h, const KLaunch *cl, const KSpec *S, int workers);

/* ---- the GPU ---- */

/* What a GPU plan asks about a compiled kernel on the device, answered (and remembered) by
   the CUDA back end: each question is asked only when a decision needs it. */
typedef struct CudaOcc {
  const CudaDevice *dev;
  int max_threads;                          /* the kernel's most threads per block */
  int (*block_size)(void *ctx);             /* threads per block at the best occupancy for
                                               the kernel's registers */
  int (*blocks_per_sm)(void *ctx, int threads, size_t shared);   /* resident blocks per SM
                                               of `threads` threads and `shared` bytes */
  void *ctx;
} CudaOcc;

/* Tiled kernels (KTransforms.tiled): blocks of OQ_TILE_THREADS threads; private arrays'
   shared-memory copies take at most OQ_PRIV_SHMEM bytes. */
#define OQ_PRIV_SHMEM 40960
#define OQ_TILE_THREADS 256

/* The grid of one CUDA launch of a compiled kernel: plan_cuda_vblocks and plan_cuda_shared
   at every launch, plan_cuda_kind_grid for tiled and persistent-block kernels, then
   plan_cuda_dims and its chunks; rt_gpu.c carries it out (OqkGridHead.xf, .scr and .boff,
   cuLaunchKernel). */
typedef struct CudaGrid {
  int vblocks;              /* launch blocks per GPU block along dimension 0 (at most
                               KTransforms.vblocks, emit_cuda's) */
  size_t shared;            /* dynamic shared memory of a block (its virtual blocks') */
  unsigned xf;              /* OqkGridHead.xf: the virtual blocks, or a tiled launch's private
                               copies (bits 0-7) and log2 of their replicas (bits 8-10) */
  size_t scratch;           /* bytes of zeroed scratch (OqkGridHead.scr) the launch needs:
                               the counts of private or persistent blocks' arrays; 0: none */
  unsigned tgrid;           /* tiled: blocks of OQ_TILE_THREADS threads */
  size_t tshared;           /* tiled: their dynamic shared memory (the private copies) */
  int cgroups;              /* persistent blocks: launch blocks per GPU block (coarse groups;
                               at most KTransforms.cgroups) */
  unsigned stride_blocks;   /* persistent blocks or grid_stride: blocks started (the latter
                               set by plan_cuda_launch for a cooperative launch) */
} CudaGrid;

/* The grid of a compiled kernel before its first launch. */
CudaGrid plan_cuda_grid_init(const LaunchSpec *h);

/* The dynamic shared memory a block of blk takes for h's shared() calls (KFacts.nshared;
   sizes it cannot know, or a bad one, which the kernel reports, reserve the whole 48 KiB):
   each of its `vblocks` virtual blocks'. */
size_t plan_cuda_shared(const LaunchSpec *h, int vblocks, int D, const int64_t *blk);

/* The grid of a launch of tiled or persistent-block code h (KTransforms.tiled, .coarse) once
   its arguments are marshalled (args: device addresses, for aliases), in GPU blocks blk, cnt
   of npos positions: tiled, which private arrays get shared-memory copies and how many
   blocks (gr->tgrid, xf, tshared, scratch); persistent blocks, how many and their coarse
   groups (gr->cgroups, stride_blocks, scratch). Nothing for other code. */
void plan_cuda_kind_grid(const LaunchSpec *h, const KLaunch *cl, const KSpec *S, const OqkArg *args, int64_t npos,
                         const int64_t *blk, const int64_t *cnt, const CudaOcc *occ, CudaGrid *gr);

/* One CUDA launch as cuLaunchKernel takes it (plan_cuda_dims): the whole grid (x, y, z;
   Quasar's last dimension is x), the block, and the dynamic shared memory of a block. A
   grid beyond the device's y or z limit runs in chunks (plan_cuda_chunk). */
typedef struct CudaDims {
  int D;                    /* the launch's Quasar dimensions */
  int64_t grid[3];          /* y and z may exceed most[] */
  unsigned block[3];
  size_t shared;            /* tiled: the private copies' (CudaGrid.tshared); else the
                               shared() calls' (CudaGrid.shared) */
  int64_t most[3];          /* the device's grid limits, x, y, z */
} CudaDims;

/* One cuLaunchKernel of a launch: its grid, and its first block per Quasar dimension
   (OqkGridHead.boff, which the kernel adds to its block index). */
typedef struct CudaChunk {
  unsigned grid[3];
  int64_t boff[3];
} CudaChunk;

/* The launch of blocks blk, cnt under gr on dev: dimension 0's blocks hold vthreads Quasar
   threads per GPU thread and vblocks launch blocks; tiled, persistent-block and grid-stride
   kernels take their grids of gr. */
CudaDims plan_cuda_dims(const LaunchSpec *h, const CudaGrid *gr, const CudaDevice *dev, int D, const int64_t *blk,
                        const int64_t *cnt);

/* Chunk i (from 0) of the launch d into *c, false past the last: z outer, y inner, each at
   most the device's limit (blocks are independent: no grid barrier, which
   plan_cuda_shape_refusal refuses chunked; tiled and grid-stride grids are one chunk). A
   grid of no blocks has no chunk. */
bool plan_cuda_chunk(const CudaDims *d, int64_t i, CudaChunk *c);

/* Whether OQ_CUDA_CHECK asks for CUDA sources to be compiled without a GPU (NVRTC present). */
bool plan_cuda_check_enabled(void);

/* The GPU blocks of a launch of a compiled kernel: the oracle's when the kernel sees blocks
   (own_blocks) or they were explicit; else occ's block_size() threads per block (asked
   only then) spread over the dimensions. */
void plan_cuda_blocks(const KLaunch *cl, const CudaOcc *occ, bool own_blocks, int64_t *blk, int64_t *cnt);

/* Why compiled code h cannot run a launch of these blocks (blk, cnt: D each), or NULL: code
   that assumed launch extents below 2^23 (exact in float) refuses larger ones. */
const char *plan_extents_refusal(const LaunchSpec *h, int D, const int64_t *blk, const int64_t *cnt);

/* Why the GPU blocks blk, cnt (plan_cuda_blocks) of compiled code h do not run on dev, or
   NULL: beyond the device's limits, extents its code refuses, more threads per block than
   the kernel (max_threads) can run. cooperative: a grid barrier spans the grid (no chunks). */
const char *plan_cuda_shape_refusal(const KLaunch *cl, const CudaDevice *dev, const LaunchSpec *h, bool cooperative,
                                    int max_threads, const int64_t *blk, const int64_t *cnt);

/* The grid of every launch of compiled code h in GPU blocks blk, cnt (plan_cuda_blocks):
   its virtual blocks (plan_cuda_vblocks, gr->vblocks and xf) and their shared memory
   (plan_cuda_shared); cooperative (a grid barrier): all blocks must be resident at once, so
   a grid_stride kernel starts as many as fit (gr->stride_blocks), and another launch of more
   blocks than fit, or a device without cooperative launches, is a run-time error naming the
   kernel (no back end can run it). */
void plan_cuda_launch(const LaunchSpec *h, const KLaunch *cl, const CudaOcc *occ, bool cooperative,
                      const int64_t *blk, const int64_t *cnt, CudaGrid *gr);

/* A launch's virtual blocks (emit_cuda's cuda_vblocks; OqkGrid.xf): the most of 4 and 2, up
   to kernel_most (what the kernel takes), that divide the grid along dimension 0 (cnt0),
   else 1. */
int plan_cuda_vblocks(int kernel_most, int64_t cnt0);

/* The largest power of 2 up to most (at least 1) that divides n. */
int plan_pow2_dividing(int most, int64_t n);

#endif
