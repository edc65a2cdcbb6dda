/* plan.h: where and how a kernel launch runs, decided in one place. parallel_do
   (interp_kernel.c) binds the launch's blocks (plan_blocks, the oracle's), asks launch_plan
   once and takes the plan's steps in order: the back ends it names, the CUDA check, the
   interpreter last. Each back end sets its part of the specialization key from the plan
   (plan_key), and asks here whether its compiled code runs the launch (the refusals); the
   CUDA back end also its GPU blocks and virtual blocks, given the device's limits as the
   device layer describes them (CudaDevice) and the compiled kernel's occupancy. */
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
  int vthreads;             /* CUDA: virtual threads proposed (KSpec.tr.vthreads; 1: none) */
  int cvec;                 /* CUDA: persistent blocks' Quasar threads per GPU thread
                               proposed (KSpec.tr.cvec; 1: none) */
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

/* The key's launch facts of back end k into S, after ksema_launch and before ksema_key. */
void plan_key(const PlanKey *k, KSpec *S);

/* Whether OQ_CUDA_CHECK asks for CUDA sources to be compiled without a GPU (NVRTC present). */
bool plan_cuda_check_enabled(void);

/* The GPU blocks of a launch of a compiled kernel on dev: the oracle's when the kernel sees
   blocks (own_blocks) or they were explicit; else occupancy_threads() threads per block
   (asked only then) spread over the dimensions. */
void plan_cuda_blocks(const KLaunch *cl, const CudaDevice *dev, bool own_blocks, int (*occupancy_threads)(void *),
                      void *ctx, int64_t *blk, int64_t *cnt);

/* Why compiled code h cannot run a launch of these blocks (blk, cnt: D each), or NULL: code
   that assumed launch extents below 2^23 (exact in float) refuses larger ones. */
const char *plan_extents_refusal(const LaunchSpec *h, int D, const int64_t *blk, const int64_t *cnt);

/* Why the GPU blocks blk, cnt (plan_cuda_blocks) of compiled code h do not run on dev, or
   NULL: beyond the device's limits, extents its code refuses, more threads per block than
   the kernel (max_threads) can run. cooperative: a grid barrier spans the grid (no chunks). */
const char *plan_cuda_shape_refusal(const KLaunch *cl, const CudaDevice *dev, const LaunchSpec *h, bool cooperative,
                                    int max_threads, const int64_t *blk, const int64_t *cnt);

/* A launch's virtual blocks (emit_cuda's cuda_vblocks; OqkGrid.xf): the most of 4 and 2, up
   to kernel_most (what the kernel takes), that divide the grid along dimension 0 (cnt0),
   else 1. */
int plan_cuda_vblocks(int kernel_most, int64_t cnt0);

/* The largest power of 2 up to most (at least 1) that divides n. */
int plan_pow2_dividing(int most, int64_t n);

#endif
