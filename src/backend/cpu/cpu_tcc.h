/* cpu_tcc.h: a kernel's first build, in this process, with TinyCC (libtcc): a few
   milliseconds where the C compiler takes a few tenths of a second. rt_cpu.c runs the
   kernel from it while the C compiler's optimized build is made in the background. Built
   without libtcc (its header absent when make ran), cpu_tcc_build always returns NULL. */
#ifndef OQ_CPU_TCC_H
#define OQ_CPU_TCC_H
#include <stdbool.h>
#include <stddef.h>

typedef struct CpuTcc CpuTcc;

/* Whether this build has TinyCC. */
bool cpu_tcc_available(void);
/* Compiles and links C source src in memory; NULL when TinyCC cannot (its first error,
   when there is one, is copied into why[n]). The code stays valid until cpu_tcc_free. */
CpuTcc *cpu_tcc_build(const char *src, char *why, size_t n);
/* The address of a global symbol of the build, or NULL. */
void *cpu_tcc_sym(CpuTcc *t, const char *name);
/* One more holder of t (identical kernels share one build); cpu_tcc_free drops one, the
   last frees it. Returns t. */
CpuTcc *cpu_tcc_share(CpuTcc *t);
void cpu_tcc_free(CpuTcc *t);

#endif
