/* rt_cache.c: where compiled kernels are kept, and the hash that names them. */
#include "runtime/rt_cache.h"
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
  static char dir[4096];   /* read again each time: tests point OQ_CACHE_DIR elsewhere */
  const char *d = getenv("OQ_CACHE_DIR");
  const char *home = getenv("HOME");
  if (d && *d) snprintf(dir, sizeof dir, "%s", d);
  else snprintf(dir, sizeof dir, "%s/.cache/openquasar", home && *home ? home : "/tmp");
  make_dirs(dir);
  return dir;
}
