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
#include "rt_cuda.h"

/* ---- the part of cuda.h that is used ---- */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
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

#define DECLARE(name, params, sym, alt) CUresult (*name) params;
static struct CuApi { CU_FUNCS(DECLARE) } cu;

#define ENTRY(name, params, sym, alt) { sym, alt, offsetof(struct CuApi, name) },
static const struct { const char *sym, *alt; size_t off; } cu_syms[] = { CU_FUNCS(ENTRY) };

static int state;                 /* 0: not tried, 1: available, -1: not */
static char reason[512];
static CudaDevice dev;
static CUcontext ctx;

/* The last launch, to blame for a fault that shows later. */
static const char *last_kernel;   /* its label: the launcher keeps it for the process */
static SrcLoc last_loc;

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
  if (is_kernel_fault(r) && last_kernel)
    rt_error(last_loc, "CUDA: kernel '%s' failed (seen while %s): %s: %s", last_kernel, what,
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
  if (r) snprintf(reason, sizeof reason, "%s: %s: %s", buf, err_name(r), err_text(r));
  else snprintf(reason, sizeof reason, "%s", buf);
  return false;
}

static void *open_driver(void) {
  static const char *paths[] = {
    "libcuda.so.1",                                  /* the loader's search path */
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1",
    "/usr/lib64/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1",
  };
  const char *env = getenv("OQ_LIBCUDA");
  if (env && *env) return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  return NULL;
}

static bool load_symbols(void *lib) {
  for (size_t i = 0; i < sizeof cu_syms / sizeof *cu_syms; i++) {
    void *p = dlsym(lib, cu_syms[i].sym);
    if (!p && cu_syms[i].alt) p = dlsym(lib, cu_syms[i].alt);
    if (!p) return setf(0, "the CUDA driver lacks %s (too old)", cu_syms[i].sym);
    memcpy((char *)&cu + cu_syms[i].off, &p, sizeof p);
  }
  return true;
}

static int attr(int a, CUdevice d) {
  int v = 0;
  if (cu.DeviceGetAttribute(&v, a, d) != CUDA_SUCCESS) v = 0;
  return v;
}

static void read_device(CUdevice d, int ordinal) {
  dev.ordinal = ordinal;
  if (cu.DeviceGetName(dev.name, sizeof dev.name, d) != CUDA_SUCCESS)
    snprintf(dev.name, sizeof dev.name, "CUDA device %d", ordinal);
  dev.cc_major = attr(ATTR_CC_MAJOR, d);
  dev.cc_minor = attr(ATTR_CC_MINOR, d);
  snprintf(dev.arch, sizeof dev.arch, "sm_%d%d", dev.cc_major, dev.cc_minor);
  dev.sm_count = attr(ATTR_SM_COUNT, d);
  dev.warp_size = attr(ATTR_WARP_SIZE, d);
  dev.max_threads_per_block = attr(ATTR_MAX_THREADS_PER_BLOCK, d);
  dev.max_threads_per_sm = attr(ATTR_MAX_THREADS_PER_SM, d);
  for (int i = 0; i < 3; i++) {
    dev.max_block_dim[i] = attr(ATTR_MAX_BLOCK_DIM_X + i, d);
    dev.max_grid_dim[i] = attr(ATTR_MAX_GRID_DIM_X + i, d);
  }
  dev.shared_per_block = attr(ATTR_MAX_SHARED_PER_BLOCK, d);
  dev.shared_per_block_optin = attr(ATTR_MAX_SHARED_PER_BLOCK_OPTIN, d);
  if (dev.shared_per_block_optin < dev.shared_per_block)
    dev.shared_per_block_optin = dev.shared_per_block;
  dev.shared_per_sm = attr(ATTR_MAX_SHARED_PER_SM, d);
  dev.regs_per_block = attr(ATTR_MAX_REGS_PER_BLOCK, d);
  dev.cooperative = attr(ATTR_COOPERATIVE_LAUNCH, d) != 0;
  if (cu.DeviceTotalMem(&dev.total_mem, d) != CUDA_SUCCESS) dev.total_mem = 0;
  if (cu.DriverGetVersion(&dev.driver_version) != CUDA_SUCCESS) dev.driver_version = 0;
}

static bool init(void) {
  const char *off = getenv("OQ_CUDA_DISABLE");
  if (off && *off && strcmp(off, "0")) return setf(0, "CUDA is disabled (OQ_CUDA_DISABLE=%s)", off);
  void *lib = open_driver();
  if (!lib) return setf(0, "the CUDA driver (libcuda.so.1) is not installed");
  if (!load_symbols(lib)) return false;
  CUresult r = cu.Init(0);
  if (r != CUDA_SUCCESS) return setf(r, "cuInit failed");
  int count = 0, ordinal = 0;
  if ((r = cu.DeviceGetCount(&count)) != CUDA_SUCCESS) return setf(r, "cuDeviceGetCount failed");
  if (count == 0) return setf(0, "no CUDA device is present");
  const char *env = getenv("OQ_CUDA_DEVICE");
  if (env && *env) ordinal = atoi(env);
  if (ordinal < 0 || ordinal >= count)
    return setf(0, "OQ_CUDA_DEVICE=%s: there are %d devices", env, count);
  CUdevice d;
  if ((r = cu.DeviceGet(&d, ordinal)) != CUDA_SUCCESS) return setf(r, "cuDeviceGet failed");
  if ((r = cu.PrimaryCtxRetain(&ctx, d)) != CUDA_SUCCESS)
    return setf(r, "cannot create a context on device %d", ordinal);
  if ((r = cu.CtxSetCurrent(ctx)) != CUDA_SUCCESS)
    return setf(r, "cannot make the context of device %d current", ordinal);
  read_device(d, ordinal);
  rt_array_free_hook = cuda_array_free;
  rt_array_host_hook = cuda_array_host;
  return true;
}

bool cuda_available(char *why, size_t n) {
  if (!state) state = init() ? 1 : -1;
  if (why && n) snprintf(why, n, "%s", state > 0 ? "" : reason);
  return state > 0;
}

const CudaDevice *cuda_device(void) { return cuda_available(NULL, 0) ? &dev : NULL; }

/* Every entry point below needs the driver; a caller that skipped cuda_available gets an
   error rather than a crash through a NULL function pointer. */
static void need(SrcLoc loc) {
  if (!cuda_available(NULL, 0)) rt_error(loc, "CUDA is not available: %s", reason);
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

void cuda_module_unload(CudaModule *m) {
  if (!m) return;
  cu.ModuleUnload(m->mod);
  for (CudaKernel *k = m->kernels, *next; k; k = next) {
    next = k->next;
    if (last_kernel == k->label) last_kernel = NULL;
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
           dev.shared_per_block_optin, k->static_shared);
  check(cu.FuncSetAttribute(k->fn, FATTR_MAX_DYN_SHARED, (int)shared_bytes), what, loc);
  k->dyn_shared_set = (int)shared_bytes;
}

void cuda_launch(CudaKernel *k, const unsigned grid[3], const unsigned block[3],
                 size_t shared_bytes, bool cooperative, void **params, SrcLoc loc) {
  need(loc);
  raise_shared_limit(k, shared_bytes, loc);
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
  last_kernel = k->label;
  last_loc = loc;
  cuda_stats.launches++;
}

void cuda_sync(SrcLoc loc) {
  need(loc);
  check(cu.CtxSynchronize(), "waiting for the device", loc);
}

bool cuda_wait(char *why, size_t n) {
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
  if (p) cu.MemFree(p);
}

void cuda_raw_memset(CudaPtr p, unsigned char byte, size_t n, SrcLoc loc) {
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
  check(cu.MemcpyHtoD(dst, src, n), "copying to the device", loc);
}

void cuda_raw_dtod(CudaPtr dst, CudaPtr src, size_t n, SrcLoc loc) {
  need(loc);
  check(cu.MemcpyDtoD(dst, src, n), "copying on the device", loc);
}

void cuda_raw_dtoh(void *dst, CudaPtr src, size_t n, SrcLoc loc) {
  need(loc);
  check(cu.MemcpyDtoH(dst, src, n), "copying from the device", loc);
}
