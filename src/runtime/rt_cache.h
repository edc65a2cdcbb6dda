/* rt_cache.h: the on-disk cache of compiled kernels (C shared objects, CUDA cubins). */
#ifndef OQ_RT_CACHE_H
#define OQ_RT_CACHE_H
#include <stddef.h>
#include <stdint.h>

/* $OQ_CACHE_DIR, else ~/.cache/openquasar, created with its parents; the result is valid
   until the next call. */
const char *rt_cache_dir(void);

/* FNV-1a over n bytes, continuing from h (start with RT_HASH_SEED). */
#define RT_HASH_SEED 0xcbf29ce484222325ull
uint64_t rt_hash(uint64_t h, const void *p, size_t n);

#endif
