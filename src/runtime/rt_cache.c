/* rt_cache.c: where compiled kernels are kept, and the hash that names them. */
#include "runtime/rt_cache.h"
#include "base/config.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

uint64_t rt_hash(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
  return h;
}

/* mkdir -p */
static void make_dirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(buf, 0755);
      *p = '/';
    }
  mkdir(buf, 0755);
}

const char *rt_cache_dir(void) {
  const char *dir = config()->cache_dir;
  make_dirs(dir);   /* each time: tests point OQ_CACHE_DIR elsewhere (and reload the config) */
  return dir;
}
