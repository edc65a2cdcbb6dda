/* tools/cuda_stub.c: a libcuda whose functions do nothing and succeed (a device in host memory:
   allocations are malloc, copies memcpy; launches run nothing), to measure and profile the
   host side of oq's CUDA launch path on a machine without a GPU (NVRTC must be installed):
     cc -O2 -shared -fPIC -o /tmp/libcuda_stub.so tools/cuda_stub.c
     OQ_LIBCUDA=/tmp/libcuda_stub.so perf record build/oq run --target cuda loop.q
   (loop.q: launches in a host loop, like tests/gpu/launch.q without its assert). Programs
   that read what kernels wrote get wrong values (kernels do not run); the device attributes
   are an H100's. Session 4 used it for the launch overhead (docs/cuda.md). */
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
R cuModuleLoadDataEx(void **m, const void *i, unsigned n, int *o, void **v) { (void)i; (void)n; (void)o; (void)v; *m = malloc(8); return 0; }
R cuModuleGetFunction(void **f, void *m, const char *n) { (void)m; (void)n; *f = malloc(8); return 0; }
R cuModuleUnload(void *m) { (void)m; return 0; }
R cuFuncGetAttribute(int *v, int a, void *f) { (void)f; *v = a == 0 ? 1024 : a == 4 ? 32 : a == 6 ? 90 : 0; return 0; }
R cuFuncSetAttribute(void *f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
volatile long launches;
static int capturing, captured;   /* graphs: launches while a stream is captured */
R cuLaunchKernel(void *f, unsigned a, unsigned b, unsigned c, unsigned d, unsigned e, unsigned g, unsigned s, void *st, void **p, void **x) {
  (void)f; (void)a; (void)b; (void)c; (void)d; (void)e; (void)g; (void)s; (void)st; (void)p; (void)x; if (capturing) captured++; else launches++; return 0; }
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
R cuLaunchKernelEx(const void *c, void *f, void **p, void **x) { (void)c; (void)f; (void)p; (void)x; launches++; return 0; }
R cuMemcpyHtoDAsync_v2(unsigned long long d, const void *s, size_t n, void *st) { (void)st; memcpy((void *)(size_t)d, s, n); return 0; }
R cuMemcpyDtoHAsync_v2(void *d, unsigned long long s, size_t n, void *st) { (void)st; memcpy(d, (void *)(size_t)s, n); return 0; }
R cuMemcpyDtoDAsync_v2(unsigned long long d, unsigned long long s, size_t n, void *st) { (void)st; memcpy((void *)(size_t)d, (void *)(size_t)s, n); return 0; }
R cuMemsetD8Async(unsigned long long p, unsigned char v, size_t n, void *st) { (void)st; memset((void *)(size_t)p, v, n); return 0; }
/* graphs: a captured graph remembers how many launches it holds; replays count them */
R cuStreamBeginCapture_v2(void *s, int m) { (void)s; (void)m; capturing = 1; captured = 0; return 0; }
R cuStreamEndCapture(void *s, void **g) { (void)s; capturing = 0; int *n = malloc(sizeof *n); *n = captured; *g = n; return 0; }
R cuGraphInstantiateWithFlags(void **e, void *g, unsigned long long f) { (void)f; *e = g; return 0; }
R cuGraphGetNodes(void *g, void **nodes, size_t *n) { if (nodes) for (size_t i = 0; i < *n; i++) nodes[i] = g; else *n = (size_t)*(int *)g; return 0; }
R cuGraphExecKernelNodeSetParams_v2(void *e, void *n, const void *p) { (void)e; (void)n; (void)p; return 0; }
R cuGraphLaunch(void *e, void *s) { (void)s; launches += *(int *)e; return 0; }
