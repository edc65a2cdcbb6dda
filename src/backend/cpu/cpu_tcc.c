/* cpu_tcc.c: the first build of a CPU kernel with TinyCC (cpu_tcc.h). The generated C
   (codegen/c/emit_c.c) is TinyCC's subset under `#ifdef __TINYC__`: no complex numbers (a
   kernel that has them fails here and goes to the C compiler), the __atomic builtins as
   x86-64 code. Math functions and the C library resolve against this process, which links
   them. The Makefile defines OQ_HAVE_LIBTCC and links libtcc.a when /usr/include/libtcc.h
   is present. */
#include "backend/cpu/cpu_tcc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OQ_HAVE_LIBTCC
#include <libtcc.h>

struct CpuTcc {
  TCCState *s;
  int holders;              /* the specializations that run it (cpu_tcc_share) */
};

typedef struct TccErr {
  char *why;
  size_t n;
} TccErr;

/* Keeps the first message (warnings are off: -w). */
static void tcc_err(void *opaque, const char *msg) {
  TccErr *e = opaque;
  if (e->n && !e->why[0]) snprintf(e->why, e->n, "%s", msg);
}

bool cpu_tcc_available(void) { return true; }

/* TinyCC crashes when its own allocations fail (a memory limit: ulimit -v): it runs only
   with this much room, else the C compiler builds the kernel (and says what failed). */
#define TCC_ROOM ((size_t)16 << 20)

CpuTcc *cpu_tcc_build(const char *src, char *why, size_t n) {
  TccErr err = {why, n};
  if (n) why[0] = 0;
  void *room = malloc(TCC_ROOM);
  if (!room) {
    if (n) snprintf(why, n, "too little memory left for TinyCC");
    return NULL;
  }
  free(room);
  CpuTcc *t = malloc(sizeof *t);
  if (!t) return NULL;
  TCCState *s = tcc_new();
  if (!s) {
    free(t);
    return NULL;
  }
  tcc_set_error_func(s, &err, tcc_err);
  /* C11: glibc's headers declare aligned_alloc for it */
  tcc_set_options(s, "-std=c11 -w");
  tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
  if (tcc_compile_string(s, src) < 0 || tcc_relocate(s, TCC_RELOCATE_AUTO) < 0) {
    tcc_delete(s);
    free(t);
    return NULL;
  }
  t->s = s;
  t->holders = 1;
  return t;
}

void *cpu_tcc_sym(CpuTcc *t, const char *name) { return tcc_get_symbol(t->s, name); }

CpuTcc *cpu_tcc_share(CpuTcc *t) {
  if (t) t->holders++;
  return t;
}

void cpu_tcc_free(CpuTcc *t) {
  if (!t || --t->holders > 0) return;
  tcc_delete(t->s);
  free(t);
}

#else

bool cpu_tcc_available(void) { return false; }

CpuTcc *cpu_tcc_build(const char *src, char *why, size_t n) {
  (void)src;
  if (n) snprintf(why, n, "built without TinyCC (libtcc-dev)");
  return NULL;
}

void *cpu_tcc_sym(CpuTcc *t, const char *name) {
  (void)t;
  (void)name;
  return NULL;
}

CpuTcc *cpu_tcc_share(CpuTcc *t) { return t; }

void cpu_tcc_free(CpuTcc *t) { (void)t; }

#endif
