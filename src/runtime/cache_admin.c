/* cache_admin.c: the kernel cache's size, pruning and clearing (cache_admin.h). */
#include "runtime/cache_admin.h"
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/config.h"

typedef enum { F_OTHER, F_ENTRY, F_TEMP } FileKind;

typedef struct CacheFile {
  char name[256];
  size_t stem;              /* an entry's files share name[0..stem) */
  FileKind kind;
  long long bytes;
  time_t mtime;
} CacheFile;

/* An entry: files[first .. first + n) of the sorted list. */
typedef struct Entry {
  int first, n;
  long long bytes;
  time_t used;
} Entry;

typedef struct Listing {
  CacheFile *files;
  int nfiles;
  Entry *entries;
  int nentries;
} Listing;

static FileKind kind_of(const char *name) {
  if (!strncmp(name, "tmp_", 4) || strstr(name, ".tmp")) return F_TEMP;
  if (!strncmp(name, "oqk_", 4) || !strncmp(name, "oqcu_", 5)) return F_ENTRY;
  return F_OTHER;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const CacheFile *)a)->name, ((const CacheFile *)b)->name);
}

static int by_use(const void *a, const void *b) {
  time_t x = ((const Entry *)a)->used, y = ((const Entry *)b)->used;
  return (x > y) - (x < y);
}

/* The cache's own files, sorted by name (so an entry's files are adjacent). */
static bool list_files(const char *dir, Listing *L) {
  DIR *d = opendir(dir);
  if (!d) return false;
  int cap = 0;
  for (struct dirent *de; (de = readdir(d));) {
    FileKind kind = kind_of(de->d_name);
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    if (kind == F_OTHER || strlen(de->d_name) >= sizeof L->files->name ||
        lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (L->nfiles == cap) L->files = realloc(L->files, (cap = cap ? 2 * cap : 64) * sizeof *L->files);
    CacheFile *f = &L->files[L->nfiles++];
    snprintf(f->name, sizeof f->name, "%s", de->d_name);
    f->stem = strcspn(f->name, ".");
    f->kind = kind;
    f->bytes = (long long)st.st_size;
    f->mtime = st.st_mtime;
  }
  closedir(d);
  if (L->nfiles) qsort(L->files, L->nfiles, sizeof *L->files, by_name);   /* (an empty cache: no array) */
  return true;
}

static bool same_stem(const CacheFile *a, const CacheFile *b) {
  return a->stem == b->stem && !strncmp(a->name, b->name, a->stem);
}

/* Groups the entries' files (L->files sorted by name). */
static void group_entries(Listing *L) {
  L->entries = calloc(L->nfiles ? L->nfiles : 1, sizeof *L->entries);
  for (int i = 0; i < L->nfiles; i++) {
    CacheFile *f = &L->files[i];
    if (f->kind != F_ENTRY) continue;
    Entry *e = L->nentries ? &L->entries[L->nentries - 1] : NULL;
    if (!e || !same_stem(&L->files[e->first], f)) {
      e = &L->entries[L->nentries++];
      e->first = i;
    }
    e->n++;
    e->bytes += f->bytes;
    if (f->mtime > e->used) e->used = f->mtime;
  }
}

static bool load(const char *dir, Listing *L) {
  *L = (Listing){0};
  if (!list_files(dir, L)) return false;
  group_entries(L);
  return true;
}

static void unload(Listing *L) {
  free(L->files);
  free(L->entries);
}

static bool is_stale(const CacheFile *f, time_t now) {
  return f->kind == F_TEMP && now - f->mtime > CACHE_STALE_S;
}

static bool remove_file(const char *dir, const CacheFile *f) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, f->name);
  return unlink(path) == 0;
}

static void remove_entry(const char *dir, const Listing *L, const Entry *e, CacheRemoved *r) {
  for (int i = e->first; i < e->first + e->n; i++)
    if (remove_file(dir, &L->files[i])) r->bytes += L->files[i].bytes;
  r->entries++;
}

/* Removes the temporary files, all or only the stale ones. */
static void remove_temps(const char *dir, const Listing *L, bool all, CacheRemoved *r) {
  time_t now = time(NULL);
  for (int i = 0; i < L->nfiles; i++) {
    const CacheFile *f = &L->files[i];
    if (f->kind == F_TEMP && (all || is_stale(f, now)) && remove_file(dir, f)) {
      r->temps++;
      r->bytes += f->bytes;
    }
  }
}

bool cache_info(const char *dir, CacheInfo *info) {
  *info = (CacheInfo){0};
  Listing L;
  if (!load(dir, &L)) return false;
  time_t now = time(NULL);
  for (int i = 0; i < L.nentries; i++) {
    const Entry *e = &L.entries[i];
    if (!strncmp(L.files[e->first].name, "oqcu_", 5)) info->cuda++;
    else info->cpu++;
    info->bytes += e->bytes;
    if (!info->oldest || e->used < info->oldest) info->oldest = e->used;
    if (e->used > info->newest) info->newest = e->used;
  }
  for (int i = 0; i < L.nfiles; i++)
    if (L.files[i].kind == F_TEMP) {
      info->temps++;
      info->stale += is_stale(&L.files[i], now);
      info->temp_bytes += L.files[i].bytes;
    }
  unload(&L);
  return true;
}

CacheRemoved cache_clear(const char *dir) {
  CacheRemoved r = {0};
  Listing L;
  if (!load(dir, &L)) return r;
  for (int i = 0; i < L.nentries; i++) remove_entry(dir, &L, &L.entries[i], &r);
  remove_temps(dir, &L, true, &r);
  unload(&L);
  return r;
}

CacheRemoved cache_prune(const char *dir, long long max_bytes, const char *keep) {
  CacheRemoved r = {0};
  Listing L;
  if (!load(dir, &L)) return r;
  remove_temps(dir, &L, false, &r);
  long long total = 0;
  for (int i = 0; i < L.nentries; i++) total += L.entries[i].bytes;
  size_t keep_stem = keep ? strcspn(keep, ".") : 0;
  qsort(L.entries, L.nentries, sizeof *L.entries, by_use);
  for (int i = 0; i < L.nentries && max_bytes > 0 && total > max_bytes; i++) {
    const CacheFile *f = &L.files[L.entries[i].first];
    if (keep && f->stem == keep_stem && !strncmp(f->name, keep, keep_stem)) continue;
    remove_entry(dir, &L, &L.entries[i], &r);
    total -= L.entries[i].bytes;
  }
  unload(&L);
  return r;
}

void cache_touch(const char *path) {
  utimensat(AT_FDCWD, path, NULL, 0);   /* failing costs only the entry's place in the order */
}

void cache_written(const char *path) {
  char dir[PATH_MAX], stamp[PATH_MAX + 16];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash) return;
  *slash = 0;
  snprintf(stamp, sizeof stamp, "%s/prune.stamp", dir);
  struct stat st;
  if (stat(stamp, &st) == 0 && time(NULL) - st.st_mtime < CACHE_PRUNE_EVERY_S) return;
  int fd = open(stamp, O_WRONLY | O_CREAT, 0644);
  if (fd >= 0) close(fd);
  cache_touch(stamp);
  cache_prune(dir, config()->cache_max, slash + 1);
}
