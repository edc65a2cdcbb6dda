/* rt_cache.c: where compiled kernels are kept, the hash that names them, and the one way a
   new entry is written (rt_cpu.c's shared objects, rt_nvrtc.c's images). */
#include "runtime/rt_cache.h"
#include <errno.h>
#include "base/config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t rt_hash(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
  return h;
}

uint64_t rt_hash_code(uint64_t h, const char *src) {
  const char *p = src;
  while (*p) {
    if (p[0] == '/' && p[1] == '*') {   /* a comment: skipped */
      const char *end = strstr(p + 2, "*/");
      p = end ? end + 2 : p + strlen(p);
      continue;
    }
    if (*p == '"' || *p == '\'') {   /* a literal, whole (a comment's marks in it are text) */
      const char *q = p + 1;
      while (*q && *q != *p) q += q[0] == '\\' && q[1] ? 2 : 1;
      if (*q) q++;
      h = rt_hash(h, p, (size_t)(q - p));
      p = q;
      continue;
    }
    h = (h ^ (unsigned char)*p++) * 0x100000001b3ull;
  }
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

void rt_cache_temp(char *buf, size_t n, const char *path) {
  static int seq;   /* several temporaries of one process at once (a source and its object) */
  const char *name = strrchr(path, '/');
  const char *ext = strrchr(name ? name : path, '.');
  int stem = ext ? (int)(ext - path) : (int)strlen(path);
  snprintf(buf, n, "%.*s.tmp%d_%d%s", stem, path, (int)getpid(), ++seq, ext ? ext : "");
}

bool rt_cache_publish(const char *tmp, const char *path) {
  if (rename(tmp, path) == 0) return true;
  int err = errno;
  unlink(tmp);
  errno = err;
  return false;
}

bool rt_cache_write(const char *path, const void *data, size_t size) {
  char tmp[4400];
  rt_cache_temp(tmp, sizeof tmp, path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, size, f) == size;
  int err = errno;
  if (fclose(f) != 0 && ok) ok = false, err = errno;
  if (ok) return rt_cache_publish(tmp, path);
  unlink(tmp);
  errno = err;
  return false;
}
