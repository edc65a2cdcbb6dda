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
   compiler's shared object) goes to an rt_cache_temp name, then rt_cache_publish. The
   file that completes an entry (RT_CACHE_ENTRY) keeps the cache in bounds: the writer
   prunes it (cache_admin.h, cache_written; it leaves prune.stamp in the folder). */

/* What a written file is: the file that completes an entry (the shared object, the CUDA
   image), or a part written before it (the C source the compiler reads: the entry's
   object, not there yet, would not be counted by a prune). */
typedef enum RtCacheFile { RT_CACHE_ENTRY, RT_CACHE_PART } RtCacheFile;

/* The temporary name for the entry that will be `path`: ".tmp<pid>_<n>" before the file
   name's extension (oqk_1f.so: oqk_1f.tmp812_3.so, so a compiler still sees the kind of
   file), unique to this process and call. */
void rt_cache_temp(char *buf, size_t n, const char *path);
/* Renames the finished temporary tmp to path, a file of the kind `file`; on failure removes
   tmp, returns false and leaves errno set. */
bool rt_cache_publish(const char *tmp, const char *path, RtCacheFile file);
/* Makes the file path hold the size bytes at data; false (errno set) when it could not,
   with nothing left behind. */
bool rt_cache_write(const char *path, const void *data, size_t size, RtCacheFile file);
/* A reader found the entry's file path and uses it: marks the entry used now, its place in
   the least-recently-used order (cache_admin.h). */
void rt_cache_hit(const char *path);

/* Sealed entries. A file the program loads (a C kernel's shared object, a CUDA image) ends
   in a seal of RT_CACHE_SEAL_BYTES: a magic word, the key the entry's name was made from,
   and the size and hash of the bytes before it. A reader checks the seal before it uses the
   file, so that a truncated file (a full disk, a crash of another machine sharing the
   folder), a flipped byte or another entry's file under this name is never loaded: such an
   entry is removed and built again. (ELF loaders ignore bytes after the last section.) */
#define RT_CACHE_SEAL_BYTES 32
typedef enum { CACHE_MISSING, CACHE_GOOD, CACHE_BAD } CacheCheck;

/* Appends the seal for key to the finished file at path (a temporary, before
   rt_cache_publish); false (errno set) on failure. */
bool rt_cache_seal(const char *path, uint64_t key);
/* Whether the entry at path is there and sealed for key; a bad one is removed. */
CacheCheck rt_cache_check(const char *path, uint64_t key);
/* rt_cache_write of the size bytes at data followed by their seal. */
bool rt_cache_write_sealed(const char *path, const void *data, size_t size, uint64_t key);
/* The bytes of a sealed entry (without its seal, a NUL after them), *size set; NULL when the
   entry is missing or bad (removed). The caller frees the result. */
void *rt_cache_read_sealed(const char *path, uint64_t key, size_t *size, CacheCheck *check);

#endif
