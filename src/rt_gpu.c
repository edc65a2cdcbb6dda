/* rt_gpu.c: compiling and launching kernels on the GPU (see rt_gpu.h).

   Memory: an array argument is uploaded only when its device copy is not valid; after the
   launch every array argument is marked written on the device (host stale) and nothing is
   copied back. Host code that later reads it through a variable or a call result copies it
   back then (cuda_host_touch in interp.c), and drops the device copy, because the host may
   write it. Not covered: an array a kernel wrote that host code reaches only inside a
   container (cell, tuple) without naming it. OQ_CUDA_EAGER=1 copies every array back right
   after each launch instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rt_gpu.h"
#include "rt_profile.h"
#include "rt_cuda.h"

/* One specialization: compiled (module, k), or failed with a reason. */
typedef struct GSpec {
  char *key;
  bool failed, told, checked;
  char reason[256];
  CudaModule *mod;
  CudaKernel *k;
  int nouts;
  bool out_int[OQK_MAX_OUTS];
  Op out_op;
  bool small_launch;
  size_t shared_bytes;      /* dynamic shared memory: OQ_SHMAX of emit_cuda when it uses shared() */
  KSite *sites; int nsites;
  char *name;
  bool *param_written;      /* per kernel parameter: the kernel may write the array */
  struct GSpec *next;
} GSpec;

static GSpec *specs;

/* ---- 'const analysis: which array parameters a kernel may write ----
   Conservative: a parameter is read-only only when every use of its name in the kernel
   (nested lambdas included) is the base of an index that is read, or an argument of a
   built-in function. Writes, `<-`, passing it to a user function, aliasing it (`q = p`),
   or any other use count as writes. A read-only array keeps its host copy valid. */

static bool name_written(Node *n, const char *name, bool read_use);

static bool list_written(NodeList *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (name_written(l->items[i], name, false)) return true;
  return false;
}

static bool func_written(Func *f, const char *name) {
  if (!f) return false;
  for (int i = 0; i < f->nparams; i++)
    if (name_written(f->params[i].defval, name, false)) return true;
  return list_written(&f->body, name);
}

static bool is_builtin_callee(Node *callee) {
  return callee->kind == N_IDENT && callee->slot < 0 && callee->aux;
}

/* read_use: n sits where reading the array is harmless (index base, built-in argument). */
static bool name_written(Node *n, const char *name, bool read_use) {
  if (!n) return false;
  switch (n->kind) {
  case N_IDENT: return !read_use && !strcmp(n->name, name);
  case N_INDEX:
    return name_written(n->a, name, true) || list_written(&n->list, name);
  case N_CALL: {
    bool builtin = is_builtin_callee(n->a);
    if (name_written(n->a, name, false)) return true;
    for (int i = 0; i < n->list.n; i++)
      if (name_written(n->list.items[i], name, builtin)) return true;
    return false;
  }
  case N_ASSIGN:
    for (int i = 0; i < n->list.n; i++) {
      Node *t = n->list.items[i];
      while (t->kind == N_INDEX || t->kind == N_FIELD) t = t->a;
      if (t->kind == N_IDENT && !strcmp(t->name, name)) return true;
      if (name_written(n->list.items[i], name, false)) return true;
    }
    return name_written(n->b, name, false);
  case N_EXCHANGE: {
    Node *t = n->a;
    while (t->kind == N_INDEX) t = t->a;
    if (t->kind == N_IDENT && !strcmp(t->name, name)) return true;
    return name_written(n->a, name, false) || name_written(n->b, name, false);
  }
  case N_LAMBDA: case N_FUNCDEF: return func_written(n->func, name);
  case N_MATCH:
    if (name_written(n->a, name, false)) return true;
    for (int i = 0; i < n->ncases; i++)
      if (name_written(n->cases[i].pattern, name, false) || list_written(&n->cases[i].body, name))
        return true;
    return false;
  case N_ATTR: case N_MACRO: case N_TYPEDEF: case N_IMPORT: return false;
  default:
    return name_written(n->a, name, false) || name_written(n->b, name, false) ||
           name_written(n->c, name, false) || list_written(&n->list, name) ||
           list_written(&n->list2, name);
  }
}

static bool *written_params(Func *f) {
  bool *w = calloc(f->nparams + 1, sizeof *w);
  for (int i = 0; i < f->nparams; i++) w[i] = func_written(f, f->params[i].name);
  return w;
}

static GSpec *lookup(const char *key) {
  for (GSpec *g = specs; g; g = g->next)
    if (!strcmp(g->key, key)) return g;
  GSpec *g = calloc(1, sizeof *g);
  g->key = strdup(key);
  g->next = specs;
  specs = g;
  return g;
}

static bool fail(GSpec *g, const char *why) {
  g->failed = true;
  snprintf(g->reason, sizeof g->reason, "%s", why);
  return false;
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

static void compile_spec(GSpec *g, KSpec *S, const CpuLaunch *cl) {
  char *src = make_source(g, S, cl->args);
  if (!src) return;
  if (cl->opt && cl->opt->emit_c) {
    printf("/* ---- CUDA kernel %s (%s) ---- */\n%s\n", S->name, g->key, src);
    fflush(stdout);
  }
  void *image;
  size_t size;
  char *log = NULL;
  if (!cuda_compile(src, S->name, cuda_device()->arch, &image, &size, &log, cl->site->loc))
    compile_error(S->name, src, log, cl->site->loc);
  free(log);
  free(src);
  g->mod = cuda_module_load(image, size, S->name, cl->site->loc);
  free(image);
  g->k = cuda_kernel(g->mod, "oqk_entry", cl->site->loc);
  g->nouts = S->kfunc->nouts;
  int obase = S->kfunc->ngenerics + S->kfunc->nparams;
  for (int o = 0; o < g->nouts; o++) g->out_int[o] = S->kspec->slots[obase + o].kind == K_INT;
  g->out_op = S->out_op;
  g->small_launch = S->small_launch;
  g->shared_bytes = S->nshared ? 49152 : 0;
  g->nsites = S->nsites;
  g->sites = malloc((S->nsites + 1) * sizeof *g->sites);
  memcpy(g->sites, S->sites, S->nsites * sizeof *g->sites);
  g->name = strdup(S->name);
  g->param_written = written_params(S->kfunc);
  if (cl->opt && cl->opt->verbose)
    fprintf(stderr, "oq: kernel '%s' compiled for CUDA (%s)\n", S->name, cuda_device()->arch);
}

/* Whether this launch's shape fits the device; else why not. */
static const char *shape_problem(const GSpec *g, const CpuLaunch *cl) {
  const CudaDevice *dev = cuda_device();
  if (cl->D > 3) return "launches of more than 3 dimensions run on the CPU";
  int64_t threads = 1;
  for (int d = 0; d < cl->D; d++) {
    int axis = cl->D - 1 - d;
    threads *= cl->blk[d];
    if (cl->blk[d] > dev->max_block_dim[axis] || cl->cnt[d] > dev->max_grid_dim[axis])
      return "the launch's blocks or grid exceed the device's limits";
    if (g->small_launch && cl->cnt[d] * cl->blk[d] > (1 << 23)) return "launch extents above 2^23";
  }
  if (threads > g->k->max_threads) return "the block has more threads than the kernel can run";
  return NULL;
}

static void note_fallback(GSpec *g, const CpuLaunch *cl, const char *why) {
  if (cl->opt && cl->opt->verbose && !g->told)
    fprintf(stderr, "oq: kernel '%s' does not run on the GPU: %s\n", callable_name(cl->kernel), why);
  g->told = true;
}

/* Device copies of the array arguments (host copy first: see the top of this file). */
static bool eager(void) {
  static int on = -1;
  if (on < 0) on = getenv("OQ_CUDA_EAGER") && !strcmp(getenv("OQ_CUDA_EAGER"), "1");
  return on;
}

static void marshal(OqkArg *a, Value v, SrcLoc loc) {
  cpu_fill_arg(a, v);
  if (v.kind != V_ARRAY) return;
  a->data = cuda_array_device(v.arr, true, loc);
}

static void copy_back(Value v, SrcLoc loc) {
  if (v.kind != V_ARRAY) return;
  cuda_array_written(v.arr);
  if (eager()) cuda_array_host(v.arr, loc);
}

void cuda_host_touch_slow(Array *a, SrcLoc loc) {
  cuda_array_host(a, loc);
  cuda_array_host_written(a);
}

static void run(GSpec *g, const CpuLaunch *cl, KSpec *S, Value *result) {
  Func *f = S->kfunc;
  SrcLoc loc = cl->site->loc;
  int nargs = f->nparams + S->ncaps;
  size_t off_w = sizeof(OqkLaunch), off_a = off_w + sizeof(OqkWorker);
  size_t nb = off_a + (nargs + 1) * sizeof(OqkArg);
  char *host = calloc(1, nb);
  OqkLaunch *L = (OqkLaunch *)host;
  OqkWorker *W = (OqkWorker *)(host + off_w);
  OqkArg *args = (OqkArg *)(host + off_a);
  for (int i = 0; i < f->nparams; i++) marshal(&args[i], cl->args[i], loc);
  for (int k = 0; k < S->ncaps; k++) marshal(&args[f->nparams + k], S->caps[k].value, loc);
  CudaPtr dev = cuda_mem_alloc(nb, loc);
  L->D = cl->D;
  L->err_site = -1;
  L->args = (const OqkArg *)(uintptr_t)(dev + off_a);
  int64_t npos = 1;
  for (int d = 0; d < cl->D; d++) {
    L->dims[d] = cl->dims[d];
    L->blk[d] = cl->blk[d];
    L->cnt[d] = cl->cnt[d];
    npos *= cl->dims[d];
  }
  for (int o = 0; o < g->nouts; o++) {
    W->out_r[o] = cpu_identity_r(g->out_op);
    W->out_i[o] = cpu_identity_i(g->out_op);
  }
  if (npos > 0) {
    cuda_raw_htod(dev, host, nb, loc);
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    for (int d = 0; d < cl->D; d++) {
      grid[cl->D - 1 - d] = (unsigned)cl->cnt[d];
      block[cl->D - 1 - d] = (unsigned)cl->blk[d];
    }
    CudaPtr pl = dev, pw = dev + off_w;
    void *params[] = {&pl, &pw};
    void *ev = prof_gpu_begin(loc);   /* --profile: device time of the kernel */
    cuda_launch(g->k, grid, block, g->shared_bytes, false, params, loc);
    prof_gpu_end(ev, loc);
    cuda_sync(loc);
    cuda_raw_dtoh(host, dev, off_a, loc);
  }
  cuda_mem_free(dev, nb);
  for (int i = 0; i < f->nparams; i++)
    if (g->param_written[i]) copy_back(cl->args[i], loc);
  for (int k = 0; k < S->ncaps; k++) copy_back(S->caps[k].value, loc);
  if (L->err) {
    OqkLaunch copy = *L;
    free(host);
    cpu_report(g->sites, g->nsites, g->name, &copy, loc);
  }
  Value acc[OQK_MAX_OUTS];
  for (int o = 0; o < g->nouts; o++)
    acc[o] = g->out_int[o] ? v_int(cpu_combine_i(g->out_op, cpu_identity_i(g->out_op), W->out_i[o]))
                           : v_scalar(cpu_combine_r(g->out_op, cpu_identity_r(g->out_op), W->out_r[o]));
  free(host);
  *result = v_none();
  if (g->nouts == 1) *result = acc[0];
  else if (g->nouts > 1) {
    *result = v_tuple(g->nouts);
    for (int o = 0; o < g->nouts; o++) result->tup->v[o] = acc[o];
  }
}

/* compile_spec for --profile: its time, whether NVRTC's disk cache had it, progress. */
static void compile_profiled(GSpec *g, KSpec *S, const CpuLaunch *cl, ProfRow *pr) {
  struct timespec t0, t1;
  long hits = cuda_stats.cache_hits;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  prof_progress(callable_name(cl->kernel), "cuda");
  compile_spec(g, S, cl);
  prof_progress_done();
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (g->k) prof_compile(pr, (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6, cuda_stats.cache_hits > hits);
}

bool gpu_launch(const CpuLaunch *cl, Value *result) {
  Arena arena = {0};
  KSpec S = {.kernel = cl->kernel, .kfunc = cl->kernel->func, .D = cl->D, .arena = &arena};
  char *key = ksema_key(&S, cl->args);
  GSpec *g = lookup(key);
  free(key);
  ProfRow *pr = prof_row(cl->kernel, "cuda");
  if (!g->k && !g->failed) compile_profiled(g, &S, cl, pr);
  const char *why = g->failed ? g->reason : shape_problem(g, cl);
  if (why) {
    note_fallback(g, cl, why);
    prof_note(pr, why);
    kspec_free(&S);
    return false;
  }
  prof_set_current(pr);   /* transfers of this launch, and downloads until the next one */
  prof_launch(pr, 0);     /* its time comes from events */
  run(g, cl, &S, result);
  kspec_free(&S);
  return true;
}

/* ---- OQ_CUDA_CHECK ---- */

bool gpu_check_enabled(void) {
  static int on = -1;
  if (on < 0) {
    const char *e = getenv("OQ_CUDA_CHECK");
    on = e && *e && strcmp(e, "0") != 0 && nvrtc_available(NULL, 0);
  }
  return on;
}

void gpu_check(const CpuLaunch *cl) {
  Arena arena = {0};
  KSpec S = {.kernel = cl->kernel, .kfunc = cl->kernel->func, .D = cl->D, .arena = &arena};
  char *key = ksema_key(&S, cl->args);
  GSpec *g = lookup(key);
  free(key);
  bool verbose = cl->opt && cl->opt->verbose;
  if (!g->checked) {
    g->checked = true;
    char *src = make_source(g, &S, cl->args);
    if (src && cl->opt && cl->opt->emit_c) printf("/* ---- CUDA kernel %s (%s) ---- */\n%s\n", S.name, g->key, src);
    if (src) {
      void *image;
      size_t size;
      char *log = NULL;
      if (!cuda_compile(src, S.name, "sm_90", &image, &size, &log, cl->site->loc))
        compile_error(S.name, src, log, cl->site->loc);
      free(image);
      free(log);
      free(src);
      if (verbose) fprintf(stderr, "oq: cuda check: kernel '%s' compiles for sm_90\n", S.name);
    } else if (verbose) {
      fprintf(stderr, "oq: cuda check: kernel '%s' is not compiled for CUDA: %s\n", callable_name(cl->kernel), g->reason);
    }
  }
  kspec_free(&S);
}
