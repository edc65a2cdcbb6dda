/* rt_cpu.c: compiling, caching, loading and running specialized kernels on all cores.

   A launch first computes the key of its specialization (argument and capture types,
   kernel identity); each key is specialized once per process. The generated C source and
   the compiler command are hashed (FNV-1a, 64 bits); $OQ_CACHE_DIR (default
   ~/.cache/openquasar) keeps oqk_<hash>.so, written under a temporary name and renamed into
   place so a reader never sees half a file (rt_cache.c). Blocks (or, for flat kernels, positions) are
   handed out in chunks to a persistent pool of threads, the calling thread included. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/config.h"
#include "kernel/kernel_ir.h"
#include "base/oqk_abi.h"
#include "backend/cpu/rt_cpu.h"
#include "backend/plan.h"
#include "codegen/codegen.h"
#include "runtime/rt_cache.h"
#include "device/rt_cuda.h"
#include "backend/rt_profile.h"

/* ---- compiled specializations ---- */

typedef struct Compiled {
  LaunchSpec h;             /* h.tr.npriv: arrays that may be updated in private copies */
  OqkEntry entry;
  CpuShape shape;           /* how its code runs a launch (plan.c) */
  OqkHook begin, finish;
  struct Compiled *next;
} Compiled;

#define NBUCKETS 256
static Compiled *table[NBUCKETS];

static Compiled *lookup(const char *key) {
  uint64_t h = rt_hash(RT_HASH_SEED, key, strlen(key));
  for (Compiled *c = table[h % NBUCKETS]; c; c = c->next)
    if (!strcmp(c->h.key, key)) return c;
  Compiled *c = calloc(1, sizeof *c);
  c->h.key = strdup(key);
  c->next = table[h % NBUCKETS];
  table[h % NBUCKETS] = c;
  return c;
}

/* ---- the C compiler and the cache ---- */

static const char *compiler(void) {
  return config()->cc;
}

/* -fno-tree-slp-vectorize: GCC 12 drops (double)(float)x round trips in straight-line SLP code */
#define CFLAGS_KERNEL "-O3 -march=native -fPIC -shared -fno-strict-aliasing -ffp-contract=off -fwrapv -fno-tree-slp-vectorize -std=gnu11 -w"

static char *read_file_head(const char *path, int max_lines) {
  FILE *f = fopen(path, "r");
  if (!f) return strdup("");
  size_t cap = 4096, len = 0;
  char *s = malloc(cap), line[1024];
  s[0] = 0;
  for (int n = 0; n < max_lines && fgets(line, sizeof line, f); n++) {
    size_t l = strlen(line);
    if (len + l + 1 > cap) break;
    memcpy(s + len, line, l + 1);
    len += l;
  }
  fclose(f);
  while (len && (s[len - 1] == '\n' || s[len - 1] == '\r')) s[--len] = 0;
  return s;
}

/* Finds or builds the shared object for src. *cached: it was in the cache already. Returns
   the dlopen handle; on failure reports with rt_error (naming the kernel). The source is
   kept beside the object (oqk_<hash>.c), to look at when the compiler fails. */
static void *build(const char *src, const char *kname, SrcLoc loc, bool *cached) {
  const char *dir = rt_cache_dir();
  char cmd_id[512];
  snprintf(cmd_id, sizeof cmd_id, "abi%d|%s %s %s", OQK_ABI_VERSION, compiler(), CFLAGS_KERNEL,
           config()->kernel_cflags);
  uint64_t h = rt_hash(rt_hash(RT_HASH_SEED, cmd_id, strlen(cmd_id)), src, strlen(src));
  char so[4200], csrc[4200], err[4200], tso[4400], terr[4400];
  snprintf(so, sizeof so, "%s/oqk_%016llx.so", dir, (unsigned long long)h);
  snprintf(csrc, sizeof csrc, "%s/oqk_%016llx.c", dir, (unsigned long long)h);
  snprintf(err, sizeof err, "%s/oqk_%016llx.err", dir, (unsigned long long)h);   /* never kept */
  *cached = false;
  /* only a sealed entry is loaded (rt_cache.h): a bad one is removed and built again */
  void *lib = rt_cache_check(so, h) == CACHE_GOOD ? dlopen(so, RTLD_NOW | RTLD_LOCAL) : NULL;
  if (lib) {
    rt_cache_hit(so);
    *cached = true;
    return lib;
  }
  rt_cache_temp(tso, sizeof tso, so);
  rt_cache_temp(terr, sizeof terr, err);
  if (!rt_cache_write(csrc, src, strlen(src), RT_CACHE_PART))
    rt_error(loc, "kernel '%s': cannot write to the kernel cache %s: %s", kname, dir, strerror(errno));
  size_t clen = strlen(compiler()) + strlen(config()->kernel_cflags) + strlen(csrc) + strlen(tso) + strlen(terr) + 200;
  char *cmd = malloc(clen);
  snprintf(cmd, clen, "%s " CFLAGS_KERNEL " %s -o '%s' '%s' -lm 2>'%s' >&2", compiler(), config()->kernel_cflags,
           tso, csrc, terr);
  prof_progress(kname, "cpu");
  int st = system(cmd);
  prof_progress_done();
  free(cmd);
  if (st != 0) {
    char *msg = read_file_head(terr, 8);
    unlink(tso);
    unlink(terr);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : st;
    rt_error(loc, "kernel '%s': the C compiler '%s' failed (exit status %d)%s%s", kname, compiler(), code,
             *msg ? ":\n" : "", msg);
  }
  unlink(terr);
  if (!rt_cache_seal(tso, h)) {
    int err = errno;
    unlink(tso);
    rt_error(loc, "kernel '%s': cannot write %s: %s", kname, tso, strerror(err));
  }
  if (!rt_cache_publish(tso, so, RT_CACHE_ENTRY)) rt_error(loc, "kernel '%s': cannot write %s: %s", kname, so, strerror(errno));
  lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!lib) rt_error(loc, "kernel '%s': cannot load %s: %s", kname, so, dlerror());
  return lib;
}

/* Specializes, emits and compiles one key. */
static void compile_spec(Compiled *c, KSpec *S, Value *args, const KLaunch *cl, ProfRow *st) {
  double t0 = rt_now_ms();
  if (!ksema_run(S, args)) {
    launch_spec_fail(&c->h, S->reason);
    return;
  }
  char *src = emit_c(S);
  if (!src) {
    launch_spec_fail(&c->h, S->reason);
    return;
  }
  if (S->kfunc->nouts > OQK_MAX_OUTS) {
    char why[64];
    snprintf(why, sizeof why, "more than %d kernel outputs", OQK_MAX_OUTS);
    launch_spec_fail(&c->h, why);
    free(src);
    return;
  }
  if (cl->opt && cl->opt->emit_c) {
    printf("/* ---- kernel %s (%s) ---- */\n%s\n", S->name, c->h.key, src);
    fflush(stdout);
  }
  bool cached;
  void *lib = build(src, S->name, cl->site->loc, &cached);
  free(src);
  c->entry = (OqkEntry)dlsym(lib, "oqk_entry");
  if (!c->entry) rt_error(cl->site->loc, "kernel '%s': the compiled code has no entry point", S->name);
  launch_spec_compiled(&c->h, S);
  c->shape = plan_cpu_shape(S);
  if (c->h.tr.npriv) {
    c->begin = (OqkHook)dlsym(lib, "oqk_begin");
    c->finish = (OqkHook)dlsym(lib, "oqk_finish");
    if (!c->begin || !c->finish) c->h.tr.npriv = 0;
  }
  prof_compile(st, rt_now_ms() - t0, cached);
  prof_xforms(st, S->xforms);
  if (cl->opt && cl->opt->verbose)
    fprintf(stderr, "oq: kernel '%s' compiled for the cpu (%s mode%s)\n", S->name,
            c->shape.mode == CPU_FLAT ? "flat" : c->shape.mode == CPU_BLOCKS ? "block" : S->divergent ? "fiber" : "barrier",
            cached ? ", from the cache" : "");
  if (cl->opt && cl->opt->verbose && S->tiling_ignored)
    fprintf(stderr, "oq: kernel '%s': !kernel_tiling is ignored on the cpu: the kernel uses blocks, shared memory or barriers\n", S->name);
}

/* ---- the thread pool ---- */

/* A worker's state on cache lines of its own (workers write their outputs into it). */
typedef struct PaddedWorker { _Alignas(64) OqkWorker w; } PaddedWorker;

typedef struct Pool {
  int n;                    /* workers, the calling thread included */
  PaddedWorker *W;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned long gen;
  int active;
  OqkEntry fn;
  OqkLaunch *L;
  int64_t total, chunk;
  atomic_llong next;
} Pool;

static Pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static void run_chunks(int id) {
  for (;;) {
    int64_t lo = atomic_fetch_add(&pool.next, pool.chunk);
    if (lo >= pool.total) return;
    int64_t hi = lo + pool.chunk < pool.total ? lo + pool.chunk : pool.total;
    pool.fn(pool.L, &pool.W[id].w, lo, hi);
  }
}

static void *worker_main(void *arg) {
  int id = (int)(intptr_t)arg;
  unsigned long seen = 0;
  for (;;) {
    pthread_mutex_lock(&pool.mu);
    while (pool.gen == seen) pthread_cond_wait(&pool.go, &pool.mu);
    seen = pool.gen;
    pthread_mutex_unlock(&pool.mu);
    run_chunks(id);
    pthread_mutex_lock(&pool.mu);
    if (--pool.active == 0) pthread_cond_signal(&pool.done);
    pthread_mutex_unlock(&pool.mu);
  }
  return NULL;
}

static void pool_start(void) {
  if (pool.n) return;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (config()->threads) n = config()->threads;
  if (n < 1) n = 1;
  if (n > 256) n = 256;
  pool.W = aligned_alloc(64, n * sizeof *pool.W);
  memset(pool.W, 0, n * sizeof *pool.W);
  pool.n = 1;
  for (long i = 1; i < n; i++) {
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, worker_main, (void *)(intptr_t)i) == 0) pool.n++;
    pthread_attr_destroy(&a);
  }
}

/* Runs fn over 0..total-1 in chunks on every worker; returns when all are done. */
static void pool_run(OqkEntry fn, OqkLaunch *L, int64_t total, int64_t min_chunk) {
  pool_start();
  int64_t chunk = total / (pool.n * 8);
  if (chunk < min_chunk) chunk = min_chunk;
  if (chunk < 1) chunk = 1;
  pool.fn = fn;
  pool.L = L;
  pool.total = total;
  pool.chunk = chunk;
  atomic_store(&pool.next, 0);
  if (pool.n == 1 || total <= chunk) {
    run_chunks(0);
    return;
  }
  pthread_mutex_lock(&pool.mu);
  pool.active = pool.n - 1;
  pool.gen++;
  pthread_cond_broadcast(&pool.go);
  pthread_mutex_unlock(&pool.mu);
  run_chunks(0);
  pthread_mutex_lock(&pool.mu);
  while (pool.active) pthread_cond_wait(&pool.done, &pool.mu);
  pthread_mutex_unlock(&pool.mu);
}

/* ---- launching ---- */

_Noreturn static void report(Compiled *c, OqkLaunch *L, SrcLoc at) {
  launch_report(&c->h, L, at);
}

/* Which += arrays get private copies at this launch: small ones (a copy per worker costs
   memory and a pass to add it in) that no other argument or capture shares. */
static unsigned private_mask(Compiled *c, const KLaunch *cl, KSpec *S, int64_t npos) {
  Func *f = S->kfunc;
  unsigned mask = 0;
  if (pool.n < 2 && npos < 4096) return 0;
  for (int k = 0; k < c->h.tr.npriv; k++) {
    int a = c->h.tr.priv_arg[k];
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

static void run_compiled(Compiled *c, const KLaunch *cl, KSpec *S, Value *result) {
  Func *f = S->kfunc;
  int nargs = f->nparams + S->ncaps;
  OqkArg *args = calloc(nargs + 1, sizeof *args);
  /* arrays a GPU launch left on the device come back first */
  for (int i = 0; i < f->nparams; i++)
    if (cl->args[i].kind == V_ARRAY) cuda_host_touch(cl->args[i].arr, cl->site->loc);
  for (int k = 0; k < S->ncaps; k++)
    if (S->caps[k].value.kind == V_ARRAY) cuda_host_touch(S->caps[k].value.arr, cl->site->loc);
  for (int i = 0; i < f->nparams; i++) launch_fill_arg(&args[i], cl->args[i]);
  for (int k = 0; k < S->ncaps; k++) launch_fill_arg(&args[f->nparams + k], S->caps[k].value);
  OqkLaunch L = {.D = cl->D, .args = args, .err_site = -1};
  int64_t npos = 1;
  for (int d = 0; d < cl->D; d++) {
    L.dims[d] = cl->dims[d];
    L.blk[d] = cl->blk[d];
    L.cnt[d] = cl->cnt[d];
    npos *= cl->dims[d];
  }
  pool_start();
  for (int w = 0; w < pool.n; w++)
    for (int o = 0; o < c->h.nouts; o++) {
      pool.W[w].w.out_r[o] = launch_identity_r(c->h.out_op[o]);
      pool.W[w].w.out_i[o] = launch_identity_i(c->h.out_op[o]);
    }
  L.priv_mask = private_mask(c, cl, S, npos);
  if (L.priv_mask)
    for (int w = 0; w < pool.n; w++) c->begin(&L, &pool.W[w].w);
  CpuWork work = plan_cpu_work(&c->shape, cl);
  if (work.items > 0) pool_run(c->entry, &L, work.items, work.min_chunk);
  if (L.priv_mask)
    for (int w = 0; w < pool.n; w++) c->finish(&L, &pool.W[w].w);
  free(args);
  if (L.err) report(c, &L, cl->site->loc);
  Value acc[OQK_MAX_OUTS];
  for (int o = 0; o < c->h.nouts; o++) {
    if (c->h.out_int[o]) {
      int64_t a = launch_identity_i(c->h.out_op[o]);
      for (int w = 0; w < pool.n; w++) a = launch_combine_i(c->h.out_op[o], a, pool.W[w].w.out_i[o]);
      acc[o] = v_int(a);
    } else {
      double a = launch_identity_r(c->h.out_op[o]);
      for (int w = 0; w < pool.n; w++) a = launch_combine_r(c->h.out_op[o], a, pool.W[w].w.out_r[o]);
      acc[o] = v_scalar(a);
    }
  }
  *result = v_none();
  if (c->h.nouts == 1) *result = acc[0];
  else if (c->h.nouts > 1) {
    *result = v_tuple(c->h.nouts);
    for (int o = 0; o < c->h.nouts; o++) result->tup->v[o] = acc[o];
  }
}

bool cpu_launch(const KLaunch *cl, Value *result) {
  ProfRow *st = prof_row(cl->kernel, "cpu");
  Arena arena = {0};
  KSpec S = {.kernel = cl->kernel, .kfunc = cl->kernel->func, .D = cl->D, .arena = &arena};
  ksema_launch(&S, cl->dims, cl->blk, cl->cnt);
  char *key = plan_key(&cl->plan->cpu, &S, cl->args);   /* (the block size of kernels with block
                                                            parameters; int64 indices) */
  Compiled *c = lookup(key);
  free(key);
  if (!c->entry && !c->h.failed) compile_spec(c, &S, cl->args, cl, st);
  if (c->h.failed) {
    ProfRow *ir = prof_row(cl->kernel, "interp");
    prof_note(ir, c->h.reason);
    if (cl->opt && cl->opt->verbose && !prof_told(ir))
      fprintf(stderr, "oq: kernel '%s' runs in the interpreter: %s\n", callable_name(cl->kernel), c->h.reason);
    kspec_free(&S);
    return false;
  }
  const char *why = plan_extents_refusal(&c->h, cl->D, cl->blk, cl->cnt);
  if (why) {
    prof_note(prof_row(cl->kernel, "interp"), why);
    kspec_free(&S);
    return false;
  }
  double t1 = rt_now_ms();
  run_compiled(c, cl, &S, result);
  kspec_free(&S);
  prof_launch(st, rt_now_ms() - t1);
  return true;
}

void cpu_note_interp(const KLaunch *cl, double ms) {
  prof_launch(prof_row(cl->kernel, "interp"), ms);
}
