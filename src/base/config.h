/* config.h: what the environment asks of a run, read in one place (config.c) into one
   struct, so that no other file calls getenv. docs/config.md lists every variable. main
   calls config_load() at start-up; a program that embeds oq (bench/gpu/oqrun.c, the unit
   tests) calls it again after it changes the environment (the strings are getenv's, valid
   until their variable changes). */
#ifndef OQ_CONFIG_H
#define OQ_CONFIG_H
#include <stdbool.h>

/* Developer switches (OQ_DEV_*): tuning knobs and test aids. Each field says its variable,
   what its value means, and its default (when the variable is unset or out of range). */
typedef struct OqDevConfig {
  bool cpu_idx32;           /* OQ_DEV_CPU_IDX32 (set, not 0): C launches with int32 indices too */
  bool cpu_tcc_only;        /* OQ_DEV_CPU_TCC_ONLY=1: kernels run TinyCC's build only (not cached) */
  int cpu_switch_at;        /* OQ_DEV_CPU_SWITCH_AT 1..2^30: a launch of TinyCC's build runs its
                               first N chunks from it, then waits for the C compiler's build
                               and runs the rest from that (tests); 0: switch when seen done */
  bool cpu_tier_park;       /* OQ_DEV_CPU_TIER_PARK (not 0): while a launch of TinyCC's build
                               waits for the C compiler's, one worker leaves its core to the
                               compiler (on) */
  bool no_idx32;            /* OQ_DEV_NO_IDX32 (set, not 0): always the int64 index code */
  bool tile_literal;        /* OQ_DEV_TILE_LITERAL=1: a streaming kernel keeps its tiling grid */
  bool no_coarsen;          /* OQ_DEV_NO_COARSEN (any value): no persistent blocks */
  int cuda_break;           /* OQ_DEV_CUDA_BREAK=1: every CUDA kernel ends in a line NVRTC
                               rejects (1); =opt: only the optimized builds of tiers (2) */
  bool cuda_tier_fast;      /* OQ_DEV_CUDA_TIER_FAST=1: every CUDA kernel is its first build
                               (no unrolled steps, no persistent blocks), never replaced, never
                               cached; OQ_CUDA_CHECK compiles those (tests of the first builds) */
  int cuda_switch_at;       /* OQ_DEV_CUDA_SWITCH_AT 2..2^30: launch N of a kernel running its
                               first build waits for the optimized one and runs it (tests); 0:
                               the first launch that finds it done */
  bool cuda_graphs;         /* OQ_DEV_CUDA_GRAPHS (not 0): batched launches in CUDA graphs */
  bool cuda_ktime;          /* OQ_DEV_CUDA_KTIME=1: each launch's device time on stderr */
  int cuda_packed;          /* OQ_DEV_CUDA_PACKED: 1 a packed merge whenever the sums fit, 0
                               never; -1 (else): decide */
  int cuda_pipe;            /* OQ_DEV_CUDA_PIPE=0|1: vectors loaded a step ahead; -1: decide */
  int cuda_unroll;          /* OQ_DEV_CUDA_UNROLL 1..16: positions per step; 0: decide */
  int cuda_stream;          /* OQ_DEV_CUDA_STREAM=0|1: element-wise kernels run tiled never,
                               always; -1: those that read 3 arrays or more */
  int cuda_block_most;      /* OQ_DEV_CUDA_BLOCK_MOST 32..1024: threads per block of a kernel
                               that does not see its blocks, most (256) */
  int cuda_merge;           /* OQ_DEV_CUDA_MERGE 1..64, a power of 2: copies of the counts (8) */
  int cuda_lgr;             /* OQ_DEV_CUDA_LGR 0..5: log2 of a private copy's replicas, most (5) */
  int cuda_tile_min;        /* OQ_DEV_CUDA_TILE_MIN: a tiled launch's positions per thread,
                               least; 0: one step */
  int cuda_vthreads;        /* OQ_DEV_CUDA_VTHREADS 1..32: virtual threads; 0: decide */
  int cuda_rows;            /* OQ_DEV_CUDA_ROWS 1..16: rows per GPU thread of a flat 2-D
                               kernel; 0: decide */
  int cuda_vblocks;         /* OQ_DEV_CUDA_VBLOCKS 1..4: most virtual blocks (4) */
  int coarse_occ;           /* OQ_DEV_CUDA_COARSE_OCC 1..64: persistent blocks per SM, most (64) */
  int coarse_run;           /* OQ_DEV_CUDA_COARSE_RUN: blocks per persistent block, least (32) */
  int coarse_vec;           /* OQ_DEV_CUDA_COARSE_VEC: vector loads proposed 0 never, 1 always;
                               2: from 2^24 positions */
  int coarse_groups;        /* OQ_DEV_CUDA_COARSE_GROUPS 1..8: coarse groups per GPU block,
                               most (4) */
  int coarse_unroll;        /* OQ_DEV_CUDA_COARSE_UNROLL 1..16: bodies per step (8) */
  bool coarse_pipe;         /* OQ_DEV_CUDA_COARSE_PIPE (not 0): loads a step ahead */
  bool coarse_gs;           /* OQ_DEV_CUDA_COARSE_GS (not 0): resident blocks go grid-stride */
  bool coarse_float;        /* OQ_DEV_CUDA_COARSE_FLOAT (any value): counts held as floats */
  bool coarse_noldg;        /* OQ_DEV_CUDA_COARSE_NOLDG (any value): no read-only cache loads */
  bool cuda_no_ahead;       /* OQ_DEV_CUDA_AHEAD=0: rows of a flat 2-D kernel (KTransforms.rows)
                               load their x[pos] in the body, not all rows' first */
  int along_lanes;          /* OQ_DEV_ALONG_LANES 1..65536: lanes per reduced run of a reduction
                               along a dimension (1: none); 0: decide */
  bool along_gpu;           /* OQ_DEV_ALONG_GPU=1: such reductions take the GPU's form (launch
                               order, partial results' layout) on every target (tests) */
  bool along_poison;        /* OQ_DEV_ALONG_POISON=1: their fresh result and partial arrays are
                               filled with 1e30 (ints: -2^31 + 7) before the kernels write them */
} OqDevConfig;

typedef struct OqConfig {
  const char *cc;           /* CC: the C compiler of CPU kernels ("cc") */
  const char *kernel_cflags; /* OQ_KERNEL_CFLAGS: more options for that compiler, after ours
                               ("": none); `make asan` passes the sanitizers */
  bool cpu_tiers;           /* OQ_CPU_TIERS (not 0): a kernel's first build with TinyCC, the C
                               compiler's in the background (on); 0: the C compiler's, waited for */
  int cuda_tiers;           /* OQ_CUDA_TIERS: a CUDA kernel missing from the cache runs a first
                               build quick to compile while NVRTC compiles the optimized one in
                               the background: 1 (set, not 0) on; 0 the optimized one, waited
                               for; -1 (unset) on where the process may use 4 or more processors */
  char cache_dir[4096];     /* OQ_CACHE_DIR, else $HOME/.cache/openquasar (/tmp without HOME) */
  long long cache_max;      /* OQ_CACHE_MAX: bytes the kernel cache may hold before its least
                               recently used entries go, a number with K, M or G (1 GiB);
                               0: no limit */
  const char *oq_path;      /* OQ_PATH: folders searched for imported modules (front/libpath.h) */
  int threads;              /* OQ_THREADS: CPU workers; 0: one per processor */
  int cpus;                 /* the processors this process may run on (its affinity mask:
                               taskset, a container's cpuset), at least 1 */
  bool no_parloop;          /* OQ_NO_PARLOOP (not 0): as --no-parloop */
  long long array_kernel_min;  /* OQ_ARRAY_KERNEL_MIN: host array expressions over fewer
                               elements run in the runtime, unless an operand is on the GPU
                               (1024); negative: never as kernels */
  const char *show_dir;     /* OQ_SHOW_DIR: as --show-dir; NULL: none */
  bool show_wait;           /* OQ_SHOW_WAIT (not 0): wait for imshow windows at the end */
  bool display;             /* DISPLAY or WAYLAND_DISPLAY: windows can be opened */
  bool sdl_driver;          /* SDL_VIDEODRIVER: the user chose SDL's video driver */
  const char *cuda_disable; /* OQ_CUDA_DISABLE (not 0): its value; NULL: CUDA is used */
  const char *cuda_device;  /* OQ_CUDA_DEVICE: the device's ordinal; NULL: 0 */
  const char *libcuda;      /* OQ_LIBCUDA: the CUDA driver library; NULL: searched */
  const char *nvrtc;        /* OQ_NVRTC: the NVRTC library; NULL: searched */
  const char *cuda_homes[2];   /* CUDA_HOME, CUDA_PATH (NULL when unset): NVRTC's folders */
  bool cuda_check;          /* OQ_CUDA_CHECK (not 0): compile every kernel's CUDA too */
  bool cuda_sync;           /* OQ_CUDA_SYNC (not 0): wait after every launch */
  bool cuda_eager;          /* OQ_CUDA_EAGER=1: copy every array back after each launch */
  int linalg_gpu;           /* OQ_LINALG_GPU: 1 factorizations on cuSOLVER always, 0 never;
                               -1 (unset): when the matrix is on the GPU or large */
  OqDevConfig dev;
} OqConfig;

/* Reads the environment into the settings (again, when called again). */
void config_load(void);
/* The settings; config_load()'s first call when none was made. */
const OqConfig *config(void);

#endif
