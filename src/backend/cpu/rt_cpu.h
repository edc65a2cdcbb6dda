/* rt_cpu.h: the multi-core CPU back end as the kernel launcher (interp_kernel.c) sees it.
   A launch is specialized on its argument types (kernel_sema.c), translated to C
   (emit_c.c), compiled by the system C compiler into a shared object that is cached on disk,
   loaded with dlopen, and run on all cores. */
#ifndef OQ_RT_CPU_H
#define OQ_RT_CPU_H
#include "backend/launch.h"

/* Runs the launch compiled. Returns false when the kernel is not supported by compiled code
   (nothing has run; the caller runs the interpreter). On true, *result holds the kernel
   outputs (as parallel_do returns them). Run-time errors of compiled code, and a failing C
   compiler, are reported with rt_error. */
bool cpu_launch(const KLaunch *c, Value *result);

/* Time spent by a launch that ran in the interpreter (for --profile). */
void cpu_note_interp(const KLaunch *c, double ms);


#endif
