/* rt_gpu.c: compiling and launching kernels on the GPU (see rt_gpu.h).

   Launches are asynchronous. The launch's sizes and arguments go by value in the kernel's
   parameter space (struct OqkGrid, which cuLaunchKernel copies), so a launch allocates
   nothing, copies nothing of its own to the device and does not wait. The host waits
   (gpu_sync) only where it needs the device's work: before it reads an array a kernel wrote
   (rt_devmem.c calls cuda_wait_hook), for a kernel's scalar outputs, in tic/toc, at the end
   of the program, and when the ring of error records below is full.

   Errors: a launch of a kernel that can fail ('checked indexes, assert, division by zero)
   gets an error record (OqkLaunch) of its own in device memory, the next slot of a ring; the
   wait reads the slots of the launches since the last wait and reports the first error as
   the CPU back end does, at its Quasar line. A device fault is seen at the wait and names the
   last kernel launched; OQ_CUDA_SYNC=1 waits after every launch, to pin it on its launch.

   Memory: an array argument is uploaded only when its device copy is not valid, and not at
   all when the kernel overwrites it entirely ('nocopy, explicit or found: KFacts.param_fill);
   after the launch every array the kernel may write (KFacts.param_written; both facts of
   kernel/facts.c) is marked written on the device (host stale) and nothing is copied back.
   Host code that later reads its elements copies it back then (host_reads in interp.c) and
   keeps the device copy; a host write of an element drops it (host_writes). OQ_CUDA_EAGER=1
   copies every array back right after each launch instead.

   Tiers (OQ_CUDA_TIERS, on): a specialization whose image is not in the cache is emitted a
   second time as a first build (KSpec.fast: schedules left out, emit_cuda.c fast_schedule),
   which NVRTC compiles in a fraction of the time (hist_000's loop: 0.25x), and its launches run
   that while NVRTC compiles the optimized source in a child process (cuda_build_start). A later
   launch that finds the optimized build done (take_optimized) waits for the launches in
   flight (their error records name the first build's sites), unloads the first build and
   runs the optimized one (GSpec.opt becomes GSpec.run). Only the optimized image is cached,
   by the child; the program does not wait for the builds still compiling at its end: the
   next run finds their entries. An optimized build that fails leaves the first build. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "backend/cuda/rt_gpu.h"
#include "backend/plan.h"
#include "codegen/codegen.h"
#include "backend/rt_profile.h"
#include "device/rt_cuda.h"

#define RING 128                  /* error records: launches in flight between two waits */
#define PARAM_MAX 32764           /* kernel parameter bytes (CUDA 12.1+, Volta+); else 4096 */
#define MAX_ARGS 128              /* parameters and captures of one kernel */

/* One build of a specialization's code (tiers: the first build or the optimized one):
   what its launches need to know of the code it was emitted as. */
typedef struct GBuild {
  LaunchSpec h;             /* h.tr: the transforms its code was emitted with (emit_cuda) */
  bool uses_block;
  bool cooperative;         /* syncthreads(grid): launched with cuLaunchCooperativeKernel;
                               h.tr.grid_stride: its resident blocks loop over the launch's
                               (grid.stride_blocks: plan_cuda_launch) */
  char xforms[160];         /* its transforms for --profile (KSpec.xforms) */
} GBuild;

/* One specialization: compiled (module, k), or failed with a reason. */
typedef struct GSpec {
  GBuild run;               /* the build mod and k hold (run.h.key: the specialization's) */
  bool told, checked;
  CudaModule *mod;
  CudaKernel *k;
  CudaPtr cmem;             /* the module's oq_cmem, where h.tr.cmem_params's arrays go */
  CudaGrid grid;            /* the grid of its latest launch, as plan.c decided it */
  size_t param_bytes;       /* its OqkGrid: OqkGridHead, then the arguments (cuda_arg_words) */
  int *arg_off;             /* per parameter, then capture: its byte offset there (-1: none) */
  KType *arg_type;          /* ... and its type, which says what is passed */
  int occ_threads;          /* threads per block at the best occupancy (0: not asked yet) */
  int occ_asked_threads;    /* the last blocks_per_sm question (threads, shared bytes) and */
  size_t occ_asked_shared;  /* its answer, occ_blocks (occ_asked_threads 0: none yet) */
  int occ_blocks;
  Func *func;
  bool *param_written;      /* per kernel parameter: the kernel may write the array */
  bool *byval;              /* per parameter, then capture: a small vector read by value */
  char *param_fill;         /* per kernel parameter: every thread writes p[pos] (1) or
                               p[pos[0], ..] (2) and nothing reads p; else 0 */
  const Type *pos_type;     /* the declared type of parameter `pos` (NULL: none) */
  CudaPtr counts; size_t counts_bytes;   /* OqkGrid.scr (CudaGrid.scratch): zero between launches */
  ProfRow *prof;            /* its row of the --profile table (rt_profile.c) */
  /* tiers: while `pending` compiles the optimized source, run, mod and k are the first
     build's; opt is the optimized build's, taken with it */
  CudaBuild *pending;
  GBuild opt;
  long launches;            /* --profile: launches, and their time on the device (events) */
  double gpu_ms, host_ms, best_ms;
  struct GSpec *next;
} GSpec;

/* ---- the specialization of a call site's last launch ----
   A loop launches one kernel with alike arguments launch after launch. When the site's last
   launch had no captured variables (its key then depends only on the kernel, the launch's
   sizes, the precision, the arguments and OQ_DEV_CUDA_VTHREADS) and this launch has the same
   sizes, virtual-thread proposal (plan.c, LaunchPlan.cuda) and its
   arguments the same kinds, element types and shapes, the site's GSpec is taken again
   without the key (ksema_key walks the kernel's body and formats every argument). Sizes and
   shapes are compared exactly, more strictly than the key: a miss costs the key, a hit is
   never wrong (a key fact drawn from the launch's extents, such as 32-bit indexing, is
   covered). Only a GSpec compiled (or refused) already is taken: compiling needs the key's
   KSpec. */
#define MEMO_SLOTS 64
#define MEMO_ARGS 16   /* the library's fixed-size filters take 10 (a miss costs a walk of the body) */
#define MEMO_RANK 4
typedef struct ArgShape { int kind, elem, rank; int64_t dims[MEMO_RANK]; } ArgShape;
typedef struct SiteMemo {
  const Node *site;
  Func *kfunc;
  Frame *env;
  int D;
  bool dp, no_cmem, explicit_blk;
  int vt;                    /* the virtual threads proposed (OQ_DEV_CUDA_VTHREADS may change) */
  unsigned aliased;          /* the arguments another one also is (KSpec.aliased: a key bit) */
  int64_t dims[MEMO_RANK], blk[MEMO_RANK];   /* the launch's (its first D) */
  ArgShape arg[MEMO_ARGS];   /* compared with memcmp: zeroed before they are filled */
  GSpec *g;                  /* NULL: nothing kept */
} SiteMemo;

/* What the launch path keeps between launches. */
typedef struct Slot { GSpec *g; SrcLoc loc; } Slot;
typedef struct Timed { GSpec *g; CudaEvent *start, *stop; } Timed;
/* Host memory of the asynchronous copies around launches, page-locked where the driver
   allows (else the driver stages it, waiting): the outputs' identities go up in stream order
   before a launch and its outputs and error records come down before the one wait, instead
   of a synchronous copy each (a copy from pageable memory waits for the device first). */
typedef struct HostStage {
  OqkLaunch back[RING];     /* the error records as read back */
  OqkWorker up, down;       /* a launch's kernel outputs: identities sent, results read */
} HostStage;
/* The launcher's own switches: base/config.c's, copied at the first launch. The tuning
   knobs of the key and the grid (OQ_DEV_CUDA_VTHREADS, _LGR, _COARSE_*, ...) are plan.c's. */
typedef struct Knobs {
  bool read;
  bool eager;       /* OQ_CUDA_EAGER=1 */
  bool ktime;       /* OQ_DEV_CUDA_KTIME=1: each launch's device time on stderr (bench/xform) */
  bool tiers;       /* OQ_CUDA_TIERS; unset: where the process may use 4 processors or more (a
                       build in the background needs a core of its own) */
} Knobs;

static struct {
  bool ready;
  Knobs knobs;
  CudaPtr ring;             /* RING + 1 error records (the last for kernels that cannot fail) */
  Slot slot[RING];
  int first, nslots;        /* slots used since the last wait, from first on (mod RING) */
  CudaPtr worker;           /* the OqkWorker that kernel outputs are combined into */
  HostStage *stage;         /* what the host copies to and from the device without waiting */
  _Alignas(16) char param[PARAM_MAX + 4];
  OqkArg args[MAX_ARGS];    /* this launch's arguments, as the CPU back end fills them */
  size_t param_max;
  bool pending;             /* launches not waited for */
  long since;               /* how many */
  GSpec *last;
  SrcLoc last_loc;
  Timed timed[RING];        /* --profile: event pairs of the launches since the last wait */
  int ntimed;
  bool sync_each;           /* OQ_CUDA_SYNC=1 */
  long waits;
  SiteMemo memo[MEMO_SLOTS];   /* by call site (find_spec) */
  CudaModule *bare_mod;        /* gpu_bare_launch_us's empty kernel */
  CudaKernel *bare;
  GSpec *specs;                /* every specialization, compiled or refused (lookup) */
} G;

static const Knobs *knobs(void) {
  Knobs *k = &G.knobs;
  if (!k->read) {
    k->eager = config()->cuda_eager;
    k->ktime = config()->dev.cuda_ktime;
    int t = config()->cuda_tiers;
    k->tiers = ((t > 0 || (t < 0 && config()->cpus >= 4)) && cuda_builds_possible()) || config()->dev.cuda_tier_fast;
    k->read = true;
  }
  return k;
}

static GSpec *lookup(const char *key) {
  for (GSpec *g = G.specs; g; g = g->next)
    if (!strcmp(g->run.h.key, key)) return g;
  GSpec *g = calloc(1, sizeof *g);
  g->run.h.key = strdup(key);
  g->next = G.specs;
  G.specs = g;
  return g;
}

static bool fail(GSpec *g, const char *why) {
  return launch_spec_fail(&g->run.h, why);
}

/* Line n (1-based) of src, and the nearest `/ * file:line * /` comment at or above it. */
static void source_line(const char *src, int n, char *text, size_t tn, char *qline, size_t qn) {
  const char *p = src;
  snprintf(text, tn, "?");
  snprintf(qline, qn, "?");
  for (int i = 1; *p; i++) {
    const char *e = strchr(p, '\n');
    int len = e ? (int)(e - p) : (int)strlen(p);
    const char *c = strstr(p, "/* ");
    if (c && c < p + len && memchr(c, ':', p + len - c) && strstr(c, " */") && strstr(c, " */") < p + len)
      snprintf(qline, qn, "%.*s", (int)(strstr(c, " */") - c - 3), c + 3);
    if (i == n) {
      snprintf(text, tn, "%.*s", len, p);
      return;
    }
    if (!e) return;
    p = e + 1;
  }
}

/* An NVRTC failure: its first error, the generated line and the Quasar line. */
_Noreturn static void compile_error(const char *name, const char *src, const char *log, SrcLoc loc) {
  int ln = 0;
  const char *at = log ? strstr(log, "): error") : NULL;
  if (at) {
    const char *q = at;
    while (q > log && q[-1] >= '0' && q[-1] <= '9') q--;
    ln = atoi(q);
  }
  char text[300], qline[200];
  source_line(src, ln, text, sizeof text, qline, sizeof qline);
  const char *first = at ? at + 3 : (log ? log : "");
  const char *nl = strchr(first, '\n');
  rt_error(loc, "kernel '%s': NVRTC failed to compile its CUDA code at generated line %d (Quasar %s): %.*s\n    %s",
           name, ln, qline, nl ? (int)(nl - first) : (int)strlen(first), first, text);
}

/* Specializes and emits g's source, or records why not. */
static char *make_source(GSpec *g, KSpec *S, Value *args) {
  if (!ksema_run(S, args)) return fail(g, S->reason), NULL;
  if (S->kfunc->nouts > OQK_MAX_OUTS) return fail(g, "too many kernel outputs"), NULL;
  char *src = emit_cuda(S);
  if (!src) return fail(g, S->reason), NULL;
  return src;
}

/* The most parameter bytes a launch may pass: 32764 from CUDA 12.1 on (driver and NVRTC). */
static size_t param_limit(void) {
  int major, minor;
  nvrtc_version(&major, &minor);
  const CudaDevice *dev = cuda_device();
  bool big = dev && dev->driver_version >= 12010 && major * 100 + minor >= 1201;
  return big ? PARAM_MAX : 4096;
}

/* Type of argument i of S: a parameter, then a capture. */
/* Where each argument goes in the parameter block, and the block's size. */
static void arg_layout(GSpec *g, const KSpec *S) {
  int nargs = S->kfunc->nparams + S->ncaps;
  g->arg_off = malloc((nargs + 1) * sizeof *g->arg_off);
  g->arg_type = malloc((nargs + 1) * sizeof *g->arg_type);
  size_t off = sizeof(OqkGridHead);
  for (int i = 0; i < nargs; i++) {
    int w = cuda_arg_words(S, i);
    g->arg_off[i] = w ? (int)off : -1;
    g->arg_type[i] = kspec_arg_type(S, i);
    off += (size_t)w * 8;
  }
  g->param_bytes = off;
}

static char *spec_key(KSpec *S, const KLaunch *cl);

/* g's module from image (freed), with g->run.h set: its kernel and what launches read of it. */
static void load_build(GSpec *g, void *image, size_t size, SrcLoc loc) {
  g->mod = cuda_module_load(image, size, g->run.h.name, loc);
  free(image);
  g->k = cuda_kernel(g->mod, "oqk_entry", loc);
  cuda_kernel_params(g->k, 3);   /* OqkGrid P, OqkLaunch *L, OqkWorker *W (emit_cuda.c) */
  g->cmem = g->run.h.tr.cmem_params ? cuda_module_global(g->mod, "oq_cmem", NULL, loc) : 0;
  g->grid = plan_cuda_grid_init(&g->run.h);
  g->k->label = g->run.h.name;   /* driver errors name the Quasar kernel, not oqk_entry */
  g->occ_threads = g->occ_asked_threads = 0;
}

/* What launch_spec_compiled allocated in h (its key stays). */
static void spec_parts_free(LaunchSpec *h) {
  for (int i = 0; i < h->nsites; i++) {
    free((char *)h->sites[i].array);
    free((char *)h->sites[i].text);
  }
  free(h->sites);
  free(h->name);
  h->sites = NULL;
  h->nsites = 0;
  h->name = NULL;
}

/* b: the build of S's code (its key, b->h.key, stays). */
static void gbuild_set(GBuild *b, const KSpec *S) {
  launch_spec_compiled(&b->h, S);
  b->uses_block = S->uses_block;
  b->cooperative = S->grid_barrier;
  snprintf(b->xforms, sizeof b->xforms, "%s", S->xforms);
}

/* The launch's first build (F, KSpec.fast, over arena), trimmed as NVRTC gets it (*whole:
   untrimmed), when it differs from src, the optimized source: NULL when alike or not
   emitted (F then freed). cmem: the constant-memory proposal as the launcher makes it. */
static char *first_source(const KLaunch *cl, const char *src, bool cmem, Arena *arena, KSpec *F, char **whole) {
  *F = (KSpec){.kernel = cl->kernel, .kfunc = cl->kernel->func, .D = cl->D, .arena = arena, .fast = true};
  ksema_launch(F, cl->dims, cl->blk, cl->cnt);
  char *key = spec_key(F, cl);   /* the launch's proposals and captures, as S had them */
  if (cmem) plan_cuda_cmem_key(cl, &key, &F->no_cmem);
  free(key);
  char *fast = ksema_run(F, cl->args) ? emit_cuda(F) : NULL;
  if (!fast || !strcmp(fast, src)) {
    free(fast);
    kspec_free(F);
    return NULL;
  }
  *whole = strdup(fast);
  emit_cuda_trim(fast);   /* (alike sources compile whole, once, into the cache) */
  return fast;
}

/* Tiers: src (S's optimized source) is not in the cache. When the launch emitted as a first
   build (KSpec.fast) differs from it, NVRTC compiles src in the background and the first
   build now: true with *image, g->run the first build and g->opt src's. False: nothing
   done (the sources are alike, or the build could not start): the caller compiles src. */
static bool first_build(GSpec *g, KSpec *S, const KLaunch *cl, const char *src, void **image,
                        size_t *size) {
  SrcLoc loc = cl->site->loc;
  const char *arch = cuda_device()->arch;
  Arena arena = {0};
  KSpec F;
  char *whole = NULL, *fast = first_source(cl, src, true, &arena, &F, &whole);
  if (!fast) return false;
  bool only = config()->dev.cuda_tier_fast, done = false;
  if (cl->opt && cl->opt->emit_c) {   /* oq run --emit-c: the source the launch compiles now */
    printf("/* ---- CUDA kernel %s (first build) ---- */\n%s\n", F.name, fast);
    fflush(stdout);
  }
  CudaBuild *b = only ? NULL : cuda_build_start(src, S->name, arch, loc);
  if (b || only) {
    char *log = NULL;
    if (!cuda_compile_as(fast, F.name, arch, false, image, size, &log, loc)) {
      free(log);   /* a helper trimmed wrongly (cudacheck would show it): the whole source */
      log = NULL;
      if (!cuda_compile_as(whole, F.name, arch, false, image, size, &log, loc)) compile_error(F.name, whole, log, loc);
    }
    free(log);
    gbuild_set(&g->run, &F);
    if (b) {
      g->pending = b;
      gbuild_set(&g->opt, S);
    }
    done = true;
  }
  free(whole);
  free(fast);
  kspec_free(&F);
  return done;
}

static void compile_spec(GSpec *g, KSpec *S, const KLaunch *cl) {
  if (S->kfunc->nparams + S->ncaps > MAX_ARGS) {
    fail(g, "more than 128 arguments and captured variables");
    return;
  }
  char *src = make_source(g, S, cl->args);
  if (!src) return;
  arg_layout(g, S);
  if (g->param_bytes > param_limit()) {
    free(src);
    fail(g, "too many arguments and captured variables to pass by value");
    return;
  }
  if (cl->opt && cl->opt->emit_c) {
    printf("/* ---- CUDA kernel %s (%s) ---- */\n%s\n", S->name, g->run.h.key, src);
    fflush(stdout);
  }
  SrcLoc loc = cl->site->loc;
  const char *arch = cuda_device()->arch;
  void *image = NULL;
  size_t size;
  bool first = knobs()->tiers &&
               !cuda_cached(src, arch, &image, &size, loc) &&
               first_build(g, S, cl, src, &image, &size);
  if (!image) {
    char *log = NULL;
    if (!cuda_compile(src, S->name, arch, &image, &size, &log, loc)) compile_error(S->name, src, log, loc);
    free(log);
  }
  free(src);
  if (!first) gbuild_set(&g->run, S);
  load_build(g, image, size, loc);
  g->func = S->kfunc;
  int nparams = S->kfunc->nparams;
  g->param_written = malloc((nparams + 1) * sizeof *g->param_written);   /* 'const analysis */
  memcpy(g->param_written, S->facts.param_written, nparams * sizeof *g->param_written);
  g->param_fill = malloc(nparams + 1);   /* 'nocopy analysis */
  memcpy(g->param_fill, S->facts.param_fill, nparams);
  for (int k = 0; k < S->kfunc->nparams; k++)
    if (!strcmp(S->kfunc->params[k].name, "pos")) g->pos_type = S->kfunc->params[k].type;
  prof_xforms(prof_row(cl->kernel, "cuda"), g->run.xforms);
  int nargs = S->kfunc->nparams + S->ncaps;
  g->byval = calloc(nargs + 1, sizeof *g->byval);
  for (int i = 0; i < nargs; i++) g->byval[i] = kspec_arg_type(S, i).kind == K_VEC;
  if (cl->opt && cl->opt->verbose)
    fprintf(stderr, "oq: kernel '%s' compiled for CUDA (%s)%s\n", S->name, arch,
            !first ? "" : g->pending ? ": a first build, the optimized one compiles in the background"
                                     : ": a first build (OQ_DEV_CUDA_TIER_FAST)");
  if (cl->opt && cl->opt->verbose && S->tiling_ignored)
    fprintf(stderr, "oq: kernel '%s': !kernel_tiling is ignored on CUDA: the kernel uses blocks, shared memory or barriers\n", S->name);
}

/* Tiers: g runs its first build while its optimized build compiles; when that is done (or
   launch OQ_DEV_CUDA_SWITCH_AT waits for it), this launch and the later ones run it. */
static void take_optimized(GSpec *g, const KLaunch *cl) {
  int at = config()->dev.cuda_switch_at;
  void *image;
  size_t size;
  char *why;
  int done = cuda_build_poll(g->pending, at && g->launches + 1 >= at, &image, &size, &why);
  if (!done) return;
  cuda_build_free(g->pending);
  g->pending = NULL;
  bool verbose = cl->opt && cl->opt->verbose;
  if (done < 0) {
    if (verbose)
      fprintf(stderr, "oq: kernel '%s': its optimized build failed (NVRTC: %s); the first build stays\n",
              g->run.h.name, why ? why : "?");
    free(why);
    spec_parts_free(&g->opt.h);
    return;
  }
  SrcLoc loc = cl->site->loc;
  gpu_sync(loc);   /* the first build's launches in flight: their records name its sites */
  cuda_module_unload(g->mod);
  spec_parts_free(&g->run.h);
  char *key = g->run.h.key;
  g->run = g->opt;
  g->run.h.key = key;
  g->opt = (GBuild){0};
  load_build(g, image, size, loc);
  prof_xforms(g->prof ? g->prof : prof_row(cl->kernel, "cuda"), g->run.xforms);
  if (verbose)
    fprintf(stderr, "oq: kernel '%s': the optimized build replaces the first build at launch %ld\n",
            g->run.h.name, g->launches + 1);
}

/* ---- launch configuration ---- */

/* ---- the occupancy calculator's answers for plan.c (CudaOcc) ---- */

typedef struct OccAsk { GSpec *g; SrcLoc loc; } OccAsk;

/* Threads per block for a specialization's registers, asked once. */
static int occupancy_threads(void *ctx) {
  OccAsk *a = ctx;
  GSpec *g = a->g;
  if (!g->occ_threads) {
    g->occ_threads = cuda_occupancy_block_size(g->k, g->grid.shared, 0, NULL, a->loc);
    if (g->occ_threads < 1) g->occ_threads = 256;
  }
  return g->occ_threads;
}

/* Resident blocks per SM; the last question's answer is kept (a loop launches alike). */
static int occupancy_blocks(void *ctx, int threads, size_t shared) {
  OccAsk *a = ctx;
  GSpec *g = a->g;
  if (g->occ_asked_threads != threads || g->occ_asked_shared != shared) {
    g->occ_blocks = cuda_occupancy_blocks_per_sm(g->k, threads, shared, a->loc);
    g->occ_asked_threads = threads;
    g->occ_asked_shared = shared;
  }
  return g->occ_blocks;
}

static CudaOcc occupancy(OccAsk *a) {
  return (CudaOcc){cuda_device(), a->g->k->max_threads, occupancy_threads, occupancy_blocks, a};
}

static void note_fallback(GSpec *g, const KLaunch *cl, const char *why) {
  if (cl->opt && cl->opt->verbose && !g->told)
    fprintf(stderr, "oq: kernel '%s' does not run on the GPU: %s\n", callable_name(cl->kernel), why);
  g->told = true;
}

/* ---- waiting for the device ---- */

static void wait_hook(SrcLoc loc) { gpu_sync(loc); }

/* The ring of error records and the worker, once per process. */
static void ready(SrcLoc loc) {
  if (G.ready) return;
  size_t n = (RING + 1) * sizeof(OqkLaunch);
  G.ring = cuda_mem_alloc(n, loc);
  cuda_raw_memset(G.ring, 0, n, loc);
  G.worker = cuda_mem_alloc(sizeof(OqkWorker), loc);
  cuda_raw_memset(G.worker, 0, sizeof(OqkWorker), loc);
  if (posix_memalign((void **)&G.stage, 4096, sizeof *G.stage)) rt_error(loc, "out of memory");
  memset(G.stage, 0, sizeof *G.stage);
  cuda_raw_pin(G.stage, sizeof *G.stage);   /* (refused: the copies still work, waiting) */
  G.param_max = param_limit();
  G.sync_each = config()->cuda_sync;
  cuda_wait_hook = wait_hook;
  G.ready = true;
}

/* The error records of the launches since the last wait: their copy to the host, queued
   before the wait (false: refused, or none to copy), then their reading after it; the first
   error, in launch order, is reported as the CPU back end reports it. */
typedef struct Records { int first, n; bool queued; } Records;

/* r's records to the host: queued (false where the driver refused), or now, waiting. */
static bool records_copy(Records r, bool queue, SrcLoc loc) {
  OqkLaunch *back = G.stage->back;
  int head = r.first + r.n <= RING ? r.n : RING - r.first;
  CudaPtr at = G.ring + r.first * sizeof(OqkLaunch);
  if (!queue) {
    cuda_raw_dtoh(&back[r.first], at, head * sizeof(OqkLaunch), loc);
    if (head < r.n) cuda_raw_dtoh(&back[0], G.ring, (r.n - head) * sizeof(OqkLaunch), loc);
    return true;
  }
  return cuda_raw_dtoh_async(&back[r.first], at, head * sizeof(OqkLaunch)) &&
         (head == r.n || cuda_raw_dtoh_async(&back[0], G.ring, (r.n - head) * sizeof(OqkLaunch)));
}

static Records records_down(SrcLoc loc) {
  Records r = {G.first, G.nslots, false};
  G.first = (r.first + r.n) % RING;
  G.nslots = 0;
  r.queued = r.n && records_copy(r, true, loc);
  return r;
}

static void check_records(Records r, SrcLoc loc) {
  if (r.n && !r.queued) records_copy(r, false, loc);
  for (int i = 0; i < r.n; i++) {
    int s = (r.first + i) % RING;
    GSpec *g = G.slot[s].g;
    if (G.stage->back[s].err) launch_report(&g->run.h, &G.stage->back[s], G.slot[s].loc);
  }
}

static void collect_times(SrcLoc loc) {
  for (int i = 0; i < G.ntimed; i++) {
    GSpec *g = G.timed[i].g;
    double ms = cuda_event_ms(G.timed[i].start, G.timed[i].stop, loc);
    if (knobs()->ktime)   /* (the grid of the grid-stride kinds: persistent blocks, tiles) */
      fprintf(stderr, "ktime %s %.4f ms %u blocks\n", g->run.h.name, ms,
              g->run.h.tr.coarse ? g->grid.stride_blocks : g->run.h.tr.tiled ? g->grid.tgrid : 0);
    g->gpu_ms += ms;
    prof_add_time(g->prof, ms);
    if (!g->best_ms || ms < g->best_ms) g->best_ms = ms;
  }
  G.ntimed = 0;
}

void gpu_sync(SrcLoc loc) {
  if (!G.pending) return;
  G.pending = false;
  G.waits++;
  Records recs = records_down(loc);
  char why[400];
  if (!cuda_wait(why, sizeof why)) {
    if (G.since > 1)
      rt_error(G.last_loc, "CUDA: kernel '%s' failed: %s (it is the last of %ld launches since the "
               "host last waited; OQ_CUDA_SYNC=1 waits after each launch)", G.last->run.h.name, why, G.since);
    rt_error(G.last_loc, "CUDA: kernel '%s' failed: %s", G.last->run.h.name, why);
  }
  G.since = 0;
  check_records(recs, loc);
  collect_times(loc);
}

/* ---- launching ---- */

/* Whether another argument of the launch is argument i's array. */
static bool another_name(const KLaunch *cl, KSpec *S, int i) {
  Func *f = S->kfunc;
  for (int k = 0; k < f->nparams + S->ncaps; k++) {
    Value w = k < f->nparams ? cl->args[k] : S->caps[k - f->nparams].value;
    if (k != i && w.kind == V_ARRAY && w.arr == cl->args[i].arr) return true;
  }
  return false;
}

/* Whether argument i must be uploaded: not when the kernel overwrites all of it, unless
   another argument is the same array (x = x - a*(x - y) in place: 'nocopy ax_out is x). */
static bool needs_upload(const GSpec *g, const KLaunch *cl, KSpec *S, int i) {
  Value v = cl->args[i];
  Func *f = S->kfunc;
  if (v.kind != V_ARRAY) return false;
  if (another_name(cl, S, i)) return true;
  if (f->params[i].type->mods & TM_NOCOPY) return false;
  if (!g->param_fill[i]) return true;
  Array *a = v.arr;
  if (a->numel != launch_positions(cl)) return true;
  const Type *pt = g->pos_type;
  bool linear = g->param_fill[i] == 1 && pt &&
                (pt->kind == TY_INT || pt->kind == TY_SCALAR || (pt->kind == TY_UNKNOWN && cl->D == 1));
  for (int d = 0; d < cl->D; d++) {
    if (linear ? d > 0 && cl->cnt[d] * cl->blk[d] != cl->dims[d] : (d >= a->rank || a->dims[d] != cl->dims[d]))
      return true;
  }
  return false;
}

/* byval: the kernel reads v as a small vector (OqkArg.v), from the host copy. A special
   parameter (V_NONE) has no OqkArg: nothing packs or compares it. */
static void marshal(OqkArg *a, Value v, bool byval, bool upload, SrcLoc loc) {
  if (v.kind == V_NONE) return;
  if (byval && v.kind == V_ARRAY) cuda_array_host(v.arr, loc);
  launch_fill_arg(a, v);
  if (v.kind != V_ARRAY) return;
  a->data = cuda_array_device(v.arr, upload, loc);
}

static void written(Value v, SrcLoc loc) {
  if (v.kind != V_ARRAY) return;
  cuda_array_written(v.arr);
  if (knobs()->eager) cuda_array_host(v.arr, loc);
}

void cuda_host_touch_slow(Array *a, SrcLoc loc) {
  cuda_array_host(a, loc);
  cuda_array_host_written(a);
}

/* ---- 'hwconst: array parameters in constant memory ----
   The emitter reads such a parameter at offset args[i].i of the module's oq_cmem; the arrays
   go there one after the other (16-byte aligned) by a device-to-device copy, ordered before
   the launch on the same stream. A launch whose arrays do not fit in K_CMEM_BYTES uses a
   specialization that reads them from global memory (plan.c, plan_cuda_cmem_key). */

static void fill_cmem(const GSpec *g, Func *f, OqkArg *args, const Value *vals, SrcLoc loc) {
  size_t off = 0;
  for (int i = 0; i < f->nparams && i < 32; i++) {
    if (!(g->run.h.tr.cmem_params >> i & 1) || vals[i].kind != V_ARRAY) continue;
    args[i].i = (int64_t)off;
    size_t n = vals[i].arr->numel * el_size(vals[i].arr->elem);
    if (n) cuda_raw_dtod(g->cmem + off, (CudaPtr)(uintptr_t)args[i].data, n, loc);
    off += plan_cmem_size(vals[i].arr);
  }
}

/* Argument a into the parameter block at w, only what a kernel of type t reads (the order of
   cuda_arg_words). */
static void pack(int64_t *w, const OqkArg *a, KType t) {
  switch (t.kind) {
  case K_ARRAY:
    w[0] = (int64_t)(uintptr_t)a->data;
    w[1] = a->i;
    memcpy(w + 2, a->dims, (size_t)(t.rank > 0 ? t.rank : 1) * sizeof *w);
    break;
  case K_BOOL: case K_INT: w[0] = a->i; break;
  case K_REAL: memcpy(w, &a->re, sizeof a->re); break;
  case K_CPLX: memcpy(w, &a->re, sizeof a->re), memcpy(w + 1, &a->im, sizeof a->im); break;
  case K_VEC: memcpy(w, a->v, (size_t)t.len * sizeof *a->v); break;
  default: break;
  }
}

/* The launch's OqkGrid in G.param: sizes, then parameters and captures (G.args first). */
static void fill_grid(GSpec *g, const KLaunch *cl, KSpec *S, const int64_t *blk, const int64_t *cnt) {
  Func *f = S->kfunc;
  OqkGridHead *h = (OqkGridHead *)G.param;
  memset(h, 0, sizeof *h);
  for (int d = 0; d < cl->D; d++) {
    h->dims[d] = cl->dims[d];
    h->blk[d] = blk[d];
    h->cnt[d] = cnt[d];
  }
  OqkArg *a = G.args;
  SrcLoc loc = cl->site->loc;
  for (int i = 0; i < f->nparams; i++) marshal(&a[i], cl->args[i], g->byval[i], needs_upload(g, cl, S, i), loc);
  for (int k = 0; k < S->ncaps; k++) marshal(&a[f->nparams + k], S->caps[k].value, g->byval[f->nparams + k], true, loc);
  if (g->run.h.tr.cmem_params) fill_cmem(g, f, a, cl->args, loc);
  for (int i = 0; i < f->nparams + S->ncaps; i++)
    if (g->arg_off[i] >= 0) pack((int64_t *)(G.param + g->arg_off[i]), &a[i], g->arg_type[i]);
}

/* The error record of this launch: the next slot of the ring (launch waited when it is
   full), or the spare one when the kernel cannot fail. */
static CudaPtr error_record(GSpec *g, SrcLoc loc) {
  if (!g->run.h.nsites) return G.ring + RING * sizeof(OqkLaunch);
  int s = (G.first + G.nslots++) % RING;
  G.slot[s] = (Slot){g, loc};
  return G.ring + s * sizeof(OqkLaunch);
}

/* The kernel outputs' part of the OqkWorker, out_r then out_i: one copy each way. */
#define OUTS_AT offsetof(OqkWorker, out_r)
#define OUTS_BYTES (offsetof(OqkWorker, out_i) + sizeof(((OqkWorker *)0)->out_i) - OUTS_AT)
_Static_assert(offsetof(OqkWorker, out_i) == offsetof(OqkWorker, out_r) + sizeof(((OqkWorker *)0)->out_r),
               "out_i follows out_r");

static void identity_outputs(const GSpec *g, OqkWorker *w) {
  for (int o = 0; o < OQK_MAX_OUTS; o++) {   /* all of them: every byte copied is defined */
    w->out_r[o] = launch_identity_r(g->run.h.out_op[o]);
    w->out_i[o] = launch_identity_i(g->run.h.out_op[o]);
  }
}

static void reset_outputs(GSpec *g, SrcLoc loc) {
  identity_outputs(g, &G.stage->up);
  cuda_raw_htod_async(G.worker + OUTS_AT, (char *)&G.stage->up + OUTS_AT, OUTS_BYTES, loc);
}

/* The launch's kernel outputs: one copy queued after it, then the wait. */
static Value outputs(GSpec *g, int64_t npos, SrcLoc loc) {
  OqkWorker *w = &G.stage->down;
  identity_outputs(g, w);
  if (g->run.h.nouts && npos > 0) {
    bool queued = cuda_raw_dtoh_async((char *)w + OUTS_AT, G.worker + OUTS_AT, OUTS_BYTES);
    G.pending = true;   /* (the copy, when OQ_CUDA_SYNC=1 waited for the launch already) */
    gpu_sync(loc);
    if (!queued) cuda_raw_dtoh((char *)w + OUTS_AT, G.worker + OUTS_AT, OUTS_BYTES, loc);
  }
  Value acc[OQK_MAX_OUTS];
  for (int o = 0; o < g->run.h.nouts; o++)
    acc[o] = g->run.h.out_int[o] ? v_int(launch_combine_i(g->run.h.out_op[o], launch_identity_i(g->run.h.out_op[o]), w->out_i[o]))
                           : v_scalar(launch_combine_r(g->run.h.out_op[o], launch_identity_r(g->run.h.out_op[o]), w->out_r[o]));
  if (g->run.h.nouts == 1) return acc[0];
  if (g->run.h.nouts == 0) return v_none();
  Value t = v_tuple(g->run.h.nouts);
  for (int o = 0; o < g->run.h.nouts; o++) t.tup->v[o] = acc[o];
  return t;
}

/* ---- the grid plan.c decided, carried out ---- */

/* The zeroed scratch of counted private arrays and persistent blocks (OqkGrid.scr): a
   counter and 8 bytes per element. The kernel's last block leaves it zero: it is zeroed
   only when made. */
static void count_scratch(GSpec *g, size_t bytes, SrcLoc loc) {
  if (g->counts_bytes < bytes) {
    if (g->counts) {
      gpu_sync(loc);   /* a launch in flight may still use the old one */
      cuda_mem_free(g->counts, g->counts_bytes);
    }
    g->counts = cuda_mem_alloc(bytes, loc);
    cuda_raw_memset(g->counts, 0, bytes, loc);
    g->counts_bytes = bytes;
  }
}

/* The grid's part of the launch's OqkGrid: xf and the scratch. */
static void grid_head(GSpec *g, SrcLoc loc) {
  OqkGridHead *h = (OqkGridHead *)G.param;
  h->xf = g->grid.xf;
  if (g->grid.scratch) {
    count_scratch(g, g->grid.scratch, loc);
    h->scr = (int64_t)g->counts;
  }
}

/* One cuLaunchKernel of the current G.param: chunk c of the launch d. */
static void launch_one(GSpec *g, const CudaDims *d, const CudaChunk *c, SrcLoc loc) {
  if (G.nslots == RING) gpu_sync(loc);
  CudaPtr rec = error_record(g, loc), wk = G.worker;
  void *params[] = {G.param, &rec, &wk};
  memcpy(((OqkGridHead *)G.param)->boff, c->boff, sizeof c->boff);
  cuda_launch(g->k, c->grid, d->block, d->shared, g->run.cooperative, params, loc);
  G.pending = true;
  G.since++;
  G.last = g;
  G.last_loc = loc;
}

/* The launch: the plan's grid, in the plan's chunks (cuLaunchKernel copies the parameters
   at each call). */
static void launch(GSpec *g, const KLaunch *cl, const int64_t *blk, const int64_t *cnt, bool timed) {
  SrcLoc loc = cl->site->loc;
  CudaDims dims = plan_cuda_dims(&g->run.h, &g->grid, cuda_device(), cl->D, blk, cnt);
  if (G.ntimed == RING) gpu_sync(loc);
  Timed *t = NULL;
  if (timed) {
    t = &G.timed[G.ntimed++];
    t->g = g;
    if (!t->start) t->start = cuda_event_new(loc), t->stop = cuda_event_new(loc);
    cuda_event_record(t->start, loc);
  }
  CudaChunk c;
  for (int64_t i = 0; plan_cuda_chunk(&dims, i, &c); i++) launch_one(g, &dims, &c, loc);
  if (t) cuda_event_record(t->stop, loc);
}

static void run(GSpec *g, const KLaunch *cl, KSpec *S, const int64_t *blk, const int64_t *cnt, Value *result) {
  Func *f = S->kfunc;
  SrcLoc loc = cl->site->loc;
  bool prof = cl->opt && cl->opt->profile;
  double t0 = prof ? rt_now_ms() : 0;
  ready(loc);
  int64_t npos = launch_positions(cl);
  fill_grid(g, cl, S, blk, cnt);
  if (npos > 0) {
    if (g->run.h.nouts) reset_outputs(g, loc);
    OccAsk ask = {g, loc};
    CudaOcc occ = occupancy(&ask);
    plan_cuda_kind_grid(&g->run.h, cl, S, G.args, npos, blk, cnt, &occ, &g->grid);
    grid_head(g, loc);
    launch(g, cl, blk, cnt, prof || knobs()->ktime);
  }
  for (int i = 0; i < f->nparams; i++)
    if (g->param_written[i]) written(cl->args[i], loc);
  for (int k = 0; k < S->ncaps; k++) written(S->caps[k].value, loc);
  if (G.sync_each || knobs()->ktime) gpu_sync(loc);
  *result = outputs(g, npos, loc);
  g->launches++;
  if (prof) g->host_ms += rt_now_ms() - t0;
}

/* The specialization's key, with the plan's block size and proposals (the memo's launches
   have the same dims: the same proposals). */
static char *spec_key(KSpec *S, const KLaunch *cl) {
  return plan_key(&cl->plan->cuda, S, cl->args);
}

/* compile_spec for --profile: its time, whether NVRTC's disk cache had it, progress. */
static void compile_profiled(GSpec *g, KSpec *S, const KLaunch *cl, ProfRow *pr) {
  long hits = cuda_stats.cache_hits;
  double t0 = rt_now_ms();
  prof_progress(callable_name(cl->kernel), "cuda");
  compile_spec(g, S, cl);
  prof_progress_done();
  if (g->k) prof_compile(pr, rt_now_ms() - t0, cuda_stats.cache_hits > hits);
}

/* The shape of argument v into *a; false for a kind the memo does not take (functions,
   types, strings: their part of the key is more than a kind). */
static bool arg_shape(Value v, ArgShape *a) {
  memset(a, 0, sizeof *a);
  a->kind = v.kind;
  if (v.kind == V_ARRAY) {
    if (v.arr->rank > MEMO_RANK) return false;
    a->elem = v.arr->elem;
    a->rank = v.arr->rank;
    memcpy(a->dims, v.arr->dims, v.arr->rank * sizeof *a->dims);
    return true;
  }
  return v.kind == V_NONE || v.kind == V_BOOL || v.kind == V_INT || v.kind == V_SCALAR || v.kind == V_CSCALAR;
}

/* Whether the launch is the memo's: same site, kernel, closure, dimensionality, precision,
   argument shapes and arrays passed twice (the code of an aliased argument differs: atomics,
   loads ahead), and its GSpec compiled (or refused) already. S: the launch's, no captures. */
static bool memo_hit(const SiteMemo *m, const KLaunch *cl, KSpec *S) {
  Func *f = cl->kernel->func;
  if (!m->g || !(m->g->k || m->g->run.h.failed) || m->site != cl->site || m->kfunc != f ||
      m->env != cl->kernel->env || m->D != cl->D || m->dp != rt_config.double_precision ||
      m->explicit_blk != cl->explicit_blk || memcmp(m->dims, cl->dims, cl->D * sizeof *m->dims) ||
      memcmp(m->blk, cl->blk, cl->D * sizeof *m->blk) || m->vt != cl->plan->cuda.vthreads)
    return false;
  for (int i = 0; i < f->nparams; i++) {
    ArgShape a;
    if (!arg_shape(cl->args[i], &a) || memcmp(&a, &m->arg[i], sizeof a)) return false;
  }
  return ksema_aliased(S, cl->args) == m->aliased;
}

/* Keeps g as the site's specialization, unless an argument's kind is not taken. */
static void memo_keep(SiteMemo *m, const KLaunch *cl, GSpec *g, bool no_cmem, int vt, unsigned aliased) {
  Func *f = cl->kernel->func;
  m->g = NULL;
  if (f->nparams > MEMO_ARGS || cl->D > MEMO_RANK) return;
  for (int i = 0; i < f->nparams; i++)
    if (!arg_shape(cl->args[i], &m->arg[i])) return;
  m->site = cl->site;
  m->kfunc = f;
  m->env = cl->kernel->env;
  m->D = cl->D;
  memcpy(m->dims, cl->dims, cl->D * sizeof *m->dims);
  memcpy(m->blk, cl->blk, cl->D * sizeof *m->blk);
  m->explicit_blk = cl->explicit_blk;
  m->dp = rt_config.double_precision;
  m->no_cmem = no_cmem;
  m->vt = vt;
  m->aliased = aliased;
  m->g = g;
}

/* The launch's specialization: the site's last one when the shapes match, else by its key
   (S gets the captured variables). */
static GSpec *find_spec(const KLaunch *cl, KSpec *S) {
  SiteMemo *m = &G.memo[((uintptr_t)cl->site >> 4) % MEMO_SLOTS];
  if (memo_hit(m, cl, S)) {
    S->no_cmem = m->no_cmem;
    return m->g;
  }
  char *key = spec_key(S, cl);
  plan_cuda_cmem_key(cl, &key, &S->no_cmem);
  GSpec *g = lookup(key);
  free(key);
  if (!S->ncaps) memo_keep(m, cl, g, S->no_cmem, S->tr.vthreads, S->aliased);
  return g;
}

bool gpu_launch(const KLaunch *cl, Value *result) {
  Arena arena = {0};
  KSpec S = {.kernel = cl->kernel, .kfunc = cl->kernel->func, .D = cl->D, .arena = &arena};
  ksema_launch(&S, cl->dims, cl->blk, cl->cnt);   /* the memo's shapes decide its facts too */
  GSpec *g = find_spec(cl, &S);
  if (!g->k && !g->run.h.failed && S.no_cmem && cl->opt && cl->opt->verbose)
    fprintf(stderr, "oq: kernel '%s': its 'hwconst arrays need more than the %d bytes of constant memory: "
            "they stay in global memory\n", callable_name(cl->kernel), K_CMEM_BYTES);
  ProfRow *pr = g->prof ? g->prof : prof_row(cl->kernel, "cuda");
  if (!g->k && !g->run.h.failed) compile_profiled(g, &S, cl, pr);
  if (g->pending) take_optimized(g, cl);
  int64_t blk[3] = {1, 1, 1}, cnt[3] = {1, 1, 1};
  const char *why = g->run.h.failed ? g->run.h.reason : cl->plan->cuda_refusal;
  OccAsk ask = {g, cl->site->loc};
  CudaOcc occ = {0};
  if (!why) {
    occ = occupancy(&ask);
    plan_cuda_blocks(cl, &occ, g->run.uses_block || g->run.cooperative, blk, cnt);
    why = plan_cuda_shape_refusal(cl, cuda_device(), &g->run.h, g->run.cooperative, g->k->max_threads, blk, cnt);
  }
  if (why) {
    note_fallback(g, cl, why);
    prof_note(pr, why);
    kspec_free(&S);
    return false;
  }
  plan_cuda_launch(&g->run.h, cl, &occ, g->run.cooperative, blk, cnt, &g->grid);
  g->prof = pr;
  prof_set_current(pr);   /* transfers of this launch, and downloads until the next one */
  prof_launch(pr, 0);     /* its device time comes from the events (collect_times) */
  run(g, cl, &S, blk, cnt, result);
  kspec_free(&S);
  return true;
}

/* ---- the launch floor ----
   n launches of an empty kernel of one thread and one pointer parameter (bench-gpu's
   `<<<>>>` peer) through cuda_launch, never batched, back to back, then a wait: what the driver and the
   device take per launch without oq's launch path, in the process whose launches it is
   compared with (tests/gpu/launch.q). */
double gpu_bare_launch_us(int64_t n, SrcLoc loc) {
  char why[256];
  if (!cuda_available(why, sizeof why)) rt_error(loc, "oq_bare_launch_us needs a GPU: %s", why);
  if (n < 1) rt_error(loc, "oq_bare_launch_us needs a positive count");
  ready(loc);
  if (!G.bare) {
    void *image;
    size_t size;
    char *log = NULL;
    if (!cuda_compile("extern \"C\" __global__ void oq_empty(float *x) { (void)x; }\n", "oq_empty",
                      cuda_device()->arch, &image, &size, &log, loc))
      rt_error(loc, "the empty kernel did not compile: %s", log ? log : "?");
    free(log);
    G.bare_mod = cuda_module_load(image, size, "oq_empty", loc);
    free(image);
    G.bare = cuda_kernel(G.bare_mod, "oq_empty", loc);
  }
  gpu_sync(loc);
  CudaPtr x = G.worker;
  void *params[] = {&x};
  const unsigned one[3] = {1, 1, 1};
  double t0 = rt_now_ms();
  bool batched = cuda_set_batching(false);   /* each one a cuLaunchKernel */
  for (int64_t i = 0; i < n; i++) cuda_launch(G.bare, one, one, 0, false, params, loc);
  cuda_sync(loc);
  double us = (rt_now_ms() - t0) * 1e3 / (double)n;
  cuda_set_batching(batched);
  return us;
}

int gpu_max_block_threads(Func *f) {
  const CudaDevice *dev = cuda_device();
  if (!dev) return 0;
  int n = dev->max_threads_per_block;
  for (GSpec *g = G.specs; g; g = g->next)
    if (g->func == f && g->k && g->k->max_threads < n) n = g->k->max_threads;
  return n;
}

#define ASSUMED_REGS 64   /* per thread, for a kernel not compiled yet */

int64_t gpu_resident_blocks(Func *f, int64_t threads) {
  const CudaDevice *dev = cuda_device();
  if (!dev || threads < 1 || threads > dev->max_threads_per_block) return 0;
  int64_t per_sm = -1;
  for (GSpec *g = G.specs; g; g = g->next)
    if (g->func == f && g->k) {
      int n = cuda_occupancy_blocks_per_sm(g->k, (int)threads, g->grid.shared, (SrcLoc){0});
      if (per_sm < 0 || n < per_sm) per_sm = n;
    }
  if (per_sm < 0) {
    int64_t by_threads = dev->max_threads_per_sm / threads, by_regs = dev->regs_per_block / (threads * ASSUMED_REGS);
    per_sm = by_threads < by_regs ? by_threads : by_regs;
  }
  return (per_sm > 0 ? per_sm : 1) * dev->sm_count;
}

/* ---- --profile ---- */

void gpu_profile_report(FILE *out) {
  if (!cuda_stats.launches) return;
  gpu_sync((SrcLoc){0});
  fprintf(out, "%-28s %9s %12s %11s %12s\n", "cuda kernel", "launches", "device ms", "mean ms", "host us/launch");
  for (GSpec *g = G.specs; g; g = g->next)
    if (g->launches)
      fprintf(out, "%-28s %9ld %12.3f %11.4f %12.2f\n", g->run.h.name, g->launches, g->gpu_ms,
              g->gpu_ms / g->launches, g->host_ms * 1e3 / g->launches);
  const CudaStats *s = &cuda_stats;
  /* two lines of at most 100 columns (tests/gpu.sh reads the counters of both) */
  fprintf(out, "cuda: %ld launches, %ld waits; %ld uploads (%.1f MiB), %ld downloads (%.1f MiB)\n", s->launches,
          G.waits, s->uploads, s->bytes_up / 1048576.0, s->downloads, s->bytes_down / 1048576.0);
  fprintf(out, "cuda: device memory: %ld cuMemAlloc, %ld cuMemFree, %ld from the pool, %.1f MiB held\n",
          s->dev_allocs, s->dev_frees, s->pool_hits, s->dev_bytes / 1048576.0);
  if (s->graph_launches)
    fprintf(out, "cuda: batched launches: %ld graphs submitted, %ld instantiated\n", s->graph_launches, s->graphs_made);
}

bool gpu_kernel_time(const char *name, long *launches, double *device_ms, double *best_ms) {
  gpu_sync((SrcLoc){0});
  *launches = 0;
  *device_ms = *best_ms = 0;
  for (GSpec *g = G.specs; g; g = g->next)
    if (g->launches && g->run.h.name && !strcmp(g->run.h.name, name)) {
      *launches += g->launches;
      *device_ms += g->gpu_ms;
      if (!*best_ms || g->best_ms < *best_ms) *best_ms = g->best_ms;
    }
  return *launches > 0;
}

void gpu_profile_reset(void) {
  gpu_sync((SrcLoc){0});
  for (GSpec *g = G.specs; g; g = g->next) g->launches = 0, g->gpu_ms = g->host_ms = g->best_ms = 0;
}

/* ---- OQ_CUDA_CHECK ---- */

/* src compiles with NVRTC for sm_90 (else the compile error, which exits). */
static void check_compile(const char *src, const char *name, SrcLoc loc) {
  void *image;
  size_t size;
  char *log = NULL;
  if (!cuda_compile(src, name, "sm_90", &image, &size, &log, loc)) compile_error(name, src, log, loc);
  free(image);
  free(log);
}

/* The launch's first build (tiers: KSpec.fast) as first_build compiles it, when it differs
   from src, the optimized source: NULL when alike or not emitted. */
static char *check_first_build(const KLaunch *cl, const char *src) {
  Arena arena = {0};
  KSpec F;
  char *whole = NULL, *fast = first_source(cl, src, false, &arena, &F, &whole);
  if (!fast) return NULL;
  free(whole);
  kspec_free(&F);
  return fast;
}

void gpu_check(const KLaunch *cl) {
  Arena arena = {0};
  bool only_fast = config()->dev.cuda_tier_fast;   /* the first builds of tiers alone */
  KSpec S = {.kernel = cl->kernel, .kfunc = cl->kernel->func, .D = cl->D, .arena = &arena, .fast = only_fast};
  ksema_launch(&S, cl->dims, cl->blk, cl->cnt);
  char *key = spec_key(&S, cl);
  GSpec *g = lookup(key);
  free(key);
  bool verbose = cl->opt && cl->opt->verbose;
  if (!g->checked) {
    g->checked = true;
    char *src = make_source(g, &S, cl->args);
    if (src && cl->opt && (cl->opt->emit_c || cl->opt->emit_cuda))
      printf("/* ---- CUDA kernel %s (%s) ---- */\n%s\n", S.name, g->run.h.key, src);
    if (src && !plan_cuda_check_enabled()) free(src);   /* oq emit --target cuda: print only */
    else if (src) {
      /* the first build too (tiers run it at a kernel's first launch), where it differs */
      char *first = only_fast ? NULL : check_first_build(cl, src);
      check_compile(src, S.name, cl->site->loc);
      if (first) check_compile(first, S.name, cl->site->loc);
      if (verbose)
        fprintf(stderr, "oq: cuda check: kernel '%s' compiles for sm_90%s\n", S.name, first ? ", its first build too" : "");
      free(first);
      free(src);
    } else {
      if (cl->opt && cl->opt->emit_cuda)
        printf("/* ---- CUDA kernel %s: not compiled for CUDA: %s ---- */\n", callable_name(cl->kernel),
               g->run.h.reason);
      if (verbose)
        fprintf(stderr, "oq: cuda check: kernel '%s' is not compiled for CUDA: %s\n", callable_name(cl->kernel), g->run.h.reason);
    }
  }
  kspec_free(&S);
}
