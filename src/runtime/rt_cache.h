/* rt_cache.h: the on-disk cache of compiled kernels (C shared objects, CUDA cubins). */
#ifndef OQ_RT_CACHE_H
#define OQ_RT_CACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* $OQ_CACHE_DIR, else ~/.cache/openquasar, created with its parents; the result is valid
   until the next call. */
const char *rt_cache_dir(void);

/* FNV-1a over n bytes, continuing from h (start with RT_HASH_SEED). */
#define RT_HASH_SEED 0xcbf29ce484222325ull
uint64_t rt_hash(uint64_t h, const void *p, size_t n);
/* rt_hash over generated kernel source less its comments (the kernel's name, source
   lines): identical kernels written twice share one cache entry (the entry point is
   oqk_entry in every kernel, whatever its name). */
uint64_t rt_hash_code(uint64_t h, const char *src);

/* Writing an entry: a new file is written under a temporary name in the cache folder and
   renamed into place, so that a reader (another process, too) sees the whole file or none.
   rt_cache_write does it all for bytes in memory; a file that a command produces (the C
   compiler's shared object) goes to an rt_cache_temp name, then rt_cache_publish. */

/* The temporary name for the entry that will be `path`: ".tmp<pid>_<n>" before the file
   name's extension (oqk_1f.so: oqk_1f.tmp812_3.so, so a compiler still sees the kind of
   file), unique to this process and call. */
void rt_cache_temp(char *buf, size_t n, const char *path);
/* Renames the finished temporary tmp to path; on failure removes tmp, returns false and
   leaves errno set. */
bool rt_cache_publish(const char *tmp, const char *path);
/* Makes the entry path hold the size bytes at data; false (errno set) when it could not,
   with nothing left behind. */
bool rt_cache_write(const char *path, const void *data, size_t size);

#endif
