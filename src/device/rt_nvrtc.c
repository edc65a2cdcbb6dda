/* rt_nvrtc.c: CUDA C++ to a cubin with NVRTC, loaded with dlopen, and the disk cache of
   compiled images. The key of an image is a 128-bit hash (two FNV-1a passes with different
   bases) of the NVRTC version, the options and the source; a new image is written under a
   temporary name and renamed (rt_cache_write), so that a concurrent reader sees the whole
   file or none. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/config.h"
#include "device/rt_cuda.h"
#include "runtime/rt_cache.h"

/* ---- the part of nvrtc.h that is used ---- */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
enum { NVRTC_SUCCESS = 0, NVRTC_ERROR_COMPILATION = 6 };

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

_Noreturn static void nv_fail(nvrtcResult r, const char *what, const char *name, SrcLoc loc) {
  rt_error(loc, "NVRTC: %s of '%s' failed: %s", what, name, nv.GetErrorString(r));
}

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

/* The compiled code; the image gets a NUL after it (PTX must end in one). */
static void *program_image(nvrtcProgram prog, bool cubin, size_t *size, const char *name,
                           SrcLoc loc) {
  nvrtcResult r = cubin ? nv.GetCUBINSize(prog, size) : nv.GetPTXSize(prog, size);
  if (r != NVRTC_SUCCESS) nv_fail(r, "reading the compiled code", name, loc);
  char *buf = malloc(*size + 1);
  if (!buf) rt_error(loc, "out of memory");
  r = cubin ? nv.GetCUBIN(prog, buf) : nv.GetPTX(prog, buf);
  if (r != NVRTC_SUCCESS) nv_fail(r, "reading the compiled code", name, loc);
  buf[*size] = 0;
  return buf;
}

bool cuda_compile(const char *source, const char *program_name, const char *arch,
                  void **image, size_t *size, char **log, SrcLoc loc) {
  char why[512];
  *image = NULL;
  *size = 0;
  *log = NULL;
  if (!nvrtc_available(why, sizeof why)) rt_error(loc, "cannot compile for CUDA: %s", why);
  char arch_opt[64];
  bool cubin = pick_target(arch, arch_opt, sizeof arch_opt);
  const char *opts[] = { arch_opt, "--std=c++17", "-default-device", "--fmad=false" };
  int nopts = (int)(sizeof opts / sizeof *opts);

  char key[512] = "";
  snprintf(key, sizeof key, "nvrtc %d.%d|", nv.ver_major, nv.ver_minor);
  for (int i = 0; i < nopts; i++) {
    strncat(key, opts[i], sizeof key - strlen(key) - 2);
    strcat(key, "|");
  }
  /* rt_hash_code: comments (the kernel's name, lines) are not part of the key */
  uint64_t h1 = rt_hash_code(rt_hash(RT_HASH_SEED, key, strlen(key)), source);
  uint64_t h2 = rt_hash(rt_hash_code(0x84222325cbf29ce4ull, source), key, strlen(key));
  char dir[4096], path[4200];
  snprintf(dir, sizeof dir, "%s", rt_cache_dir());
  snprintf(path, sizeof path, "%s/oqcu_%016llx%016llx.%s", dir, (unsigned long long)h1,
           (unsigned long long)h2, cubin ? "cubin" : "ptx");
  CacheCheck check;   /* a bad (unsealed) image is removed and compiled again (rt_cache.h) */
  if ((*image = rt_cache_read_sealed(path, h1, size, &check))) {
    cuda_stats.cache_hits++;
    rt_cache_hit(path);
    return true;
  }

  nvrtcProgram prog;
  nvrtcResult r = nv.CreateProgram(&prog, source, program_name, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) nv_fail(r, "creating the program", program_name, loc);
  r = nv.CompileProgram(prog, nopts, opts);
  cuda_stats.compiles++;
  *log = program_log(prog);
  if (r == NVRTC_ERROR_COMPILATION) {
    nv.DestroyProgram(&prog);
    return false;
  }
  if (r != NVRTC_SUCCESS) nv_fail(r, "compiling", program_name, loc);
  *image = program_image(prog, cubin, size, program_name, loc);
  nv.DestroyProgram(&prog);
  rt_cache_write_sealed(path, *image, *size, h1);   /* a failure only costs a recompilation later */
  return true;
}
