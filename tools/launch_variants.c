/* tools/launch_variants.c: the cost of one launch of a trivial kernel, by the ways the driver
   can be asked, all in one process (the bare launch moves by ~1 us between machine starts,
   so only numbers of the same process compare). Each variant: n launches back to back, then
   a wait; the median of `rounds` batches, the variants interleaved round by round.
     cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -o build/launch_variants tools/launch_variants.c \
        src/device/rt_cuda.c src/device/rt_nvrtc.c src/runtime/rt_cache.c src/runtime/cache_admin.c src/device/rt_devmem.c src/runtime/rt_value.c \
        src/runtime/rt_ops.c src/runtime/rt_index.c src/runtime/rt_print.c src/runtime/rt_builtins.c src/runtime/rt_object.c src/runtime/rt_stats.c src/base/diag.c src/base/arena.c src/base/config.c -ldl -lm
     build/oq emit --target cuda tests/gpu/launch.q | sed '/^batch of\|runtime error/,$d' > /tmp/k.cu
     build/launch_variants /tmp/k.cu
   k.cu: oq's own kernel (entry oqk_entry(OqkGrid, OqkLaunch *, OqkWorker *)); its OqkGrid is
   OqkGridHead and one 1-D array (136 bytes), filled as rt_gpu.c fills it for x = zeros(1).
   oq's library does the loading and compiling; the driver calls it does not wrap are looked
   up in the same (already loaded) libcuda. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "device/rt_cuda.h"
#include "base/oqk_abi.h"

RtConfig rt_config;
void callable_free(Callable *c) { (void)c; }
static const SrcLoc L;

typedef struct { unsigned gx, gy, gz, bx, by, bz, sh; void *stream; void *attrs; unsigned nattrs; } LaunchCfg;   /* CUlaunchConfig */
typedef struct { void *fn; unsigned gx, gy, gz, bx, by, bz, sh; void **params, **extra, *kern, *ctx; } NodeParams;
static struct {
  int (*launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
  int (*launch_ex)(const LaunchCfg *, void *, void **, void **);
  int (*stream_create)(void **, unsigned);
  int (*stream_sync)(void *);
  int (*ctx_sync)(void);
  int (*ctx_get)(void **);
  int (*event_record)(void *, void *);
  int (*begin_capture)(void *, int);
  int (*end_capture)(void *, void **);
  int (*instantiate)(void **, void *, unsigned long long);
  int (*graph_launch)(void *, void *);
  int (*graph_nodes)(void *, void **, size_t *);
  int (*exec_set)(void *, void *, const NodeParams *);
} cu;

static void *sym(void *lib, const char *a, const char *b) {
  void *p = dlsym(lib, a);
  if (!p && b) p = dlsym(lib, b);
  if (!p) fprintf(stderr, "note: no %s\n", a);
  return p;
}

static void load(void) {
  const char *env = getenv("OQ_LIBCUDA");
  void *lib = dlopen(env && *env ? env : "libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) { fprintf(stderr, "libcuda is not loaded\n"); exit(2); }
  *(void **)&cu.launch = sym(lib, "cuLaunchKernel", NULL);
  *(void **)&cu.launch_ex = sym(lib, "cuLaunchKernelEx", NULL);
  *(void **)&cu.stream_create = sym(lib, "cuStreamCreate", NULL);
  *(void **)&cu.stream_sync = sym(lib, "cuStreamSynchronize", NULL);
  *(void **)&cu.ctx_sync = sym(lib, "cuCtxSynchronize", NULL);
  *(void **)&cu.ctx_get = sym(lib, "cuCtxGetCurrent", NULL);
  *(void **)&cu.event_record = sym(lib, "cuEventRecord", NULL);
  *(void **)&cu.begin_capture = sym(lib, "cuStreamBeginCapture_v2", "cuStreamBeginCapture");
  *(void **)&cu.end_capture = sym(lib, "cuStreamEndCapture", NULL);
  *(void **)&cu.instantiate = sym(lib, "cuGraphInstantiateWithFlags", NULL);
  *(void **)&cu.graph_launch = sym(lib, "cuGraphLaunch", NULL);
  *(void **)&cu.graph_nodes = sym(lib, "cuGraphGetNodes", NULL);
  *(void **)&cu.exec_set = sym(lib, "cuGraphExecKernelNodeSetParams_v2", "cuGraphExecKernelNodeSetParams");
}

static void ok(int r, const char *what) {
  if (r) { fprintf(stderr, "%s failed: %d\n", what, r); exit(1); }
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc(1, (size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f);
  return s;
}

static CudaKernel *kernel_of(const char *src, const char *name) {
  void *image;
  size_t size;
  char *log = NULL;
  if (!cuda_compile(src, name, cuda_device()->arch, &image, &size, &log, L)) {
    fprintf(stderr, "%s did not compile:\n%s\n", name, log ? log : "");
    exit(1);
  }
  return cuda_kernel(cuda_module_load(image, size, name, L), name, L);
}

static const char *empties =
  "struct P136 { long long w[17]; }; struct P4k { long long w[512]; };\n"
  "extern \"C\" __global__ void e8(float *x) { (void)x; }\n"
  "extern \"C\" __global__ void e136(const __grid_constant__ P136 p, void *a, void *b) { (void)p; }\n"
  "extern \"C\" __global__ void e4k(const __grid_constant__ P4k p, void *a, void *b) { (void)p; }\n";

/* What one batch launches. */
typedef enum { V_LAUNCH, V_EX, V_BUFFER, V_CTXGET, V_EVENTS, V_GRAPH, V_GRAPH_SET } How;
typedef struct Variant {
  const char *name;
  CudaKernel *k;
  void **params;
  size_t param_bytes;       /* V_BUFFER: the packed parameter buffer */
  void *stream;
  How how;
  double us[64];
  double submit[64];        /* host time before the wait */
} Variant;

enum { GRAPH_NODES = 100 };
static void *graph_exec(Variant *v, void **nodes) {
  void *g, *e;
  ok(cu.begin_capture(v->stream, 0), "begin capture");
  for (int i = 0; i < GRAPH_NODES; i++)
    ok(cu.launch(v->k->fn, 1, 1, 1, 1, 1, 1, 0, v->stream, v->params, NULL), "captured launch");
  ok(cu.end_capture(v->stream, &g), "end capture");
  ok(cu.instantiate(&e, g, 0), "instantiate");
  size_t n = GRAPH_NODES;
  ok(cu.graph_nodes(g, nodes, &n), "graph nodes");
  return e;
}

static void batch(Variant *v, int n, int round) {
  static void *exec[16], *nodes[16][GRAPH_NODES];
  static int nexec;
  void *e = NULL, **nd = NULL;
  if (v->how == V_GRAPH || v->how == V_GRAPH_SET) {
    /* one exec per variant, made at its first batch */
    static Variant *owner[16];
    int i = 0;
    while (i < nexec && owner[i] != v) i++;
    if (i == nexec) owner[nexec] = v, exec[nexec] = graph_exec(v, nodes[nexec]), nexec++;
    e = exec[i], nd = nodes[i];
  }
  ok(cu.ctx_sync(), "sync");
  unsigned char buf[4096] __attribute__((aligned(16)));
  size_t bytes = v->param_bytes;
  void *extra[] = {(void *)1, buf, (void *)2, &bytes, (void *)0};
  if (v->how == V_BUFFER) {   /* OqkGrid, then the two pointers, 8-aligned */
    memcpy(buf, v->params[0], bytes - 16);
    memcpy(buf + bytes - 16, v->params[1], 8);
    memcpy(buf + bytes - 8, v->params[2], 8);
  }
  LaunchCfg cfg = {1, 1, 1, 1, 1, 1, 0, v->stream, NULL, 0};
  NodeParams np = {v->k->fn, 1, 1, 1, 1, 1, 1, 0, v->params, NULL, NULL, NULL};
  void *ctx;
  void *ev[2] = {NULL, NULL};
  if (v->how == V_EVENTS) ev[0] = cuda_event_new(L), ev[1] = cuda_event_new(L);
  double t0 = now_us();
  switch (v->how) {
  case V_LAUNCH:
    for (int i = 0; i < n; i++) ok(cu.launch(v->k->fn, 1, 1, 1, 1, 1, 1, 0, v->stream, v->params, NULL), "launch");
    break;
  case V_EX:
    for (int i = 0; i < n; i++) ok(cu.launch_ex(&cfg, v->k->fn, v->params, NULL), "launch ex");
    break;
  case V_BUFFER:
    for (int i = 0; i < n; i++) ok(cu.launch(v->k->fn, 1, 1, 1, 1, 1, 1, 0, v->stream, NULL, extra), "launch buf");
    break;
  case V_CTXGET:
    for (int i = 0; i < n; i++) {
      ok(cu.ctx_get(&ctx), "ctx get");
      ok(cu.launch(v->k->fn, 1, 1, 1, 1, 1, 1, 0, v->stream, v->params, NULL), "launch");
    }
    break;
  case V_EVENTS:
    for (int i = 0; i < n; i++) {
      ok(cu.event_record(ev[0], v->stream), "event");
      ok(cu.launch(v->k->fn, 1, 1, 1, 1, 1, 1, 0, v->stream, v->params, NULL), "launch");
      ok(cu.event_record(ev[1], v->stream), "event");
    }
    break;
  case V_GRAPH:
    for (int i = 0; i < n; i += GRAPH_NODES) ok(cu.graph_launch(e, v->stream), "graph launch");
    break;
  case V_GRAPH_SET:
    for (int i = 0; i < n; i += GRAPH_NODES) {
      for (int j = 0; j < GRAPH_NODES; j++) ok(cu.exec_set(e, nd[j], &np), "set params");
      ok(cu.graph_launch(e, v->stream), "graph launch");
    }
    break;
  }
  double t1 = now_us();
  ok(cu.ctx_sync(), "sync");
  double t2 = now_us();
  v->us[round] = (t2 - t0) / n;
  v->submit[round] = (t1 - t0) / n;
  if (v->how == V_EVENTS) cuda_event_free(ev[0]), cuda_event_free(ev[1]);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(const double *v, int n) {
  double s[64];
  memcpy(s, v, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp);
  return s[n / 2];
}

int main(int argc, char **argv) {
  char why[512];
  if (argc < 2) { fprintf(stderr, "usage: launch_variants KERNEL.cu [n rounds]\n"); return 2; }
  if (!cuda_available(why, sizeof why)) { printf("no GPU: %s\n", why); return 0; }
  load();
  int n = argc > 2 ? atoi(argv[2]) : 20000, rounds = argc > 3 ? atoi(argv[3]) : 9;
  if (rounds > 64) rounds = 64;
  CudaKernel *oq = kernel_of(read_file(argv[1]), "oqk_entry");
  CudaKernel *e8 = kernel_of(empties, "e8"), *e136 = cuda_kernel(e8->module, "e136", L),
             *e4k = cuda_kernel(e8->module, "e4k", L);
  CudaPtr x = cuda_mem_alloc(256, L), rec = cuda_mem_alloc(sizeof(OqkLaunch), L),
          wk = cuda_mem_alloc(sizeof(OqkWorker), L);
  cuda_raw_memset(rec, 0, sizeof(OqkLaunch), L);
  struct { OqkGridHead h; int64_t data, i, dims[1]; } grid = {0};   /* x = zeros(1), 1 thread */
  grid.h.dims[0] = grid.h.blk[0] = grid.h.cnt[0] = 1;
  grid.data = (int64_t)x;
  grid.dims[0] = 1;
  static int64_t big[512];
  void *p8[] = {&x}, *poq[] = {&grid, &rec, &wk}, *pbig[] = {big, &rec, &wk};
  void *nb;
  ok(cu.stream_create(&nb, 1), "stream create");   /* CU_STREAM_NON_BLOCKING */
  Variant vs[] = {
    {"bare: empty(float *), NULL stream", e8, p8, 0, NULL, V_LAUNCH, {0}, {0}},
    {"bare on a non-blocking stream", e8, p8, 0, nb, V_LAUNCH, {0}, {0}},
    {"empty, 136+16 B params", e136, pbig, 0, NULL, V_LAUNCH, {0}, {0}},
    {"empty, 4096+16 B params", e4k, pbig, 0, NULL, V_LAUNCH, {0}, {0}},
    {"oq k_trivial (152 B), NULL stream", oq, poq, 0, NULL, V_LAUNCH, {0}, {0}},
    {"oq k_trivial, non-blocking stream", oq, poq, 0, nb, V_LAUNCH, {0}, {0}},
    {"oq k_trivial, cuLaunchKernelEx", oq, poq, 0, NULL, V_EX, {0}, {0}},
    {"oq k_trivial, PARAM_BUFFER_POINTER", oq, poq, sizeof grid + 16, NULL, V_BUFFER, {0}, {0}},
    {"oq k_trivial + cuCtxGetCurrent", oq, poq, 0, NULL, V_CTXGET, {0}, {0}},
    {"oq k_trivial + 2 event records", oq, poq, 0, NULL, V_EVENTS, {0}, {0}},
    {"oq k_trivial, graph of 100, replayed", oq, poq, 0, nb, V_GRAPH, {0}, {0}},
    {"oq k_trivial, graph of 100, params set", oq, poq, 0, nb, V_GRAPH_SET, {0}, {0}},
    {"bare, graph of 100, replayed", e8, p8, 0, nb, V_GRAPH, {0}, {0}},
  };
  int nv = (int)(sizeof vs / sizeof *vs);
  for (int v = 0; v < nv; v++) batch(&vs[v], 1000, 0);   /* warm: modules, graphs, queues */
  for (int r = 0; r < rounds; r++)
    for (int v = 0; v < nv; v++) batch(&vs[v], n, r);
  printf("%d launches per batch, medians of %d batches (us per launch; submit: host time before the wait)\n", n, rounds);
  for (int v = 0; v < nv; v++)
    printf("  %-42s %6.3f us   submit %6.3f us\n", vs[v].name, median(vs[v].us, rounds), median(vs[v].submit, rounds));
  float got = 0;
  cuda_raw_dtoh(&got, x, 4, L);
  printf("x[0] after the kernels: %g (1 expected)\n", (double)got);
  return 0;
}
