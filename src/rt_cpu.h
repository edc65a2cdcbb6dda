/* rt_cpu.h: the multi-core CPU back end as the kernel launcher (interp_kernel.c) sees it.
   A launch is specialized on its argument types (kernel_sema.c), translated to C
   (emit_c.c), compiled by the system C compiler into a shared object that is cached on disk,
   loaded with dlopen, and run on all cores. */
#ifndef OQ_RT_CPU_H
#define OQ_RT_CPU_H
#include "interp_priv.h"
#include "kernel_ir.h"
#include "oqk_abi.h"

/* What the launcher knows once the launch size and arguments are bound. */
typedef struct CpuLaunch {
  const InterpOptions *opt;
  Node *site;               /* the parallel_do call */
  Callable *kernel;
  int D;
  const int64_t *dims, *blk, *cnt;
  Value *args;              /* converted arguments by parameter index (V_NONE: special) */
  bool explicit_blk;        /* parallel_do([dims, blkdims], ...): the block size was given */
} CpuLaunch;

/* Runs the launch compiled. Returns false when the kernel is not supported by compiled code
   (nothing has run; the caller runs the interpreter). On true, *result holds the kernel
   outputs (as parallel_do returns them). Run-time errors of compiled code, and a failing C
   compiler, are reported with rt_error. */
bool cpu_launch(const CpuLaunch *c, Value *result);

/* Time spent by a launch that ran in the interpreter (for --profile). */
void cpu_note_interp(const CpuLaunch *c, double ms);

/* Shared with the CUDA launcher (rt_gpu.c): an argument as generated code reads it; the
   identity and combination of kernel outputs (op: FuncInfo.out_op's OP_ADD, OP_MUL, OP_MAX or
   OP_MIN; OP_NONE adds); the message of an error compiled code set. */
void cpu_fill_arg(OqkArg *a, Value v);
double cpu_identity_r(Op op);
int64_t cpu_identity_i(Op op);
double cpu_combine_r(Op op, double a, double b);
int64_t cpu_combine_i(Op op, int64_t a, int64_t b);
_Noreturn void cpu_report(const KSite *sites, int nsites, const char *name, const OqkLaunch *L, SrcLoc at);

#endif
