/* rt_cache.c: where compiled kernels are kept, the hash that names them, and the one way a
   new entry is written (rt_cpu.c's shared objects, rt_nvrtc.c's images) and a found one
   marked used: the writers and readers of entries leave the cache's bounds to it. */
#include "runtime/rt_cache.h"
#include "runtime/cache_admin.h"
#include <errno.h>
#include <fcntl.h>
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

bool rt_cache_publish(const char *tmp, const char *path, RtCacheFile file) {
  if (rename(tmp, path) == 0) {
    if (file == RT_CACHE_ENTRY) cache_written(path);
    return true;
  }
  int err = errno;
  unlink(tmp);
  errno = err;
  return false;
}

bool rt_cache_write(const char *path, const void *data, size_t size, RtCacheFile file) {
  char tmp[4400];
  rt_cache_temp(tmp, sizeof tmp, path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, size, f) == size;
  int err = errno;
  if (fclose(f) != 0 && ok) ok = false, err = errno;
  if (ok) return rt_cache_publish(tmp, path, file);
  unlink(tmp);
  errno = err;
  return false;
}

void rt_cache_hit(const char *path) {
  cache_touch(path);
}

/* ---- seals ---- */

#define SEAL_MAGIC 0x314c414553514f21ull   /* "!OQSEAL1" */

typedef struct Seal { uint64_t magic, key, size, hash; } Seal;

/* The whole file at path (a NUL after it), *size its length; NULL if it cannot be read. */
static char *slurp(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *buf = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (buf = malloc((size_t)st.st_size + 1))) {
    size_t got = 0;
    while (got < (size_t)st.st_size) {
      ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
      if (r <= 0) break;
      got += (size_t)r;
    }
    buf[got] = 0;
    *size = got;
  }
  close(fd);
  return buf;
}

static Seal seal_of(const void *data, size_t size, uint64_t key) {
  return (Seal){SEAL_MAGIC, key, size, rt_hash(RT_HASH_SEED, data, size)};
}

bool rt_cache_seal(const char *path, uint64_t key) {
  size_t size = 0;
  char *data = slurp(path, &size);
  if (!data) return false;
  Seal s = seal_of(data, size, key);
  free(data);
  int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, &s, sizeof s) == (ssize_t)sizeof s;
  int err = errno;
  if (close(fd) != 0 && ok) ok = false, err = errno;
  errno = err;
  return ok;
}

/* Whether data[0..size) ends in the right seal for key. */
static bool sealed(const char *data, size_t size, uint64_t key) {
  if (size < sizeof(Seal)) return false;
  Seal got, want = seal_of(data, size - sizeof got, key);
  memcpy(&got, data + size - sizeof got, sizeof got);
  return !memcmp(&got, &want, sizeof got);
}

void *rt_cache_read_sealed(const char *path, uint64_t key, size_t *size, CacheCheck *check) {
  size_t n = 0;
  char *data = slurp(path, &n);
  if (!data) {
    *check = CACHE_MISSING;
    return NULL;
  }
  if (!sealed(data, n, key)) {
    free(data);
    unlink(path);   /* rebuilt by the caller; a good copy renamed here meanwhile costs a build */
    *check = CACHE_BAD;
    return NULL;
  }
  *size = n - sizeof(Seal);
  data[*size] = 0;
  *check = CACHE_GOOD;
  return data;
}

CacheCheck rt_cache_check(const char *path, uint64_t key) {
  size_t n;
  CacheCheck c;
  free(rt_cache_read_sealed(path, key, &n, &c));
  return c;
}

bool rt_cache_write_sealed(const char *path, const void *data, size_t size, uint64_t key) {
  Seal s = seal_of(data, size, key);
  char *buf = malloc(size + sizeof s);
  if (!buf) return false;
  memcpy(buf, data, size);
  memcpy(buf + size, &s, sizeof s);
  bool ok = rt_cache_write(path, buf, size + sizeof s, RT_CACHE_ENTRY);
  int err = errno;
  free(buf);
  errno = err;
  return ok;
}
