/* rt_cpu.c: compiling, caching, loading and running specialized kernels on all cores.

   A launch first computes the key of its specialization (argument and capture types,
   kernel identity); each key is specialized once per process. The generated C source and
   the compiler command are hashed (FNV-1a, 64 bits); $OQ_CACHE_DIR (default
   ~/.cache/openquasar) keeps oqk_<hash>.so, written under a temporary name and renamed into
   place so a reader never sees half a file (rt_cache.c). Blocks (or, for flat kernels, positions) are
   handed out in chunks to a persistent pool of threads, the calling thread included.

   Tiers (OQ_CPU_TIERS, on by default where built with libtcc): a kernel missing from the
   cache is built first by TinyCC in this process (cpu_tcc.h: milliseconds, where the C
   compiler takes 0.1-0.5 s) and runs from that build while a shell in the background runs
   the C compiler and renames its object into the cache; a later launch that finds the
   object loads it and drops TinyCC's build, and a launch that runs when it is done switches
   to it between chunks (PoolTier). The program does not wait for it: a background
   build that outlives the program still publishes its object for the next run. Both builds
   compile the same source (TinyCC's variant keeps complex numbers in structs: emit_c) with
   the same floating-point rules (no contraction, no fast-math), so they compute the same
   results (tests/run.sh compares them over the seed programs). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <spawn.h>
#include <time.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/config.h"
#include "kernel/kernel_ir.h"
#include "base/oqk_abi.h"
#include "backend/cpu/rt_cpu.h"
#include "backend/cpu/cpu_tcc.h"
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
  CpuTcc *fast;             /* TinyCC's build, run until the C compiler's object is loaded */
  bool fast_shared;         /* that build is an identical kernel's (tcc_twin) */
  bool fiber;               /* its threads are fibers: TinyCC's build (no __thread) runs on
                               the calling thread alone */
  char *so, *so_err;        /* that object in the cache, its compiler's messages; NULL: none to wait for */
  uint64_t so_h;            /* its hash: the seal's key */
  char *bg_cmd;             /* the background build's command, queued (not started yet) */
  pid_t bg;                 /* the shell that builds it in the background; 0: none running */
  bool bg_failed;           /* that shell failed */
  bool bg_urgent;           /* that build is not niced (its first launch is large) until that
                               launch ends (tier_calm); its shell leads a process group */
  void *ready;              /* that object, loaded (tier_ready), not installed yet */
  OqkEntry ready_entry;     /* its entry point */
  int launches;             /* launches so far (--profile's note of the swap) */
  struct Compiled *next;
} Compiled;

#define NBUCKETS 256
static Compiled *table[NBUCKETS];
/* Background builds of this process: started (running) and queued; at most bg_limit() run
   at once, so that a program with many kernels does not start a compiler for each. */
static struct { int running, queued; bool at_exit; } tiers;

static Compiled *lookup(const char *key) {
  uint64_t h = rt_hash(RT_HASH_SEED, key, strlen(key));
  for (Compiled *c = table[h % NBUCKETS]; c; c = c->next)
    if (!strcmp(c->h.key, key)) return c;
  Compiled *c = calloc(1, sizeof *c);
  if (!c || !(c->h.key = strdup(key))) rt_error((SrcLoc){0}, "out of memory (a kernel specialization)");
  c->next = table[h % NBUCKETS];
  table[h % NBUCKETS] = c;
  return c;
}

/* ---- the C compiler and the cache ---- */

static const char *compiler(void) {
  return config()->cc;
}

/* -fno-tree-slp-vectorize: GCC 12 drops (double)(float)x round trips in straight-line SLP code */
#define CFLAGS_KERNEL "-O3 -march=native -fPIC -shared -fno-strict-aliasing -ffp-contract=off -fno-math-errno -fwrapv -fno-tree-slp-vectorize -std=gnu11 -w"

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

/* What -march=native compiles for, so that a cache shared between machines never loads an
   object built for another processor: the vendor, family and model, and the feature bits
   GCC reads (CPUID leaves 1, 7 and 0x80000001; XCR0, the vector state the OS enables). */
static void cpu_identity(char *buf, size_t n) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned r[4][4] = {{0}}, xcr0 = 0;
  __asm__ volatile("cpuid" : "=a"(r[0][0]), "=b"(r[0][1]), "=c"(r[0][2]), "=d"(r[0][3]) : "a"(0), "c"(0));
  __asm__ volatile("cpuid" : "=a"(r[1][0]), "=b"(r[1][1]), "=c"(r[1][2]), "=d"(r[1][3]) : "a"(1), "c"(0));
  if (r[0][0] >= 7)
    __asm__ volatile("cpuid" : "=a"(r[2][0]), "=b"(r[2][1]), "=c"(r[2][2]), "=d"(r[2][3]) : "a"(7), "c"(0));
  __asm__ volatile("cpuid" : "=a"(r[3][0]), "=b"(r[3][1]), "=c"(r[3][2]), "=d"(r[3][3]) : "a"(0x80000001u), "c"(0));
  if (r[1][2] & (1u << 27)) {   /* OSXSAVE: xgetbv is there */
    unsigned hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
  }
  snprintf(buf, n, "%.4s%.4s%.4s:%x:%x,%x:%x,%x,%x:%x,%x:%x", (char *)&r[0][1], (char *)&r[0][3],
           (char *)&r[0][2], r[1][0], r[1][2], r[1][3], r[2][1], r[2][2], r[2][3], r[3][2], r[3][3], xcr0);
#else
  snprintf(buf, n, "%s", "cpu");
#endif
}

/* The cache's name of src's object: a hash of the compiler command, the ABI, the
   processor and the source less its comments (the kernel's name and lines: identical
   kernels written twice share one object). */
static uint64_t source_hash(const char *src) {
  char cmd_id[768], cpu[160];
  cpu_identity(cpu, sizeof cpu);
  snprintf(cmd_id, sizeof cmd_id, "abi%d|%s %s %s|%s", OQK_ABI_VERSION, compiler(), CFLAGS_KERNEL,
           config()->kernel_cflags, cpu);
  return rt_hash_code(rt_hash(RT_HASH_SEED, cmd_id, strlen(cmd_id)), src);
}

/* The cache's files of one object: the object, its source, the compiler's messages. */
typedef struct Entry {
  char so[4200], csrc[4200], err[4200];
  char built[4220];         /* where a background build leaves the object, to be sealed */
  uint64_t h;               /* the hash in their names: the seal's key (rt_cache.h) */
} Entry;

static void entry_names(Entry *e, const char *src) {
  const char *dir = rt_cache_dir();
  unsigned long long h = source_hash(src);
  e->h = h;
  snprintf(e->so, sizeof e->so, "%s/oqk_%016llx.so", dir, h);
  snprintf(e->built, sizeof e->built, "%s/oqk_%016llx.so.built", dir, h);
  snprintf(e->csrc, sizeof e->csrc, "%s/oqk_%016llx.c", dir, h);
  snprintf(e->err, sizeof e->err, "%s/oqk_%016llx.err", dir, h);   /* never kept */
}

/* The compiler's command that builds e->csrc into tso, its messages into terr. */
static char *compile_command(const Entry *e, const char *tso, const char *terr) {
  size_t clen = strlen(compiler()) + strlen(config()->kernel_cflags) + strlen(e->csrc) + strlen(tso) + strlen(terr) + 200;
  char *cmd = malloc(clen);
  snprintf(cmd, clen, "%s " CFLAGS_KERNEL " %s -o '%s' '%s' -lm 2>'%s' >&2", compiler(), config()->kernel_cflags, tso,
           e->csrc, terr);
  return cmd;
}

static void write_source(const Entry *e, const char *src, const char *kname, SrcLoc loc) {
  if (!rt_cache_write(e->csrc, src, strlen(src), RT_CACHE_PART))
    rt_error(loc, "kernel '%s': cannot write to the kernel cache %s: %s", kname, rt_cache_dir(), strerror(errno));
}

/* Builds e's object with the C compiler, waiting for it; returns the dlopen handle, or
   reports with rt_error (naming the kernel). */
static void *build_now(const Entry *e, const char *src, const char *kname, SrcLoc loc) {
  char tso[4400], terr[4400];
  rt_cache_temp(tso, sizeof tso, e->so);
  rt_cache_temp(terr, sizeof terr, e->err);
  write_source(e, src, kname, loc);
  char *cmd = compile_command(e, tso, terr);
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
  if (!rt_cache_seal(tso, e->h)) {
    int err = errno;
    unlink(tso);
    rt_error(loc, "kernel '%s': cannot write %s: %s", kname, tso, strerror(err));
  }
  if (!rt_cache_publish(tso, e->so, RT_CACHE_ENTRY)) rt_error(loc, "kernel '%s': cannot write %s: %s", kname, e->so, strerror(errno));
  void *lib = dlopen(e->so, RTLD_NOW | RTLD_LOCAL);
  if (!lib) rt_error(loc, "kernel '%s': cannot load %s: %s", kname, e->so, dlerror());
  return lib;
}

/* The command of e's background build: a shell that compiles into a temporary name and
   renames the object to e->built (whole, even after this process ends), which the next
   process that wants it seals and publishes (adopt_built). */
static char *background_command(const Entry *e, char *terr, size_t n, bool urgent) {
  char tso[4400];
  rt_cache_temp(tso, sizeof tso, e->so);
  rt_cache_temp(terr, n, e->err);
  char *cc = compile_command(e, tso, terr);
  size_t len = strlen(cc) + 2 * strlen(tso) + strlen(e->so) + strlen(terr) + 120;
  char *cmd = malloc(len);
  /* niced: on a machine with few cores it must not slow the program that runs meanwhile;
     not while the kernel's first launch is large (urgent): that launch waits for it */
  snprintf(cmd, len, "%s%s && mv -f '%s' '%s' && rm -f '%s' || { rm -f '%s'; false; }", urgent ? "" : "nice -n 10 ",
           cc, tso, e->built, terr, tso);
  free(cc);
  return cmd;
}

/* Runs the shell command cmd in the background. Its standard streams are /dev/null and it
   holds no other descriptor of ours: a caller reading our output (a pipe) does not wait
   for it. Returns its process id, 0 when it could not start. */
static pid_t spawn_shell(char *cmd, bool own_group) {
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  if (own_group) {
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  char *argv[] = {"sh", "-c", cmd, NULL};
  extern char **environ;
  pid_t pid;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  return rc == 0 ? pid : 0;
}

/* At the program's end, the builds still queued run one after another in one shell
   that outlives it (their objects are in the cache for the next run): a script in the
   cache, run under the cache's build.lock (flock), so that the queues of many programs
   that ended (a test suite) run one at a time, each build skipped when its object is
   there by then. */
static void bg_at_exit(void) {
  char script[4400], tmp[4400];
  snprintf(script, sizeof script, "%s/queue.sh", rt_cache_dir());
  rt_cache_temp(tmp, sizeof tmp, script);
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  for (int b = 0; b < NBUCKETS; b++)
    for (Compiled *c = table[b]; c; c = c->next)
      if (c->bg_cmd) fprintf(f, "[ -e '%s' ] || [ -e '%s.built' ] || ( %s )\n", c->so, c->so, c->bg_cmd);
  fprintf(f, "rm -f '%s'\n", tmp);
  if (fclose(f) != 0) return;
  char cmd[9000];
  snprintf(cmd, sizeof cmd, "flock '%s/build.lock' sh '%s' || sh '%s'", rt_cache_dir(), tmp, tmp);
  spawn_shell(cmd, false);
}

/* Starts c's queued build. */
static void bg_start(Compiled *c) {
  pid_t pid = spawn_shell(c->bg_cmd, c->bg_urgent);
  free(c->bg_cmd);
  c->bg_cmd = NULL;
  tiers.queued--;
  if (pid > 0) {
    c->bg = pid;
    tiers.running++;
  } else {
    c->bg_failed = true;
  }
}

/* One core stays with the program (all but one build at once; one on two cores). */
static int bg_limit(void) {
  int n = config()->cpus;
  return n > 2 ? n - 1 : 1;
}

/* Reaps the background builds that ended and starts queued ones in their place. */
static void bg_pump(void) {
  for (int b = 0; b < NBUCKETS; b++)
    for (Compiled *c = table[b]; c; c = c->next) {
      int st;
      if (c->bg <= 0 || waitpid(c->bg, &st, WNOHANG) == 0) continue;
      c->bg = 0;
      tiers.running--;
      c->bg_failed = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
  for (int b = 0; b < NBUCKETS && tiers.queued && tiers.running < bg_limit(); b++)
    for (Compiled *c = table[b]; c && tiers.running < bg_limit(); c = c->next)
      if (c->bg_cmd) bg_start(c);
}

/* Whether a build makes the object so already: one of ours (another key, same source), or
   another process's (its temporary object is in the cache, less than 10 minutes old). */
static bool building(const char *so) {
  for (int b = 0; b < NBUCKETS; b++)
    for (Compiled *c = table[b]; c; c = c->next)
      if ((c->bg > 0 || c->bg_cmd) && c->so && !strcmp(c->so, so)) return true;
  char pat[4300];
  snprintf(pat, sizeof pat, "%.*s.tmp*.so", (int)(strlen(so) - 3), so);
  glob_t g;
  bool found = false;
  if (glob(pat, 0, NULL, &g) == 0) {
    struct stat sb;
    for (size_t i = 0; i < g.gl_pathc && !found; i++)
      found = stat(g.gl_pathv[i], &sb) == 0 && time(NULL) - sb.st_mtime < 600;
    globfree(&g);
  }
  return found;
}

/* TinyCC's build of another specialization of this process with the same source (the
   object's name so), shared; NULL when there is none. */
static CpuTcc *tcc_twin(const char *so) {
  for (int b = 0; b < NBUCKETS; b++)
    for (Compiled *c = table[b]; c; c = c->next)
      if (c->fast && c->so && !strcmp(c->so, so)) return cpu_tcc_share(c->fast);
  return NULL;
}

/* A background build's object (so.built) made an entry: claimed by a rename (one process
   wins), sealed and published under so (rt_cache.h). */
static void adopt_built(const char *so, uint64_t h) {
  char built[4300], mine[4400];
  snprintf(built, sizeof built, "%s.built", so);
  if (access(built, F_OK) != 0) return;
  rt_cache_temp(mine, sizeof mine, so);
  if (rename(built, mine) != 0) return;
  if (!rt_cache_seal(mine, h) || !rt_cache_publish(mine, so, RT_CACHE_ENTRY)) unlink(mine);
}

/* Finds or builds src's code for c: the cached object (c's `lib`, *cached true), TinyCC's
   build with the C compiler's started in the background (c->fast), or the C compiler's
   object, waited for. Returns the dlopen handle, NULL for TinyCC's build (of tcc_src, when
   given: its variant of the source). The source is kept beside the object (oqk_<hash>.c),
   to look at when the compiler fails. */
static void *build(Compiled *c, const char *src, const char *tcc_src, const char *kname, SrcLoc loc, bool verbose,
                   bool urgent, bool *cached) {
  Entry e;
  entry_names(&e, src);
  *cached = false;
  bool tcc_only = config()->dev.cpu_tcc_only;
  if (!tcc_only) adopt_built(e.so, e.h);
  /* only a sealed entry is loaded (rt_cache.h): a bad one is removed and built again */
  void *lib = tcc_only || rt_cache_check(e.so, e.h) != CACHE_GOOD ? NULL : dlopen(e.so, RTLD_NOW | RTLD_LOCAL);
  if (lib) {
    rt_cache_hit(e.so);
    *cached = true;
    return lib;
  }
  if (config()->cpu_tiers || tcc_only) {
    char why[256];
    c->fast = tcc_twin(e.so);   /* identical kernels written twice compile once */
    c->fast_shared = c->fast != NULL;
    if (!c->fast) c->fast = cpu_tcc_build(tcc_src ? tcc_src : src, why, sizeof why);
    if (c->fast && tcc_only) return NULL;
    if (c->fast) {
      write_source(&e, src, kname, loc);
      char terr[4400];
      if (!building(e.so)) {
        c->bg_cmd = background_command(&e, terr, sizeof terr, urgent);
        c->bg_urgent = urgent;
        c->so_err = strdup(terr);
        tiers.queued++;
        if (!tiers.at_exit) tiers.at_exit = atexit(bg_at_exit) == 0;
      }
      c->so = strdup(e.so);
      c->so_h = e.h;
      bg_pump();
      return NULL;
    }
    if (verbose && cpu_tcc_available())
      fprintf(stderr, "oq: kernel '%s': TinyCC cannot build it (%s); waiting for the C compiler\n", kname, why);
  }
  return build_now(&e, src, kname, loc);
}

static void *code_sym(Compiled *c, void *lib, const char *name) {
  return lib ? dlsym(lib, name) : cpu_tcc_sym(c->fast, name);
}

/* Whether the C compiler's object of c, which runs TinyCC's build, is ready: ours
   finished, or another's is in the cache. Loads it once (c->ready). A failed background
   build leaves TinyCC's (--verbose says why; c->so is NULL from then on). Called by the
   calling thread only (between launches, or between the chunks of one: pool_tier). */
static bool tier_ready(Compiled *c, const char *kname, bool verbose) {
  if (c->ready) return true;
  if (tiers.running || tiers.queued) bg_pump();
  if (!c->so || c->bg > 0 || c->bg_cmd) return false;   /* still compiling, or waiting to */
  if (c->bg_failed) {
    char *msg = c->so_err ? read_file_head(c->so_err, 4) : strdup("");
    if (verbose)
      fprintf(stderr, "oq: kernel '%s': the C compiler '%s' failed in the background; TinyCC's build stays%s%s\n",
              kname, compiler(), *msg ? ":\n" : "", msg);
    free(msg);
    if (c->so_err) unlink(c->so_err);
    free(c->so);
    free(c->so_err);
    c->so = c->so_err = NULL;
    c->bg_failed = false;
    return false;
  }
  adopt_built(c->so, c->so_h);
  void *lib = rt_cache_check(c->so, c->so_h) == CACHE_GOOD ? dlopen(c->so, RTLD_NOW | RTLD_LOCAL) : NULL;
  OqkEntry entry = lib ? (OqkEntry)dlsym(lib, "oqk_entry") : NULL;
  if (!entry) return false;   /* another's build, not there yet */
  c->ready = lib;
  c->ready_entry = entry;
  return true;
}

/* The ready object replaces TinyCC's build of c (no launch runs TinyCC's code now);
   `when` says since when, in --profile's note on row st. */
static void tier_install(Compiled *c, const char *kname, bool verbose, const char *when, ProfRow *st) {
  if (c->h.tr.npriv) {
    c->begin = (OqkHook)dlsym(c->ready, "oqk_begin");
    c->finish = (OqkHook)dlsym(c->ready, "oqk_finish");
  }
  c->entry = c->ready_entry;
  c->ready = NULL;
  c->ready_entry = NULL;
  cpu_tcc_free(c->fast);
  c->fast = NULL;
  free(c->so);
  free(c->so_err);
  c->so = c->so_err = NULL;
  if (verbose) fprintf(stderr, "oq: kernel '%s': the C compiler's build replaces TinyCC's\n", kname);
  prof_note(st, when);
}

/* At a launch of a kernel that runs TinyCC's build: when the C compiler's object is in
   the cache, it replaces TinyCC's build. */
static void tier_poll(Compiled *c, const char *kname, bool verbose, ProfRow *st) {
  if (!tier_ready(c, kname, verbose)) return;
  char when[80];
  snprintf(when, sizeof when, "C compiler's build from launch %d", c->launches + 1);
  tier_install(c, kname, verbose, when, st);
}

/* A launch of this many positions or more runs long enough from TinyCC's build that the
   C compiler's build, which it switches to (PoolTier), is not niced (mandelbrot.q: 768^2). */
#define TIER_URGENT_POSITIONS ((int64_t)1 << 18)

static bool launch_is_large(const KLaunch *cl) { return launch_positions(cl) >= TIER_URGENT_POSITIONS; }

/* Specializes, emits and compiles one key. */
static void compile_spec(Compiled *c, KSpec *S, Value *args, const KLaunch *cl, ProfRow *st) {
  double t0 = rt_now_ms();
  if (!ksema_run(S, args)) {
    launch_spec_fail(&c->h, S->reason);
    return;
  }
  char *tcc_src = NULL;
  bool tiers = (config()->cpu_tiers || config()->dev.cpu_tcc_only) && cpu_tcc_available();
  char *src = emit_c(S, tiers ? &tcc_src : NULL);
  if (!src) {
    launch_spec_fail(&c->h, S->reason);
    return;
  }
  if (S->kfunc->nouts > OQK_MAX_OUTS) {
    char why[64];
    snprintf(why, sizeof why, "more than %d kernel outputs", OQK_MAX_OUTS);
    launch_spec_fail(&c->h, why);
    free(src);
    free(tcc_src);
    return;
  }
  if (cl->opt && cl->opt->emit_c) {
    printf("/* ---- kernel %s (%s) ---- */\n%s\n", S->name, c->h.key, src);
    fflush(stdout);
  }
  bool cached;
  void *lib = build(c, src, tcc_src, S->name, cl->site->loc, cl->opt && cl->opt->verbose, launch_is_large(cl), &cached);
  free(src);
  free(tcc_src);
  c->entry = (OqkEntry)code_sym(c, lib, "oqk_entry");
  if (!c->entry) rt_error(cl->site->loc, "kernel '%s': the compiled code has no entry point", S->name);
  launch_spec_compiled(&c->h, S);
  c->shape = plan_cpu_shape(S);
  c->fiber = S->divergent != NULL;
  if (c->h.tr.npriv) {
    c->begin = (OqkHook)code_sym(c, lib, "oqk_begin");
    c->finish = (OqkHook)code_sym(c, lib, "oqk_finish");
    if (!c->begin || !c->finish) c->h.tr.npriv = 0;
  }
  prof_compile(st, rt_now_ms() - t0, cached);
  prof_xforms(st, S->xforms);
  if (cl->opt && cl->opt->verbose)
    fprintf(stderr, "oq: kernel '%s' compiled for the cpu (%s mode%s)\n", S->name,
            c->shape.mode == CPU_FLAT ? "flat" : c->shape.mode == CPU_BLOCKS ? "block" : S->divergent ? "fiber" : "barrier",
            cached ? ", from the cache" : c->fast_shared ? ", TinyCC's build of an identical kernel" :
            c->fast && c->so ? ", by TinyCC; the C compiler's build follows" :
            c->fast ? ", by TinyCC" : "");
  if (cl->opt && cl->opt->verbose && S->tiling_ignored)
    fprintf(stderr, "oq: kernel '%s': !kernel_tiling is ignored on the cpu: the kernel uses blocks, shared memory or barriers\n", S->name);
}

/* ---- the thread pool ---- */

/* A worker's state on cache lines of its own (workers write their outputs into it). */
typedef struct PaddedWorker { _Alignas(64) OqkWorker w; } PaddedWorker;

/* A launch of TinyCC's build of a kernel whose C compiler's build is being made: the
   calling thread looks at that build between chunks (tier_ready: it alone reaps and loads
   builds, once), and once it is loaded the chunks not started yet run its code: each chunk
   loads the entry point (Pool.fn) atomically. Chunks are independent (positions, whole
   blocks with their barriers, or tiles), and both builds compile one source to one ABI:
   a worker's outputs add up in its OqkWorker, its private copies of += arrays are the
   same scratch slots (TinyCC's oqk_begin makes them, its oqk_finish adds them in), its
   scratch memory comes from this process's malloc. So the two builds may share a launch,
   chunk by chunk. Not a fiber kernel's (TinyCC's build runs it as one chunk). */
typedef struct PoolTier {
  Compiled *c;              /* NULL: this launch keeps its code */
  const char *kname;
  bool verbose;
  OqkEntry fast;            /* TinyCC's entry point */
  double next_look;         /* rt_now_ms when the calling thread looks at the build again */
  int64_t hold;             /* OQ_DEV_CPU_SWITCH_AT N: chunks from item N x chunk on wait for
                               the build and run it (pool_run); -1: none */
  int park;                 /* the worker that waits while the build runs (a core for the
                               compiler); -1: none (never the calling thread, 0) */
  bool unparked;            /* it runs chunks again: the switch, or the chunks ran out (Pool.mu) */
  atomic_bool settled;      /* switched, or no switch in this launch (the build failed) */
  atomic_llong fast_chunks, opt_chunks;   /* chunks that ran TinyCC's and the C compiler's code */
} PoolTier;

typedef struct Pool {
  int n;                    /* workers, the calling thread included */
  long cpus;                /* processors usable (config: the affinity mask) */
  PaddedWorker *W;
  pthread_mutex_t mu;
  pthread_cond_t go, done, unpark;
  unsigned long gen;
  int active;
  _Atomic(OqkEntry) fn;
  OqkLaunch *L;
  int64_t total, chunk;
  atomic_llong next;
  PoolTier tier;
} Pool;

static Pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER,
                    .unpark = PTHREAD_COND_INITIALIZER};

/* How often the calling thread looks at the background build during a launch. */
#define TIER_LOOK_MS 2.0
/* How long OQ_DEV_CPU_SWITCH_AT waits for it, at most. */
#define TIER_HOLD_MS 120000.0

static void pool_nap(void) {
  struct timespec ts = {0, 1000000};
  nanosleep(&ts, NULL);
}

/* The parked worker (PoolTier.park) waits until the calling thread lets it go: at once,
   not at its next look, so that a short launch does not wait for it. */
static void tier_park(void) {
  pthread_mutex_lock(&pool.mu);
  while (!pool.tier.unparked) pthread_cond_wait(&pool.unpark, &pool.mu);
  pthread_mutex_unlock(&pool.mu);
}

static void tier_unpark(void) {
  pthread_mutex_lock(&pool.mu);
  pool.tier.unparked = true;
  pthread_cond_broadcast(&pool.unpark);
  pthread_mutex_unlock(&pool.mu);
}

/* Before the chunk from item lo (>= total: the worker's queue ran out): the calling thread
   looks at the build every TIER_LOOK_MS and publishes its entry point when it is loaded;
   under OQ_DEV_CPU_SWITCH_AT, chunks from t->hold on wait for it (the calling thread
   reaches hold too: the other workers' chunks past it are not run while they wait). */
static void pool_tier(int id, int64_t lo) {
  PoolTier *t = &pool.tier;
  bool held = t->hold >= 0 && lo >= t->hold;
  if (id != 0) {
    if (held && lo < pool.total)
      while (!atomic_load_explicit(&t->settled, memory_order_acquire)) pool_nap();
    return;
  }
  double now = rt_now_ms();
  if (!held && now < t->next_look) return;
  t->next_look = now + TIER_LOOK_MS;
  bool ready = tier_ready(t->c, t->kname, t->verbose);
  while (held && !ready && t->c->so && rt_now_ms() < now + TIER_HOLD_MS) {
    pool_nap();
    ready = tier_ready(t->c, t->kname, t->verbose);
  }
  if (ready) atomic_store_explicit(&pool.fn, t->c->ready_entry, memory_order_release);
  if (ready || held || !t->c->so) {
    atomic_store_explicit(&t->settled, true, memory_order_release);
    if (t->park > 0) tier_unpark();
  }
}

static void run_chunks(int id) {
  bool tier = pool.tier.c != NULL;
  if (tier && id == pool.tier.park) tier_park();
  for (;;) {
    int64_t lo = atomic_fetch_add(&pool.next, pool.chunk);
    if (tier && !atomic_load_explicit(&pool.tier.settled, memory_order_acquire)) pool_tier(id, lo);
    if (lo >= pool.total) {
      if (tier && id == 0 && pool.tier.park > 0) tier_unpark();
      return;
    }
    int64_t hi = lo + pool.chunk < pool.total ? lo + pool.chunk : pool.total;
    OqkEntry fn = atomic_load_explicit(&pool.fn, memory_order_acquire);
    fn(pool.L, &pool.W[id].w, lo, hi);
    if (tier)
      atomic_fetch_add_explicit(fn == pool.tier.fast ? &pool.tier.fast_chunks : &pool.tier.opt_chunks, 1,
                                memory_order_relaxed);
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

static void pool_start(bool verbose) {
  if (pool.n) return;
  long n = pool.cpus = config()->cpus;
  if (config()->threads) n = config()->threads;
  if (n < 1) n = 1;
  if (n > 256) n = 256;
  pool.W = aligned_alloc(64, n * sizeof *pool.W);
  if (!pool.W) rt_error((SrcLoc){0}, "out of memory (the CPU back end's %ld workers)", n);
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
  if (verbose) fprintf(stderr, "oq: CPU back end: %d worker%s (%ld processor%s usable)\n", pool.n,
                       pool.n == 1 ? "" : "s", pool.cpus, pool.cpus == 1 ? "" : "s");
}

/* Runs fn over 0..total-1 in chunks on every worker (per_worker chunks each, or fewer
   of min_chunk items); returns when all are done. */
static void pool_run(OqkEntry fn, OqkLaunch *L, int64_t total, int64_t min_chunk, int per_worker) {
  pool_start(false);
  int64_t chunk = total / (pool.n * per_worker);
  if (chunk < min_chunk) chunk = min_chunk;
  if (chunk < 1) chunk = 1;
  atomic_store(&pool.fn, fn);
  if (pool.tier.c && pool.tier.hold > 0)
    pool.tier.hold = pool.tier.hold < (total + chunk - 1) / chunk ? pool.tier.hold * chunk : -1;
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

/* The positions per chunk of a reduction along a dimension (interp_arrayexpr.c's
   build_along_kernel), or of the kernel combining its lanes (build_fold_kernel: "...: lanes
   combined"); 0 for other kernels. Every position walks the reduced dimension or its lanes'
   partial results, so a flat kernel's 4096 positions per chunk would give sum(x, 0) of a
   2048 x 2048 matrix to one worker, and the fold of sum(x, 1)'s 2048 rows (32 dependent
   additions each, 0.04 ms on one core of the 2-core VM) too. 64 positions: the C code's
   lanes (emit_c.c along_loop) take 16 rows or up to 256 columns at a time; a fold's 256
   (about 10 us each), so that a worker woken for it has that much to do. */
static int64_t along_chunk(const Func *f) {
  static const char along[] = "array reduction along a dimension";
  for (int i = 0; i < f->ntransforms; i++)
    if (!strncmp(f->transforms[i], along, sizeof along - 1)) return f->transforms[i][sizeof along - 1] ? 256 : 64;
  return 0;
}

/* Chunks per worker of a launch that may switch builds: the switch waits for the chunks
   that run, so they are short (mandelbrot.q's 768 x 768 positions on 2 workers: 128
   chunks, about 10 ms of TinyCC's code each). */
#define TIER_CHUNKS 64

/* After the first launch of c, whose build was urgent: that build is niced from now on
   (its process group: the compiler's processes too), or will be when it starts. */
static void tier_calm(Compiled *c) {
  c->bg_urgent = false;
  if (c->bg > 0) {
    setpriority(PRIO_PGRP, c->bg, 10);
  } else if (c->bg_cmd) {
    size_t n = strlen(c->bg_cmd) + 16;
    char *cmd = malloc(n);
    if (!cmd) return;
    snprintf(cmd, n, "nice -n 10 %s", c->bg_cmd);
    free(c->bg_cmd);
    c->bg_cmd = cmd;
  }
}

/* Whether this launch of c may switch from TinyCC's build to the C compiler's (PoolTier);
   if so, sets pool.tier up for it. */
static bool tier_launch_begin(Compiled *c, const char *kname, bool verbose) {
  if (!c->fast || !c->so || c->fiber) return false;
  PoolTier *t = &pool.tier;
  t->c = c;
  t->kname = kname;
  t->verbose = verbose;
  t->fast = c->entry;
  t->next_look = rt_now_ms() + TIER_LOOK_MS;
  t->hold = config()->dev.cpu_switch_at ? config()->dev.cpu_switch_at : -1;   /* in chunks: pool_run */
  /* (a niced build gets no core from it on a busy machine: the worker would idle) */
  t->park = config()->dev.cpu_tier_park && c->bg_urgent && (c->bg > 0 || c->bg_cmd) && pool.n > 1 &&
            pool.n >= pool.cpus ? pool.n - 1 : -1;
  t->unparked = false;
  atomic_store(&t->settled, false);
  atomic_store(&t->fast_chunks, 0);
  atomic_store(&t->opt_chunks, 0);
  return true;
}

/* After such a launch: a build loaded during it replaces TinyCC's now that no worker runs
   TinyCC's code. */
static void tier_launch_end(Compiled *c, const char *kname, bool verbose, ProfRow *st) {
  PoolTier *t = &pool.tier;
  t->c = NULL;
  if (!c->ready) return;
  long long fast = atomic_load(&t->fast_chunks), opt = atomic_load(&t->opt_chunks);
  if (verbose)
    fprintf(stderr, "oq: kernel '%s': the C compiler's build replaces TinyCC's during a launch (chunks: %lld of TinyCC's build, then %lld of the C compiler's)\n",
            kname, fast, opt);
  char when[80];
  snprintf(when, sizeof when, "C compiler's build from launch %d, chunk %lld/%lld", c->launches, fast + 1, fast + opt);
  tier_install(c, kname, false, when, st);
}

static void run_compiled(Compiled *c, const KLaunch *cl, KSpec *S, Value *result, ProfRow *st) {
  c->launches++;
  Func *f = S->kfunc;
  int nargs = f->nparams + S->ncaps;
  OqkArg *args = calloc(nargs + 1, sizeof *args);
  if (!args) rt_error(cl->site->loc, "out of memory (the arguments of kernel '%s')", S->name);
  /* arrays a GPU launch left on the device come back first */
  for (int i = 0; i < f->nparams; i++)
    if (cl->args[i].kind == V_ARRAY) cuda_host_touch(cl->args[i].arr, cl->site->loc);
  for (int k = 0; k < S->ncaps; k++)
    if (S->caps[k].value.kind == V_ARRAY) cuda_host_touch(S->caps[k].value.arr, cl->site->loc);
  for (int i = 0; i < f->nparams; i++) launch_fill_arg(&args[i], cl->args[i]);
  for (int k = 0; k < S->ncaps; k++) launch_fill_arg(&args[f->nparams + k], S->caps[k].value);
  OqkLaunch L = {.D = cl->D, .args = args, .err_site = -1};
  for (int d = 0; d < cl->D; d++) {
    L.dims[d] = cl->dims[d];
    L.blk[d] = cl->blk[d];
    L.cnt[d] = cl->cnt[d];
  }
  pool_start(cl->opt && cl->opt->verbose);
  for (int w = 0; w < pool.n; w++)
    for (int o = 0; o < c->h.nouts; o++) {
      pool.W[w].w.out_r[o] = launch_identity_r(c->h.out_op[o]);
      pool.W[w].w.out_i[o] = launch_identity_i(c->h.out_op[o]);
    }
  CpuWork work = plan_cpu_work(&c->shape, &c->h, cl, S, pool.n);
  L.priv_mask = work.priv_mask;
  if (L.priv_mask)
    for (int w = 0; w < pool.n; w++) c->begin(&L, &pool.W[w].w);
  /* TinyCC's build of a fiber kernel keeps its fibers' state in plain statics: one worker */
  int64_t min_chunk = c->fast && c->fiber ? work.items : work.min_chunk;
  int64_t along = along_chunk(f);
  if (along) min_chunk = along;
  bool tier = work.items > 0 && tier_launch_begin(c, S->name, cl->opt && cl->opt->verbose);
  if (work.items > 0) pool_run(c->entry, &L, work.items, min_chunk, tier ? TIER_CHUNKS : 8);
  if (L.priv_mask)
    for (int w = 0; w < pool.n; w++) c->finish(&L, &pool.W[w].w);
  if (tier) tier_launch_end(c, S->name, cl->opt && cl->opt->verbose, st);
  if (c->bg_urgent) tier_calm(c);
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
  else if (c->so || tiers.running || tiers.queued) tier_poll(c, S.name, cl->opt && cl->opt->verbose, st);
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
  run_compiled(c, cl, &S, result, st);
  kspec_free(&S);
  prof_launch(st, rt_now_ms() - t1);
  return true;
}

void cpu_note_interp(const KLaunch *cl, double ms) {
  prof_launch(prof_row(cl->kernel, "interp"), ms);
}
