/* rt_nvrtc.c: CUDA C++ to a cubin with NVRTC, loaded with dlopen, and the disk cache of
   compiled images. The key of an image is a 128-bit hash (two FNV-1a passes with different
   bases) of the NVRTC version, the options and the source; a new image is written under a
   temporary name and renamed (rt_cache_write), so that a concurrent reader sees the whole
   file or none.

   Builds in the background (cuda_build_start, for rt_gpu.c's tiers) run NVRTC in a child
   process each, which writes the cache entry itself (see "builds in the background"). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <glob.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/config.h"
#include "base/diag.h"
#include "device/rt_cuda.h"
#include "runtime/rt_cache.h"

/* ---- the part of nvrtc.h that is used ---- */
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
enum { NVRTC_SUCCESS = 0, NVRTC_ERROR_COMPILATION = 6 };

/* A build in the background (rt_cuda.h): a child process, queued until a place is free; or
   another process's child that makes the same entry, watched (BUILD_WATCHED). */
enum { BUILD_QUEUED, BUILD_RUNNING, BUILD_WATCHED, BUILD_OK, BUILD_FAILED };
struct CudaBuild {
  char *name;
  char arch[32];             /* the device's ("sm_90"): the child picks the -arch option */
  char path[4200];           /* its cache entry, sealed with h1 */
  uint64_t h1;
  char src[4400], log[4400]; /* temporaries: its source, the child's stderr */
  pid_t pid;                 /* BUILD_RUNNING: the child */
  int lock;                  /* BUILD_QUEUED: src open, locked (other_building), else -1 */
  int state;
  char *why;                 /* BUILD_FAILED: the first error line */
  int refs;                  /* launchers holding it: identical kernels share one build */
  double seen;               /* BUILD_WATCHED: when the cache was last looked at (s) */
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
  CudaBuild *builds;              /* every build started, until it ended and is freed */
  int running;                    /* children running */
  MemImage *mem;                  /* first builds' images (cuda_compile_as without the cache) */
  bool at_exit;                   /* builds_at_exit is registered */
  bool builder;                   /* this program is `oq`, which runs CUDA_BUILD_COMMAND
                                     (cuda_builds_here): a program linked with liboq.a
                                     (bench/gpu) is not, and has no tiers */
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

static void build_pump(void);

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
  build_pump();   /* each new kernel reaps the children that ended and starts queued ones */
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

/* ---- builds in the background ----
   Each build is a child process: `oq __cuda-build` (CUDA_BUILD_COMMAND, dispatched by the
   cli before anything else; cuda_build_main below), /proc/self/exe spawned again, niced.
   Its source goes in a temporary file of the cache folder; the child compiles it with the
   options of every build and writes the sealed entry itself (its temporary names carry its
   own process id), so that no lock of NVRTC is shared with the first builds the program
   compiles meanwhile (NVRTC 13 serializes part of each compile on a process-wide lock). Its
   stderr goes to a temporary log in the cache folder, read for the first error line when it
   fails, then removed. At most OqConfig.cpus - 1 children run at once (1 on 2 processors),
   the rest wait in the queue, started as others end (build_pump, from every poll and each
   new kernel's cache lookup: no zombie stays longer than that). The
   program does not wait for them at its end: the children need nothing of it and leave the
   entries for the next run; the builds still queued then go to one child that compiles
   them one after another (builds_at_exit, the one exit hook). A child whose parent ended
   removes its own log. */

/* temporaries of a build: the entry's name with ".cu" / ".log" for its extension, made
   per process by rt_cache_temp */
static void build_temp(char *buf, size_t n, const char *path, const char *ext) {
  char base[4300];
  const char *dot = strrchr(path, '.');
  snprintf(base, sizeof base, "%.*s%s", (int)(dot ? dot - path : (int)strlen(path)), path, ext);
  rt_cache_temp(buf, n, base);
}

/* The processors the children may use: all but one, one on two. */
static int build_limit(void) {
  int n = config()->cpus;
  return n > 2 ? n - 1 : 1;
}

void cuda_builds_here(void) { nv.builder = true; }

bool cuda_builds_possible(void) { return nv.builder; }

/* Starts `oq __cuda-build PPID LOG ARCH NAME SRC...` for the jobs in argv (NULL-ended),
   its stderr the file log (NULL: none), the descriptor lock (-1: none) its 3, so that the
   lock on its source passes to it; returns its process id, 0 when it could not. */
static pid_t spawn_builder(char **argv, const char *log, int lock) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (lock >= 0) posix_spawn_file_actions_adddup2(&fa, lock, 3);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);   /* never the program's output */
  if (log) posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  else posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&fa, lock >= 0 ? 4 : 3);   /* a caller reading our pipes does not wait for it */
  extern char **environ;
  pid_t pid;
  int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : 0;
}

static void build_fail(CudaBuild *b, const char *why) {
  free(b->why);
  b->why = strdup(why);
  b->state = BUILD_FAILED;
}

/* Starts b's child (the queue's limit is the caller's). */
static void build_spawn(CudaBuild *b) {
  char ppid[24];
  snprintf(ppid, sizeof ppid, "%d", (int)getpid());
  char *argv[] = { "oq", CUDA_BUILD_COMMAND, ppid, b->log, b->arch, b->name, b->src, NULL };
  b->pid = spawn_builder(argv, b->log, b->lock);
  close(b->lock);   /* the child holds the lock now, or nobody: it did not start */
  b->lock = -1;
  if (b->pid > 0) {
    b->state = BUILD_RUNNING;
    nv.running++;
    return;
  }
  unlink(b->src);
  unlink(b->log);
  build_fail(b, "the build process could not be started");
}

/* The first error line of the child's log, else how it ended. */
static void build_why(CudaBuild *b, int status) {
  FILE *f = fopen(b->log, "r");
  char line[1024], found[1024] = "";
  while (f && fgets(line, sizeof line, f))
    if (!found[0] && strstr(line, "error")) snprintf(found, sizeof found, "%s", strstr(line, "error"));
  if (f) fclose(f);
  found[strcspn(found, "\n")] = 0;
  if (!found[0] && WIFSIGNALED(status))
    snprintf(found, sizeof found, "its build process ended by signal %d", WTERMSIG(status));
  else if (!found[0])
    snprintf(found, sizeof found, "its build process ended with status %d", WEXITSTATUS(status));
  build_fail(b, found);
}

/* Whether b's child has ended (waited for: *status), never blocking unless wait. A child
   that cannot be waited for (SIGCHLD ignored: reaped by the system) has ended with status
   0 when it is gone: its entry, read when taken, tells whether it succeeded. */
static bool build_reaped(CudaBuild *b, bool wait, int *status) {
  pid_t r = waitpid(b->pid, status, wait ? 0 : WNOHANG);
  if (r < 0 && errno == ECHILD) *status = 0;
  return r == b->pid || (r < 0 && errno == ECHILD);
}

/* b's child ended with status: its entry is there (BUILD_OK, read when taken) or it failed. */
static void build_ended(CudaBuild *b, int status) {
  nv.running--;
  b->pid = 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) b->state = BUILD_OK;
  else build_why(b, status);
  unlink(b->log);   /* the child removes both when it succeeds; not when it crashed */
  unlink(b->src);
}

static void build_unlink(CudaBuild *b) {
  for (CudaBuild **p = &nv.builds; *p; p = &(*p)->next)
    if (*p == b) {
      *p = b->next;
      break;
    }
  free(b->name);
  free(b->why);
  free(b);
}

/* Reaps the children that ended (no zombies pile up), frees the builds no launcher holds
   any more, and starts queued builds in the places freed. */
static void build_pump(void) {
  for (CudaBuild *b = nv.builds, *next; b; b = next) {
    next = b->next;
    int st;
    if (b->state == BUILD_RUNNING && build_reaped(b, false, &st)) build_ended(b, st);
    if (b->refs <= 0 && b->state >= BUILD_WATCHED) build_unlink(b);   /* not a child running or queued */
  }
  for (CudaBuild *b = nv.builds; b && nv.running < build_limit(); b = b->next)
    if (b->state == BUILD_QUEUED) build_spawn(b);
}

/* At exit: the queued builds, in one child that compiles them one after another; the
   running ones finish on their own. */
static void builds_at_exit(void) {
  build_pump();
  int n = 0;
  for (CudaBuild *b = nv.builds; b; b = b->next) n += b->state == BUILD_QUEUED;
  if (!n) return;
  char ppid[24];
  snprintf(ppid, sizeof ppid, "%d", (int)getpid());
  char **argv = calloc((size_t)(5 + 3 * n), sizeof *argv);
  if (!argv) return;
  int k = 0;
  argv[k++] = "oq";
  argv[k++] = CUDA_BUILD_COMMAND;
  argv[k++] = ppid;
  argv[k++] = "-";
  for (CudaBuild *b = nv.builds; b; b = b->next)
    if (b->state == BUILD_QUEUED) {
      argv[k++] = b->arch;
      argv[k++] = b->name;
      argv[k++] = b->src;
    }
  if (!spawn_builder(argv, NULL, -1))   /* it locks the sources itself, once ours are closed */
    for (CudaBuild *b = nv.builds; b; b = b->next)
      if (b->state == BUILD_QUEUED) unlink(b->src);
  free(argv);
}

/* Whether a child (another process's) compiles the entry path now: its source, a
   temporary of the cache folder, is there and locked (the child holds a lock on it until
   it ends; one killed leaves an unlocked file, which the folder's prune removes later). */
static bool other_building(const char *path) {
  char pat[4300];
  const char *dot = strrchr(path, '.');
  snprintf(pat, sizeof pat, "%.*s.tmp*.cu", (int)(dot ? dot - path : (int)strlen(path)), path);
  glob_t g;
  bool found = false;
  if (glob(pat, GLOB_NOSORT, NULL, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc && !found; i++) {
      int fd = open(g.gl_pathv[i], O_RDONLY | O_CLOEXEC);
      found = fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
      if (fd >= 0) close(fd);
    }
    globfree(&g);
  }
  return found;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A watched build: done when its entry is there, failed when the other child's source is
   gone without it (the child writes the entry before it removes the source). Looks at the
   cache folder at most every 20 ms, or until done when wait. */
static void build_watch(CudaBuild *b, bool wait) {
  for (;;) {
    double t = now_s();
    if (t - b->seen >= 0.02) {
      b->seen = t;
      bool other = other_building(b->path);
      if (rt_cache_check(b->path, b->h1) == CACHE_GOOD) b->state = BUILD_OK;
      else if (!other) build_fail(b, "another process's build of the same kernel left no image");
    }
    if (!wait || b->state != BUILD_WATCHED) return;
    nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
  }
}

/* Writes source to b's temporary source file, locked (b->lock) from before it is seen
   until the child that compiles it ends; false when it could not. */
static bool write_source(CudaBuild *b, const char *source) {
  b->lock = open(b->src, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (b->lock < 0) return false;
  flock(b->lock, LOCK_EX);   /* a new file: nobody else holds it */
  size_t n = strlen(source), done = 0;
  for (ssize_t w = 1; done < n && w > 0; done += w > 0 ? (size_t)w : 0) w = write(b->lock, source + done, n - done);
  if (done == n) return true;
  close(b->lock);
  unlink(b->src);
  return false;
}

CudaBuild *cuda_build_start(const char *source, const char *program_name, const char *arch, SrcLoc loc) {
  CudaBuild *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  char arch_opt[64];
  bool cubin = need_nvrtc(arch, arch_opt, sizeof arch_opt, loc);
  entry_path(source, arch_opt, cubin, b->path, sizeof b->path, &b->h1);
  for (CudaBuild *o = nv.builds; o; o = o->next)   /* an identical kernel's, still held */
    if (o->refs > 0 && !strcmp(o->path, b->path)) {
      free(b);
      o->refs++;
      return o;
    }
  if (other_building(b->path)) {   /* concurrent runs of one program on one cache: one child */
    b->refs = 1;
    b->state = BUILD_WATCHED;
    b->next = nv.builds;
    nv.builds = b;
    return b;
  }
  b->lock = -1;
  snprintf(b->arch, sizeof b->arch, "%s", arch);
  build_temp(b->src, sizeof b->src, b->path, ".cu");
  build_temp(b->log, sizeof b->log, b->path, ".log");
  if (strlen(arch) >= sizeof b->arch || !(b->name = strdup(program_name)) || !write_source(b, source)) {
    free(b->name);
    free(b);
    return NULL;
  }
  b->refs = 1;
  b->state = BUILD_QUEUED;
  b->next = nv.builds;
  nv.builds = b;
  cuda_stats.compiles++;
  if (!nv.at_exit) nv.at_exit = atexit(builds_at_exit) == 0;
  build_pump();
  return b;
}

int cuda_build_poll(CudaBuild *b, bool wait, void **image, size_t *size, char **why) {
  *image = NULL;
  *size = 0;
  *why = NULL;
  if (wait && b->state == BUILD_QUEUED) build_spawn(b);
  int st;
  if (wait && b->state == BUILD_RUNNING && build_reaped(b, true, &st)) build_ended(b, st);
  if (b->state == BUILD_WATCHED) build_watch(b, wait);
  build_pump();
  if (b->state < BUILD_OK) return 0;
  if (b->state == BUILD_OK) {
    CacheCheck check;
    if ((*image = rt_cache_read_sealed(b->path, b->h1, size, &check))) return 1;
    build_fail(b, "its image is missing from the kernel cache");
  }
  *why = strdup(b->why ? b->why : "?");
  return -1;
}

void cuda_build_free(CudaBuild *b) {
  if (b && --b->refs <= 0) build_pump();   /* a child still running finishes on its own */
}

/* ---- the child: `oq __cuda-build PPID LOG ARCH NAME SRC [ARCH NAME SRC]...` ---- */

/* One job: the source in the file src compiled for arch into its cache entry; false (the
   reason on stderr) when it failed. The source file is removed at the end, so that a
   build still pending leaves a temporary file in the cache. */
static bool child_job(const char *arch, const char *name, const char *src) {
  SrcFile *file = srcfile_load(src);
  if (!file) {
    fprintf(stderr, "oq: cuda build: cannot read %s: %s\n", src, strerror(errno));
    return false;
  }
  const char *text = file->text;
  char arch_opt[64], path[4200], err[4400] = "", *log = NULL;
  uint64_t h1;
  bool cubin = pick_target(arch, arch_opt, sizeof arch_opt);
  entry_path(text, arch_opt, cubin, path, sizeof path, &h1);
  void *image = NULL;
  size_t size = 0;
  int ok = nv_build(text, name, arch_opt, cubin, &image, &size, &log, err, sizeof err);
  if (ok > 0 && !rt_cache_write_sealed(path, image, size, h1)) {
    snprintf(err, sizeof err, "cannot write %s: %s", path, strerror(errno));
    ok = -1;
  }
  if (ok <= 0) fprintf(stderr, "%s%s%s\n", log ? log : "", log && err[0] ? "\n" : "", err[0] ? err : "");
  free(log);
  free(image);
  srcfile_free(file);
  unlink(src);
  return ok > 0;
}

int cuda_build_main(int argc, char **argv) {
  if (argc < 5 || (argc - 2) % 3) {
    fprintf(stderr, "oq: %s is oq's own (PPID LOG ARCH NAME SOURCE...)\n", CUDA_BUILD_COMMAND);
    return 2;
  }
  setpriority(PRIO_PROCESS, 0, 10);   /* below the program, which runs its first builds meanwhile */
  char why[512];
  if (!nvrtc_available(why, sizeof why)) {
    fprintf(stderr, "oq: cuda build: %s\n", why);
    for (int i = 2; i + 2 < argc; i += 3) unlink(argv[i + 2]);
    return 1;
  }
  /* its sources locked until it ends: other processes watch for its entries
     (other_building). One build's child got the lock from its parent (its descriptor 3);
     the child of the builds queued at exit (no log) takes them once the parent has ended */
  for (int i = 2; !strcmp(argv[1], "-") && i + 2 < argc; i += 3) {
    int fd = open(argv[i + 2], O_RDONLY | O_CLOEXEC);
    if (fd >= 0) flock(fd, LOCK_EX);   /* held open until exit */
  }
  bool ok = true;
  for (int i = 2; i + 2 < argc; i += 3) ok = child_job(argv[i], argv[i + 1], argv[i + 2]) && ok;
  const char *log = argv[1];
  /* the parent reads a failure's log and removes it; when it has ended, nobody will */
  if (strcmp(log, "-") && (ok || getppid() != (pid_t)atoi(argv[0]))) unlink(log);
  return ok ? 0 : 1;
}
