/* arena.h: bump allocator for the AST and other data that lives as long as the program. */
#ifndef OQ_ARENA_H
#define OQ_ARENA_H
#include <stddef.h>

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena { ArenaChunk *head; } Arena;

void *arena_alloc(Arena *a, size_t size);            /* zeroed, 16-byte aligned */
void *arena_copy(Arena *a, const void *src, size_t size);   /* a copy of size bytes, aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
void arena_free(Arena *a);

#endif
