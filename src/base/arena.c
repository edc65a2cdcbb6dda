/* arena.c: bump allocator; everything is freed at once. */
#include "base/arena.h"
#include "base/diag.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaChunk { ArenaChunk *next; size_t used, cap; _Alignas(16) unsigned char data[]; };

/* size bytes of the current chunk (a new one when it is full), not cleared */
static void *arena_take(Arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  ArenaChunk *c = a->head;
  if (!c || c->used + size > c->cap) {
    size_t cap = size > 65536 ? size : 65536;
    c = malloc(sizeof *c + cap);
    if (!c) rt_error((SrcLoc){0}, "out of memory");   /* at run time: the statement's place */
    c->next = a->head; c->used = 0; c->cap = cap;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += size;
  return p;
}

void *arena_alloc(Arena *a, size_t size) { return memset(arena_take(a, size), 0, size); }

void *arena_copy(Arena *a, const void *src, size_t size) { return memcpy(arena_take(a, size), src, size); }

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void arena_free(Arena *a) {
  for (ArenaChunk *c = a->head, *next; c; c = next) { next = c->next; free(c); }
  a->head = NULL;
}
