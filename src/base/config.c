/* config.c: the one reader of the environment (config.h). Each variable's parse keeps the
   rule its reader had: "set", "set and not 0", "=1", or an integer in a range. */
#include "base/config.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The settings of this process: written only by config_load (cc is set once loaded). */
static OqConfig loaded;

/* The variable's value when set and not empty, else NULL. */
static const char *text(const char *name) {
  const char *e = getenv(name);
  return e && *e ? e : NULL;
}

static bool set(const char *name) { return getenv(name) != NULL; }

/* Set, and not 0 (an empty value counts as set). */
static bool set_not_0(const char *name) {
  const char *e = getenv(name);
  return e && strcmp(e, "0") != 0;
}

/* Set to something other than the empty string and 0. */
static bool on(const char *name) { return text(name) && strcmp(text(name), "0") != 0; }

static bool is(const char *name, const char *value) {
  const char *e = getenv(name);
  return e && !strcmp(e, value);
}

/* The integer value when set within [lo, hi], else def. */
static int int_in(const char *name, int lo, int hi, int def) {
  const char *e = getenv(name);
  int v = e ? atoi(e) : def;
  return v >= lo && v <= hi ? v : def;
}

/* A size in bytes with an optional K, M or G (powers of 1024) when set and well formed,
   else def. */
static long long size_in(const char *name, long long def) {
  const char *e = text(name);
  if (!e) return def;
  char *end;
  long long v = strtoll(e, &end, 10);
  int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 :
              *end == 'G' || *end == 'g' ? 30 : 0;
  if (shift) end++;
  if (end == e || *end || v < 0 || v > (1LL << 62 >> shift)) return def;
  return v << shift;
}

static void load_dev(OqDevConfig *d) {
  d->cpu_idx32 = set_not_0("OQ_DEV_CPU_IDX32");
  d->cpu_tcc_only = is("OQ_DEV_CPU_TCC_ONLY", "1");
  d->cpu_switch_at = int_in("OQ_DEV_CPU_SWITCH_AT", 1, 1 << 30, 0);
  d->cpu_tier_park = !is("OQ_DEV_CPU_TIER_PARK", "0");
  d->no_idx32 = set_not_0("OQ_DEV_NO_IDX32");
  d->tile_literal = is("OQ_DEV_TILE_LITERAL", "1");
  d->no_coarsen = set("OQ_DEV_NO_COARSEN");
  d->cuda_break = is("OQ_DEV_CUDA_BREAK", "1") ? 1 : is("OQ_DEV_CUDA_BREAK", "opt") ? 2 : 0;
  d->cuda_tier_fast = is("OQ_DEV_CUDA_TIER_FAST", "1");
  d->cuda_switch_at = int_in("OQ_DEV_CUDA_SWITCH_AT", 2, 1 << 30, 0);
  d->cuda_graphs = !is("OQ_DEV_CUDA_GRAPHS", "0");
  d->cuda_ktime = int_in("OQ_DEV_CUDA_KTIME", 0, 1, 0);
  d->cuda_packed = is("OQ_DEV_CUDA_PACKED", "1") ? 1 : is("OQ_DEV_CUDA_PACKED", "0") ? 0 : -1;
  d->cuda_pipe = set("OQ_DEV_CUDA_PIPE") ? is("OQ_DEV_CUDA_PIPE", "1") : -1;
  d->cuda_unroll = int_in("OQ_DEV_CUDA_UNROLL", 1, 16, 0);
  d->cuda_stream = set("OQ_DEV_CUDA_STREAM") ? is("OQ_DEV_CUDA_STREAM", "1") : -1;
  d->cuda_block_most = int_in("OQ_DEV_CUDA_BLOCK_MOST", 32, 1024, 256);
  int merge = int_in("OQ_DEV_CUDA_MERGE", 1, 64, 8);
  d->cuda_merge = merge & (merge - 1) ? 8 : merge;
  d->cuda_lgr = int_in("OQ_DEV_CUDA_LGR", 0, 5, 5);
  d->cuda_tile_min = int_in("OQ_DEV_CUDA_TILE_MIN", 1, 1 << 20, 0);
  d->cuda_vthreads = int_in("OQ_DEV_CUDA_VTHREADS", 1, 32, 0);
  d->cuda_rows = int_in("OQ_DEV_CUDA_ROWS", 1, 16, 0);
  d->cuda_vblocks = int_in("OQ_DEV_CUDA_VBLOCKS", 1, 4, 4);
  d->coarse_occ = int_in("OQ_DEV_CUDA_COARSE_OCC", 1, 64, 64);
  d->coarse_run = int_in("OQ_DEV_CUDA_COARSE_RUN", 1, 1 << 20, 32);
  d->coarse_vec = int_in("OQ_DEV_CUDA_COARSE_VEC", 0, 1, 2);
  d->coarse_groups = int_in("OQ_DEV_CUDA_COARSE_GROUPS", 1, 8, 4);
  d->coarse_unroll = int_in("OQ_DEV_CUDA_COARSE_UNROLL", 1, 16, 8);
  d->coarse_pipe = !is("OQ_DEV_CUDA_COARSE_PIPE", "0");
  d->coarse_gs = !is("OQ_DEV_CUDA_COARSE_GS", "0");
  d->coarse_float = set("OQ_DEV_CUDA_COARSE_FLOAT");
  d->coarse_noldg = set("OQ_DEV_CUDA_COARSE_NOLDG");
  d->cuda_no_ahead = is("OQ_DEV_CUDA_AHEAD", "0");
  d->along_lanes = int_in("OQ_DEV_ALONG_LANES", 1, 1 << 16, 0);
  d->along_gpu = is("OQ_DEV_ALONG_GPU", "1");
  d->along_poison = is("OQ_DEV_ALONG_POISON", "1");
}

/* The processors this process may run on: its affinity mask, which `taskset` and a
   container's cpuset narrow (sysconf counts every processor online, so 16 workers would
   share 2 allowed cores). */
static int usable_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

void config_load(void) {
  OqConfig *c = &loaded;
  c->cc = text("CC") ? text("CC") : "cc";
  c->kernel_cflags = text("OQ_KERNEL_CFLAGS") ? text("OQ_KERNEL_CFLAGS") : "";
  c->cpu_tiers = !is("OQ_CPU_TIERS", "0");
  c->cuda_tiers = !set("OQ_CUDA_TIERS") ? -1 : is("OQ_CUDA_TIERS", "0") ? 0 : 1;
  const char *home = text("HOME");
  if (text("OQ_CACHE_DIR")) snprintf(c->cache_dir, sizeof c->cache_dir, "%s", text("OQ_CACHE_DIR"));
  else snprintf(c->cache_dir, sizeof c->cache_dir, "%s/.cache/openquasar", home ? home : "/tmp");
  c->cache_max = size_in("OQ_CACHE_MAX", 1LL << 30);
  c->oq_path = text("OQ_PATH");
  c->threads = text("OQ_THREADS") && atoi(text("OQ_THREADS")) > 0 ? atoi(text("OQ_THREADS")) : 0;
  c->cpus = usable_cpus();
  c->no_parloop = on("OQ_NO_PARLOOP");
  c->array_kernel_min = text("OQ_ARRAY_KERNEL_MIN") ? atoll(text("OQ_ARRAY_KERNEL_MIN")) : 1024;
  c->show_dir = text("OQ_SHOW_DIR");
  c->show_wait = !is("OQ_SHOW_WAIT", "0");
  c->display = text("DISPLAY") || text("WAYLAND_DISPLAY");
  c->sdl_driver = text("SDL_VIDEODRIVER");
  c->cuda_disable = on("OQ_CUDA_DISABLE") ? text("OQ_CUDA_DISABLE") : NULL;
  c->cuda_device = text("OQ_CUDA_DEVICE");
  c->libcuda = text("OQ_LIBCUDA");
  c->nvrtc = text("OQ_NVRTC");
  c->cuda_homes[0] = text("CUDA_HOME");
  c->cuda_homes[1] = text("CUDA_PATH");
  c->cuda_check = on("OQ_CUDA_CHECK");
  c->cuda_sync = on("OQ_CUDA_SYNC");
  c->cuda_eager = int_in("OQ_CUDA_EAGER", 0, 1, 0);
  c->linalg_gpu = int_in("OQ_LINALG_GPU", 0, 1, -1);
  load_dev(&c->dev);
}

const OqConfig *config(void) {
  if (!loaded.cc) config_load();
  return &loaded;
}
