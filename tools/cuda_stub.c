/* tools/cuda_stub.c: a libcuda whose functions do nothing and succeed (a device in host memory:
   allocations are malloc, copies memcpy; launches run nothing), to measure and profile the
   host side of oq's CUDA launch path on a machine without a GPU (NVRTC must be installed):
     cc -O2 -shared -fPIC -o /tmp/libcuda_stub.so tools/cuda_stub.c
     OQ_LIBCUDA=/tmp/libcuda_stub.so perf record build/oq run --target cuda loop.q
   (loop.q: launches in a host loop, like tests/gpu/launch.q without its assert). Programs
   that read what kernels wrote get wrong values (kernels do not run); the device attributes
   are an H100's. Session 4 used it for the launch overhead (docs/cuda.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
typedef int R;
R cuInit(unsigned f) { (void)f; return 0; }
R cuDriverGetVersion(int *v) { *v = 13000; return 0; }
R cuGetErrorName(R r, const char **s) { (void)r; *s = "STUB"; return 0; }
R cuGetErrorString(R r, const char **s) { (void)r; *s = "stub"; return 0; }
R cuDeviceGetCount(int *n) { *n = 1; return 0; }
R cuDeviceGet(int *d, int o) { *d = o; return 0; }
R cuDeviceGetName(char *s, int n, int d) { (void)d; strncpy(s, "Stub H100", n); return 0; }
R cuDeviceGetAttribute(int *v, int a, int d) {
  (void)d;
  switch (a) {
  case 1: *v = 1024; break; case 2: case 3: *v = 1024; break; case 4: *v = 64; break;
  case 5: *v = 2147483647; break; case 6: case 7: *v = 65535; break;
  case 8: *v = 49152; break; case 10: *v = 32; break; case 12: *v = 65536; break;
  case 16: *v = 132; break; case 39: *v = 2048; break; case 75: *v = 9; break; case 76: *v = 0; break;
  case 81: *v = 233472; break; case 95: *v = 1; break; case 97: *v = 232448; break;
  default: *v = 1;
  }
  return 0;
}
R cuDeviceTotalMem_v2(size_t *n, int d) { (void)d; *n = (size_t)80 << 30; return 0; }
R cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = (void *)1; return 0; }
R cuCtxSetCurrent(void *c) { (void)c; return 0; }
R cuCtxSynchronize(void) { return 0; }
/* A module owns its functions, as the driver's does: unloading it frees them (make asan's
   cli group reported the stub's functions as leaks once oq unloaded their module). */
typedef struct StubFn { struct StubFn *next; } StubFn;
typedef struct StubModule { StubFn *fns; } StubModule;
R cuModuleLoadDataEx(void **m, const void *i, unsigned n, int *o, void **v) { (void)i; (void)n; (void)o; (void)v; *m = calloc(1, sizeof(StubModule)); return 0; }
R cuModuleGetFunction(void **f, void *m, const char *n) {
  (void)n;
  StubModule *sm = m;
  StubFn *fn = calloc(1, sizeof *fn);
  fn->next = sm->fns;
  sm->fns = fn;
  *f = fn;
  return 0;
}
R cuModuleUnload(void *m) {
  StubModule *sm = m;
  while (sm->fns) { StubFn *next = sm->fns->next; free(sm->fns); sm->fns = next; }
  free(sm);
  return 0;
}
R cuFuncGetAttribute(int *v, int a, void *f) { (void)f; *v = a == 0 ? 1024 : a == 4 ? 32 : a == 6 ? 90 : 0; return 0; }
R cuFuncSetAttribute(void *f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
/* What the kernels launched would have run: the first 8 bytes of each launch's first
   parameter, in launch order (tests/unit/test_cuda.c stub checks batching with it). */
volatile long launches;
long long stub_ran[1 << 16];
static void ran(void **p) { if (launches < (1 << 16)) stub_ran[launches] = p ? *(long long *)p[0] : -1; launches++; }
static int capturing, captured;   /* launch_variants.c's graphs: launches while a stream is captured */
/* STUB_LAUNCH_LOG=FILE: each cuLaunchKernel appends a line to FILE: its grid, block, dynamic
   shared bytes, and the first 14 eight-byte words of its first parameter (oq's OqkGridHead:
   dims, blk, cnt, boff, xf, scr); tests/run.sh checks the chunks of large grids with it. */
static void log_launch(unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned g, unsigned s, void **p) {
  const char *path = getenv("STUB_LAUNCH_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f) return;
  fprintf(f, "grid %u %u %u block %u %u %u shared %u head", a, b, c, d, e, g, s);
  for (int i = 0; i < 14 && p && p[0]; i++) fprintf(f, " %lld", ((long long *)p[0])[i]);
  fputc('\n', f);
  fclose(f);
}
R cuLaunchKernel(void *f, unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned g, unsigned s, void *st, void **p, void **x) {
  (void)f; (void)st; (void)x;
  if (capturing) captured++; else ran(p);
  log_launch(a, b, c, d, e, g, s, p);
  return 0;
}
R cuLaunchCooperativeKernel(void *f, unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned g, unsigned s, void *st, void **p) {
  (void)f; (void)a; (void)b; (void)c; (void)d; (void)e; (void)g; (void)s; (void)st; (void)p; return 0; }
R cuOccupancyMaxPotentialBlockSize(int *g, int *b, void *f, void *fn, size_t s, int l) { (void)f; (void)fn; (void)s; (void)l; *g = 264; *b = 1024; return 0; }
R cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int b, size_t s) { (void)f; (void)b; (void)s; *n = 2; return 0; }
R cuMemAlloc_v2(unsigned long long *p, size_t n) { *p = (unsigned long long)(size_t)malloc(n ? n : 1); return 0; }
R cuMemFree_v2(unsigned long long p) { free((void *)(size_t)p); return 0; }
R cuMemGetInfo_v2(size_t *f, size_t *t) { *f = (size_t)70 << 30; *t = (size_t)80 << 30; return 0; }
R cuMemcpyHtoD_v2(unsigned long long d, const void *s, size_t n) { memcpy((void *)(size_t)d, s, n); return 0; }
R cuMemcpyDtoH_v2(void *d, unsigned long long s, size_t n) { memcpy(d, (void *)(size_t)s, n); return 0; }
R cuMemcpyDtoD_v2(unsigned long long d, unsigned long long s, size_t n) { memcpy((void *)(size_t)d, (void *)(size_t)s, n); return 0; }
static char gbl[65536];
R cuModuleGetGlobal_v2(unsigned long long *p, size_t *b, void *m, const char *n) { (void)m; (void)n; *p = (size_t)gbl; if (b) *b = sizeof gbl; return 0; }
R cuMemsetD8_v2(unsigned long long p, unsigned char v, size_t n) { memset((void *)(size_t)p, v, n); return 0; }
R cuMemHostRegister_v2(void *p, size_t n, unsigned f) { (void)p; (void)n; (void)f; return 0; }
R cuMemHostUnregister(void *p) { (void)p; return 0; }
R cuEventCreate(void **e, unsigned f) { (void)f; *e = malloc(8); return 0; }
R cuEventRecord(void *e, void *s) { (void)e; (void)s; return 0; }
R cuEventSynchronize(void *e) { (void)e; return 0; }
R cuEventElapsedTime_v2(float *ms, void *a, void *b) { (void)a; (void)b; *ms = 0.001f; return 0; }
R cuEventDestroy_v2(void *e) { free(e); return 0; }
R cuCtxGetCurrent(void **c) { *c = (void *)1; return 0; }
R cuStreamCreate(void **s, unsigned f) { (void)f; *s = malloc(8); return 0; }
R cuStreamSynchronize(void *s) { (void)s; return 0; }
R cuStreamDestroy_v2(void *s) { free(s); return 0; }
R cuLaunchKernelEx(const void *c, void *f, void **p, void **x) { (void)c; (void)f; (void)x; ran(p); return 0; }
R cuMemcpyHtoDAsync_v2(unsigned long long d, const void *s, size_t n, void *st) { (void)st; memcpy((void *)(size_t)d, s, n); return 0; }
R cuMemcpyDtoHAsync_v2(void *d, unsigned long long s, size_t n, void *st) { (void)st; memcpy(d, (void *)(size_t)s, n); return 0; }
R cuMemcpyDtoDAsync_v2(unsigned long long d, unsigned long long s, size_t n, void *st) { (void)st; memcpy((void *)(size_t)d, (void *)(size_t)s, n); return 0; }
R cuMemsetD8Async(unsigned long long p, unsigned char v, size_t n, void *st) { (void)st; memset((void *)(size_t)p, v, n); return 0; }
/* Graphs: a chain of at most 64 kernel nodes, each keeping its first parameter's first 8
   bytes (cuGraphAddKernelNode, cuGraphExecKernelNodeSetParams); a launch runs them in order.
   An exec is its graph. Every kernel reports one 8-byte parameter (cuFuncGetParamInfo). */
typedef struct { int n; long long v[64]; } Graph;
typedef struct { void *f; unsigned g[3], b[3], sh; void **p, **x; } NodeParams;
long stub_node_sets;
R cuFuncGetParamInfo(void *f, size_t i, size_t *off, size_t *size) { (void)f; if (i) return 1; *off = 0; *size = 8; return 0; }
R cuGraphCreate(void **g, unsigned f) { (void)f; *g = calloc(1, sizeof(Graph)); return 0; }
R cuGraphAddKernelNode_v2(void **node, void *g, void **deps, size_t nd, const NodeParams *p) {
  (void)deps; (void)nd;
  Graph *G = g;
  if (G->n == 64) return 1;
  G->v[G->n] = *(long long *)p->p[0];
  *node = (void *)(size_t)++G->n;
  return 0;
}
R cuGraphExecKernelNodeSetParams_v2(void *e, void *node, const NodeParams *p) {
  ((Graph *)e)->v[(size_t)node - 1] = *(long long *)p->p[0];
  stub_node_sets++;
  return 0;
}
R cuStreamBeginCapture_v2(void *s, int m) { (void)s; (void)m; capturing = 1; captured = 0; return 0; }
R cuStreamEndCapture(void *s, void **g) { (void)s; capturing = 0; Graph *G = calloc(1, sizeof *G); G->n = captured; *g = G; return 0; }
R cuGraphInstantiateWithFlags(void **e, void *g, unsigned long long f) { (void)f; *e = g; return 0; }
R cuGraphGetNodes(void *g, void **nodes, size_t *n) {
  if (nodes) for (size_t i = 0; i < *n; i++) nodes[i] = (void *)(i + 1);
  else *n = (size_t)((Graph *)g)->n;
  return 0;
}
R cuGraphLaunch(void *e, void *s) {
  (void)s;
  Graph *G = e;
  for (int i = 0; i < G->n; i++) { void *p[] = {&G->v[i]}; ran(p); }
  return 0;
}
R cuGraphExecDestroy(void *e) { (void)e; return 0; }   /* the exec is its graph */
R cuGraphDestroy(void *g) { free(g); return 0; }
