/* cache_cmd.c: `oq cache info | clear | prune`, the kernel cache seen by its user
   (runtime/cache_admin.h keeps it). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "base/config.h"
#include "cli/cli.h"
#include "runtime/cache_admin.h"

static const char cache_usage[] =
  "usage: oq cache info    where the kernel cache is, what it holds, its size limit\n"
  "       oq cache clear   remove every compiled kernel (they compile again when used)\n"
  "       oq cache prune   remove stale temporary files, then the least recently used\n"
  "                        kernels until the cache fits its limit\n"
  "environment: OQ_CACHE_DIR (default ~/.cache/openquasar), OQ_CACHE_MAX (default 1G;\n"
  "  K, M or G; 0: no limit)\n";

/* bytes as "512 B", "3.2 KiB", "1.0 GiB" */
static const char *size_text(long long bytes, char *buf, size_t size) {
  static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, u++;
  if (u == 0) snprintf(buf, size, "%lld B", bytes);
  else snprintf(buf, size, "%.1f %s", v, units[u]);
  return buf;
}

static const char *time_text(time_t t, char *buf, size_t size) {
  struct tm tm;
  strftime(buf, size, "%Y-%m-%d %H:%M", localtime_r(&t, &tm));
  return buf;
}

static int info(const char *dir) {
  const OqConfig *c = config();
  char a[32], b[32];
  printf("cache:   %s\n", dir);
  if (c->cache_max > 0) printf("limit:   %s (OQ_CACHE_MAX)\n", size_text(c->cache_max, a, sizeof a));
  else printf("limit:   none (OQ_CACHE_MAX=0)\n");
  CacheInfo in;
  if (!cache_info(dir, &in)) {
    printf("entries: none (the folder does not exist yet)\n");
    return 0;
  }
  printf("entries: %d C kernels, %d CUDA images, %s\n", in.cpu, in.cuda, size_text(in.bytes, a, sizeof a));
  if (in.cpu + in.cuda)
    printf("used:    least recently %s, most recently %s\n", time_text(in.oldest, a, sizeof a),
           time_text(in.newest, b, sizeof b));
  printf("temporary files: %d, %s; %d stale (older than %d minutes: `oq cache prune` removes them)\n",
         in.temps, size_text(in.temp_bytes, a, sizeof a), in.stale, CACHE_STALE_S / 60);
  return 0;
}

static void say_removed(const char *dir, CacheRemoved r) {
  char a[32], b[32];
  CacheInfo in;
  cache_info(dir, &in);
  printf("removed %d entries and %d temporary files (%s); the cache holds %d entries (%s)\n",
         r.entries, r.temps, size_text(r.bytes, a, sizeof a), in.cpu + in.cuda,
         size_text(in.bytes, b, sizeof b));
}

int cache_command(int argc, char **argv) {
  const char *sub = argc > 0 ? argv[0] : NULL;
  if (sub && (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help"))) {
    fputs(cache_usage, stdout);
    return 0;
  }
  if (!sub || argc > 1 || (strcmp(sub, "info") && strcmp(sub, "clear") && strcmp(sub, "prune"))) {
    if (sub) fprintf(stderr, "oq: cache: unknown %s '%s'\n", argc > 1 ? "argument" : "command",
                     argv[argc > 1 ? 1 : 0]);
    fputs(cache_usage, stderr);
    return 2;
  }
  const char *dir = config()->cache_dir;
  if (!strcmp(sub, "info")) return info(dir);
  if (!strcmp(sub, "clear")) say_removed(dir, cache_clear(dir));
  else say_removed(dir, cache_prune(dir, config()->cache_max, NULL));
  return 0;
}
