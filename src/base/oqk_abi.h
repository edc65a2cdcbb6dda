/* oqk_abi.h: the interface between rt_cpu.c and the C code the emitter (emit*.c) generates. The same
   definitions are compiled into oq (as C) and pasted into every generated source (as text,
   OQK_ABI_TEXT), so the two sides cannot drift apart. Bump OQK_ABI_VERSION when they change:
   it is part of the cache key. */
#ifndef OQ_OQK_ABI_H
#define OQ_OQK_ABI_H
#include <stdint.h>
#include <stddef.h>

#define OQK_ABI_VERSION 3
#define OQK_MAX_OUTS 8
#define OQK_SHARED_SLOTS 16        /* scratch slots for shared() arrays; more slots follow */
#define OQK_PRIV_SLOTS 8           /* scratch slots for private copies of += arrays */
#define OQK_PRIV_BASE 20
#define OQK_SCRATCH_SLOTS 28

#define OQK_ABI_BODY                                                                       \
  typedef struct OqkArg {                                                                  \
    void *data; int64_t dims[16]; /* arrays */                                             \
    int64_t i; double re, im;     /* numbers */                                            \
    double v[16];                 /* small vectors */                                      \
  } OqkArg;                                                                                \
  typedef struct OqkLaunch {                                                               \
    int D; int64_t dims[16], blk[16], cnt[16];                                             \
    const OqkArg *args;           /* parameters by index, then captured variables */       \
    int err;                      /* set once, by the first thread that fails */           \
    int err_site, err_n, err_rank;                                                         \
    int64_t err_ix[16], err_dims[16];                                                      \
    unsigned priv_mask;           /* += arrays updated in private copies at this launch */ \
  } OqkLaunch;                                                                             \
  typedef struct OqkWorker {                                                               \
    double out_r[8]; int64_t out_i[8]; /* kernel outputs combined by this worker */        \
    void *scr[28]; size_t scrsz[28];   /* scratch memory reused between launches */        \
  } OqkWorker;                                                                             \
  typedef void (*OqkEntry)(OqkLaunch *L, OqkWorker *W, int64_t lo, int64_t hi);             \
  typedef void (*OqkHook)(OqkLaunch *L, OqkWorker *W);                                     \
  typedef struct OqkGridHead {  /* a CUDA launch's sizes, first in its parameter block */  \
    int64_t dims[3], blk[3], cnt[3];                                                       \
    int64_t boff[3];            /* first block of this chunk, per Quasar dimension */       \
    int64_t xf, scr;            /* tiled kernels' private copies (plan.c plan_cuda_tiling) */   \
  } OqkGridHead;

OQK_ABI_BODY

#define OQK_STR_(...) #__VA_ARGS__
#define OQK_STR(...) OQK_STR_(__VA_ARGS__)
#define OQK_ABI_TEXT OQK_STR(OQK_ABI_BODY)

/* Whether a launch's extents allow 32-bit index arithmetic (KSpec.idx32): every position,
   block count and linear position the generated code forms, with room for a stride added
   past the end. The oracle's padded extent cnt * blk bounds each dimension but the first,
   which the GPU may pad to less than twice its extent instead (plan.c, plan_cuda_blocks), and
   strides of tiled loops stay below 2^24. So each padded extent and their product at most
   2^29 leave every such value below 2^31. */
#define OQK_IDX32_MAX ((int64_t)1 << 29)
static inline int oqk_idx32_launch(int D, const int64_t *dims, const int64_t *blk, const int64_t *cnt) {
  int64_t all = 1;
  for (int d = 0; d < D; d++) {
    if (dims[d] < 0 || blk[d] < 1 || cnt[d] < 0 || dims[d] > OQK_IDX32_MAX || cnt[d] > OQK_IDX32_MAX / blk[d]) return 0;
    int64_t ext = cnt[d] * blk[d] > dims[d] ? cnt[d] * blk[d] : dims[d];
    if (ext && all > OQK_IDX32_MAX / ext) return 0;
    all *= ext;
  }
  return 1;
}

#endif
