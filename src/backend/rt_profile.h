/* rt_profile.h: the `oq run --profile` table (rt_profile.c). One row per kernel and back
   end that ran it: launches, run time (host clock on the CPU and in the interpreter, device
   events on the GPU), compile time and cache hits, bytes moved between host and device.
   The launchers (rt_cpu.c, rt_gpu.c, interp_kernel.c) and the device memory manager
   (rt_devmem.c) call these; they cost a few additions when --profile is off. */
#ifndef OQ_RT_PROFILE_H
#define OQ_RT_PROFILE_H
#include <stdio.h>
#include "base/options.h"
#include "runtime/callable.h"

typedef struct ProfRow ProfRow;

void prof_enable(bool on);               /* --profile: also count the bytes of each transfer */

ProfRow *prof_row(Callable *kernel, const char *backend);   /* "cpu", "cuda", "interp" */
void prof_launch(ProfRow *r, double ms);                     /* one launch of ms (host clock) */
void prof_compile(ProfRow *r, double ms, bool cached);       /* one specialization */
void prof_note(ProfRow *r, const char *why);                 /* why it ran here (first one kept) */
void prof_xforms(ProfRow *r, const char *xforms);            /* the transforms it got (KSpec.xforms) */
bool prof_told(ProfRow *r);                                  /* --verbose said it already; marks it */

void prof_add_time(ProfRow *r, double ms);                   /* device time (rt_gpu.c's events) */

/* Transfers, attributed to the current row: the launch that uploads its arguments, or for
   a download (a host read after kernels wrote), the last launch. */
void prof_set_current(ProfRow *r);
void prof_bytes(size_t up, size_t down);

/* A compile that may take long: "compiling kernel NAME (BACKEND)..." on stderr when it is a
   terminal, erased by prof_progress_done. */
void prof_progress(const char *kernel, const char *backend);
void prof_progress_done(void);

/* A host array operation the runtime ran (an operator, a built-in, a slice) at loc, of ms,
   on arrays of up to `elements` elements: listed by --profile, with their total. */
bool prof_on(void);
void prof_in_oracle(bool on);   /* while the interpreter runs a kernel (not host operations) */
void prof_host_op(const char *what, SrcLoc loc, double ms, int64_t elements);

/* The kernel table (short: rows of at most 100 columns; wide: every column, whole notes),
   the host operations and a total line; or all of it as one JSON object. */
void prof_report(FILE *out, ProfileFormat format);

double rt_now_ms(void);   /* the monotonic clock in ms: tic/toc, launch and compile times */

#endif
