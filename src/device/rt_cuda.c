/* rt_cuda.c: the CUDA driver API, loaded with dlopen: the device, modules, launches,
   occupancy, events, and the memory primitives under rt_devmem.c. The few types and
   constants of cuda.h that are used are declared here, with the values the driver API
   documents, so that the build needs no CUDA installation. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/config.h"
#include "device/rt_cuda.h"

/* ---- the part of cuda.h that is used ---- */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct KernelNodeParams {   /* CUDA_KERNEL_NODE_PARAMS_v2 (v1 is its prefix) */
  CUfunction func;
  unsigned grid[3], block[3], shared;
  void **params, **extra;
  void *kern;                       /* CUkernel: NULL, func is used */
  CUcontext ctx;                    /* NULL: the current one */
} KernelNodeParams;
typedef unsigned long long CUdeviceptr;
typedef size_t (*CUoccupancyB2DSize)(int block_size);

enum {
  CUDA_SUCCESS = 0, CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700, CUDA_ERROR_LAUNCH_FAILED = 719,
};
enum {   /* CUdevice_attribute */
  ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_DIM_X = 2, ATTR_MAX_GRID_DIM_X = 5,
  ATTR_MAX_SHARED_PER_BLOCK = 8, ATTR_WARP_SIZE = 10, ATTR_MAX_REGS_PER_BLOCK = 12,
  ATTR_SM_COUNT = 16, ATTR_MAX_THREADS_PER_SM = 39, ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76,
  ATTR_MAX_SHARED_PER_SM = 81, ATTR_COOPERATIVE_LAUNCH = 95, ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
};
enum {   /* CUfunction_attribute */
  FATTR_MAX_THREADS = 0, FATTR_SHARED_BYTES = 1, FATTR_LOCAL_BYTES = 3, FATTR_NUM_REGS = 4,
  FATTR_BINARY_VERSION = 6, FATTR_MAX_DYN_SHARED = 8,
};
enum { JIT_ERROR_LOG_BUFFER = 5, JIT_ERROR_LOG_BUFFER_SIZE = 6 };   /* CUjit_option */
#define DEFAULT_DYN_SHARED (48 * 1024)   /* above this a kernel must opt in */

/* Name, return type, parameters, symbol, older symbol to try when the first is missing. */
#define CU_FUNCS(X)                                                                           \
  X(Init, (unsigned), "cuInit", NULL)                                                         \
  X(DriverGetVersion, (int *), "cuDriverGetVersion", NULL)                                    \
  X(GetErrorName, (CUresult, const char **), "cuGetErrorName", NULL)                         \
  X(GetErrorString, (CUresult, const char **), "cuGetErrorString", NULL)                     \
  X(DeviceGetCount, (int *), "cuDeviceGetCount", NULL)                                        \
  X(DeviceGet, (CUdevice *, int), "cuDeviceGet", NULL)                                        \
  X(DeviceGetName, (char *, int, CUdevice), "cuDeviceGetName", NULL)                         \
  X(DeviceGetAttribute, (int *, int, CUdevice), "cuDeviceGetAttribute", NULL)                \
  X(DeviceTotalMem, (size_t *, CUdevice), "cuDeviceTotalMem_v2", NULL)                       \
  X(PrimaryCtxRetain, (CUcontext *, CUdevice), "cuDevicePrimaryCtxRetain", NULL)             \
  X(CtxSetCurrent, (CUcontext), "cuCtxSetCurrent", NULL)                                      \
  X(CtxSynchronize, (void), "cuCtxSynchronize", NULL)                                         \
  X(ModuleLoadDataEx, (CUmodule *, const void *, unsigned, int *, void **),                  \
    "cuModuleLoadDataEx", NULL)                                                               \
  X(ModuleGetFunction, (CUfunction *, CUmodule, const char *), "cuModuleGetFunction", NULL)  \
  X(ModuleUnload, (CUmodule), "cuModuleUnload", NULL)                                         \
  X(FuncGetAttribute, (int *, int, CUfunction), "cuFuncGetAttribute", NULL)                  \
  X(FuncSetAttribute, (CUfunction, int, int), "cuFuncSetAttribute", NULL)                    \
  X(LaunchKernel, (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
                   unsigned, CUstream, void **, void **), "cuLaunchKernel", NULL)            \
  X(LaunchCooperativeKernel, (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,  \
                              unsigned, unsigned, CUstream, void **),                         \
    "cuLaunchCooperativeKernel", NULL)                                                        \
  X(OccupancyMaxPotentialBlockSize, (int *, int *, CUfunction, CUoccupancyB2DSize, size_t,   \
                                     int), "cuOccupancyMaxPotentialBlockSize", NULL)          \
  X(OccupancyMaxActiveBlocks, (int *, CUfunction, int, size_t),                              \
    "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL)                                      \
  X(MemAlloc, (CUdeviceptr *, size_t), "cuMemAlloc_v2", NULL)                                \
  X(MemFree, (CUdeviceptr), "cuMemFree_v2", NULL)                                             \
  X(MemGetInfo, (size_t *, size_t *), "cuMemGetInfo_v2", NULL)                                \
  X(MemcpyHtoD, (CUdeviceptr, const void *, size_t), "cuMemcpyHtoD_v2", NULL)                \
  X(MemcpyDtoH, (void *, CUdeviceptr, size_t), "cuMemcpyDtoH_v2", NULL)                      \
  X(MemcpyDtoD, (CUdeviceptr, CUdeviceptr, size_t), "cuMemcpyDtoD_v2", NULL)                 \
  X(MemcpyHtoDAsync, (CUdeviceptr, const void *, size_t, CUstream), "cuMemcpyHtoDAsync_v2", NULL) \
  X(MemcpyDtoHAsync, (void *, CUdeviceptr, size_t, CUstream), "cuMemcpyDtoHAsync_v2", NULL)   \
  X(ModuleGetGlobal, (CUdeviceptr *, size_t *, CUmodule, const char *),                      \
    "cuModuleGetGlobal_v2", NULL)                                                             \
  X(MemsetD8, (CUdeviceptr, unsigned char, size_t), "cuMemsetD8_v2", NULL)                   \
  X(MemHostRegister, (void *, size_t, unsigned), "cuMemHostRegister_v2", "cuMemHostRegister") \
  X(MemHostUnregister, (void *), "cuMemHostUnregister", NULL)                                \
  X(EventCreate, (CUevent *, unsigned), "cuEventCreate", NULL)                               \
  X(EventRecord, (CUevent, CUstream), "cuEventRecord", NULL)                                 \
  X(EventSynchronize, (CUevent), "cuEventSynchronize", NULL)                                 \
  X(EventElapsedTime, (float *, CUevent, CUevent), "cuEventElapsedTime_v2",                  \
    "cuEventElapsedTime")                                                                     \
  X(EventDestroy, (CUevent), "cuEventDestroy_v2", NULL)

/* Batched launches (below) need these too; without them launches are not batched. */
#define CU_GRAPH_FUNCS(X)                                                                     \
  X(FuncGetParamInfo, (CUfunction, size_t, size_t *, size_t *), "cuFuncGetParamInfo", NULL)  \
  X(GraphCreate, (CUgraph *, unsigned), "cuGraphCreate", NULL)                               \
  X(GraphAddKernelNode, (CUgraphNode *, CUgraph, const CUgraphNode *, size_t,               \
                         const KernelNodeParams *), "cuGraphAddKernelNode_v2",               \
    "cuGraphAddKernelNode")                                                                   \
  X(GraphInstantiate, (CUgraphExec *, CUgraph, unsigned long long),                          \
    "cuGraphInstantiateWithFlags", NULL)                                                      \
  X(GraphExecKernelNodeSetParams, (CUgraphExec, CUgraphNode, const KernelNodeParams *),     \
    "cuGraphExecKernelNodeSetParams_v2", "cuGraphExecKernelNodeSetParams")                   \
  X(GraphLaunch, (CUgraphExec, CUstream), "cuGraphLaunch", NULL)                             \
  X(GraphExecDestroy, (CUgraphExec), "cuGraphExecDestroy", NULL)                             \
  X(GraphDestroy, (CUgraph), "cuGraphDestroy", NULL)

#define DECLARE(name, params, sym, alt) CUresult (*name) params;
static struct CuApi { CU_FUNCS(DECLARE) CU_GRAPH_FUNCS(DECLARE) } cu;

#define ENTRY(name, params, sym, alt) { sym, alt, offsetof(struct CuApi, name) },
typedef struct CuSym { const char *sym, *alt; size_t off; } CuSym;
static const CuSym cu_syms[] = { CU_FUNCS(ENTRY) };
static const CuSym cu_graph_syms[] = { CU_GRAPH_FUNCS(ENTRY) };

/* The driver as this process found it (one per process: the primary context). */
static struct Driver {
  int state;                  /* 0: not tried, 1: available, -1: not */
  bool graphs_loaded;         /* CU_GRAPH_FUNCS are there */
  bool batching;              /* launches are batched (OQ_DEV_CUDA_GRAPHS, cuda_set_batching) */
  char reason[512];
  CudaDevice dev;
  CUcontext ctx;
  /* The last launch, to blame for a fault that shows later. */
  const char *last_kernel;    /* its label: the launcher keeps it for the process */
  SrcLoc last_loc;
} drv;

static void flush(void);

/* ---- errors ---- */

static const char *err_name(CUresult r) {
  const char *s = NULL;
  if (!cu.GetErrorName || cu.GetErrorName(r, &s) != CUDA_SUCCESS || !s) return "CUDA_ERROR_?";
  return s;
}

static const char *err_text(CUresult r) {
  const char *s = NULL;
  if (!cu.GetErrorString || cu.GetErrorString(r, &s) != CUDA_SUCCESS || !s) return "unknown";
  return s;
}

/* Errors that a kernel leaves behind in the context (all later calls return them). */
static bool is_kernel_fault(CUresult r) {
  return r >= CUDA_ERROR_ILLEGAL_ADDRESS && r <= CUDA_ERROR_LAUNCH_FAILED;
}

_Noreturn static void fail(CUresult r, const char *what, SrcLoc loc) {
  if (is_kernel_fault(r) && drv.last_kernel)
    rt_error(drv.last_loc, "CUDA: kernel '%s' failed (seen while %s): %s: %s", drv.last_kernel, what,
             err_name(r), err_text(r));
  rt_error(loc, "CUDA: %s failed: %s: %s", what, err_name(r), err_text(r));
}

static void check(CUresult r, const char *what, SrcLoc loc) {
  if (r != CUDA_SUCCESS) fail(r, what, loc);
}

/* ---- loading ---- */

/* Records why CUDA is unavailable (with the driver's error when r is not 0); false. */
__attribute__((format(printf, 2, 3)))
static bool setf(CUresult r, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (r) snprintf(drv.reason, sizeof drv.reason, "%s: %s: %s", buf, err_name(r), err_text(r));
  else snprintf(drv.reason, sizeof drv.reason, "%s", buf);
  return false;
}

static void *open_driver(void) {
  static const char *paths[] = {
    "libcuda.so.1",                                  /* the loader's search path */
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1",
    "/usr/lib64/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1",
  };
  const char *env = config()->libcuda;
  if (env) return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  return NULL;
}

/* The n symbols of t into cu; the first missing one, or NULL. */
static const char *load_table(void *lib, const CuSym *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    void *p = dlsym(lib, t[i].sym);
    if (!p && t[i].alt) p = dlsym(lib, t[i].alt);
    if (!p) return t[i].sym;
    memcpy((char *)&cu + t[i].off, &p, sizeof p);
  }
  return NULL;
}

static bool load_symbols(void *lib) {
  const char *missing = load_table(lib, cu_syms, sizeof cu_syms / sizeof *cu_syms);
  if (missing) return setf(0, "the CUDA driver lacks %s (too old)", missing);
  drv.graphs_loaded = !load_table(lib, cu_graph_syms, sizeof cu_graph_syms / sizeof *cu_graph_syms);
  return true;
}

static int attr(int a, CUdevice d) {
  int v = 0;
  if (cu.DeviceGetAttribute(&v, a, d) != CUDA_SUCCESS) v = 0;
  return v;
}

static void read_device(CUdevice d, int ordinal) {
  drv.dev.ordinal = ordinal;
  if (cu.DeviceGetName(drv.dev.name, sizeof drv.dev.name, d) != CUDA_SUCCESS)
    snprintf(drv.dev.name, sizeof drv.dev.name, "CUDA device %d", ordinal);
  drv.dev.cc_major = attr(ATTR_CC_MAJOR, d);
  drv.dev.cc_minor = attr(ATTR_CC_MINOR, d);
  snprintf(drv.dev.arch, sizeof drv.dev.arch, "sm_%d%d", drv.dev.cc_major, drv.dev.cc_minor);
  drv.dev.sm_count = attr(ATTR_SM_COUNT, d);
  drv.dev.warp_size = attr(ATTR_WARP_SIZE, d);
  drv.dev.max_threads_per_block = attr(ATTR_MAX_THREADS_PER_BLOCK, d);
  drv.dev.max_threads_per_sm = attr(ATTR_MAX_THREADS_PER_SM, d);
  for (int i = 0; i < 3; i++) {
    drv.dev.max_block_dim[i] = attr(ATTR_MAX_BLOCK_DIM_X + i, d);
    drv.dev.max_grid_dim[i] = attr(ATTR_MAX_GRID_DIM_X + i, d);
  }
  drv.dev.shared_per_block = attr(ATTR_MAX_SHARED_PER_BLOCK, d);
  drv.dev.shared_per_block_optin = attr(ATTR_MAX_SHARED_PER_BLOCK_OPTIN, d);
  if (drv.dev.shared_per_block_optin < drv.dev.shared_per_block)
    drv.dev.shared_per_block_optin = drv.dev.shared_per_block;
  drv.dev.shared_per_sm = attr(ATTR_MAX_SHARED_PER_SM, d);
  drv.dev.regs_per_block = attr(ATTR_MAX_REGS_PER_BLOCK, d);
  drv.dev.cooperative = attr(ATTR_COOPERATIVE_LAUNCH, d) != 0;
  if (cu.DeviceTotalMem(&drv.dev.total_mem, d) != CUDA_SUCCESS) drv.dev.total_mem = 0;
  if (cu.DriverGetVersion(&drv.dev.driver_version) != CUDA_SUCCESS) drv.dev.driver_version = 0;
}

static bool init(void) {
  const char *off = config()->cuda_disable;
  if (off) return setf(0, "CUDA is disabled (OQ_CUDA_DISABLE=%s)", off);
  void *lib = open_driver();
  if (!lib) return setf(0, "the CUDA driver (libcuda.so.1) is not installed");
  if (!load_symbols(lib)) return false;
  CUresult r = cu.Init(0);
  if (r != CUDA_SUCCESS) return setf(r, "cuInit failed");
  int count = 0, ordinal = 0;
  if ((r = cu.DeviceGetCount(&count)) != CUDA_SUCCESS) return setf(r, "cuDeviceGetCount failed");
  if (count == 0) return setf(0, "no CUDA device is present");
  const char *env = config()->cuda_device;
  if (env) ordinal = atoi(env);
  if (ordinal < 0 || ordinal >= count)
    return setf(0, "OQ_CUDA_DEVICE=%s: there are %d devices", env, count);
  CUdevice d;
  if ((r = cu.DeviceGet(&d, ordinal)) != CUDA_SUCCESS) return setf(r, "cuDeviceGet failed");
  if ((r = cu.PrimaryCtxRetain(&drv.ctx, d)) != CUDA_SUCCESS)
    return setf(r, "cannot create a context on device %d", ordinal);
  if ((r = cu.CtxSetCurrent(drv.ctx)) != CUDA_SUCCESS)
    return setf(r, "cannot make the context of device %d current", ordinal);
  read_device(d, ordinal);
  rt_array_free_hook = cuda_array_free;
  rt_array_host_hook = cuda_array_host;
  drv.batching = drv.graphs_loaded && config()->dev.cuda_graphs;
  return true;
}

bool cuda_available(char *why, size_t n) {
  if (!drv.state) drv.state = init() ? 1 : -1;
  if (why && n) snprintf(why, n, "%s", drv.state > 0 ? "" : drv.reason);
  return drv.state > 0;
}

const CudaDevice *cuda_device(void) { return cuda_available(NULL, 0) ? &drv.dev : NULL; }

/* Every entry point below needs the driver; a caller that skipped cuda_available gets an
   error rather than a crash through a NULL function pointer. */
static void need(SrcLoc loc) {
  if (!cuda_available(NULL, 0)) rt_error(loc, "CUDA is not available: %s", drv.reason);
}

/* ---- modules ---- */

struct CudaModule {
  CUmodule mod;
  char *what;
  CudaKernel *kernels;
};

CudaModule *cuda_module_load(const void *image, size_t size, const char *what, SrcLoc loc) {
  (void)size;   /* a cubin carries its size; PTX is NUL-terminated */
  need(loc);
  char log[4096] = "";
  int opts[] = { JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE };
  void *vals[] = { log, (void *)(uintptr_t)sizeof log };
  CUmodule m;
  CUresult r = cu.ModuleLoadDataEx(&m, image, 2, opts, vals);
  if (r != CUDA_SUCCESS) {
    if (log[0])
      rt_error(loc, "CUDA: loading the module of '%s' failed: %s: %s\n%s", what, err_name(r),
               err_text(r), log);
    char buf[300];
    snprintf(buf, sizeof buf, "loading the module of '%s'", what);
    fail(r, buf, loc);
  }
  CudaModule *cm = calloc(1, sizeof *cm);
  if (!cm) rt_error(loc, "out of memory");
  cm->mod = m;
  cm->what = strdup(what);
  return cm;
}

static void forget_graphs(void);

void cuda_module_unload(CudaModule *m) {
  if (!m) return;
  flush();
  forget_graphs();   /* their nodes may name m's kernels */
  cu.ModuleUnload(m->mod);
  for (CudaKernel *k = m->kernels, *next; k; k = next) {
    next = k->next;
    if (drv.last_kernel == k->label) drv.last_kernel = NULL;
    free(k->name);
    free(k);
  }
  free(m->what);
  free(m);
}

CudaPtr cuda_module_global(CudaModule *m, const char *name, size_t *bytes, SrcLoc loc) {
  CUdeviceptr p = 0;
  size_t n = 0;
  char what[300];
  snprintf(what, sizeof what, "looking up '%s' in the module of '%s'", name, m->what);
  check(cu.ModuleGetGlobal(&p, &n, m->mod, name), what, loc);
  if (bytes) *bytes = n;
  return p;
}

static int fattr(int a, CUfunction f) {
  int v = 0;
  if (cu.FuncGetAttribute(&v, a, f) != CUDA_SUCCESS) v = 0;
  return v;
}

/* Where k's n parameters lie in its parameter space (what a batched launch copies): asked
   for exactly those n, since asking past the last is a driver error (which
   compute-sanitizer reports). nparams stays -1 when the driver cannot say. */
void cuda_kernel_params(CudaKernel *k, int n) {
  k->nparams = -1;
  if (!drv.graphs_loaded || n > CUDA_BATCH_PARAMS) return;
  k->param_bytes = 0;
  for (int i = 0; i < n; i++) {
    size_t off, size;
    if (cu.FuncGetParamInfo((CUfunction)k->fn, (size_t)i, &off, &size) != CUDA_SUCCESS) return;
    k->param_off[i] = off;
    k->param_size[i] = size;
    if (off + size > k->param_bytes) k->param_bytes = off + size;
  }
  k->nparams = n;
}

CudaKernel *cuda_kernel(CudaModule *m, const char *name, SrcLoc loc) {
  for (CudaKernel *k = m->kernels; k; k = k->next)
    if (!strcmp(k->name, name)) return k;
  CUfunction f;
  char what[300];
  snprintf(what, sizeof what, "looking up kernel '%s' in the module of '%s'", name, m->what);
  check(cu.ModuleGetFunction(&f, m->mod, name), what, loc);
  CudaKernel *k = calloc(1, sizeof *k);
  if (!k) rt_error(loc, "out of memory");
  k->fn = f;
  k->name = strdup(name);
  k->label = k->name;
  k->num_regs = fattr(FATTR_NUM_REGS, f);
  k->max_threads = fattr(FATTR_MAX_THREADS, f);
  k->static_shared = fattr(FATTR_SHARED_BYTES, f);
  k->local_bytes = fattr(FATTR_LOCAL_BYTES, f);
  k->binary_version = fattr(FATTR_BINARY_VERSION, f);
  k->dyn_shared_set = DEFAULT_DYN_SHARED;
  k->nparams = -1;   /* not batched until cuda_kernel_params */
  k->module = m;
  k->next = m->kernels;
  m->kernels = k;
  return k;
}

/* ---- launches ---- */

static void raise_shared_limit(CudaKernel *k, size_t shared_bytes, SrcLoc loc) {
  if (shared_bytes <= (size_t)k->dyn_shared_set) return;
  char what[400];
  snprintf(what, sizeof what, "raising the dynamic shared memory of kernel '%s' to %zu bytes "
           "(the device allows %d with %d static)", k->label, shared_bytes,
           drv.dev.shared_per_block_optin, k->static_shared);
  check(cu.FuncSetAttribute(k->fn, FATTR_MAX_DYN_SHARED, (int)shared_bytes), what, loc);
  k->dyn_shared_set = (int)shared_bytes;
}

/* cuLaunchKernel or cuLaunchCooperativeKernel now; a refusal names the kernel at loc. */
static void launch_now(CudaKernel *k, const unsigned grid[3], const unsigned block[3],
                       size_t shared_bytes, bool cooperative, void **params, SrcLoc loc) {
  CUresult r;
  if (cooperative)
    r = cu.LaunchCooperativeKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1],
                                   block[2], (unsigned)shared_bytes, NULL, params);
  else
    r = cu.LaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                        (unsigned)shared_bytes, NULL, params, NULL);
  if (r != CUDA_SUCCESS) {
    char what[512];
    snprintf(what, sizeof what, "%slaunch of kernel '%s' (grid %ux%ux%u, block %ux%ux%u, "
             "%zu bytes of dynamic shared memory)", cooperative ? "cooperative " : "", k->label,
             grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes);
    fail(r, what, loc);
  }
  drv.last_kernel = k->label;
  drv.last_loc = loc;
}

/* ---- batched launches ----
   With batching on (the default; OQ_DEV_CUDA_GRAPHS=0 turns it off), a launch is not submitted
   at once: it joins a queue, its parameter values copied. Every other call that reaches the
   device (copies, memset, free, events, waits, cooperative launches, unloading) submits the
   queue first, in order, on the same (legacy default) stream, and so does a full queue; a
   later call thus sees every launch before it done, as without batching. A queue that has
   the same kernels and shapes as a queue submitted before is submitted as a CUDA graph:
   made (instantiated) the second time such a queue comes, replayed after that, the nodes
   whose parameter values changed updated first. On the H100 a replayed node costs 1.1 us of
   the device and about 0.02 us of the host (0.4 us when its parameters changed), against
   3.7-4.8 us of host time for a cuLaunchKernel (tools/launch_variants.c). Any other queue
   goes launch by launch. Launches whose shape the driver may refuse (beyond the kernel's or
   the device's limits) and kernels whose parameter layout is unknown go at once, so that
   the driver's refusal is reported where it was; a refused graph falls back to launch by
   launch. A kernel's fault shows at the next wait, as without batching, naming the last
   kernel submitted. The device starts a queued launch later than it would have: at the
   latest when the host next needs the device, QMAX launches later, or when the
   interpreter calls cuda_submit (a host loop starts; a statement outside host loops ends;
   a statement of a loop's body that took long the last time starts), so that host work
   after a launch overlaps it as without batching. tests/gpu/launch.q on the H100: 0.92 us
   per parallel_do, against 5.2-5.4 us launch by launch (bare cuLaunchKernel 4.0-4.4 us, in
   the same process). */
#define QMAX 64          /* launches queued before they are submitted */
#define GRAPH_MIN 4      /* shorter queues go launch by launch */
#define GRAPHS 8         /* queue shapes remembered, with their graphs */

typedef struct QLaunch {
  CudaKernel *k;
  unsigned grid[3], block[3], shared;
  size_t at;             /* its parameter values in Batch.bytes (the kernel's layout) */
  SrcLoc loc;
} QLaunch;

typedef struct Graph {
  int n;                 /* 0: free */
  QLaunch q[QMAX];       /* the queue's shape (k, grid, block, shared, at) */
  size_t used;
  CUgraph graph;         /* NULL until the shape comes a second time */
  CUgraphExec exec;
  CUgraphNode node[QMAX];
  unsigned char *bytes;  /* the parameter values the nodes have */
  long stamp;            /* last use, for replacement */
} Graph;

static struct Batch {
  QLaunch q[QMAX];
  int n;
  unsigned char *bytes;  /* parameter values of the queued launches */
  size_t used, cap;
  Graph g[GRAPHS];
  long clock;
} B;

/* Whether the driver may refuse the launch's shape: then it goes at once. */
static bool risky(const CudaKernel *k, const unsigned grid[3], const unsigned block[3], size_t shared) {
  for (int d = 0; d < 3; d++)
    if (block[d] > (unsigned)drv.dev.max_block_dim[d] || grid[d] > (unsigned)drv.dev.max_grid_dim[d]) return true;
  return (size_t)block[0] * block[1] * block[2] > (size_t)k->max_threads ||
         shared + (size_t)k->static_shared > (size_t)drv.dev.shared_per_block_optin;
}

/* Queues the launch, its parameter values copied; false when it must go at once. */
static bool enqueue(CudaKernel *k, const unsigned grid[3], const unsigned block[3], size_t shared,
                    void **params, SrcLoc loc) {
  if (!drv.batching || k->nparams < 0 || (k->nparams && !params) || risky(k, grid, block, shared)) return false;
  if (B.n == QMAX) flush();
  size_t at = (B.used + 15) & ~(size_t)15;
  if (at + k->param_bytes > B.cap) {
    size_t cap = 2 * (at + k->param_bytes) + 4096;
    unsigned char *p = realloc(B.bytes, cap);
    if (!p) return false;
    B.bytes = p;
    B.cap = cap;
  }
  memset(B.bytes + at, 0, k->param_bytes);   /* padding too: update_graph compares all */
  for (int i = 0; i < k->nparams; i++) memcpy(B.bytes + at + k->param_off[i], params[i], k->param_size[i]);
  QLaunch *q = &B.q[B.n++];
  *q = (QLaunch){k, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, (unsigned)shared, at, loc};
  B.used = at + k->param_bytes;
  return true;
}

/* The kernel node parameters of q, its values at bytes (ptrs: room for the pointers). */
static KernelNodeParams node_params(const QLaunch *q, unsigned char *bytes, void **ptrs) {
  for (int i = 0; i < q->k->nparams; i++) ptrs[i] = bytes + q->at + q->k->param_off[i];
  return (KernelNodeParams){(CUfunction)q->k->fn, {q->grid[0], q->grid[1], q->grid[2]},
                            {q->block[0], q->block[1], q->block[2]}, q->shared, ptrs, NULL, NULL, NULL};
}

static bool same_shape(const Graph *g, int n) {
  if (g->n != n || g->used != B.used) return false;
  for (int i = 0; i < n; i++) {
    const QLaunch *a = &g->q[i], *b = &B.q[i];
    if (a->k != b->k || a->at != b->at || a->shared != b->shared ||
        memcmp(a->grid, b->grid, sizeof a->grid) || memcmp(a->block, b->block, sizeof a->block))
      return false;
  }
  return true;
}

static void drop(Graph *g) {
  if (g->exec) cu.GraphExecDestroy(g->exec);
  if (g->graph) cu.GraphDestroy(g->graph);
  free(g->bytes);
  memset(g, 0, sizeof *g);
}

static void forget_graphs(void) {
  for (int i = 0; i < GRAPHS; i++) drop(&B.g[i]);
}

/* The queue's n launches as one chain of kernel nodes, instantiated; false if refused. */
static bool make_graph(Graph *g, int n) {
  void *ptrs[CUDA_BATCH_PARAMS];
  if (cu.GraphCreate(&g->graph, 0) != CUDA_SUCCESS) return false;
  for (int i = 0; i < n; i++) {
    KernelNodeParams p = node_params(&B.q[i], B.bytes, ptrs);
    if (cu.GraphAddKernelNode(&g->node[i], g->graph, i ? &g->node[i - 1] : NULL, i ? 1 : 0, &p) != CUDA_SUCCESS)
      return false;
  }
  if (cu.GraphInstantiate(&g->exec, g->graph, 0) != CUDA_SUCCESS) return false;
  g->bytes = malloc(B.used);
  if (!g->bytes) return false;
  memcpy(g->bytes, B.bytes, B.used);
  cuda_stats.graphs_made++;
  return true;
}

/* The nodes of g whose values differ from the queue's get the queue's. */
static bool update_graph(Graph *g, int n) {
  void *ptrs[CUDA_BATCH_PARAMS];
  for (int i = 0; i < n; i++) {
    const QLaunch *q = &B.q[i];
    if (!memcmp(g->bytes + q->at, B.bytes + q->at, q->k->param_bytes)) continue;
    KernelNodeParams p = node_params(q, B.bytes, ptrs);
    if (cu.GraphExecKernelNodeSetParams(g->exec, g->node[i], &p) != CUDA_SUCCESS) return false;
    memcpy(g->bytes + q->at, B.bytes + q->at, q->k->param_bytes);
  }
  return true;
}

/* Submits the queue's n launches as a graph when its shape came before; false: not done. */
static bool submit_graph(int n) {
  Graph *g = NULL, *old = &B.g[0];
  for (int i = 0; i < GRAPHS && !g; i++) {
    if (same_shape(&B.g[i], n)) g = &B.g[i];
    if (B.g[i].stamp < old->stamp) old = &B.g[i];
  }
  B.clock++;
  if (!g) {   /* the first time: remember the shape */
    drop(old);
    old->n = n;
    memcpy(old->q, B.q, n * sizeof *B.q);
    old->used = B.used;
    old->stamp = B.clock;
    return false;
  }
  g->stamp = B.clock;
  bool ok = g->exec ? update_graph(g, n) : make_graph(g, n);
  if (ok) ok = cu.GraphLaunch(g->exec, NULL) == CUDA_SUCCESS;
  if (!ok) {
    drop(g);
    return false;
  }
  drv.last_kernel = B.q[n - 1].k->label;
  drv.last_loc = B.q[n - 1].loc;
  cuda_stats.graph_launches++;
  return true;
}

/* Submits the queued launches, in order. */
static void flush(void) {
  int n = B.n;
  if (!n) return;
  B.n = 0;   /* a refused launch below reports and does not come back */
  if (n < GRAPH_MIN || !submit_graph(n))
    for (int i = 0; i < n; i++) {
      void *ptrs[CUDA_BATCH_PARAMS];
      KernelNodeParams p = node_params(&B.q[i], B.bytes, ptrs);
      launch_now(B.q[i].k, B.q[i].grid, B.q[i].block, B.q[i].shared, false, p.params, B.q[i].loc);
    }
  B.used = 0;
}

void cuda_submit(void) {
  flush();
}

bool cuda_queued(void) {
  return B.n > 0;
}

bool cuda_set_batching(bool on) {
  bool was = drv.batching;
  flush();
  drv.batching = on && drv.graphs_loaded;
  return was;
}

void cuda_launch(CudaKernel *k, const unsigned grid[3], const unsigned block[3],
                 size_t shared_bytes, bool cooperative, void **params, SrcLoc loc) {
  need(loc);
  raise_shared_limit(k, shared_bytes, loc);
  cuda_stats.launches++;
  if (!cooperative && enqueue(k, grid, block, shared_bytes, params, loc)) return;
  flush();
  launch_now(k, grid, block, shared_bytes, cooperative, params, loc);
}

void cuda_sync(SrcLoc loc) {
  need(loc);
  flush();
  check(cu.CtxSynchronize(), "waiting for the device", loc);
}

bool cuda_wait(char *why, size_t n) {
  flush();
  CUresult r = cu.CtxSynchronize();
  if (r == CUDA_SUCCESS) return true;
  snprintf(why, n, "%s: %s", err_name(r), err_text(r));
  return false;
}

int cuda_occupancy_block_size(const CudaKernel *k, size_t shared_bytes, int limit,
                              int *min_grid, SrcLoc loc) {
  int grid = 0, block = 0;
  char what[300];
  snprintf(what, sizeof what, "the occupancy calculation for kernel '%s'", k->label);
  check(cu.OccupancyMaxPotentialBlockSize(&grid, &block, k->fn, NULL, shared_bytes, limit),
        what, loc);
  if (min_grid) *min_grid = grid;
  return block;
}

int cuda_occupancy_blocks_per_sm(const CudaKernel *k, int block_threads, size_t shared_bytes,
                                 SrcLoc loc) {
  int n = 0;
  char what[300];
  snprintf(what, sizeof what, "the occupancy calculation for kernel '%s'", k->label);
  check(cu.OccupancyMaxActiveBlocks(&n, k->fn, block_threads, shared_bytes), what, loc);
  return n;
}

/* ---- events ---- */

CudaEvent *cuda_event_new(SrcLoc loc) {
  need(loc);
  CUevent e;
  check(cu.EventCreate(&e, 0), "creating an event", loc);
  return (CudaEvent *)e;
}

void cuda_event_record(CudaEvent *e, SrcLoc loc) {
  flush();
  check(cu.EventRecord((CUevent)e, NULL), "recording an event", loc);
}

double cuda_event_ms(CudaEvent *start, CudaEvent *stop, SrcLoc loc) {
  float ms = 0;
  check(cu.EventSynchronize((CUevent)stop), "waiting for an event", loc);
  check(cu.EventElapsedTime(&ms, (CUevent)start, (CUevent)stop), "reading an event's time", loc);
  return ms;
}

void cuda_event_free(CudaEvent *e) {
  if (e) cu.EventDestroy((CUevent)e);
}

/* ---- memory primitives ---- */

bool cuda_raw_alloc(CudaPtr *p, size_t n, SrcLoc loc) {
  need(loc);
  CUdeviceptr d = 0;
  CUresult r = cu.MemAlloc(&d, n);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) return false;
  char what[100];
  snprintf(what, sizeof what, "allocating %zu bytes of device memory", n);
  check(r, what, loc);
  *p = d;
  return true;
}

/* Freeing cannot fail usefully: a fault it reports is reported by the next call again. */
void cuda_raw_free(CudaPtr p) {
  flush();
  if (p) cu.MemFree(p);
}

void cuda_raw_memset(CudaPtr p, unsigned char byte, size_t n, SrcLoc loc) {
  flush();
  check(cu.MemsetD8(p, byte, n), "clearing device memory", loc);
}

bool cuda_raw_pin(void *host, size_t n) { return cu.MemHostRegister(host, n, 0) == CUDA_SUCCESS; }
void cuda_raw_unpin(void *host) { cu.MemHostUnregister(host); }

void cuda_mem_info(size_t *free_bytes, size_t *total_bytes, SrcLoc loc) {
  need(loc);
  check(cu.MemGetInfo(free_bytes, total_bytes), "reading the device memory size", loc);
}

/* Synchronous copies: from page-locked host memory the DMA engine reads the buffer itself;
   from pageable memory the driver stages it through its own pinned buffers. */
void cuda_raw_htod(CudaPtr dst, const void *src, size_t n, SrcLoc loc) {
  need(loc);
  flush();
  check(cu.MemcpyHtoD(dst, src, n), "copying to the device", loc);
}

/* Copies in stream order, after the launches before them: the host does not wait. Between
   page-locked host memory and the device the DMA engine moves the bytes when the stream gets
   there: the host buffer must stay as it is until the next wait (which also finishes the
   copy to the host). A refused copy to the host is not reported: the refusal is an earlier
   launch's fault, which the wait after it reports, naming the kernel. */
void cuda_raw_htod_async(CudaPtr dst, const void *src, size_t n, SrcLoc loc) {
  need(loc);
  flush();
  check(cu.MemcpyHtoDAsync(dst, src, n, NULL), "copying to the device", loc);
}

bool cuda_raw_dtoh_async(void *dst, CudaPtr src, size_t n) {
  flush();
  return cu.MemcpyDtoHAsync(dst, src, n, NULL) == CUDA_SUCCESS;
}

void cuda_raw_dtod(CudaPtr dst, CudaPtr src, size_t n, SrcLoc loc) {
  need(loc);
  flush();
  check(cu.MemcpyDtoD(dst, src, n), "copying on the device", loc);
}

void cuda_raw_dtoh(void *dst, CudaPtr src, size_t n, SrcLoc loc) {
  need(loc);
  flush();
  check(cu.MemcpyDtoH(dst, src, n), "copying from the device", loc);
}
