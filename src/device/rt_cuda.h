/* rt_cuda.h: the CUDA run-time layer: the driver API and NVRTC, loaded with dlopen at run
   time (no CUDA header, no link-time dependency: one `oq` binary runs with and without CUDA),
   and the device memory manager. Three files implement it:

     rt_cuda.c    the driver: loading, the device, modules, launches, occupancy, events, and
                  the memory primitives that rt_devmem.c builds on
     rt_nvrtc.c   NVRTC: CUDA C++ source to a cubin (or PTX), cached on disk
     rt_devmem.c  device copies of arrays: validity bits, a pool of device blocks, pinned
                  transfers

   Everything runs on the host thread that calls it (the driver's primary context of one
   device is made current there). Every driver or NVRTC failure is an rt_error (diag.h) that
   says what was being done, with the CUDA error's name and text, at the SrcLoc passed in:
   the Quasar line of the launch or of the host code that needs the data. A device fault
   (illegal address, trap, ...) shows at a later call; it is reported at the Quasar line of
   the last launch and names its kernel.

   Environment: OQ_CUDA_DISABLE=1 (act as if there were no GPU), OQ_CUDA_DEVICE (ordinal,
   default 0), OQ_LIBCUDA / OQ_NVRTC (exact library paths, tried first), CUDA_HOME and
   CUDA_PATH (where NVRTC is looked for), OQ_CACHE_DIR (default ~/.cache/openquasar),
   OQ_DEV_CUDA_GRAPHS=0 (no batched launches; cuda_set_batching); all read by base/config.c. */
#ifndef OQ_RT_CUDA_H
#define OQ_RT_CUDA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "runtime/value.h"

/* ---- availability and the device ------------------------------------------------------- */

typedef struct CudaDevice {
  int ordinal;
  char name[256];
  char arch[16];                  /* "sm_90": what cuda_compile is asked for */
  int cc_major, cc_minor;         /* compute capability */
  int sm_count;
  int warp_size;
  int max_threads_per_block, max_threads_per_sm;
  int max_block_dim[3], max_grid_dim[3];
  int shared_per_block;           /* bytes, without opt-in */
  int shared_per_block_optin;     /* bytes, the most a kernel may ask for */
  int shared_per_sm;
  int regs_per_block;
  bool cooperative;               /* cuLaunchCooperativeKernel is supported */
  size_t total_mem;               /* bytes */
  int driver_version;             /* e.g. 13000 for 13.0 */
} CudaDevice;

/* True when the driver (libcuda.so.1) loads, cuInit succeeds and the device exists; the
   answer is computed once. On false, `why` (n bytes, may be NULL) says what is missing.
   Never reports an error itself. On true, the device's primary context is current and the
   array free hook (rt_array_free_hook) is installed. */
bool cuda_available(char *why, size_t n);
const CudaDevice *cuda_device(void);        /* NULL when !cuda_available */

/* ---- NVRTC ------------------------------------------------------------------------------- */

/* True when libnvrtc loads ($OQ_NVRTC, $CUDA_HOME/lib64, $CUDA_PATH/lib64,
   /usr/local/cuda/lib64, then the default search path). Computed once. */
bool nvrtc_available(char *why, size_t n);
void nvrtc_version(int *major, int *minor);   /* 0.0 when unavailable */

/* Compiles CUDA C++ source for arch ("sm_90") with -arch, --std=c++17, -default-device and
   --fmad=false (no contraction into FMA: the CPU back end compiles with -ffp-contract=off,
   and results must match; no --use_fast_math). The result is a cubin, or NUL-terminated PTX
   for the nearest older virtual architecture when this NVRTC cannot produce arch's cubin;
   cuda_module_load takes both. Results are cached in $OQ_CACHE_DIR/oqcu_<hash>.cubin|.ptx,
   keyed by source, options and NVRTC version.
   Returns true with *image (malloc'ed) and *size. *log gets the compiler's messages
   (malloc'ed, NULL when empty; on a cache hit NULL). False: the source did not compile,
   *log says why, its lines read "<program_name>(LINE): error: ...". Failures of NVRTC
   itself (not loadable, out of memory) are rt_errors at loc. */
bool cuda_compile(const char *source, const char *program_name, const char *arch,
                  void **image, size_t *size, char **log, SrcLoc loc);
/* cuda_compile, with the cache only when `cache` (a first build of rt_gpu.c's tiers is never
   cached: only the optimized build's image is, so that a warm start always runs it). */
bool cuda_compile_as(const char *source, const char *program_name, const char *arch, bool cache,
                     void **image, size_t *size, char **log, SrcLoc loc);
/* cuda_compile's cache lookup alone: true with *image (malloc'ed) and *size when the cache
   has source's image for arch (a hit, counted). */
bool cuda_cached(const char *source, const char *arch, void **image, size_t *size, SrcLoc loc);

/* Builds in the background (rt_gpu.c's tiers): cuda_compile of source in a child process
   (`oq __cuda-build`), which writes the cache entry itself; at most OqConfig.cpus - 1 at
   once, the rest queued; where another process's child compiles the same entry already,
   that build is watched instead. NULL when the source could not be handed over (the
   caller compiles it itself). The program does not wait for them at its end: they finish on their
   own, and the builds still queued then run in one child, so that the next run finds them. */
typedef struct CudaBuild CudaBuild;
CudaBuild *cuda_build_start(const char *source, const char *program_name, const char *arch, SrcLoc loc);
/* 0: still compiling (never with wait). 1: done, *image (from its sealed cache entry; the
   caller frees it) and *size. -1: it failed, *why (malloc'ed) the first line of NVRTC's
   error. Reaps the children that ended and starts queued builds. */
int cuda_build_poll(CudaBuild *b, bool wait, void **image, size_t *size, char **why);
void cuda_build_free(CudaBuild *b);      /* a child still running finishes on its own */
/* The child: `oq CUDA_BUILD_COMMAND PPID LOG ARCH NAME SOURCE [ARCH NAME SOURCE]...`, the
   arguments after the command (the cli dispatches it before anything else); the exit
   status. */
#define CUDA_BUILD_COMMAND "__cuda-build"
int cuda_build_main(int argc, char **argv);
/* The cli says this program runs CUDA_BUILD_COMMAND (its /proc/self/exe is oq); without
   that, cuda_builds_possible is false and the launcher compiles optimized builds only. */
void cuda_builds_here(void);
bool cuda_builds_possible(void);

/* ---- modules, kernels and launches ---------------------------------------------------- */

typedef struct CudaModule CudaModule;
typedef uint64_t CudaPtr;                          /* CUdeviceptr */

/* What the driver says about one kernel of a loaded module. */
#define CUDA_BATCH_PARAMS 16      /* kernels with more parameters are not batched */
typedef struct CudaKernel {
  void *fn;                       /* CUfunction */
  char *name;
  const char *label;              /* what messages call it: name, unless the caller sets it */
  int num_regs;
  int max_threads;                /* most threads per block this kernel can be launched with */
  int static_shared;              /* bytes of __shared__ declared in the kernel */
  int local_bytes;                /* per thread (spills, local arrays) */
  int binary_version;             /* e.g. 90 */
  int dyn_shared_set;             /* the MAX_DYNAMIC_SHARED_SIZE_BYTES set so far */
  /* its parameters' layout (cuda_kernel_params), for batched launches; nparams -1: not
     known, and such a kernel's launches go at once */
  int nparams;
  size_t param_off[CUDA_BATCH_PARAMS], param_size[CUDA_BATCH_PARAMS];
  size_t param_bytes;
  CudaModule *module;
  struct CudaKernel *next;
} CudaKernel;

/* Loads a cubin or PTX image. `what` names it in errors (e.g. the Quasar kernel). */
CudaModule *cuda_module_load(const void *image, size_t size, const char *what, SrcLoc loc);
void cuda_module_unload(CudaModule *m);          /* frees its CudaKernels too */
/* The device address of the module variable `name` (a __constant__ or __device__ global),
   its size in *bytes (may be NULL). */
CudaPtr cuda_module_global(CudaModule *m, const char *name, size_t *bytes, SrcLoc loc);
/* The kernel `name` (an extern "C" __global__ function) of m; looked up once. */
CudaKernel *cuda_kernel(CudaModule *m, const char *name, SrcLoc loc);
/* The kernel takes n parameters: its launches may then be batched (below). */
void cuda_kernel_params(CudaKernel *k, int n);

/* Launches k with grid x block threads and shared_bytes of dynamic shared memory (above 48 KiB
   the kernel's limit is raised first). params: one pointer per kernel parameter, to its
   value. cooperative: cuLaunchCooperativeKernel (all blocks resident at once, for grid-wide
   barriers). Asynchronous: errors of the kernel itself show at cuda_sync. */
void cuda_launch(CudaKernel *k, const unsigned grid[3], const unsigned block[3],
                 size_t shared_bytes, bool cooperative, void **params, SrcLoc loc);
/* Batched launches (rt_cuda.c says how): on when the driver has CUDA graphs, unless
   OQ_DEV_CUDA_GRAPHS=0. cuda_set_batching turns them on or off (the queue submitted first); it returns
   whether they were on. With batching, a launch's own refusal by the driver may show at the
   next call that reaches the device, still naming the kernel at the launch's SrcLoc. */
bool cuda_set_batching(bool on);
/* Submits the queued launches now (nothing when none are queued or CUDA is not in use): the
   interpreter calls it when a host loop starts, after each statement outside host loops
   and before a loop's statement that took long the last time, so that launches do not
   wait through the host work that follows them. */
void cuda_submit(void);
/* Whether launches wait in the queue. */
bool cuda_queued(void);
/* Waits for all work on the device. A kernel fault is reported naming the last kernel. */
void cuda_sync(SrcLoc loc);
/* Waits for all work on the device; false with the driver's error name and text in why
   (a kernel fault) instead of reporting it. */
bool cuda_wait(char *why, size_t n);
/* Set by the launcher (rt_gpu.c) while launches may be in flight: called before device data
   is copied back for the host, to wait for them and report their errors first. */
extern void (*cuda_wait_hook)(SrcLoc loc);

/* Occupancy: the block size that gives the most resident threads (cuOccupancyMaxPotential-
   BlockSize; limit 0: no limit) and the smallest grid that fills the device at it. */
int cuda_occupancy_block_size(const CudaKernel *k, size_t shared_bytes, int limit,
                              int *min_grid, SrcLoc loc);
/* Blocks of block_threads threads that fit on one SM at once. */
int cuda_occupancy_blocks_per_sm(const CudaKernel *k, int block_threads, size_t shared_bytes,
                                 SrcLoc loc);

/* Events on the default stream, for timing. */
typedef struct CudaEvent CudaEvent;
CudaEvent *cuda_event_new(SrcLoc loc);
void cuda_event_record(CudaEvent *e, SrcLoc loc);
double cuda_event_ms(CudaEvent *start, CudaEvent *stop, SrcLoc loc);  /* waits for stop */
void cuda_event_free(CudaEvent *e);

/* ---- memory primitives of the driver (rt_devmem.c uses these through CudaMemOps) ------ */

bool cuda_raw_alloc(CudaPtr *p, size_t n, SrcLoc loc);   /* false: out of device memory */
void cuda_raw_free(CudaPtr p);
/* Synchronous copies (direct DMA when the host memory is page-locked). */
void cuda_raw_htod(CudaPtr dst, const void *src, size_t n, SrcLoc loc);
void cuda_raw_dtoh(void *dst, CudaPtr src, size_t n, SrcLoc loc);
void cuda_raw_dtod(CudaPtr dst, CudaPtr src, size_t n, SrcLoc loc);   /* ordered on the stream */
/* Queued after the launches before them; the host buffer (page-locked: cuda_raw_pin) stays
   as it is until the next wait, which the bytes copied to the host need too. The copy to the
   host returns false where the driver refused it (a fault the next wait reports). */
void cuda_raw_htod_async(CudaPtr dst, const void *src, size_t n, SrcLoc loc);
bool cuda_raw_dtoh_async(void *dst, CudaPtr src, size_t n);
void cuda_raw_memset(CudaPtr p, unsigned char byte, size_t n, SrcLoc loc);
bool cuda_raw_pin(void *host, size_t n);           /* cuMemHostRegister; false if refused */
void cuda_raw_unpin(void *host);
void cuda_mem_info(size_t *free_bytes, size_t *total_bytes, SrcLoc loc);

/* ---- device copies of arrays (rt_devmem.c) --------------------------------------------- */
/* Array.state (value.h): 0 = the host copy is the only valid one. ARR_DEVICE_VALID: the
   device copy holds the current values; ARR_HOST_STALE: the device copy is newer than the
   host copy. Protocol of a launch: cuda_array_device(a, upload) for every argument (upload
   false when the kernel overwrites a entirely: 'nocopy); after the launch
   cuda_array_written(a) for every array the kernel may write (not for 'const ones). Host
   code calls cuda_array_host(a) before it reads or writes a, and cuda_array_host_written(a)
   when it writes (cuda_host_read and cuda_host_touch below). */

/* The device buffer of a (allocated from the pool if missing), with the host values copied
   in when upload is set and the device copy is not valid. NULL for an empty array. */
void *cuda_array_device(Array *a, bool upload, SrcLoc loc);
void cuda_array_written(Array *a);                 /* device copy newest; host stale */
void cuda_array_host(Array *a, SrcLoc loc);        /* copies back if the host is stale */
void cuda_array_host_written(Array *a);            /* host copy newest; device invalid */
void cuda_array_free(Array *a);                    /* rt_array_free_hook: releases the device
                                                      block and unpins the host buffer */

/* Host code reads or writes a's elements. The host copy is made current where host code
   reads elements (indexing, operators, built-ins: interp.c), and the device copy stays valid;
   where host code writes elements the device copy is dropped as well. Naming an array,
   passing, assigning, returning or storing it moves nothing. Arrays the GPU never touched
   cost one test of the state bits. */
void cuda_host_touch_slow(Array *a, SrcLoc loc);
static inline void cuda_host_read(Array *a, SrcLoc loc) {
  if (a->state & ARR_HOST_STALE) cuda_array_host(a, loc);
}
static inline void cuda_host_touch(Array *a, SrcLoc loc) {   /* before host code writes a */
  if (a->state & (ARR_DEVICE_VALID | ARR_HOST_STALE)) cuda_host_touch_slow(a, loc);
}

/* Pooled device memory. Sizes round up to classes (powers of two from 256 bytes to 1 MiB,
   then four classes per doubling); freed blocks wait in per-class free lists for reuse.
   When the driver is out of memory the free lists are emptied and the allocation retried;
   a second failure is an rt_error. cuda_mem_alloc(0) is 0. */
CudaPtr cuda_mem_alloc(size_t n, SrcLoc loc);
void cuda_mem_free(CudaPtr p, size_t n);           /* n as allocated */
void cuda_pool_trim(void);                         /* returns every free block to the driver */
size_t cuda_pool_class_size(size_t n);             /* the bytes a request of n takes */

/* How array transfers go (cuda_set_transfer; the unit tests measure both). REGISTER (the default) page-locks the host
   buffer of an array (cuMemHostRegister) and copies directly from it; the array is unpinned
   when it is freed. Pinning costs about 0.6 ms + 0.05 ms/MiB once, and then transfers run
   at 55 GB/s instead of 8-12 GB/s (H100, PCIe 5; tests/unit/test_cuda.c measures it), so an
   array of at least CUDA_PIN_EAGER bytes is pinned at its first transfer, one of at least
   CUDA_PIN_MIN bytes at its second (it is being reused), a smaller one never. PAGEABLE
   never pins (the driver stages through its own buffers). Staging through a pinned buffer
   of our own was measured too: 8-10 GB/s, no better than PAGEABLE, so it is gone. */
typedef enum CudaTransfer { XFER_PAGEABLE, XFER_REGISTER } CudaTransfer;
#define CUDA_PIN_MIN ((size_t)1 << 20)
#define CUDA_PIN_EAGER ((size_t)16 << 20)
void cuda_set_transfer(CudaTransfer t);
CudaTransfer cuda_get_transfer(void);

/* The memory back end under rt_devmem.c: the driver, or (in unit tests on machines without
   a GPU) a fake device in host memory. */
typedef struct CudaMemOps {
  bool (*alloc)(CudaPtr *p, size_t n, SrcLoc loc);
  void (*free)(CudaPtr p);
  void (*htod)(CudaPtr dst, const void *src, size_t n, SrcLoc loc);
  void (*dtoh)(void *dst, CudaPtr src, size_t n, SrcLoc loc);
  bool (*pin)(void *host, size_t n);
  void (*unpin)(void *host);
} CudaMemOps;
void cuda_mem_set_ops(const CudaMemOps *ops);      /* NULL: the driver */

/* ---- counters (for tests, --profile and --verbose) ------------------------------------- */
typedef struct CudaStats {
  long compiles, cache_hits;      /* NVRTC runs; images read from the disk cache */
  long launches;
  long graphs_made, graph_launches;   /* batched launches: graphs instantiated, submitted */
  long dev_allocs, dev_frees;     /* calls of the allocator under the pool */
  long pool_hits;                 /* allocations served from a free list */
  size_t dev_bytes;               /* bytes held from the allocator (in use + free lists) */
  size_t pool_bytes;              /* bytes in free lists */
  long uploads, downloads;        /* array transfers */
  uint64_t bytes_up, bytes_down;
  long pins, pin_failures;
} CudaStats;
extern CudaStats cuda_stats;
/* Called with each array transfer's bytes when set (rt_profile.c charges them to a kernel). */
extern void (*cuda_on_transfer)(size_t up, size_t down);

#endif
