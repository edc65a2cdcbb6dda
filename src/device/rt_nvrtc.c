/* rt_nvrtc.c: CUDA C++ to a cubin with NVRTC, loaded with dlopen, and the disk cache of
   compiled images. The key of an image is a 128-bit hash (two FNV-1a passes with different
   bases) of the NVRTC version, the options and the source; a new image is written under a
   temporary name and renamed (rt_cache_write), so that a concurrent reader sees the whole
   file or none.

   Builds in the background (cuda_build_start, for rt_gpu.c's tiers) run NVRTC in a thread
   of their own; NVRTC is thread-safe per program. The thread only compiles: the cache
   (rt_cache.c, whose temporary names and folder are per process, not per thread) is written
   on the main thread, when the launcher takes the image (cuda_build_poll) or, for builds
   never taken, at exit (builds_at_exit), so that the next run finds them. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/config.h"
#include "device/rt_cuda.h"
#include "runtime/rt_cache.h"

/* ---- the part of nvrtc.h that is used ---- */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
enum { NVRTC_SUCCESS = 0, NVRTC_ERROR_COMPILATION = 6 };

/* A build in the background (rt_cuda.h). state: BUILD_RUNNING until the thread ends (set
   with release ordering after image/log/err), then BUILD_OK or BUILD_FAILED. */
enum { BUILD_RUNNING, BUILD_OK, BUILD_FAILED };
struct CudaBuild {
  char *source, *name;
  char arch_opt[64];
  bool cubin;
  char path[4200];           /* its cache entry, sealed with h1 */
  uint64_t h1;
  pthread_t thread;
  bool threaded;             /* thread runs or ended, not joined yet */
  int state;                 /* __atomic */
  void *image; size_t size;
  char *log;                 /* NVRTC's messages (a compile error) */
  char err[300];             /* NVRTC itself failed */
  bool cached;               /* its image went into the cache */
  int refs;                  /* launchers holding it: identical kernels share one build */
  struct CudaBuild *next;
};

/* A first build's image, kept in memory (never cached) for identical kernels written twice. */
typedef struct MemImage {
  char *path;                /* the entry it would have (entry_path): source and options */
  void *image; size_t size;
  struct MemImage *next;
} MemImage;

/* The library: its functions, whether it loaded, and its version. */
static struct {
  int state;                      /* 0: not tried, 1: loaded, -1: not */
  char reason[512];
  int ver_major, ver_minor;
  nvrtcResult (*Version)(int *, int *);
  const char *(*GetErrorString)(nvrtcResult);
  nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                               const char *const *, const char *const *);
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetPTX)(nvrtcProgram, char *);
  /* optional: older NVRTCs lack them */
  nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
  nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
  nvrtcResult (*GetNumSupportedArchs)(int *);
  nvrtcResult (*GetSupportedArchs)(int *);
  CudaBuild *builds;              /* every build started, until freed */
  MemImage *mem;                  /* first builds' images (cuda_compile_as without the cache) */
  bool at_exit;                   /* builds_at_exit is registered */
} nv;

static const struct { const char *sym; void *slot; bool optional; } nv_syms[] = {
  { "nvrtcVersion", &nv.Version, false },
  { "nvrtcGetErrorString", &nv.GetErrorString, false },
  { "nvrtcCreateProgram", &nv.CreateProgram, false },
  { "nvrtcCompileProgram", &nv.CompileProgram, false },
  { "nvrtcDestroyProgram", &nv.DestroyProgram, false },
  { "nvrtcGetProgramLogSize", &nv.GetProgramLogSize, false },
  { "nvrtcGetProgramLog", &nv.GetProgramLog, false },
  { "nvrtcGetPTXSize", &nv.GetPTXSize, false },
  { "nvrtcGetPTX", &nv.GetPTX, false },
  { "nvrtcGetCUBINSize", &nv.GetCUBINSize, true },
  { "nvrtcGetCUBIN", &nv.GetCUBIN, true },
  { "nvrtcGetNumSupportedArchs", &nv.GetNumSupportedArchs, true },
  { "nvrtcGetSupportedArchs", &nv.GetSupportedArchs, true },
};

/* ---- loading ---- */

static void *try_dir(const char *dir) {
  static const char *names[] = { "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                 "libnvrtc.so.11.2" };
  char path[4200];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    if (dir) snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    else snprintf(path, sizeof path, "%s", names[i]);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  return NULL;
}

static void *open_nvrtc(void) {
  const char *env = config()->nvrtc;
  if (env) return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  const char *homes[] = { config()->cuda_homes[0], config()->cuda_homes[1], "/usr/local/cuda" };
  char dir[4096];
  for (size_t i = 0; i < sizeof homes / sizeof *homes; i++) {
    if (!homes[i] || !*homes[i]) continue;
    snprintf(dir, sizeof dir, "%s/lib64", homes[i]);
    void *h = try_dir(dir);
    if (h) return h;
  }
  return try_dir(NULL);
}

static bool init(void) {
  void *lib = open_nvrtc();
  if (!lib) {
    snprintf(nv.reason, sizeof nv.reason, "NVRTC (libnvrtc.so) is not installed "
             "(looked in $OQ_NVRTC, $CUDA_HOME/lib64, /usr/local/cuda/lib64 and the loader's path)");
    return false;
  }
  for (size_t i = 0; i < sizeof nv_syms / sizeof *nv_syms; i++) {
    void *p = dlsym(lib, nv_syms[i].sym);
    if (!p && !nv_syms[i].optional) {
      snprintf(nv.reason, sizeof nv.reason, "NVRTC lacks %s (too old)", nv_syms[i].sym);
      return false;
    }
    memcpy(nv_syms[i].slot, &p, sizeof p);
  }
  if (nv.Version(&nv.ver_major, &nv.ver_minor) != NVRTC_SUCCESS) {
    snprintf(nv.reason, sizeof nv.reason, "nvrtcVersion failed");
    return false;
  }
  return true;
}

bool nvrtc_available(char *why, size_t n) {
  if (!nv.state) nv.state = init() ? 1 : -1;
  if (why && n) snprintf(why, n, "%s", nv.state > 0 ? "" : nv.reason);
  return nv.state > 0;
}

void nvrtc_version(int *major, int *minor) {
  bool ok = nvrtc_available(NULL, 0);
  *major = ok ? nv.ver_major : 0;
  *minor = ok ? nv.ver_minor : 0;
}

/* ---- what to compile for ---- */

/* The number of "sm_90" / "sm_90a" / "compute_90" (90), and its suffix ("a" or ""). */
static int arch_number(const char *arch, const char **suffix) {
  const char *p = strchr(arch, '_');
  p = p ? p + 1 : arch;
  int n = 0;
  while (*p >= '0' && *p <= '9') n = n * 10 + (*p++ - '0');
  *suffix = p;
  return n;
}

/* The newest architecture this NVRTC knows that is not newer than want (0: none known). */
static int newest_supported(int want) {
  int n = 0, best = 0;
  if (!nv.GetNumSupportedArchs || !nv.GetSupportedArchs) return 0;
  if (nv.GetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return 0;
  int *a = malloc(sizeof *a * (size_t)n);
  if (a && nv.GetSupportedArchs(a) == NVRTC_SUCCESS)
    for (int i = 0; i < n; i++)
      if (a[i] <= want && a[i] > best) best = a[i];
  free(a);
  return best;
}

/* Fills the -arch option; true: a cubin for arch, false: PTX for a virtual architecture. */
static bool pick_target(const char *arch, char *opt, size_t n) {
  const char *suffix;
  int want = arch_number(arch, &suffix);
  int have = newest_supported(want);
  bool cubin = nv.GetCUBIN && nv.GetCUBINSize && (have == want || have == 0);
  if (cubin) snprintf(opt, n, "--gpu-architecture=sm_%d%s", want, suffix);
  else snprintf(opt, n, "--gpu-architecture=compute_%d", have ? have : want);
  return cubin;
}

/* ---- compiling ---- */

static char *program_log(nvrtcProgram prog) {
  size_t n = 0;
  if (nv.GetProgramLogSize(prog, &n) != NVRTC_SUCCESS || n <= 1) return NULL;
  char *log = malloc(n);
  if (log && nv.GetProgramLog(prog, log) != NVRTC_SUCCESS) {
    free(log);
    return NULL;
  }
  return log;
}

/* The compiled code; the image gets a NUL after it (PTX must end in one). NULL with err
   set when NVRTC fails. */
static void *program_image(nvrtcProgram prog, bool cubin, size_t *size, char *err, size_t errn) {
  nvrtcResult r = cubin ? nv.GetCUBINSize(prog, size) : nv.GetPTXSize(prog, size);
  char *buf = r == NVRTC_SUCCESS ? malloc(*size + 1) : NULL;
  if (buf) r = cubin ? nv.GetCUBIN(prog, buf) : nv.GetPTX(prog, buf);
  if (!buf || r != NVRTC_SUCCESS) {
    snprintf(err, errn, "reading the compiled code failed: %s", buf ? nv.GetErrorString(r) : "out of memory");
    free(buf);
    return NULL;
  }
  buf[*size] = 0;
  return buf;
}

/* The options of every build; arch_opt from pick_target. */
#define NOPTS 4
static void build_options(const char *arch_opt, const char *opts[NOPTS]) {
  opts[0] = arch_opt;
  opts[1] = "--std=c++17";
  opts[2] = "-default-device";
  opts[3] = "--fmad=false";
}

/* One NVRTC compile, without rt_error (it runs on background threads too): 1 with *image,
   0 when the source did not compile (*log says why), -1 when NVRTC itself failed (err). */
static int nv_build(const char *source, const char *name, const char *arch_opt, bool cubin,
                    void **image, size_t *size, char **log, char *err, size_t errn) {
  const char *opts[NOPTS];
  build_options(arch_opt, opts);
  nvrtcProgram prog;
  nvrtcResult r = nv.CreateProgram(&prog, source, name, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    snprintf(err, errn, "creating the program failed: %s", nv.GetErrorString(r));
    return -1;
  }
  r = nv.CompileProgram(prog, NOPTS, opts);
  *log = program_log(prog);
  int ok = r == NVRTC_SUCCESS ? 1 : r == NVRTC_ERROR_COMPILATION ? 0 : -1;
  if (ok < 0) snprintf(err, errn, "compiling failed: %s", nv.GetErrorString(r));
  if (ok > 0 && !(*image = program_image(prog, cubin, size, err, errn))) ok = -1;
  nv.DestroyProgram(&prog);
  return ok;
}

/* The cache entry of source compiled with arch_opt: its path and seal key. */
static void entry_path(const char *source, const char *arch_opt, bool cubin, char *path, size_t n,
                       uint64_t *h1) {
  const char *opts[NOPTS];
  build_options(arch_opt, opts);
  char key[512] = "";
  snprintf(key, sizeof key, "nvrtc %d.%d|", nv.ver_major, nv.ver_minor);
  for (int i = 0; i < NOPTS; i++) {
    strncat(key, opts[i], sizeof key - strlen(key) - 2);
    strcat(key, "|");
  }
  /* rt_hash_code: comments (the kernel's name, lines) are not part of the key */
  *h1 = rt_hash_code(rt_hash(RT_HASH_SEED, key, strlen(key)), source);
  uint64_t h2 = rt_hash(rt_hash_code(0x84222325cbf29ce4ull, source), key, strlen(key));
  snprintf(path, n, "%s/oqcu_%016llx%016llx.%s", rt_cache_dir(), (unsigned long long)*h1,
           (unsigned long long)h2, cubin ? "cubin" : "ptx");
}

/* NVRTC, loaded (else an rt_error), and the -arch option for arch. */
static bool need_nvrtc(const char *arch, char *arch_opt, size_t n, SrcLoc loc) {
  char why[512];
  if (!nvrtc_available(why, sizeof why)) rt_error(loc, "cannot compile for CUDA: %s", why);
  return pick_target(arch, arch_opt, n);
}

/* The cached image of an entry, counted and marked used; NULL when missing. */
static void *cache_hit(const char *path, uint64_t h1, size_t *size) {
  CacheCheck check;   /* a bad (unsealed) image is removed and compiled again (rt_cache.h) */
  void *image = rt_cache_read_sealed(path, h1, size, &check);
  if (image) {
    cuda_stats.cache_hits++;
    rt_cache_hit(path);
  }
  return image;
}

bool cuda_cached(const char *source, const char *arch, void **image, size_t *size, SrcLoc loc) {
  char arch_opt[64], path[4200];
  uint64_t h1;
  bool cubin = need_nvrtc(arch, arch_opt, sizeof arch_opt, loc);
  entry_path(source, arch_opt, cubin, path, sizeof path, &h1);
  *image = cache_hit(path, h1, size);
  return *image != NULL;
}

/* A copy of n bytes at p (a NUL after them), NULL when out of memory. */
static void *copy_of(const void *p, size_t n) {
  char *c = malloc(n + 1);
  if (c) {
    memcpy(c, p, n);
    c[n] = 0;
  }
  return c;
}

/* A copy of the first build's image kept for the entry path, NULL when none is. */
static void *mem_image(const char *path, size_t *size) {
  for (MemImage *m = nv.mem; m; m = m->next)
    if (!strcmp(m->path, path)) {
      *size = m->size;
      return copy_of(m->image, m->size);
    }
  return NULL;
}

static void mem_keep(const char *path, const void *image, size_t size) {
  MemImage *m = calloc(1, sizeof *m);
  if (!m || !(m->path = strdup(path)) || !(m->image = copy_of(image, size))) {
    if (m) free(m->path);
    free(m);
    return;
  }
  m->size = size;
  m->next = nv.mem;
  nv.mem = m;
}

bool cuda_compile_as(const char *source, const char *program_name, const char *arch, bool cache,
                     void **image, size_t *size, char **log, SrcLoc loc) {
  *image = NULL;
  *size = 0;
  *log = NULL;
  char arch_opt[64], path[4200] = "", err[300];
  uint64_t h1 = 0;
  bool cubin = need_nvrtc(arch, arch_opt, sizeof arch_opt, loc);
  entry_path(source, arch_opt, cubin, path, sizeof path, &h1);
  if (cache && (*image = cache_hit(path, h1, size))) return true;
  if (!cache && (*image = mem_image(path, size))) return true;
  int ok = nv_build(source, program_name, arch_opt, cubin, image, size, log, err, sizeof err);
  cuda_stats.compiles++;
  if (ok < 0) rt_error(loc, "NVRTC: %s (kernel '%s')", err, program_name);
  if (ok && cache) rt_cache_write_sealed(path, *image, *size, h1);   /* a failure only costs a recompilation later */
  if (ok && !cache) mem_keep(path, *image, *size);
  return ok > 0;
}

bool cuda_compile(const char *source, const char *program_name, const char *arch,
                  void **image, size_t *size, char **log, SrcLoc loc) {
  return cuda_compile_as(source, program_name, arch, true, image, size, log, loc);
}

/* ---- builds in the background ---- */

static void *build_thread(void *arg) {
  CudaBuild *b = arg;
  /* below the program's own thread (which compiles first builds meanwhile) where cores are
     few; Linux sets a thread's nice value by its id */
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
  int ok = nv_build(b->source, b->name, b->arch_opt, b->cubin, &b->image, &b->size, &b->log,
                    b->err, sizeof b->err);
  if (ok == 0 && !b->err[0]) snprintf(b->err, sizeof b->err, "the source did not compile");
  __atomic_store_n(&b->state, ok > 0 ? BUILD_OK : BUILD_FAILED, __ATOMIC_RELEASE);
  return NULL;
}

/* Waits for b's thread; its image, when it has one, goes into the cache. */
static void build_join(CudaBuild *b) {
  if (!b->threaded) return;
  pthread_join(b->thread, NULL);
  b->threaded = false;
  if (b->state == BUILD_OK && !b->cached) rt_cache_write_sealed(b->path, b->image, b->size, b->h1);
  b->cached = true;
}

/* At the end: the builds the launcher never took finish and are cached for the next run. */
void cuda_builds_finish(void) {
  for (CudaBuild *b = nv.builds; b; b = b->next) build_join(b);
}

CudaBuild *cuda_build_start(const char *source, const char *program_name, const char *arch, SrcLoc loc) {
  CudaBuild *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->cubin = need_nvrtc(arch, b->arch_opt, sizeof b->arch_opt, loc);
  entry_path(source, b->arch_opt, b->cubin, b->path, sizeof b->path, &b->h1);
  for (CudaBuild *o = nv.builds; o; o = o->next)   /* an identical kernel's, still held */
    if (!strcmp(o->path, b->path)) {
      free(b);
      o->refs++;
      return o;
    }
  b->refs = 1;
  b->source = strdup(source);
  b->name = strdup(program_name);
  pthread_attr_t attr;
  bool started = b->source && b->name && !pthread_attr_init(&attr);
  if (started) {
    pthread_attr_setstacksize(&attr, (size_t)16 << 20);   /* as the main thread has: NVRTC recurses on large kernels */
    started = b->threaded = !pthread_create(&b->thread, &attr, build_thread, b);
    pthread_attr_destroy(&attr);
  }
  if (!started) {
    cuda_build_free(b);
    return NULL;
  }
  cuda_stats.compiles++;
  /* the program's end calls cuda_builds_finish; an rt_error's exit and any other exit too
     (exit's handlers registered after this one, NVRTC's own among them, would otherwise
     destroy what a build still compiling uses: it crashed so) */
  if (!nv.at_exit) {
    diag_before_exit(cuda_builds_finish);
    nv.at_exit = atexit(cuda_builds_finish) == 0;
  }
  b->next = nv.builds;
  nv.builds = b;
  return b;
}

int cuda_build_poll(CudaBuild *b, bool wait, void **image, size_t *size, char **why) {
  *image = NULL;
  *size = 0;
  *why = NULL;
  if (!wait && __atomic_load_n(&b->state, __ATOMIC_ACQUIRE) == BUILD_RUNNING) return 0;
  build_join(b);
  if (b->state == BUILD_OK) {
    if (!(*image = copy_of(b->image, b->size))) return 0;
    *size = b->size;
    return 1;
  }
  /* the first error line of the log, else NVRTC's failure */
  const char *at = b->log ? strstr(b->log, "error") : NULL;
  const char *text = at ? at : b->err;
  size_t len = strcspn(text, "\n");
  if ((*why = malloc(len + 1))) snprintf(*why, len + 1, "%s", text);
  return -1;
}

void cuda_build_free(CudaBuild *b) {
  if (!b || --b->refs > 0) return;
  build_join(b);
  for (CudaBuild **p = &nv.builds; *p; p = &(*p)->next)
    if (*p == b) {
      *p = b->next;
      break;
    }
  free(b->source);
  free(b->name);
  free(b->image);
  free(b->log);
  free(b);
}
