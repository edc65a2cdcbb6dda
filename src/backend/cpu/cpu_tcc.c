/* cpu_tcc.c: the first build of a CPU kernel with TinyCC (cpu_tcc.h). The generated C
   (codegen/c/emit_c.c) is TinyCC's subset under `#ifdef __TINYC__`: the __atomic builtins
   as x86-64 code, and complex numbers (TinyCC has no _Complex) as structs in the source's
   TinyCC variant, whose quotients, powers and functions call the oq_tcc_* below: compiled
   by GCC like the C compiler's build of the kernel, they give its results. Math functions
   and the C library resolve against this process, which links them. The Makefile defines
   OQ_HAVE_LIBTCC and links libtcc.a when /usr/include/libtcc.h is present. */
#include "backend/cpu/cpu_tcc.h"
#include "runtime/value.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OQ_HAVE_LIBTCC
#include <complex.h>
#include <libtcc.h>
#include <math.h>
#include <stdint.h>

/* ---- complex numbers for TinyCC's builds ---- */

/* The kernels' oq_c128 under TinyCC: a double _Complex's layout. Passed by pointer, so no
   struct is passed by value across the two compilers. */
typedef struct TccC128 {
  double re, im;
} TccC128;

static double _Complex tcc_z(const TccC128 *a) { return CMPLX(a->re, a->im); }

static void tcc_put(TccC128 *r, double _Complex z) {
  r->re = creal(z);
  r->im = cimag(z);
}

/* The product's Annex G recovery (the kernel computed the formula: both parts were NaN). */
static void tcc_cmul(TccC128 *r, const TccC128 *a, const TccC128 *b) { tcc_put(r, tcc_z(a) * tcc_z(b)); }
static void tcc_cdiv(TccC128 *r, const TccC128 *a, const TccC128 *b) { tcc_put(r, tcc_z(a) / tcc_z(b)); }

/* emit_c.c's oq_cpow: the runtime's rule (integer exponents by squaring, others cpow) */
static void tcc_cpow(TccC128 *r, const TccC128 *a, const TccC128 *b) { tcc_put(r, rt_cpow(tcc_z(a), tcc_z(b))); }

#define TCC_FN1(f) \
  static void tcc_##f(TccC128 *r, const TccC128 *a) { tcc_put(r, f(tcc_z(a))); }
TCC_FN1(cexp) TCC_FN1(clog) TCC_FN1(csin) TCC_FN1(ccos) TCC_FN1(ctan)
TCC_FN1(csinh) TCC_FN1(ccosh) TCC_FN1(ctanh) TCC_FN1(csqrt)
static double tcc_carg(const TccC128 *a) { return carg(tcc_z(a)); }

/* The names the TinyCC source declares (emit_c.c, helpers_c_tcc_cplx). */
static void tcc_add_complex(TCCState *s) {
  static const struct {
    const char *name;
    const void *fn;
  } fns[] = {
    {"oq_tcc_cmul", (const void *)tcc_cmul},   {"oq_tcc_div", (const void *)tcc_cdiv},
    {"oq_tcc_pow", (const void *)tcc_cpow},    {"oq_tcc_cexp", (const void *)tcc_cexp},
    {"oq_tcc_clog", (const void *)tcc_clog},   {"oq_tcc_csin", (const void *)tcc_csin},
    {"oq_tcc_ccos", (const void *)tcc_ccos},   {"oq_tcc_ctan", (const void *)tcc_ctan},
    {"oq_tcc_csinh", (const void *)tcc_csinh}, {"oq_tcc_ccosh", (const void *)tcc_ccosh},
    {"oq_tcc_ctanh", (const void *)tcc_ctanh}, {"oq_tcc_csqrt", (const void *)tcc_csqrt},
    {"oq_tcc_carg", (const void *)tcc_carg},
  };
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) tcc_add_symbol(s, fns[i].name, fns[i].fn);
}

/* ---- builds ---- */

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
  if (tcc_compile_string(s, src) < 0) {
    tcc_delete(s);
    free(t);
    return NULL;
  }
  tcc_add_complex(s);
  if (tcc_relocate(s, TCC_RELOCATE_AUTO) < 0) {
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
