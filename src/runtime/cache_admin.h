/* cache_admin.h: keeping the kernel cache (rt_cache.h) in bounds: what it holds, removing
   its least recently used entries past a size limit, stale temporary files, all of it.

   The files of the cache folder, by name (the writers: backend/cpu/rt_cpu.c build,
   device/rt_nvrtc.c cuda_compile):
     oqk_<hash>.so, oqk_<hash>.c      a C kernel and its source: one entry
     oqcu_<hash>.cubin | .ptx         a CUDA image: one entry
     tmp_*, *.tmp<pid>                a file being written; stale after CACHE_STALE_S
     prune.stamp                      when the cache was last pruned on a write
   Every other file is left alone (OQ_CACHE_DIR may name a folder that holds other things).
   An entry's last use is the newest modification time of its files: a cache hit touches
   the file it loads (rt_cache_hit, cache_touch). The writers and readers of entries call
   only rt_cache.h; its writer calls cache_written, its rt_cache_hit cache_touch. */
#ifndef OQ_CACHE_ADMIN_H
#define OQ_CACHE_ADMIN_H
#include <stdbool.h>
#include <time.h>

/* A temporary file this old is left over from a process that died while compiling. */
#define CACHE_STALE_S 900
/* A write prunes the cache when it was last pruned this long ago (or never): a stat per
   kernel compiled, a scan of the folder at most this often. */
#define CACHE_PRUNE_EVERY_S 600

typedef struct CacheInfo {
  int cpu, cuda;            /* entries: C kernels, CUDA images */
  long long bytes;          /* the entries' size */
  time_t oldest, newest;    /* last use of the least and the most recently used entry; 0: none */
  int temps, stale;         /* temporary files, of which stale */
  long long temp_bytes;
} CacheInfo;

typedef struct CacheRemoved {
  int entries, temps;       /* entries and temporary files removed */
  long long bytes;          /* their size */
} CacheRemoved;

/* What the cache in dir holds; false when dir cannot be read (a cache not made yet). */
bool cache_info(const char *dir, CacheInfo *info);
/* Removes every entry and temporary file. */
CacheRemoved cache_clear(const char *dir);
/* Removes stale temporary files, then the least recently used entries until the entries
   take at most max_bytes (0: no limit), never the entry named keep (a file name; NULL:
   none). */
CacheRemoved cache_prune(const char *dir, long long max_bytes, const char *keep);

/* Marks the entry of the file at path as used now. */
void cache_touch(const char *path);
/* Called by rt_cache.c after the file that completes an entry was written at path: prunes the cache to
   config()->cache_max, keeping this entry, unless it was pruned in the last
   CACHE_PRUNE_EVERY_S seconds. */
void cache_written(const char *path);

#endif
